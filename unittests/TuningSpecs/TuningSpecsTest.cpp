//===- TuningSpecsTest.cpp - Default specs and the spec linker ------------===//
//
// Tests the choice of the default spec for a CPU, that every embedded spec
// loads, and the C++ API of the linker: precedence order, renaming, the
// source recorded on each sequence.
//
//===----------------------------------------------------------------------===//

#include "kiln/TuningSpecs/TuningSpecs.h"
#include "kiln/Dialect/Kiln/IR/KilnDialect.h"
#include "kiln/TuningSpecs/DefaultSpecs.h"
#include "kiln/TuningSpecs/TransformOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace kiln;

namespace {

std::string chosen(llvm::StringRef cpu, llvm::StringRef features = "") {
  std::string why;
  return selectDefaultTuningSpec(cpu, features, why).name;
}

TEST(DefaultTuningSpecs, ChosenByCpuFamilyFeaturesThenGeneric) {
  EXPECT_EQ(chosen("znver5"), "znver5");
  EXPECT_EQ(chosen("znver4"), "znver4");
  EXPECT_EQ(chosen("sapphirerapids"), "sapphirerapids");
  EXPECT_EQ(chosen("graniterapids"), "sapphirerapids");
  EXPECT_EQ(chosen("skylake-avx512"), "sapphirerapids");
  EXPECT_EQ(chosen("alderlake"), "haswell");
  EXPECT_EQ(chosen("znver2"), "haswell");
  EXPECT_EQ(chosen("some-future-cpu", "+sse2,+avx2,+avx512f"),
            "sapphirerapids");
  EXPECT_EQ(chosen("some-future-cpu", "+sse2,+avx2"), "haswell");
  EXPECT_EQ(chosen("core2", "+sse2"), "x86-64");
  EXPECT_EQ(chosen(""), "x86-64");
  std::string why;
  selectDefaultTuningSpec("icelake-server", "", why);
  EXPECT_EQ(why, "the family of 'icelake-server'");
}

class TuningSpecsTest : public ::testing::Test {
protected:
  TuningSpecsTest() {
    DialectRegistry registry;
    registry.insert<KilnDialect, transform::TransformDialect,
                    linalg::LinalgDialect>();
    registerTransformExtension(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  OwningOpRef<ModuleOp> spec(llvm::StringRef entry, llvm::StringRef config) {
    std::string text =
        "module attributes {transform.with_named_sequence, "
        "kiln.tuning_spec_version = 1 : i64} {\n"
        "  transform.named_sequence @set(%op: !transform.any_op "
        "{transform.readonly}) {\n"
        "    transform.kiln.set_lowering_config %op "
        "(#kiln.lowering_config<pipeline = \"" +
        config.str() +
        "\">) : !transform.any_op\n"
        "    transform.yield\n  }\n"
        "  transform.named_sequence @m(%op: !transform.any_op "
        "{transform.readonly}) -> !transform.any_op {\n"
        "    transform.kiln.match.contraction %op : !transform.any_op\n"
        "    transform.yield %op : !transform.any_op\n  }\n"
        "  transform.named_sequence @" +
        entry.str() +
        "(%root: !transform.any_op {transform.consumed}) -> "
        "!transform.any_op attributes {kiln.tuning_spec_entrypoint} {\n"
        "    %r = transform.foreach_match in %root @m -> @set : "
        "(!transform.any_op) -> !transform.any_op\n"
        "    transform.yield %r : !transform.any_op\n  }\n}\n";
    return loadTuningSpec(&context, "test.mlir", text);
  }

  MLIRContext context;
};

TEST_F(TuningSpecsTest, EveryEmbeddedDefaultLoads) {
  ASSERT_GE(getEmbeddedTuningSpecs().size(), 5u);
  for (const EmbeddedTuningSpec &embedded : getEmbeddedTuningSpecs()) {
    OwningOpRef<ModuleOp> loaded =
        loadTuningSpec(&context, embedded.path, embedded.getBytecode());
    EXPECT_TRUE(loaded) << embedded.name;
  }
}

TEST_F(TuningSpecsTest, LinkKeepsOrderRenamesAndRecordsSources) {
  std::vector<TuningSpecInput> inputs;
  inputs.push_back({"first", spec("tune", "a")});
  inputs.push_back({"second", spec("tune", "b")});
  ASSERT_TRUE(inputs[0].spec && inputs[1].spec);
  FailureOr<OwningOpRef<ModuleOp>> library =
      linkTuningSpecs(&context, std::move(inputs));
  ASSERT_TRUE(succeeded(library));
  ModuleOp linked = **library;
  FailureOr<transform::NamedSequenceOp> entry = verifyTuningSpec(linked);
  ASSERT_TRUE(succeeded(entry));
  EXPECT_EQ(entry->getSymName(), getLinkedEntryPointName());

  // The second spec's symbols were renamed; each says where it came from.
  auto lookup = [&](llvm::StringRef name) {
    return linked.lookupSymbol<transform::NamedSequenceOp>(name);
  };
  for (auto [name, source] :
       {std::pair<llvm::StringRef, llvm::StringRef>{"tune", "first"},
        {"set", "first"},
        {"tune_1", "second"},
        {"set_1", "second"},
        {"m_1", "second"}}) {
    transform::NamedSequenceOp sequence = lookup(name);
    ASSERT_TRUE(sequence) << name.str();
    EXPECT_EQ(sequence
                  ->getAttrOfType<StringAttr>(
                      KilnDialect::getTuningSpecSourceAttrName())
                  .getValue(),
              source);
  }
  // The entry includes the first spec's entry, then the second's.
  SmallVector<StringRef> included;
  entry->walk([&](transform::IncludeOp include) {
    included.push_back(include.getTarget().getLeafReference().getValue());
  });
  EXPECT_EQ(included, (SmallVector<StringRef>{"tune", "tune_1"}));
}

TEST_F(TuningSpecsTest, BrokenSpecsAreRefused) {
  std::string errors;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    errors += diag.str() + "\n";
    return success();
  });
  EXPECT_FALSE(loadTuningSpec(&context, "empty.mlir",
                              "module attributes "
                              "{transform.with_named_sequence} {}"));
  EXPECT_NE(errors.find("has no 'kiln.tuning_spec_version'"), std::string::npos)
      << errors;
  errors.clear();
  EXPECT_FALSE(loadTuningSpec(&context, "/no/such/spec.mlir"));
  EXPECT_NE(errors.find("cannot read tuning spec '/no/such/spec.mlir'"),
            std::string::npos)
      << errors;
}

} // namespace
