//===- onnx_model_fuzzer.cpp - Any ONNX model, imported and optimized -----===//
//
// The input is the bytes of a model file, given to a compile session as
// kiln-compile gives a file it reads (--kiln-input-type=onnx, so bytes that
// do not look like a model still reach the importer): parsed, validated,
// checked and upgraded by ONNX's library, imported, converted to linalg,
// and optimized with the run-time checks (through global-optimization; the
// later phases are the compile fuzzer's). Errors are answers; a crash
// (also one inside ONNX's library: the sanitized build lets it through
// instead of turning it into an error), a sanitizer report, a hang or
// runaway memory is a bug.
//
//===----------------------------------------------------------------------===//

#include "CompilerFuzzing.h"

#include "kiln/Driver/CompileDriver.h"
#include "kiln/Driver/CompileSession.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  kiln::fuzz::initializeCompiler(argc, argv);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::unique_ptr<kiln::CompileSession> session =
      kiln::CompileSession::create();
  if (llvm::Error error =
          session->setFlags({"--kiln-input-type=onnx", "--kiln-jobs=1",
                             "--kiln-target-cpu=sapphirerapids"})) {
    std::fprintf(stderr, "onnx_model_fuzzer: %s\n",
                 llvm::toString(std::move(error)).c_str());
    std::abort(); // the flags are fixed: they must be taken
  }
  std::string output, diagnostics;
  llvm::raw_string_ostream diagnosticStream(diagnostics);
  kiln::CompileRequest request;
  request.inputFile = "<fuzz input>.onnx";
  request.inputContents =
      std::string(reinterpret_cast<const char *>(data), size);
  request.outputBuffer = &output;
  request.diagnostics = &diagnosticStream;
  request.compileTo = kiln::Phase::GlobalOptimization;
  llvm::Error error = session->compile(request);
  if (std::getenv("KILN_FUZZ_DIAGNOSTICS")) {
    diagnosticStream.flush();
    llvm::errs() << diagnostics;
    if (error)
      llvm::errs() << "error: " << llvm::toString(std::move(error)) << "\n";
    else
      llvm::errs() << "compiled to " << output.size()
                   << " bytes of global-optimization IR\n";
  }
  llvm::consumeError(std::move(error));
  return 0;
}
