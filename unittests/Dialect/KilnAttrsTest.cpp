//===- KilnAttrsTest.cpp - The C++ API of Kiln's attributes ---------------===//
//
// Tests the accessors and checks codegen and configuration rely on.
//
//===----------------------------------------------------------------------===//

#include "kiln/Dialect/Kiln/IR/KilnAttrs.h"
#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

using namespace kiln;
using namespace mlir;

namespace {

class KilnAttrsTest : public ::testing::Test {
protected:
  KilnAttrsTest() { context.loadDialect<KilnDialect>(); }
  MLIRContext context;
};

TEST_F(KilnAttrsTest, ParsesWhatItPrints) {
  auto parsed = parseAttribute(
      "#kiln.lowering_config<register = [8, 32, 1], pipeline = \"cpu-x\", "
      "workgroup = [64, 256, 0]>",
      &context);
  auto config = dyn_cast_or_null<LoweringConfigAttr>(parsed);
  ASSERT_TRUE(config);
  EXPECT_EQ(config.getPipeline().getValue(), "cpu-x");
  EXPECT_EQ(config.getWorkgroupTile(), ArrayRef<int64_t>({64, 256, 0}));
  EXPECT_TRUE(config.getCacheTile().empty());
  std::string printed;
  llvm::raw_string_ostream os(printed);
  os << Attribute(config);
  EXPECT_EQ(printed, "#kiln.lowering_config<pipeline = \"cpu-x\", workgroup "
                     "= [64, 256, 0], register = [8, 32, 1]>");
  EXPECT_EQ(parseAttribute(printed, &context), config);
}

TEST_F(KilnAttrsTest, VectorSizesDefaultToTheRegisterTile) {
  Builder b(&context);
  auto config = LoweringConfigAttr::get(&context, b.getStringAttr("p"), {}, {},
                                        {8, 32, 1}, {});
  EXPECT_EQ(config.getEffectiveVectorSizes(), ArrayRef<int64_t>({8, 32, 1}));
  auto explicitSizes = LoweringConfigAttr::get(&context, b.getStringAttr("p"),
                                               {}, {}, {8, 32, 1}, {4, 16, 1});
  EXPECT_EQ(explicitSizes.getEffectiveVectorSizes(),
            ArrayRef<int64_t>({4, 16, 1}));
}

TEST_F(KilnAttrsTest, LoopCountMismatchIsReported) {
  Builder b(&context);
  auto config = LoweringConfigAttr::get(&context, b.getStringAttr("p"),
                                        {64, 64, 0}, {}, {}, {});
  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    message = diag.str();
    return success();
  });
  auto emit = [&] { return emitError(UnknownLoc::get(&context)); };
  EXPECT_TRUE(succeeded(config.verifyForLoopCount(emit, 3)));
  EXPECT_TRUE(message.empty());
  EXPECT_TRUE(failed(config.verifyForLoopCount(emit, 2)));
  EXPECT_EQ(message,
            "lowering config 'workgroup' has 3 sizes but the op has 2 loops");
}

TEST_F(KilnAttrsTest, TargetConfigurationGetters) {
  auto parsed = parseAttribute(
      "#kiln.target<\"llvm-cpu\", {cpu = \"znver5\", cpu_features = "
      "\"+avx512f\"}>",
      &context);
  auto target = dyn_cast_or_null<TargetAttr>(parsed);
  ASSERT_TRUE(target);
  EXPECT_EQ(target.getBackend().getValue(), "llvm-cpu");
  EXPECT_EQ(target.getCPU(), "znver5");
  EXPECT_EQ(target.getCPUFeatures(), "+avx512f");
  EXPECT_EQ(target.getTriple(), "");
}

} // namespace
