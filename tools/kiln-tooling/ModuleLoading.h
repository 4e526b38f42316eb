//===- ModuleLoading.h - How kiln-run and kiln-benchmark load modules -*- C++
//-*-===//
//
// The flags both tools take to load a module (--runtime-extension=LIB.so,
// --variant=CPU), loading with them, and the listing of a module's
// variants. Uses only the runtime's C API.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_TOOLING_MODULELOADING_H
#define KILN_TOOLS_KILN_TOOLING_MODULELOADING_H

#include "kiln_runtime.h"

#include <string>
#include <vector>

namespace kiln::tooling {

struct ModuleLoadFlags {
  /// --runtime-extension, in order.
  std::vector<std::string> extensions;
  /// --variant, when given.
  std::string variant;
  bool forceVariant = false;

  /// Takes args[i] (advancing `i` past a separate value) when it is one of
  /// the flags above; sets `error` when its value is not one.
  bool match(const std::vector<std::string> &args, size_t &i,
             std::string &error);

  /// Loads the extensions into `runtime`, then the module at `path`.
  kiln_error *load(kiln_runtime *runtime, const std::string &path,
                   kiln_module **module) const;
};

/// The usage lines of the flags above, a literal to splice into a tool's.
#define KILN_MODULE_LOAD_USAGE                                                 \
  "  --runtime-extension=LIB.so\n"                                             \
  "                    load a runtime extension: functions the module\n"       \
  "                    calls that the runtime does not have (repeat for\n"     \
  "                    several)\n"                                             \
  "  --variant=CPU     run the module's variant for CPU (BACKEND:CPU when\n"   \
  "                    two backends compiled for it) instead of the one\n"     \
  "                    the runtime picks, the most specific this CPU runs\n"

/// The module's variants, which one runs and why, for --list; `forced`
/// when --variant chose it.
std::string listVariants(const kiln_module *module, bool forced);

} // namespace kiln::tooling

#endif // KILN_TOOLS_KILN_TOOLING_MODULELOADING_H
