//===- compile_fuzzer.cpp - Any program through the compile, up to host ---===//
//
// The input is what a user hands kiln-compile: parsed as kiln-compile
// parses it, then every phase up to and including `host` (serialization,
// LLVM's own code generation of the result, is left out: it is slow and
// not Kiln's). Errors are answers; crashes, sanitizer reports, hangs and
// runaway memory are bugs.
//
//===----------------------------------------------------------------------===//

#include "CompilerFuzzing.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  kiln::fuzz::initializeCompiler(argc, argv);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // A string, so the text ends with a NUL as a file read by kiln-compile
  // does (MLIR's lexer relies on it).
  std::string text(reinterpret_cast<const char *>(data), size);
  if (kiln::fuzz::hitsKnownMLIRCrash(text))
    return -1;
  auto context = kiln::fuzz::makeQuietContext();
  mlir::OwningOpRef<mlir::ModuleOp> module =
      kiln::fuzz::parseProgram(*context, text);
  if (module)
    kiln::fuzz::compileToHost(*module, std::nullopt,
                              kiln::fuzz::getFuzzPipelineOptions());
  return 0;
}
