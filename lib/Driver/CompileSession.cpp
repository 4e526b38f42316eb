//===- CompileSession.cpp - Everything one user of the compiler set -------===//

#include "kiln/Driver/CompileSession.h"
#include "kiln/Driver/InitAll.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"

using namespace kiln;

CompileSession::~CompileSession() = default;

std::unique_ptr<CompileSession> CompileSession::forTool() {
  std::unique_ptr<CompileSession> session(new CompileSession());
  session->isTool = true;
  session->options = getPipelineOptionsFromFlags();
  return session;
}

std::unique_ptr<CompileSession> CompileSession::create() {
  std::unique_ptr<CompileSession> session(new CompileSession());
  session->binder = std::make_unique<OptionsBinder>(OptionsBinder::local());
  session->options.bindOptions(*session->binder);
  session->options.tuning.searchPath = getTuningSpecSearchPath();
  session->instances = std::make_unique<PluginInstances>();
  return session;
}

/// Flags that act on the whole process, which took them when it started.
static bool isProcessFlag(llvm::StringRef name) {
  return name == "kiln-load-plugin" || name == "load-pass-plugin" ||
         name == "load-dialect-plugin";
}

llvm::Error CompileSession::setFlags(llvm::ArrayRef<std::string> flags) {
  if (isTool)
    return llvm::createStringError(
        "a tool's session takes its flags from the command line");
  std::vector<std::string> pipelineFlags;
  for (size_t i = 0; i < flags.size(); ++i) {
    llvm::StringRef flag = flags[i];
    llvm::StringRef body = flag;
    if (!body.consume_front("--") && !body.consume_front("-")) {
      pipelineFlags.push_back(flag.str());
      continue;
    }
    auto [name, value] = body.split('=');
    bool hasValue = body.contains('=');
    if (name == "kiln-plugin" || isProcessFlag(name)) {
      if (!hasValue) {
        if (i + 1 == flags.size())
          return llvm::createStringError("--" + name + " needs a value");
        value = flags[++i];
      }
      if (name == "kiln-plugin") {
        llvm::SmallVector<llvm::StringRef> specs;
        value.split(specs, ',', -1, /*KeepEmpty=*/false);
        for (llvm::StringRef spec : specs)
          requestPlugin(spec, "--kiln-plugin");
      }
      continue;
    }
    if (instances->hasFlag(name)) {
      std::optional<llvm::StringRef> given;
      if (hasValue)
        given = value;
      else if (instances->takesValue(name)) {
        if (i + 1 == flags.size())
          return llvm::createStringError("--" + name + " needs a value");
        given = flags[++i];
      }
      if (llvm::Error error = instances->setFlag(name, given))
        return error;
      continue;
    }
    if (name.starts_with("mlir-"))
      return llvm::createStringError(
          "--" + name +
          " is one of MLIR's flags, which act on the whole process: give it "
          "when the compiler is initialized, not to a session");
    // Kiln's own, with the value that may follow it (the binder reads
    // both forms).
    pipelineFlags.push_back(flag.str());
  }
  if (llvm::Error error = binder->parseArguments(pipelineFlags))
    return llvm::createStringError(
        llvm::toString(std::move(error)) +
        " (kiln-compile --help lists Kiln's flags and the plugins')");
  return llvm::Error::success();
}

void CompileSession::requestPlugin(llvm::StringRef spec,
                                   llvm::StringRef origin) {
  requests.emplace_back(spec.trim().str(), origin.str());
}

std::unique_ptr<PluginSession> CompileSession::makePluginSession() const {
  auto plugins =
      std::make_unique<PluginSession>(PluginManager::get(), instances.get());
  if (isTool)
    plugins->requestFromFlags();
  for (const auto &[spec, origin] : requests)
    plugins->request(spec, origin);
  return plugins;
}

llvm::Error CompileSession::compile(const CompileRequest &request) const {
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  // A failing pass would attach the whole op it ran on to its error: noise
  // for a user, so only on request.
  llvm::cl::Option *printOp =
      llvm::cl::getRegisteredOptions().lookup("mlir-print-op-on-diagnostic");
  if (!printOp || !printOp->getNumOccurrences())
    context.printOpOnDiagnostic(false);
  std::unique_ptr<PluginSession> plugins = makePluginSession();
  return compileFile(context, request, options, plugins.get());
}
