//===- preprocessed_executable_fuzzer.cpp - Any preprocessing tool output -===//
//
// The input is what a preprocessing tool printed for one executable of
// fuzz/programs/dispatches.mlir (the one the text names, else the first):
// parsed and checked as the preprocessing pass does (one kiln.executable of
// that name, objects that link, an interface that fits its dispatches), put
// in place of the original, and the program compiled through `host`.
//
//===----------------------------------------------------------------------===//

#include "CompilerFuzzing.h"

#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "kiln/ExecutablePreprocessing/CheckInterface.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringExtras.h"

#include <cstddef>
#include <cstdint>
#include <string>

using namespace mlir;

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  kiln::fuzz::initializeCompiler(argc, argv);
  (void)kiln::fuzz::getFixedProgramSources();
  return 0;
}

/// The executable of `program` that `text` names after its first
/// "kiln.executable", or the program's first one.
static kiln::ExecutableOp pickTarget(ModuleOp program, llvm::StringRef text) {
  llvm::StringRef marker = "kiln.executable ";
  size_t at = text.find(marker);
  if (at != llvm::StringRef::npos) {
    llvm::StringRef rest = text.drop_front(at + marker.size()).ltrim();
    if (rest.consume_front("private") || rest.consume_front("public"))
      rest = rest.ltrim();
    llvm::StringRef name =
        rest.drop_front(rest.starts_with("@")).take_while([](char c) {
          return llvm::isAlnum(c) || c == '_';
        });
    if (auto named = program.lookupSymbol<kiln::ExecutableOp>(name))
      return named;
  }
  auto all = program.getOps<kiln::ExecutableOp>();
  return all.empty() ? kiln::ExecutableOp() : *all.begin();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  auto context = kiln::fuzz::makeQuietContext();
  OwningOpRef<ModuleOp> program =
      kiln::fuzz::parseProgram(*context, kiln::fuzz::getFixedProgramSources());
  if (!program)
    __builtin_trap(); // The fixed program parsed once; it must again.
  // A string, as a tool's output is (ending with a NUL).
  std::string text(reinterpret_cast<const char *>(data), size);
  if (kiln::fuzz::hitsKnownMLIRCrash(text))
    return -1;
  kiln::ExecutableOp target = pickTarget(*program, text);
  if (!target)
    __builtin_trap();

  std::string errors;
  OwningOpRef<ModuleOp> parsed = kiln::parseReplacementExecutable(
      *context, target.getSymName(), text, "<tool output>", errors);
  if (!parsed)
    return 0;
  std::string why;
  auto replacement = cast<kiln::ExecutableOp>(parsed->getBody()->front());
  if (failed(kiln::replaceExecutable(target, replacement, why)))
    return 0;
  // As the pass manager does after the preprocessing pass.
  if (failed(verify(*program)))
    return 0;
  kiln::fuzz::compileToHost(*program, kiln::Phase::ExecutableSources,
                            kiln::fuzz::getFuzzPipelineOptions());
  return 0;
}
