//===- ReplayMain.cpp - The fuzz targets without libFuzzer ----------------===//
//
// In a build without libFuzzer (KILN_FUZZ off, the regular build), each
// fuzz target is linked with this driver instead: it runs the target once
// on each file it is given, or on every file of each directory it is given,
// and says how many. So the targets build with the rest of Kiln (a change
// that breaks one breaks the regular build, not only the instrumented one)
// and their seeds run as a test of the regular build (test/fuzz/seeds.test).
//
// Arguments that start with '-' go to the target's LLVMFuzzerInitialize, as
// libFuzzer passes them (the compiler's targets load plugins from them);
// libFuzzer's own (-name=value) are ignored, with a note. Nothing here
// fuzzes.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int *argc,
                                                          char ***argv);

namespace fs = std::filesystem;

/// Appends `path` (a file) or the regular files under `path` (a directory,
/// in name order) to `inputs`; false, having said why, when it is neither.
static bool collect(const char *tool, const std::string &path,
                    std::vector<fs::path> &inputs) {
  std::error_code error;
  fs::file_status status = fs::status(path, error);
  if (error) {
    std::fprintf(stderr, "%s: cannot read '%s': %s\n", tool, path.c_str(),
                 error.message().c_str());
    return false;
  }
  if (fs::is_regular_file(status)) {
    inputs.push_back(path);
    return true;
  }
  if (!fs::is_directory(status)) {
    std::fprintf(stderr, "%s: '%s' is neither a file nor a directory\n", tool,
                 path.c_str());
    return false;
  }
  std::vector<fs::path> files;
  for (fs::recursive_directory_iterator it(path, error), end;
       !error && it != end; it.increment(error))
    if (it->is_regular_file())
      files.push_back(it->path());
  if (error) {
    std::fprintf(stderr, "%s: cannot list '%s': %s\n", tool, path.c_str(),
                 error.message().c_str());
    return false;
  }
  std::sort(files.begin(), files.end());
  inputs.insert(inputs.end(), files.begin(), files.end());
  return true;
}

int main(int argc, char **argv) {
  const std::string name = fs::path(argv[0]).filename().string();
  const char *tool = name.c_str();
  std::vector<fs::path> inputs;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg[0] != '-') {
      if (!collect(tool, arg, inputs))
        return 2;
    } else if (arg.size() > 1 && arg[1] != '-' &&
               arg.find('=') != std::string::npos) {
      std::fprintf(stderr,
                   "%s: note: '%s' is a flag of libFuzzer, which this "
                   "build does not have; it is ignored\n",
                   tool, arg.c_str());
    }
  }
  if (inputs.empty()) {
    std::fprintf(stderr,
                 "usage: %s FILE|DIRECTORY...\n"
                 "Runs this fuzz target once on each input. This build has "
                 "no libFuzzer; to fuzz, use build_tools/fuzz.sh.\n",
                 tool);
    return 2;
  }
  if (LLVMFuzzerInitialize)
    LLVMFuzzerInitialize(&argc, &argv);
  for (const fs::path &input : inputs) {
    std::ifstream stream(input, std::ios::binary);
    if (!stream.is_open()) {
      std::fprintf(stderr, "%s: cannot read '%s': %s\n", tool, input.c_str(),
                   std::strerror(errno));
      return 2;
    }
    std::string bytes((std::istreambuf_iterator<char>(stream)),
                      std::istreambuf_iterator<char>());
    // Exactly the input's bytes on the heap (never a null pointer, even for
    // an empty file), as libFuzzer hands them over.
    std::unique_ptr<uint8_t[]> data(new uint8_t[bytes.size()]);
    std::copy(bytes.begin(), bytes.end(), data.get());
    LLVMFuzzerTestOneInput(data.get(), bytes.size());
  }
  std::printf("%s: ran %zu inputs\n", tool, inputs.size());
  return 0;
}
