//===- PipelineTest.cpp - Phases and hook points --------------------------===//
//
// Tests phase lookup and that pipelines call every hook point around every
// phase they contain, in order.
//
//===----------------------------------------------------------------------===//

#include "kiln/Pipeline/Pipeline.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace kiln;

namespace {

struct RecordingHooks : public PipelineHooks {
  std::vector<std::string> calls;
  void addPassesBefore(Phase phase, mlir::OpPassManager &pm) override {
    calls.push_back(("before:" + getPhaseName(phase)).str());
  }
  void addPassesAfter(Phase phase, mlir::OpPassManager &pm) override {
    calls.push_back(("after:" + getPhaseName(phase)).str());
  }
};

TEST(Phases, LookupByName) {
  for (Phase phase : getAllPhases()) {
    auto found = lookupPhase(getPhaseName(phase));
    ASSERT_TRUE(static_cast<bool>(found));
    EXPECT_EQ(*found, phase);
  }
}

TEST(Phases, UnknownNameListsValidOnes) {
  auto found = lookupPhase("codegen");
  ASSERT_FALSE(static_cast<bool>(found));
  std::string message = llvm::toString(found.takeError());
  EXPECT_NE(message.find("unknown phase 'codegen'"), std::string::npos);
  EXPECT_NE(message.find("input, preprocessing, global-optimization, "
                         "dispatch-formation, executable-sources, "
                         "executable-configurations, executable-codegen, "
                         "host, serialization"),
            std::string::npos)
      << message;
}

TEST(Phases, BetweenResumeAndStop) {
  EXPECT_EQ(getPhasesBetween(std::nullopt, Phase::Serialization),
            getAllPhases());
  EXPECT_EQ(getPhasesBetween(std::nullopt, Phase::Input),
            llvm::ArrayRef<Phase>({Phase::Input}));
  EXPECT_EQ(getPhasesBetween(Phase::ExecutableCodegen, Phase::Serialization),
            llvm::ArrayRef<Phase>({Phase::Host, Phase::Serialization}));
  EXPECT_EQ(
      getPhasesBetween(Phase::DispatchFormation, Phase::ExecutableSources),
      llvm::ArrayRef<Phase>({Phase::ExecutableSources}));
  // Nothing to run: the stop is the resume point or before it.
  EXPECT_TRUE(getPhasesBetween(Phase::Host, Phase::Host).empty());
  EXPECT_TRUE(getPhasesBetween(Phase::Host, Phase::Input).empty());
}

TEST(Pipeline, CallsHooksAroundEveryPhase) {
  RecordingHooks hooks;
  mlir::OpPassManager pm(mlir::ModuleOp::getOperationName());
  populatePipeline(pm, PipelineOptions(), std::nullopt,
                   Phase::DispatchFormation, &hooks);
  std::vector<std::string> expected = {
      "before:input",
      "after:input",
      "before:preprocessing",
      "after:preprocessing",
      "before:global-optimization",
      "after:global-optimization",
      "before:dispatch-formation",
      "after:dispatch-formation",
  };
  EXPECT_EQ(hooks.calls, expected);
}

TEST(Pipeline, ResumesAfterAPhase) {
  RecordingHooks hooks;
  mlir::OpPassManager pm(mlir::ModuleOp::getOperationName());
  populatePipeline(pm, PipelineOptions(), Phase::Input,
                   Phase::GlobalOptimization, &hooks);
  std::vector<std::string> expected = {
      "before:preprocessing",
      "after:preprocessing",
      "before:global-optimization",
      "after:global-optimization",
  };
  EXPECT_EQ(hooks.calls, expected);
}

/// Adds symbol-dce right after the input phase.
struct AfterInputHooks : public PipelineHooks {
  void addPassesAfter(Phase phase, mlir::OpPassManager &pm) override {
    if (phase == Phase::Input)
      pm.addPass(mlir::createSymbolDCEPass());
  }
};

TEST(Pipeline, HookPassesLandAtTheirBoundary) {
  AfterInputHooks hooks;
  mlir::OpPassManager pm(mlir::ModuleOp::getOperationName());
  populatePipeline(pm, PipelineOptions(), std::nullopt,
                   Phase::GlobalOptimization, &hooks);
  std::string text;
  llvm::raw_string_ostream os(text);
  pm.printAsTextualPipeline(os);
  size_t legality = text.find("kiln-verify-input-legality");
  size_t hook = text.find("symbol-dce");
  size_t fusion = text.find("kiln-fuse-elementwise-ops");
  ASSERT_NE(legality, std::string::npos) << text;
  ASSERT_NE(hook, std::string::npos) << text;
  ASSERT_NE(fusion, std::string::npos) << text;
  EXPECT_LT(legality, hook);
  EXPECT_LT(hook, fusion);
}

} // namespace
