//===- Pipeline.h - Kiln's phased compilation pipeline ----------*- C++ -*-===//
//
// Compilation runs in named phases. Every boundary between phases is a place
// to stop (--compile-to), to resume (--compile-from) and a hook point where
// extensions add passes before or after a phase.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PIPELINE_PIPELINE_H
#define KILN_PIPELINE_PIPELINE_H

#include "kiln/Configuration/TuningLibrary.h"
#include "kiln/ExecutablePreprocessing/Preprocess.h"
#include "kiln/GlobalOptimization/Options.h"
#include "kiln/Input/Passes.h"
#include "kiln/Serialization/Options.h"
#include "kiln/Target/TargetBackend.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace kiln {

/// The phases, in the order they run.
enum class Phase : unsigned {
  /// Parse, verify and convert input dialects to linalg on tensors.
  Input,
  /// The user's program-level pipeline and plugin preprocessing passes.
  Preprocessing,
  /// Canonicalization, CSE, elementwise fusion and constant folding.
  GlobalOptimization,
  /// Host functions calling dispatches, one kiln.executable per dispatch.
  DispatchFormation,
  /// One variant per target in every executable.
  ExecutableSources,
  /// Every dispatch root carries a lowering configuration.
  ExecutableConfigurations,
  /// Every variant lowered to the LLVM dialect.
  ExecutableCodegen,
  /// Host functions lowered to the LLVM dialect: buffers, dispatch calls
  /// into the runtime, exported entry points and metadata.
  Host,
  /// One native shared object (the output file) with host code and
  /// kernels.
  Serialization,
};

/// All phases, in order.
llvm::ArrayRef<Phase> getAllPhases();

/// The phases a compile runs: those after `resumeAfter` (from the first
/// without it) up to and including `stopAfter`, in order; none when
/// `stopAfter` is not after `resumeAfter`.
llvm::ArrayRef<Phase> getPhasesBetween(std::optional<Phase> resumeAfter,
                                       Phase stopAfter);

/// The name of `phase` as flags spell it, such as "global-optimization".
llvm::StringRef getPhaseName(Phase phase);

/// The phase called `name`, or an error that lists the valid names.
llvm::Expected<Phase> lookupPhase(llvm::StringRef name);

/// Everything that shapes the pipeline.
struct PipelineOptions {
  InputOptions input;
  TargetOptions target;
  /// A pass pipeline on the whole program, `builtin.module(...)`, run in
  /// the preprocessing phase (--kiln-preprocessing-pipeline).
  std::string preprocessingPipeline;
  /// A transform-dialect script applied to the whole program in the
  /// preprocessing phase, after the pipeline
  /// (--kiln-preprocessing-transform-spec).
  std::string preprocessingTransformSpec;
  /// The global optimization phase (--kiln-accumulate-narrow-floats-in-f32).
  GlobalOptimizationOptions globalOptimization;
  /// Executable preprocessing, at the end of the executable-sources phase
  /// (--kiln-preprocess-executables-*).
  ExecutablePreprocessingOptions executablePreprocessing;
  /// Tuning specs, at the start of the executable-configurations phase
  /// (--kiln-tuning-spec, KILN_TUNING_SPEC_PATH, plugins, defaults).
  TuningOptions tuning;
  /// Jobs and the object cache (--kiln-jobs, --kiln-object-cache).
  SerializationOptions serialization;

  /// Binds every component's flags (Flags.cpp).
  void bindOptions(OptionsBinder &binder);
};

/// Fails with the parser's message when an option does not parse (a
/// malformed preprocessing pipeline, a pass nobody registered).
llvm::Error verifyPipelineOptions(const PipelineOptions &options);

/// A pass that applies the transform script in file `path` (its
/// `@__transform_main`) to the module; errors name the file.
std::unique_ptr<mlir::Pass> createApplyTransformSpecPass(std::string path);

/// A pass that runs `pipeline` (anchored on builtin.module) on the module
/// and, when it fails, adds an error on the module: "<failureMessage>
/// (<the pipeline>) failed". Plugins' passes and the user's pipelines run
/// inside one, so that a failure says whose passes failed.
std::unique_ptr<mlir::Pass> createRunPipelinePass(mlir::OpPassManager pipeline,
                                                  std::string failureMessage);

/// Where extensions add passes. The plugin mechanism implements it; every
/// phase calls both hooks, also when the phase itself is empty.
class PipelineHooks {
public:
  virtual ~PipelineHooks();
  /// Adds passes that run right before `phase`. Runs while the pipeline is
  /// built, before any IR exists; it must only add passes.
  virtual void addPassesBefore(Phase phase, mlir::OpPassManager &pm) {}
  /// Adds passes that run right after `phase`; same rules as above.
  virtual void addPassesAfter(Phase phase, mlir::OpPassManager &pm) {}
  /// Adds tuning specs (plugins' ones) to those of the configuration
  /// phase, after the user's and before Kiln's defaults.
  virtual void addTuningSpecs(std::vector<TuningOptions::PluginSpec> &specs) {}
};

/// Adds the passes of `phase`, with the hooks around it, to a module-level
/// pass manager.
void populatePhasePasses(mlir::OpPassManager &pm, Phase phase,
                         const PipelineOptions &options,
                         PipelineHooks *hooks = nullptr);

/// Adds every phase after `resumeAfter` (or from the first one) up to and
/// including `stopAfter`.
void populatePipeline(mlir::OpPassManager &pm, const PipelineOptions &options,
                      std::optional<Phase> resumeAfter, Phase stopAfter,
                      PipelineHooks *hooks = nullptr);

/// Records on `module` that `phase` is the last phase that ran on it
/// (`kiln.phase`).
void recordPhase(mlir::ModuleOp module, Phase phase);

/// Fails with an error on `module` when the phase recorded on it is not
/// before `next`, the phase about to run: the program went through `next`
/// already, and running it again would add what is there (a second
/// kiln_entry_0). A module without a record passes.
mlir::LogicalResult checkRecordedPhase(mlir::ModuleOp module, Phase next);

/// Registers one pass per phase (`kiln-phase-<name>`) for kiln-opt. Each
/// builds its phase when the pass manager starts, with options from Kiln's
/// command-line flags (verified as kiln-compile verifies them) and hooks
/// from the session attached to the context (PluginSession::attachTo).
void registerPhasePipelines();

/// Registers Kiln's pipeline flags (--kiln-target, --kiln-target-cpu, ...)
/// with LLVM's command line. Idempotent.
void registerPipelineFlags();

/// The pipeline options the command line asked for.
PipelineOptions getPipelineOptionsFromFlags();

/// What else than its IR determines an executable's object code, for the
/// object cache's keys: the session's `flags` (all but those that cannot
/// matter, and not `inputFile`), the files they name (a plugin library, by
/// size and modification time) and Kiln's environment variables.
std::string makeObjectCodeFingerprint(llvm::ArrayRef<std::string> flags,
                                      llvm::StringRef inputFile);

/// Sets the fingerprint of the tool's flag options (kiln-opt, whose
/// phases read the flags).
void setFlagsFingerprint(std::string fingerprint);

/// The entries of KILN_TUNING_SPEC_PATH (colon-separated files or folders).
std::vector<std::string> getTuningSpecSearchPath();

} // namespace kiln

MLIR_DECLARE_EXPLICIT_TYPE_ID(kiln::PipelineHooks)

#endif // KILN_PIPELINE_PIPELINE_H
