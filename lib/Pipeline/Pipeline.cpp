//===- Pipeline.cpp - Kiln's phased compilation pipeline ------------------===//
//
// Phase names, and the assembly of phases and their hooks into pipelines.
//
//===----------------------------------------------------------------------===//

#include "kiln/Pipeline/Pipeline.h"
#include "kiln/Codegen/Passes.h"
#include "kiln/Configuration/Passes.h"
#include "kiln/DispatchFormation/Passes.h"
#include "kiln/ExecutableSources/Passes.h"
#include "kiln/GlobalOptimization/Passes.h"
#include "kiln/Host/Passes.h"
#include "kiln/Input/Passes.h"
#include "kiln/Serialization/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace kiln;

PipelineHooks::~PipelineHooks() = default;

static constexpr Phase kPhases[] = {
    Phase::Input,
    Phase::Preprocessing,
    Phase::GlobalOptimization,
    Phase::DispatchFormation,
    Phase::ExecutableSources,
    Phase::ExecutableConfigurations,
    Phase::ExecutableCodegen,
    Phase::Host,
    Phase::Serialization,
};

llvm::ArrayRef<Phase> kiln::getAllPhases() { return kPhases; }

llvm::ArrayRef<Phase> kiln::getPhasesBetween(std::optional<Phase> resumeAfter,
                                             Phase stopAfter) {
  llvm::ArrayRef<Phase> phases = kPhases;
  if (resumeAfter)
    phases =
        phases.drop_while([&](Phase phase) { return phase <= *resumeAfter; });
  return phases.take_while([&](Phase phase) { return phase <= stopAfter; });
}

llvm::StringRef kiln::getPhaseName(Phase phase) {
  switch (phase) {
  case Phase::Input:
    return "input";
  case Phase::Preprocessing:
    return "preprocessing";
  case Phase::GlobalOptimization:
    return "global-optimization";
  case Phase::DispatchFormation:
    return "dispatch-formation";
  case Phase::ExecutableSources:
    return "executable-sources";
  case Phase::ExecutableConfigurations:
    return "executable-configurations";
  case Phase::ExecutableCodegen:
    return "executable-codegen";
  case Phase::Host:
    return "host";
  case Phase::Serialization:
    return "serialization";
  }
  llvm_unreachable("unknown phase");
}

llvm::Expected<Phase> kiln::lookupPhase(llvm::StringRef name) {
  for (Phase phase : kPhases)
    if (getPhaseName(phase) == name)
      return phase;
  return llvm::createStringError(
      "unknown phase '" + name + "'; valid phases: " +
      llvm::join(llvm::map_range(kPhases, getPhaseName), ", "));
}

/// The passes of `phase` alone.
static void populatePhaseBody(OpPassManager &pm, Phase phase,
                              const PipelineOptions &options) {
  switch (phase) {
  case Phase::Input:
    populateInputPasses(pm, options.input);
    return;
  case Phase::Preprocessing:
    // The user's program-level pipeline (verifyPipelineOptions has checked
    // that it parses), and plugins through the hooks.
    if (!options.preprocessingPipeline.empty()) {
      std::string errors;
      llvm::raw_string_ostream os(errors);
      FailureOr<OpPassManager> parsed =
          parsePassPipeline(options.preprocessingPipeline, os);
      if (succeeded(parsed))
        pm.addPass(createRunPipelinePass(std::move(*parsed),
                                         "the preprocessing pipeline"));
    }
    if (!options.preprocessingTransformSpec.empty())
      pm.addPass(
          createApplyTransformSpecPass(options.preprocessingTransformSpec));
    return;
  case Phase::GlobalOptimization:
    populateGlobalOptimizationPasses(pm, options.globalOptimization,
                                     options.target);
    return;
  case Phase::DispatchFormation:
    populateDispatchFormationPasses(pm);
    return;
  case Phase::ExecutableSources: {
    const ExecutablePreprocessingOptions &preprocessing =
        options.executablePreprocessing;
    populateExecutableSourcesPasses(pm, options.target);
    if (!preprocessing.dumpDir.empty())
      pm.addPass(createDumpExecutablesPass(preprocessing.dumpDir, "sources"));
    if (!preprocessing.commands.empty())
      pm.addPass(createPreprocessExecutablesPass(preprocessing));
    if (!preprocessing.substitutions.empty())
      pm.addPass(createSubstituteExecutablesPass(preprocessing.substitutions));
    if (!preprocessing.dumpDir.empty())
      pm.addPass(
          createDumpExecutablesPass(preprocessing.dumpDir, "preprocessed"));
    return;
  }
  case Phase::ExecutableConfigurations:
    populateConfigurationPasses(pm, options.tuning);
    if (!options.executablePreprocessing.dumpDir.empty())
      pm.addPass(createDumpExecutablesPass(
          options.executablePreprocessing.dumpDir, "configured"));
    return;
  case Phase::ExecutableCodegen:
    // Unchanged executables skip codegen (and LLVM) when the object cache
    // has them.
    populateObjectCacheLookup(pm, options.serialization);
    populateCodegenPasses(pm);
    return;
  case Phase::Host:
    populateHostPasses(pm);
    return;
  case Phase::Serialization:
    populateSerializationPasses(pm, options.serialization);
    return;
  }
}

void kiln::populatePhasePasses(OpPassManager &pm, Phase phase,
                               const PipelineOptions &options,
                               PipelineHooks *hooks) {
  if (hooks)
    hooks->addPassesBefore(phase, pm);
  if (hooks && phase == Phase::ExecutableConfigurations) {
    PipelineOptions withHookSpecs = options;
    hooks->addTuningSpecs(withHookSpecs.tuning.pluginSpecs);
    populatePhaseBody(pm, phase, withHookSpecs);
  } else {
    populatePhaseBody(pm, phase, options);
  }
  if (hooks)
    hooks->addPassesAfter(phase, pm);
}

void kiln::populatePipeline(OpPassManager &pm, const PipelineOptions &options,
                            std::optional<Phase> resumeAfter, Phase stopAfter,
                            PipelineHooks *hooks) {
  for (Phase phase : getPhasesBetween(resumeAfter, stopAfter))
    populatePhasePasses(pm, phase, options, hooks);
}

void kiln::recordPhase(ModuleOp module, Phase phase) {
  module->setAttr(KilnDialect::getPhaseAttrName(),
                  StringAttr::get(module.getContext(), getPhaseName(phase)));
}

LogicalResult kiln::checkRecordedPhase(ModuleOp module, Phase next) {
  auto recorded =
      module->getAttrOfType<StringAttr>(KilnDialect::getPhaseAttrName());
  if (!recorded)
    return success();
  llvm::Expected<Phase> last = lookupPhase(recorded.getValue());
  if (!last) {
    return module.emitError()
           << "'" << KilnDialect::getPhaseAttrName()
           << "' names no phase: " << llvm::toString(last.takeError());
  }
  if (*last < next)
    return success();
  InFlightDiagnostic diag = module.emitError()
                            << "the program was written after phase '"
                            << recorded.getValue() << "' and cannot run phase '"
                            << getPhaseName(next) << "' again";
  if (*last != getAllPhases().back())
    diag << "; run only the phases after it (kiln-compile --compile-from="
         << recorded.getValue() << ")";
  return diag;
}
