//===- tuning_spec_fuzzer.cpp - Any tuning spec, applied ------------------===//
//
// The input is a tuning spec (text or bytecode), given to the configuration
// phase of fuzz/programs/dispatches.mlir as a plugin's spec is: loaded,
// verified, linked with Kiln's default spec for the CPU, applied to every
// variant, then the configured program compiled through `host` (where a
// spec's lowering configs take effect).
//
//===----------------------------------------------------------------------===//

#include "CompilerFuzzing.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  kiln::fuzz::initializeCompiler(argc, argv);
  (void)kiln::fuzz::getFixedProgramSources();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string spec(reinterpret_cast<const char *>(data), size);
  if (kiln::fuzz::hitsKnownMLIRCrash(spec))
    return -1;
  auto context = kiln::fuzz::makeQuietContext();
  mlir::OwningOpRef<mlir::ModuleOp> program =
      kiln::fuzz::parseProgram(*context, kiln::fuzz::getFixedProgramSources());
  if (!program)
    __builtin_trap(); // The fixed program parsed once; it must again.
  kiln::PipelineOptions options = kiln::fuzz::getFuzzPipelineOptions();
  options.tuning.pluginSpecs.push_back({"fuzz", "fuzz-spec", std::move(spec)});
  kiln::fuzz::compileToHost(*program, kiln::Phase::ExecutableSources, options);
  return 0;
}
