//===- FilesRead.cpp - The files one compile read -------------------------===//

#include "kiln/Files/FilesRead.h"
#include "kiln/Support/OutputFile.h"

using namespace kiln;

MLIR_DEFINE_EXPLICIT_TYPE_ID(kiln::FilesRead)

void FilesRead::note(llvm::StringRef path, llvm::StringRef what) {
  std::lock_guard<std::mutex> lock(mutex);
  for (const auto &[known, _] : files)
    if (known == path)
      return;
  files.emplace_back(path.str(), what.str());
}

std::optional<std::string> FilesRead::find(llvm::StringRef output) const {
  std::lock_guard<std::mutex> lock(mutex);
  for (const auto &[path, what] : files)
    if (isSameFile(path, output.str()))
      return what + " ('" + path + "')";
  return std::nullopt;
}
