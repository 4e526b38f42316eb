//===- Compiler.cpp - Kiln's compiler, from C -----------------------------===//
//
// The C API of kiln-c/Compiler.h over the driver and the plugin manager.
//
//===----------------------------------------------------------------------===//

#include "kiln-c/Compiler.h"
#include "kiln/Driver/CompileDriver.h"
#include "kiln/Driver/InitAll.h"
#include "kiln/Pipeline/Pipeline.h"
#include "kiln/Plugin/PluginManager.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace kiln;

struct kiln_session {
  std::vector<std::string> requests;
  std::string error;
};

static bool initialized = false;
static kiln_session *liveSession = nullptr;

static char *copyString(const std::string &text) {
  char *copy = static_cast<char *>(std::malloc(text.size() + 1));
  if (copy)
    std::memcpy(copy, text.c_str(), text.size() + 1);
  return copy;
}

int kiln_compiler_initialize(int argc, const char *const *argv, char **error) {
  if (initialized)
    return 0;
  // What kiln-compile registers: pass names and the flags of MLIR's pass
  // manager, context and printer, so that the same flags work here.
  registerKilnPasses();
  registerPipelineFlags();
  mlir::registerAsmPrinterCLOptions();
  mlir::registerMLIRContextCLOptions();
  mlir::registerPassManagerCLOptions();
  std::vector<char *> args = {const_cast<char *>("kiln")};
  for (int i = 0; i < argc; ++i)
    args.push_back(const_cast<char *>(argv[i]));
  if (llvm::Error failure =
          initializePlugins(static_cast<int>(args.size()), args.data(),
                            /*upstreamPlugins=*/true)) {
    if (error)
      *error = copyString(llvm::toString(std::move(failure)));
    else
      llvm::consumeError(std::move(failure));
    return 1;
  }
  registerKilnComponents();
  initialized = true;
  return 0;
}

kiln_session *kiln_session_create(void) {
  if (!initialized || liveSession)
    return nullptr;
  llvm::cl::ResetAllOptionOccurrences();
  liveSession = new kiln_session();
  return liveSession;
}

void kiln_session_destroy(kiln_session *session) {
  if (!session)
    return;
  if (liveSession == session) {
    llvm::cl::ResetAllOptionOccurrences();
    liveSession = nullptr;
  }
  delete session;
}

int kiln_session_set_flags(kiln_session *session, int argc,
                           const char *const *argv) {
  llvm::cl::ResetAllOptionOccurrences();
  std::vector<const char *> args = {"kiln"};
  for (int i = 0; i < argc; ++i)
    args.push_back(argv[i]);
  std::string errors;
  llvm::raw_string_ostream os(errors);
  if (!llvm::cl::ParseCommandLineOptions(static_cast<int>(args.size()),
                                         args.data(), "", &os)) {
    llvm::cl::ResetAllOptionOccurrences();
    session->error = llvm::StringRef(errors).rtrim().str();
    return 1;
  }
  return 0;
}

void kiln_session_request_plugin(kiln_session *session, const char *spec) {
  session->requests.push_back(spec ? spec : "");
}

/// A plugin session for one compile: the flags' and the C API's requests.
static void addRequests(kiln_session *session, PluginSession &plugins) {
  plugins.requestFromFlags();
  for (const std::string &spec : session->requests)
    plugins.request(spec, "kiln_session_request_plugin");
}

char *kiln_session_list_plugins(kiln_session *session) {
  PluginSession plugins;
  addRequests(session, plugins);
  if (llvm::Error error = plugins.activate()) {
    session->error = llvm::toString(std::move(error));
    return nullptr;
  }
  return copyString(describePlugins(&plugins));
}

int kiln_session_compile_file(kiln_session *session, const char *input_path,
                              const char *output_path) {
  return kiln_session_compile_file_to(session, input_path, output_path,
                                      nullptr);
}

int kiln_session_compile_file_to(kiln_session *session, const char *input_path,
                                 const char *output_path, const char *phase) {
  if (!input_path || !output_path) {
    session->error = "compiling needs an input and an output path";
    return 1;
  }
  std::string diagnostics;
  llvm::raw_string_ostream diagnosticStream(diagnostics);
  CompileRequest request;
  request.inputFile = input_path;
  request.outputFile = output_path;
  request.diagnostics = &diagnosticStream;
  if (phase) {
    llvm::Expected<Phase> last = lookupPhase(phase);
    if (!last) {
      session->error = llvm::toString(last.takeError());
      return 1;
    }
    request.compileTo = *last;
  }

  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  context.printOpOnDiagnostic(false);
  PluginSession plugins;
  addRequests(session, plugins);
  if (llvm::Error error = compileFile(
          context, request, getPipelineOptionsFromFlags(), &plugins)) {
    session->error = diagnostics + llvm::toString(std::move(error));
    return 1;
  }
  return 0;
}

const char *kiln_session_error(const kiln_session *session) {
  return session ? session->error.c_str() : "no session";
}

void kiln_free(void *pointer) { std::free(pointer); }
