//===- TargetBackendTest.cpp - Target registry and CPU resolution ---------===//
//
// Tests the registry of target backends and how the llvm-cpu backend
// resolves CPU names and feature edits.
//
//===----------------------------------------------------------------------===//

#include "kiln/Target/TargetBackend.h"
#include "kiln/Dialect/Kiln/IR/KilnDialect.h"
#include "kiln/Dialect/Kiln/IR/SessionState.h"
#include "kiln/Target/LLVMCPU/LLVMCPUTarget.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "gtest/gtest.h"

using namespace kiln;

namespace {

llvm::StringSet<> featureSet(llvm::StringRef features) {
  llvm::SmallVector<llvm::StringRef> items;
  features.split(items, ',', -1, /*KeepEmpty=*/false);
  llvm::StringSet<> set;
  for (llvm::StringRef item : items)
    set.insert(item);
  return set;
}

std::string errorText(llvm::Error err) {
  return llvm::toString(std::move(err));
}

void registerLLVMCPUOnce() {
  static bool done = [] {
    llvm::cantFail(TargetRegistry::getBuiltin().registerBackend(
        createLLVMCPUTargetBackend()));
    return true;
  }();
  (void)done;
}

TEST(LLVMCPUTarget, NamedCPUHasItsFeatures) {
  auto cpu = resolveCPU("znver4", "");
  ASSERT_TRUE(static_cast<bool>(cpu)) << errorText(cpu.takeError());
  EXPECT_EQ(cpu->cpu, "znver4");
  EXPECT_EQ(cpu->triple, "x86_64-unknown-linux-gnu");
  llvm::StringSet<> features = featureSet(cpu->features);
  EXPECT_TRUE(features.contains("+avx512f"));
  EXPECT_TRUE(features.contains("+avx2"));
}

TEST(LLVMCPUTarget, AVX2OnlyCPUHasNoAVX512) {
  auto cpu = resolveCPU("x86-64-v3", "");
  ASSERT_TRUE(static_cast<bool>(cpu)) << errorText(cpu.takeError());
  llvm::StringSet<> features = featureSet(cpu->features);
  EXPECT_TRUE(features.contains("+avx2"));
  EXPECT_TRUE(features.contains("+fma"));
  EXPECT_FALSE(features.contains("+avx512f"));
}

TEST(LLVMCPUTarget, FeatureEditsAddAndRemove) {
  auto cpu = resolveCPU("x86-64-v3", "+avx512f, -fma");
  ASSERT_TRUE(static_cast<bool>(cpu)) << errorText(cpu.takeError());
  llvm::StringSet<> features = featureSet(cpu->features);
  EXPECT_TRUE(features.contains("+avx512f"));
  EXPECT_FALSE(features.contains("+fma"));
  EXPECT_TRUE(features.contains("+avx2"));
}

TEST(LLVMCPUTarget, HostIsDetected) {
  auto cpu = resolveCPU("host", "");
  ASSERT_TRUE(static_cast<bool>(cpu)) << errorText(cpu.takeError());
  EXPECT_NE(cpu->cpu, "host");
  EXPECT_FALSE(cpu->cpu.empty());
  EXPECT_TRUE(featureSet(cpu->features).contains("+sse2"));
}

TEST(LLVMCPUTarget, UnknownCPUIsAnError) {
  auto cpu = resolveCPU("nosuchcpu", "");
  ASSERT_FALSE(static_cast<bool>(cpu));
  std::string message = errorText(cpu.takeError());
  EXPECT_NE(message.find("unknown CPU 'nosuchcpu'"), std::string::npos)
      << message;
}

TEST(LLVMCPUTarget, MalformedFeatureIsAnError) {
  auto cpu = resolveCPU("znver4", "avx2");
  ASSERT_FALSE(static_cast<bool>(cpu));
  std::string message = errorText(cpu.takeError());
  EXPECT_NE(message.find("malformed CPU feature 'avx2'"), std::string::npos)
      << message;
}

TEST(LLVMCPUTarget, UnknownFeatureIsAnError) {
  auto cpu = resolveCPU("znver4", "+warp-drive");
  ASSERT_FALSE(static_cast<bool>(cpu));
  std::string message = errorText(cpu.takeError());
  EXPECT_NE(message.find("unknown x86-64 CPU feature 'warp-drive'"),
            std::string::npos)
      << message;
}

TEST(TargetRegistry, UnknownBackendListsKnownOnes) {
  registerLLVMCPUOnce();
  auto backend = TargetRegistry::getBuiltin().lookup("gpu");
  ASSERT_FALSE(static_cast<bool>(backend));
  std::string message = errorText(backend.takeError());
  EXPECT_NE(message.find("unknown target backend 'gpu'"), std::string::npos);
  EXPECT_NE(message.find("known backends: llvm-cpu"), std::string::npos)
      << message;
}

TEST(TargetRegistry, DuplicateBackendIsAnError) {
  registerLLVMCPUOnce();
  llvm::Error err = TargetRegistry::getBuiltin().registerBackend(
      createLLVMCPUTargetBackend());
  ASSERT_TRUE(static_cast<bool>(err));
  EXPECT_NE(errorText(std::move(err)).find("registered twice"),
            std::string::npos);
}

TEST(TargetRegistry, ResolvesOptionsToTargetAttributes) {
  registerLLVMCPUOnce();
  mlir::MLIRContext context;
  TargetOptions options;
  options.cpus = {"znver4"};
  auto targets = resolveTargets(&context, options);
  ASSERT_TRUE(static_cast<bool>(targets)) << errorText(targets.takeError());
  ASSERT_EQ(targets->size(), 1u);
  TargetAttr attr = targets->front().second;
  EXPECT_EQ(attr.getBackend().getValue(), "llvm-cpu");
  EXPECT_EQ(attr.getCPU(), "znver4");
  EXPECT_EQ(attr.getTriple(), "x86_64-unknown-linux-gnu");
  EXPECT_TRUE(featureSet(attr.getCPUFeatures()).contains("+avx512f"));
}

// One target per backend and CPU, backends first; a CPU named twice is an
// error that names it.
TEST(TargetRegistry, ResolvesOneTargetPerCPU) {
  registerLLVMCPUOnce();
  mlir::MLIRContext context;
  TargetOptions options;
  options.cpus = {"znver4", "x86-64-v3", "sapphirerapids"};
  auto targets = resolveTargets(&context, options);
  ASSERT_TRUE(static_cast<bool>(targets)) << errorText(targets.takeError());
  ASSERT_EQ(targets->size(), 3u);
  EXPECT_EQ((*targets)[0].second.getCPU(), "znver4");
  EXPECT_EQ((*targets)[1].second.getCPU(), "x86-64-v3");
  EXPECT_EQ((*targets)[2].second.getCPU(), "sapphirerapids");
  EXPECT_FALSE(
      featureSet((*targets)[1].second.getCPUFeatures()).contains("+avx512f"));

  options.cpus = {"znver4", "x86-64-v3", "znver4"};
  auto twice = resolveTargets(&context, options);
  ASSERT_FALSE(static_cast<bool>(twice));
  std::string text = errorText(twice.takeError());
  EXPECT_NE(text.find("'znver4'"), std::string::npos) << text;
  EXPECT_NE(text.find("requested twice"), std::string::npos) << text;

  options.cpus = {"znver4", "znver99"};
  auto unknown = resolveTargets(&context, options);
  ASSERT_FALSE(static_cast<bool>(unknown));
  EXPECT_NE(errorText(unknown.takeError()).find("unknown CPU 'znver99'"),
            std::string::npos);
}

TEST(TargetRegistry, NoBackendIsAnError) {
  mlir::MLIRContext context;
  TargetOptions options;
  options.backends.clear();
  auto targets = resolveTargets(&context, options);
  ASSERT_FALSE(static_cast<bool>(targets));
  EXPECT_NE(errorText(targets.takeError()).find("--kiln-target"),
            std::string::npos);
}

/// A backend that only has a name: what a session's registry holds beside
/// the built-in ones.
class NamedBackend : public TargetBackend {
public:
  explicit NamedBackend(std::string name) : name(std::move(name)) {}
  llvm::StringRef getName() const override { return name; }
  llvm::StringRef getDescription() const override { return "a test backend"; }
  llvm::Expected<TargetAttr>
  getTargetAttr(mlir::MLIRContext *, const TargetRequest &) const override {
    return llvm::createStringError("not a real backend");
  }
  void buildConfigurationPipeline(mlir::OpPassManager &) const override {}
  void buildCodegenPipeline(mlir::OpPassManager &) const override {}

private:
  std::string name;
};

// A session's registry sees the built-in backends and its own; the built-in
// registry and other sessions do not see its own; a context sees the
// registry attached to it.
TEST(TargetRegistry, SessionRegistriesLayerOverTheBuiltinOne) {
  registerLLVMCPUOnce();
  TargetRegistry first(&TargetRegistry::getBuiltin());
  TargetRegistry second(&TargetRegistry::getBuiltin());
  ASSERT_FALSE(static_cast<bool>(
      first.registerBackend(std::make_unique<NamedBackend>("test-a"))));
  ASSERT_FALSE(static_cast<bool>(
      second.registerBackend(std::make_unique<NamedBackend>("test-b"))));
  EXPECT_TRUE(static_cast<bool>(first.lookup("llvm-cpu")));
  EXPECT_TRUE(static_cast<bool>(first.lookup("test-a")));
  auto missing = first.lookup("test-b");
  ASSERT_FALSE(static_cast<bool>(missing));
  EXPECT_NE(
      errorText(missing.takeError()).find("known backends: llvm-cpu, test-a"),
      std::string::npos);
  auto builtin = TargetRegistry::getBuiltin().lookup("test-a");
  ASSERT_FALSE(static_cast<bool>(builtin));
  llvm::consumeError(builtin.takeError());

  // A name the parent has is taken.
  llvm::Error duplicate =
      first.registerBackend(std::make_unique<NamedBackend>("llvm-cpu"));
  ASSERT_TRUE(static_cast<bool>(duplicate));
  EXPECT_NE(errorText(std::move(duplicate)).find("registered twice"),
            std::string::npos);

  mlir::MLIRContext one, two, none;
  attachSessionState<TargetRegistry>(&one, &first);
  attachSessionState<TargetRegistry>(&two, &second);
  EXPECT_EQ(&TargetRegistry::get(&one), &first);
  EXPECT_EQ(&TargetRegistry::get(&two), &second);
  EXPECT_EQ(&TargetRegistry::get(&none), &TargetRegistry::getBuiltin());
  attachSessionState<TargetRegistry>(&one, nullptr);
  EXPECT_EQ(&TargetRegistry::get(&one), &TargetRegistry::getBuiltin());
}

} // namespace
