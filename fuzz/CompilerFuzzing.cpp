//===- CompilerFuzzing.cpp - What the compiler's fuzz targets share -------===//

#include "CompilerFuzzing.h"

#include "kiln/Driver/CompileDriver.h"
#include "kiln/Driver/InitAll.h"
#include "kiln/Plugin/PluginManager.h"
#include "kiln/Support/CheckNesting.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>

using namespace mlir;

namespace {
/// KILN_FUZZ_DIAGNOSTICS=1 in the environment: print what inputs fail with.
bool shouldPrint() {
  static const bool print = std::getenv("KILN_FUZZ_DIAGNOSTICS") != nullptr;
  return print;
}

/// Drops `error`, or prints it under KILN_FUZZ_DIAGNOSTICS.
void drop(llvm::Error error) {
  if (!error)
    return;
  std::string text = llvm::toString(std::move(error));
  if (shouldPrint())
    llvm::errs() << "fuzz input: " << text << "\n";
}

// The text of fuzz/programs/dispatches.mlir (fuzz/CMakeLists.txt embeds it).
const char *const kFixedProgram =
#include "FixedProgram.inc"
    ;

DialectRegistry &getRegistry() {
  static DialectRegistry *registry = new DialectRegistry;
  return *registry;
}
} // namespace

void kiln::fuzz::initializeCompiler(int *argc, char ***argv) {
  // As kiln-compile: runPhases applies the pass manager's options.
  mlir::registerPassManagerCLOptions();
  if (llvm::Error error = initializePlugins(*argc, *argv,
                                            /*upstreamPlugins=*/false)) {
    std::fprintf(stderr, "fuzzer: %s\n",
                 llvm::toString(std::move(error)).c_str());
    std::exit(1);
  }
  registerKilnComponents();
  registerAllDialects(getRegistry());
}

std::unique_ptr<MLIRContext> kiln::fuzz::makeQuietContext() {
  auto context = std::make_unique<MLIRContext>(
      getRegistry(), MLIRContext::Threading::DISABLED);
  context->printOpOnDiagnostic(false);
  context->printStackTraceOnDiagnostic(false);
  context->getDiagEngine().registerHandler([](Diagnostic &diag) {
    if (shouldPrint())
      llvm::errs() << diag.getLocation() << ": " << diag << "\n";
    return success();
  });
  return context;
}

kiln::PipelineOptions kiln::fuzz::getFuzzPipelineOptions() {
  PipelineOptions options;
  options.target.cpus = {"sapphirerapids"};
  return options;
}

/// Skips spaces; true when `text` then starts with `c` (consumed).
static bool consume(llvm::StringRef &text, char c) {
  text = text.ltrim();
  return text.consume_front(llvm::StringRef(&c, 1));
}

/// Consumes `[i, j, ...]` (integers, maybe negative); false when `text`
/// does not start with such a list.
static bool consumeIntegerList(llvm::StringRef &text) {
  if (!consume(text, '['))
    return false;
  if (consume(text, ']'))
    return true;
  do {
    (void)consume(text, '-');
    size_t digits =
        text.find_if_not([](char c) { return c >= '0' && c <= '9'; });
    if (digits == 0)
      return false;
    text = text.drop_front(std::min(digits, text.size()));
  } while (consume(text, ','));
  return consume(text, ']');
}

bool kiln::fuzz::hitsKnownMLIRCrash(llvm::StringRef text) {
  // linalg.broadcast, linalg.transpose and linalg.reduce store the
  // `dimensions` or `permutation` they failed to parse, a null attribute,
  // and crash on it: `dimensions = 5`, `dimensions = [0 x]`.
  for (llvm::StringRef keyword : {"dimensions", "permutation"}) {
    for (size_t at = text.find(keyword); at != llvm::StringRef::npos;
         at = text.find(keyword, at + 1)) {
      llvm::StringRef rest = text.drop_front(at + keyword.size());
      if (consume(rest, '=') && !consumeIntegerList(rest))
        return true;
    }
  }
  return false;
}

OwningOpRef<ModuleOp> kiln::fuzz::parseProgram(MLIRContext &context,
                                               llvm::StringRef text) {
  if (failed(checkNesting(text, "<fuzz input>", &context)))
    return nullptr;
  return parseSourceString<ModuleOp>(text, ParserConfig(&context),
                                     "<fuzz input>");
}

void kiln::fuzz::compileToHost(ModuleOp module,
                               std::optional<Phase> resumeAfter,
                               const PipelineOptions &options) {
  PluginSession session;
  if (llvm::Error error = session.beginCompile(module))
    return drop(std::move(error));
  llvm::Error error = runPhases(module, options, resumeAfter, Phase::Host,
                                &session, "<fuzz input>");
  if (!error && shouldPrint())
    llvm::errs() << "fuzz input: compiled through host\n";
  drop(std::move(error));
}

const std::string &kiln::fuzz::getFixedProgramSources() {
  static const std::string *sources = [] {
    std::unique_ptr<MLIRContext> context = makeQuietContext();
    OwningOpRef<ModuleOp> module = parseProgram(*context, kFixedProgram);
    PluginSession session;
    llvm::Error error =
        module ? session.beginCompile(*module)
               : llvm::createStringError("fuzz/programs/dispatches.mlir "
                                         "does not parse");
    if (!error)
      error = runPhases(*module, getFuzzPipelineOptions(), std::nullopt,
                        Phase::ExecutableSources, &session, "dispatches.mlir");
    if (error) {
      std::fprintf(stderr, "fuzzer: the fixed program does not compile: %s\n",
                   llvm::toString(std::move(error)).c_str());
      std::exit(1);
    }
    auto *text = new std::string;
    llvm::raw_string_ostream os(*text);
    module->print(os);
    return text;
  }();
  return *sources;
}
