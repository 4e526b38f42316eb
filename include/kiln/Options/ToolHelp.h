//===- ToolHelp.h - --help that shows a tool's own options ------*- C++ -*-===//
//
// libLLVM.so registers hundreds of flags when it loads, most for backends
// Kiln never uses (AMDGPU, ARM, Hexagon, ...). A tool remembers them first
// thing in main (ToolHelp's constructor) and, before parsing its command
// line, moves them under --help-hidden and groups what is left: the tool's
// own flags, Kiln's (in their components' categories), and MLIR's
// debugging flags (--mlir-*).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_OPTIONS_TOOLHELP_H
#define KILN_OPTIONS_TOOLHELP_H

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"

namespace kiln {

class ToolHelp {
public:
  /// Remembers the flags that exist now: LLVM's own. Call first in main.
  ToolHelp();

  /// Hides the remembered flags from --help (--help-hidden lists them),
  /// puts --mlir-* under "MLIR debugging options" and the tool's other
  /// uncategorized flags under "<tool> options". Flags in `keep` (the
  /// tool's own categories, for flags it defines before main) stay. Call
  /// right before parsing the command line.
  void organize(llvm::StringRef tool,
                llvm::ArrayRef<llvm::cl::OptionCategory *> keep = {});

private:
  llvm::DenseSet<llvm::cl::Option *> llvmOptions;
};

} // namespace kiln

#endif // KILN_OPTIONS_TOOLHELP_H
