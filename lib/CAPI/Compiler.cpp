//===- Compiler.cpp - Kiln's compiler, from C -----------------------------===//
//
// The C API of kiln-c/Compiler.h: each kiln_session is a CompileSession of
// its own (CompileSession.h), so sessions with different flags and plugins
// coexist and compile at once.
//
//===----------------------------------------------------------------------===//

#include "kiln-c/Compiler.h"
#include "kiln/Driver/CompileSession.h"
#include "kiln/Driver/InitAll.h"
#include "kiln/Pipeline/Pipeline.h"
#include "kiln/Plugin/BuildInfo.h"
#include "kiln/Plugin/PluginManager.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

using namespace kiln;

struct kiln_session {
  std::vector<std::string> requests;
  std::unique_ptr<CompileSession> compiler;
  std::string error;
};

static std::atomic<bool> initialized{false};

static char *copyString(const std::string &text) {
  char *copy = static_cast<char *>(std::malloc(text.size() + 1));
  if (copy)
    std::memcpy(copy, text.c_str(), text.size() + 1);
  return copy;
}

int kiln_compiler_api_version(void) { return KILN_COMPILER_API_VERSION; }

const char *kiln_compiler_version(void) { return KILN_VERSION; }

const char *kiln_compiler_build_id(void) { return KILN_BUILD_ID; }

int kiln_compiler_initialize(int argc, const char *const *argv, char **error) {
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  if (initialized)
    return 0;
  auto fail = [&](std::string message) {
    if (error)
      *error = copyString(message);
    return 1;
  };
  // What kiln-compile registers: pass names and the flags of MLIR's pass
  // manager, context and printer, which act on the whole process.
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
                            /*upstreamPlugins=*/true))
    return fail(llvm::toString(std::move(failure)));
  // MLIR's flags among the arguments, parsed once for the process.
  std::vector<const char *> mlirArgs = {"kiln"};
  for (int i = 0; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    if (arg.starts_with("--mlir-") || arg.starts_with("-mlir-"))
      mlirArgs.push_back(argv[i]);
  }
  std::string errors;
  llvm::raw_string_ostream os(errors);
  if (mlirArgs.size() > 1 &&
      !llvm::cl::ParseCommandLineOptions(static_cast<int>(mlirArgs.size()),
                                         mlirArgs.data(), "", &os))
    return fail(llvm::StringRef(errors).rtrim().str());
  registerKilnComponents();
  initialized = true;
  return 0;
}

kiln_session *kiln_session_create(void) {
  if (!initialized)
    return nullptr;
  auto *session = new kiln_session();
  session->compiler = CompileSession::create();
  return session;
}

void kiln_session_destroy(kiln_session *session) { delete session; }

int kiln_session_set_flags(kiln_session *session, int argc,
                           const char *const *argv) {
  std::vector<std::string> flags;
  for (int i = 0; i < argc; ++i)
    flags.push_back(argv[i] ? argv[i] : "");
  // A new session: the flags replace those set before.
  std::unique_ptr<CompileSession> compiler = CompileSession::create();
  if (llvm::Error error = compiler->setFlags(flags)) {
    session->error = llvm::toString(std::move(error));
    return 1;
  }
  session->compiler = std::move(compiler);
  for (const std::string &spec : session->requests)
    session->compiler->requestPlugin(spec, "kiln_session_request_plugin");
  return 0;
}

void kiln_session_request_plugin(kiln_session *session, const char *spec) {
  session->requests.push_back(spec ? spec : "");
  session->compiler->requestPlugin(session->requests.back(),
                                   "kiln_session_request_plugin");
}

char *kiln_session_list_plugins(kiln_session *session) {
  std::unique_ptr<PluginSession> plugins =
      session->compiler->makePluginSession();
  if (llvm::Error error = plugins->activate()) {
    session->error = llvm::toString(std::move(error));
    return nullptr;
  }
  return copyString(describePlugins(plugins.get()));
}

/// Compiles `request` in `session`, the diagnostics into its error.
static int compile(kiln_session *session, CompileRequest &request,
                   const char *phase) {
  std::string diagnostics;
  llvm::raw_string_ostream diagnosticStream(diagnostics);
  request.diagnostics = &diagnosticStream;
  if (phase) {
    llvm::Expected<Phase> last = lookupPhase(phase);
    if (!last) {
      session->error = llvm::toString(last.takeError());
      return 1;
    }
    request.compileTo = *last;
  }
  if (llvm::Error error = session->compiler->compile(request)) {
    session->error = diagnostics + llvm::toString(std::move(error));
    return 1;
  }
  return 0;
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
  CompileRequest request;
  request.inputFile = input_path;
  request.outputFile = output_path;
  return compile(session, request, phase);
}

int kiln_session_compile_buffer(kiln_session *session, const void *data,
                                size_t size, const char *name,
                                const char *phase, void **output,
                                size_t *output_size) {
  if ((!data && size) || !output || !output_size) {
    session->error = "compiling a buffer needs its data, and places for the "
                     "output and its size";
    return 1;
  }
  *output = nullptr;
  *output_size = 0;
  std::string result;
  CompileRequest request;
  request.inputFile = name ? name : "<buffer>";
  request.inputContents =
      std::string(static_cast<const char *>(data ? data : ""), size);
  request.outputBuffer = &result;
  if (compile(session, request, phase))
    return 1;
  void *copy = std::malloc(result.size() ? result.size() : 1);
  if (!copy) {
    session->error = "out of memory for the output";
    return 1;
  }
  std::memcpy(copy, result.data(), result.size());
  *output = copy;
  *output_size = result.size();
  return 0;
}

const char *kiln_session_error(const kiln_session *session) {
  return session ? session->error.c_str() : "no session";
}

void kiln_free(void *pointer) { std::free(pointer); }
