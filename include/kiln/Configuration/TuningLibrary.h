//===- TuningLibrary.h - Tuning specs in the configuration phase -*- C++
//-*-===//
//
// The executable-configurations phase starts with tuning specs: the user's,
// the plugins' and Kiln's default for the target CPU are linked into one
// library, attached to the program as bytecode, and applied to every
// variant; heuristics configure what no spec did; the explanation says,
// per dispatch, which spec or heuristic configured it.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CONFIGURATION_TUNINGLIBRARY_H
#define KILN_CONFIGURATION_TUNINGLIBRARY_H

#include "mlir/Pass/Pass.h"

#include <memory>
#include <string>
#include <vector>

namespace kiln {

class OptionsBinder;

struct TuningOptions {
  /// --kiln-tuning-spec, in the order given (first: highest precedence).
  std::vector<std::string> specFiles;
  /// KILN_TUNING_SPEC_PATH: files, or folders whose *.mlir and *.mlirbc
  /// specs are taken in name order; after the flags.
  std::vector<std::string> searchPath;
  /// Specs of active plugins (a name and MLIR text or bytecode), after the
  /// user's.
  struct PluginSpec {
    std::string plugin;   // the plugin's id
    std::string name;     // the spec's name (what its locations say)
    std::string contents; // MLIR text or bytecode
  };
  std::vector<PluginSpec> pluginSpecs;
  /// Leaves out Kiln's embedded default spec for the target CPU, which
  /// comes last otherwise (--kiln-no-default-tuning-specs).
  bool noDefaults = false;
  /// --kiln-dump-tuning-specs-to: every input spec and the linked library.
  std::string dumpDir;
  /// --kiln-explain-tuning: what configured each dispatch, on stderr.
  bool explain = false;

  /// Binds the flags above (TuningOptions.cpp); the search path comes from
  /// the environment, not a flag.
  void bindOptions(OptionsBinder &binder);
};

/// Links the specs `options` names into one library and attaches it to the
/// program module (kiln.tuning_library, bytecode in a dense resource).
std::unique_ptr<mlir::Pass>
createMaterializeTuningLibraryPass(TuningOptions options);

/// Applies the attached library to the kernel module of every variant, then
/// drops it from the module.
std::unique_ptr<mlir::Pass> createApplyTuningLibraryPass();

/// Prints what configured each dispatch's root op (after configuration).
std::unique_ptr<mlir::Pass> createExplainTuningPass();

} // namespace kiln

#endif // KILN_CONFIGURATION_TUNINGLIBRARY_H
