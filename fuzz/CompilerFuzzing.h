//===- CompilerFuzzing.h - What the compiler's fuzz targets share -*- C++ -*-=//
//
// The compiler's fuzz targets feed their input to the same code kiln-compile
// runs, in a fresh context per input (nothing one input leaves behind can
// hide a bug in the next) that swallows diagnostics: an error is an answer;
// a crash, a sanitizer report, a hang or a runaway allocation is a bug.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_FUZZ_COMPILERFUZZING_H
#define KILN_FUZZ_COMPILERFUZZING_H

#include "kiln/Pipeline/Pipeline.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>

namespace kiln::fuzz {

/// What LLVMFuzzerInitialize does: registers the plugins linked into Kiln
/// (and those the arguments load), the target backends and the dialects.
void initializeCompiler(int *argc, char ***argv);

/// A context with every dialect Kiln reads, one thread, and diagnostics
/// dropped (printed with KILN_FUZZ_DIAGNOSTICS=1 in the environment).
std::unique_ptr<mlir::MLIRContext> makeQuietContext();

/// The options of every fuzzed compile: llvm-cpu for a fixed CPU (so that
/// a run does not depend on the machine), Kiln's default tuning specs on.
PipelineOptions getFuzzPipelineOptions();

/// True when `text` would run into a crash of Debian's libMLIR 22 that Kiln
/// cannot prevent, listed in docs/reliability.md: such inputs are skipped (the
/// target returns -1), so that a run finds what else there is.
/// kiln-compile turns these crashes into errors (CompileDriver.cpp).
bool hitsKnownMLIRCrash(llvm::StringRef text);

/// Parses `text` as kiln-compile does (the nesting check, then the parser);
/// null when it is not a program.
mlir::OwningOpRef<mlir::ModuleOp> parseProgram(mlir::MLIRContext &context,
                                               llvm::StringRef text);

/// Runs the phases after `resumeAfter` (from the first without one) through
/// `host` on `module`, with the plugins the program asks for (kiln.plugins)
/// and the default ones active, as kiln-compile would. The outcome is
/// dropped.
void compileToHost(mlir::ModuleOp module, std::optional<Phase> resumeAfter,
                   const PipelineOptions &options);

/// fuzz/programs/dispatches.mlir after the executable-sources phase, as
/// text (computed once): the starting point of the fuzz targets whose
/// input enters later (tuning specs, preprocessed executables).
const std::string &getFixedProgramSources();

} // namespace kiln::fuzz

#endif // KILN_FUZZ_COMPILERFUZZING_H
