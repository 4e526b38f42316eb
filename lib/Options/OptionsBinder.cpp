//===- OptionsBinder.cpp - A component's options, bound to a session ------===//
//
// Global binders hand their options to LLVM's command line, which owns the
// parsing; local ones keep a table of setters and parse flags themselves,
// without touching LLVM's process-wide option state.
//
//===----------------------------------------------------------------------===//

#include "kiln/Options/OptionsBinder.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/ManagedStatic.h"

#include <mutex>

using namespace kiln;

namespace {
/// What a local binder knows of one option.
struct LocalOption {
  bool isBool, commaSeparated;
  std::function<llvm::Error(llvm::StringRef)> set;
};

/// The options and categories of global binders: they live as long as the
/// process, as LLVM's command line expects.
struct GlobalOptions {
  std::mutex mutex;
  std::vector<std::unique_ptr<llvm::cl::Option>> options;
  llvm::StringMap<std::unique_ptr<llvm::cl::OptionCategory>> categories;
};
llvm::ManagedStatic<GlobalOptions> globalOptions;
} // namespace

struct OptionsBinder::Impl {
  bool local;
  std::string category = "Kiln options";
  llvm::StringMap<LocalOption> options;
};

OptionsBinder::OptionsBinder(std::unique_ptr<Impl> impl)
    : impl(std::move(impl)) {}
OptionsBinder::OptionsBinder(OptionsBinder &&) noexcept = default;
OptionsBinder &OptionsBinder::operator=(OptionsBinder &&) noexcept = default;
OptionsBinder::~OptionsBinder() = default;

OptionsBinder OptionsBinder::global() {
  auto impl = std::make_unique<Impl>();
  impl->local = false;
  return OptionsBinder(std::move(impl));
}

OptionsBinder OptionsBinder::local() {
  auto impl = std::make_unique<Impl>();
  impl->local = true;
  return OptionsBinder(std::move(impl));
}

bool OptionsBinder::isLocal() const { return impl->local; }

void OptionsBinder::category(llvm::StringRef name) {
  impl->category = name.str();
}

llvm::cl::OptionCategory &OptionsBinder::currentCategory() {
  GlobalOptions &global = *globalOptions;
  std::lock_guard<std::mutex> lock(global.mutex);
  std::unique_ptr<llvm::cl::OptionCategory> &category =
      global.categories[impl->category];
  if (!category) {
    // The category refers to its name: keep it in the map's key.
    llvm::StringRef name = global.categories.find(impl->category)->getKey();
    category = std::make_unique<llvm::cl::OptionCategory>(name);
  }
  return *category;
}

void OptionsBinder::addGlobal(std::unique_ptr<llvm::cl::Option> option) {
  GlobalOptions &global = *globalOptions;
  std::lock_guard<std::mutex> lock(global.mutex);
  global.options.push_back(std::move(option));
}

void OptionsBinder::addLocal(llvm::StringRef name, bool isBool,
                             bool commaSeparated,
                             std::function<llvm::Error(llvm::StringRef)> set) {
  if (!impl->options
           .try_emplace(name,
                        LocalOption{isBool, commaSeparated, std::move(set)})
           .second)
    llvm::report_fatal_error("option '" + name + "' is bound twice");
}

llvm::Error OptionsBinder::invalidValue(llvm::StringRef name,
                                        llvm::StringRef text,
                                        llvm::StringRef expected) {
  return llvm::createStringError("--" + name + "='" + text + "': expected " +
                                 expected);
}

llvm::Error OptionsBinder::parseValue(llvm::StringRef name,
                                      llvm::StringRef text, bool &value) {
  // What llvm::cl accepts for a boolean.
  if (text.empty() || text == "true" || text == "TRUE" || text == "True" ||
      text == "1") {
    value = true;
    return llvm::Error::success();
  }
  if (text == "false" || text == "FALSE" || text == "False" || text == "0") {
    value = false;
    return llvm::Error::success();
  }
  return invalidValue(name, text, "true or false");
}

llvm::Error OptionsBinder::parseValue(llvm::StringRef, llvm::StringRef text,
                                      std::string &value) {
  value = text.str();
  return llvm::Error::success();
}

llvm::Error OptionsBinder::parseValue(llvm::StringRef name,
                                      llvm::StringRef text, double &value) {
  double parsed;
  if (!llvm::to_float(text, parsed))
    return invalidValue(name, text, "a number");
  value = parsed;
  return llvm::Error::success();
}

llvm::Error OptionsBinder::parseArguments(llvm::ArrayRef<std::string> args) {
  if (!impl->local)
    return llvm::createStringError(
        "a global binder's options are parsed with the tool's command line");
  for (size_t i = 0; i < args.size(); ++i) {
    llvm::StringRef arg = args[i];
    llvm::StringRef flag = arg;
    if (!flag.consume_front("--") && !flag.consume_front("-"))
      return llvm::createStringError("'" + arg +
                                     "' is not a flag (flags start with --)");
    auto [name, value] = flag.split('=');
    bool hasValue = flag.contains('=');
    auto it = impl->options.find(name);
    if (name.empty() || it == impl->options.end())
      return llvm::createStringError("unknown flag '--" + name + "'");
    LocalOption &option = it->second;
    if (!hasValue && !option.isBool) {
      if (i + 1 == args.size())
        return llvm::createStringError("--" + name + " needs a value");
      value = args[++i];
    }
    if (!option.commaSeparated) {
      if (llvm::Error error = option.set(value))
        return error;
      continue;
    }
    llvm::SmallVector<llvm::StringRef> parts;
    value.split(parts, ',');
    for (llvm::StringRef part : parts)
      if (llvm::Error error = option.set(part))
        return error;
  }
  return llvm::Error::success();
}
