//===- FilesRead.h - The files one compile read -----------------*- C++ -*-===//
//
// Besides its input, a compile reads files it finds on the way: a model's
// external data, the objects of custom dispatches, tuning specs, transform
// scripts, plugins. Its output must not replace one of them (`-o
// weights.bin` overwrote the model's weights with the module), and which
// they are is known only once they are read. Each read notes itself here,
// in the session state of the compile's context (per compile, not a
// process global); the driver asks before it commits the output.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_FILES_FILESREAD_H
#define KILN_FILES_FILESREAD_H

#include "kiln/Dialect/Kiln/IR/SessionState.h"
#include "mlir/Support/TypeID.h"
#include "llvm/ADT/StringRef.h"

#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kiln {

class FilesRead {
public:
  /// Notes that the compile read `path`, `what` naming it for an error
  /// ("the external data of initializer 'w'"). Thread-safe: executables
  /// compile on the context's threads.
  void note(llvm::StringRef path, llvm::StringRef what);

  /// What `output` is among the files read, as "WHAT ('PATH')", when it is
  /// one of them (the same file, by any name or link).
  std::optional<std::string> find(llvm::StringRef output) const;

private:
  mutable std::mutex mutex;
  std::vector<std::pair<std::string, std::string>> files; // path, what
};

/// Notes `path` in the FilesRead of the compile `context` belongs to, if
/// any (a tool that compiles without a session notes nothing).
inline void noteFileRead(mlir::MLIRContext *context, llvm::StringRef path,
                         llvm::StringRef what) {
  if (FilesRead *files = getSessionState<FilesRead>(context))
    files->note(path, what);
}

} // namespace kiln

MLIR_DECLARE_EXPLICIT_TYPE_ID(kiln::FilesRead)

#endif // KILN_FILES_FILESREAD_H
