//===- WriteFile.h - OutputFile for LLVM-based code -------------*- C++ -*-===//
//
// The compiler's way to write a file: OutputFile's rules (symbolic links
// followed, devices and FIFOs written in place, regular files replaced
// atomically, inputs refused) behind an llvm::raw_ostream and llvm::Error.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_SUPPORT_WRITEFILE_H
#define KILN_SUPPORT_WRITEFILE_H

#include "kiln/Support/OutputFile.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace kiln {

/// Opens `path` as an OutputFile, as an llvm::Expected.
inline llvm::Expected<std::unique_ptr<OutputFile>>
openOutputFile(llvm::StringRef path, llvm::ArrayRef<std::string> inputs = {}) {
  std::string error;
  std::unique_ptr<OutputFile> file =
      OutputFile::open(path.str(), error,
                       std::vector<std::string>(inputs.begin(), inputs.end()));
  if (!file)
    return llvm::createStringError(error);
  return std::move(file);
}

/// Writes what `print` prints into `file` and commits it.
inline llvm::Error
writeAndCommit(OutputFile &file,
               llvm::function_ref<llvm::Error(llvm::raw_ostream &)> print) {
  {
    llvm::raw_fd_ostream os(file.getFD(), /*shouldClose=*/false);
    if (llvm::Error error = print(os))
      return error;
    os.flush();
    if (os.has_error()) {
      std::string reason = os.error().message();
      os.clear_error();
      return llvm::createStringError("cannot write '" + file.getPath() +
                                     "': " + reason);
    }
  }
  std::string error;
  if (!file.commit(error))
    return llvm::createStringError(error);
  return llvm::Error::success();
}

/// Writes what `print` prints to `path` ("-" is standard output).
inline llvm::Error
writeFile(llvm::StringRef path,
          llvm::function_ref<llvm::Error(llvm::raw_ostream &)> print,
          llvm::ArrayRef<std::string> inputs = {}) {
  if (path == "-") {
    llvm::Error error = print(llvm::outs());
    llvm::outs().flush();
    return error;
  }
  auto file = openOutputFile(path, inputs);
  if (!file)
    return file.takeError();
  return writeAndCommit(**file, print);
}

} // namespace kiln

#endif // KILN_SUPPORT_WRITEFILE_H
