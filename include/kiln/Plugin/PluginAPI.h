//===- PluginAPI.h - What a Kiln compiler plugin sees ----------*- C++ -*-===//
//
// The one header a plugin includes. A plugin is a folder with a
// CMakeLists.txt calling kiln_add_plugin() and a PluginRegistration.cpp
// that defines a subclass of kiln::Plugin and registers it:
//
//   class MyPlugin : public kiln::Plugin { ... };
//
//   KILN_PLUGIN_REGISTRATION(my_plugin, registrar) {
//     return registrar.registerPlugin(
//         {/*id=*/"my_plugin", /*version=*/"1.0", "What it does"},
//         [] { return std::make_unique<MyPlugin>(); });
//   }
//
// The same folder builds into the compiler (a static plugin) or into a
// shared object that `--kiln-load-plugin=PATH` loads (a dynamic plugin).
//
// A plugin lives in two stages:
//
// - Registration, once per process, whether or not it is ever used: the
//   plugin's dialects, passes and flags become known (so that its flags
//   parse, its passes have names, its IR parses).
// - Activation, per compile session: default-on plugins, plus those the
//   command line (`--kiln-plugin=ID`), the C API or the program itself (a
//   `kiln.plugins` module attribute) asks for, minus `--kiln-plugin=-ID`.
//   Only active plugins take part in compiling: their hooks below are
//   called, in an order that puts every plugin after those it depends on.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PLUGIN_PLUGINAPI_H
#define KILN_PLUGIN_PLUGINAPI_H

#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "kiln/Input/Importer.h"
#include "kiln/Input/Passes.h"
#include "kiln/Pipeline/Pipeline.h"
#include "kiln/Plugin/BuildInfo.h"
#include "kiln/Target/TargetBackend.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

/// Bumped whenever this header changes in a way that breaks plugins built
/// against an older one. A shared-object plugin records the version it was
/// built with; Kiln refuses other versions.
#define KILN_PLUGIN_API_VERSION 4

namespace kiln {

class PluginSession;

/// A plugin's flags. Each is named `<plugin id>-<name>` on the command line
/// (`--example-greeting=hi`), lists under the plugin in `--help`, and may
/// only be given when the plugin is active. Create them in
/// Plugin::registerOptions. A tool's are flags of its command line and live
/// as long as the process; a session of its own (the C API, Python) makes
/// its own plugin objects, whose flags it keeps to itself (`scope`).
class PluginOptions {
public:
  PluginOptions(llvm::StringRef pluginId, llvm::cl::OptionCategory &category,
                llvm::cl::SubCommand *scope = nullptr);

  /// Adds `--<plugin id>-<name>`, a flag holding a T (bool, int, unsigned,
  /// double or std::string) that starts as `init`.
  template <typename T>
  llvm::cl::opt<T> &add(llvm::StringRef name, llvm::StringRef description,
                        T init = T()) {
    std::unique_ptr<llvm::cl::opt<T>> option;
    if (scope)
      option = std::make_unique<llvm::cl::opt<T>>(
          llvm::cl::NotHidden, llvm::cl::desc(keep(description.str())),
          llvm::cl::init(init), llvm::cl::cat(category), llvm::cl::sub(*scope));
    else
      option = std::make_unique<llvm::cl::opt<T>>(
          llvm::cl::NotHidden, llvm::cl::desc(keep(description.str())),
          llvm::cl::init(init), llvm::cl::cat(category));
    option->setArgStr(keep((pluginId + "-" + name).str()));
    llvm::cl::opt<T> &ref = *option;
    options.push_back(std::move(option));
    return ref;
  }

  /// The flags created so far.
  const std::vector<std::unique_ptr<llvm::cl::Option>> &getOptions() const {
    return options;
  }

private:
  llvm::StringRef keep(std::string text);

  std::string pluginId;
  llvm::cl::OptionCategory &category;
  llvm::cl::SubCommand *scope;
  std::vector<std::unique_ptr<llvm::cl::Option>> options;
  std::vector<std::unique_ptr<std::string>> strings;
};

/// A source of tuning specs a plugin contributes: MLIR text or bytecode of
/// a transform-dialect library, and a name that says where it came from.
struct TuningSpecSource {
  std::string name;
  std::string contents;
};

/// A compiler plugin. Override the hooks the plugin needs; the others do
/// nothing. A tool makes one instance; a session of its own (the C API,
/// Python) makes one more, with flags of its own, and several such
/// sessions may compile at once on different threads: keep what a compile
/// changes in the instance or the session, never in globals.
class Plugin {
public:
  virtual ~Plugin();

  //===--------------------------------------------------------------------===//
  // Registration: once per process, before any flag is parsed.
  //===--------------------------------------------------------------------===//

  /// Adds the dialects the plugin's IR uses (and their interfaces) to
  /// `registry`. Called whenever a tool builds its registry; registering a
  /// dialect loads nothing.
  virtual void registerDialects(mlir::DialectRegistry &registry) {}

  /// Registers the plugin's passes and pipelines with MLIR's registry, so
  /// that pipelines can name them (kiln-opt, the hooks below, the C API).
  virtual void registerPasses() {}

  /// Creates the plugin's flags with `options`.
  virtual void registerOptions(PluginOptions &options) {}

  //===--------------------------------------------------------------------===//
  // Activation: per compile session, for active plugins only, after flags
  // are parsed. Default-on plugins may only add opt-in capabilities: input
  // conversions (for programs that use their dialects), target backends
  // (for --kiln-target), tuning specs; the pipeline hooks and dispatch
  // claims are only called for plugins activated explicitly.
  //===--------------------------------------------------------------------===//

  /// Runs when `session` activates the plugin: read flags, check the
  /// environment. An error fails the compile with a message naming the
  /// plugin.
  virtual llvm::Error activate(PluginSession &session) {
    return llvm::Error::success();
  }

  /// Adds passes to run right before / after `phase`. `pm` runs on the
  /// whole module; called while the pipeline is built, before any IR
  /// exists, so it must only add passes.
  virtual void addPassesBefore(Phase phase, mlir::OpPassManager &pm) {}
  virtual void addPassesAfter(Phase phase, mlir::OpPassManager &pm) {}

  /// Adds input conversions (for instance from the plugin's own input
  /// dialect to linalg on tensors). A conversion runs when its `detect`
  /// finds its dialect in the program, or when --kiln-input-type names it.
  virtual void getInputConversions(std::vector<InputConversion> &conversions) {}

  /// Adds importers of files that are not MLIR (a model format). Called
  /// when a compile reads its input, before the program exists: an
  /// importer is used when its plugin is active and it recognizes the
  /// file, or when --kiln-input-type names it.
  virtual void getInputImporters(std::vector<InputImporter> &importers) {}

  /// Adds target backends that `--kiln-target=<name>` can select.
  virtual void
  getTargetBackends(std::vector<std::unique_ptr<TargetBackend>> &backends) {}

  /// Dispatch claims. Called for every executable variant before
  /// configuration; returning true makes the plugin configure and compile
  /// that variant with the two pipelines below, instead of the variant's
  /// target backend. The first active plugin (in activation order) that
  /// claims a variant gets it. The pipelines run on one
  /// kiln.executable.variant; the codegen one must leave its module in the
  /// LLVM dialect with the kernel interface lowered, as a backend does.
  virtual bool claimVariant(ExecutableVariantOp variant) { return false; }
  virtual void buildClaimedConfigurationPipeline(mlir::OpPassManager &pm) {}
  virtual void buildClaimedCodegenPipeline(mlir::OpPassManager &pm) {}

  /// Adds tuning spec libraries. Called at activation; the session keeps
  /// them (PluginSession::getTuningSpecs), in activation order, for the
  /// tuning-spec linker, which gives them the precedence of plugin specs:
  /// after the user's, before Kiln's defaults.
  virtual void getTuningSpecs(std::vector<TuningSpecSource> &specs) {}
};

/// What a plugin tells Kiln about itself.
struct PluginDescription {
  /// Lower-case letters, digits and underscores; unique in the process.
  std::string id;
  std::string version;
  std::string description;
  /// Plugins that must be active (and are activated) with this one, and
  /// come before it.
  std::vector<std::string> dependencies = {};
  /// Active unless a compile says `--kiln-plugin=-ID`.
  bool defaultOn = false;
};

/// Hands plugins to Kiln during registration.
class PluginRegistrar {
public:
  virtual ~PluginRegistrar();
  /// Registers a plugin; `create` makes its one instance. Fails when the
  /// id is malformed or taken.
  virtual llvm::Error
  registerPlugin(PluginDescription description,
                 std::function<std::unique_ptr<Plugin>()> create) = 0;
};

} // namespace kiln

/// What a shared-object plugin was built against; Kiln compares it with
/// itself before it calls anything else in the plugin.
struct kiln_plugin_handshake_info {
  int api_version;
  const char *kiln_build_id;
  const char *mlir_version;
};

#define KILN_PLUGIN_EXPORT extern "C" __attribute__((visibility("default")))

#ifdef KILN_PLUGIN_SHARED
/// A shared-object plugin: the loader looks up these two symbols.
#define KILN_PLUGIN_REGISTRATION(ID, REGISTRAR)                                \
  static llvm::Error kilnRegisterPlugin_##ID(kiln::PluginRegistrar &);         \
  KILN_PLUGIN_EXPORT const kiln_plugin_handshake_info *                        \
  kiln_plugin_handshake() {                                                    \
    static const kiln_plugin_handshake_info info = {                           \
        KILN_PLUGIN_API_VERSION, KILN_BUILD_ID, LLVM_VERSION_STRING};          \
    return &info;                                                              \
  }                                                                            \
  KILN_PLUGIN_EXPORT llvm::Error *kiln_plugin_register(                        \
      kiln::PluginRegistrar *registrar) {                                      \
    llvm::Error error = kilnRegisterPlugin_##ID(*registrar);                   \
    if (!error)                                                                \
      return nullptr;                                                          \
    return new llvm::Error(std::move(error));                                  \
  }                                                                            \
  static llvm::Error kilnRegisterPlugin_##ID(kiln::PluginRegistrar &REGISTRAR)
#else
/// A static plugin: the generated registry of the compiler calls this.
#define KILN_PLUGIN_REGISTRATION(ID, REGISTRAR)                                \
  llvm::Error kiln_plugin_register_##ID(kiln::PluginRegistrar &REGISTRAR)
#endif

#endif // KILN_PLUGIN_PLUGINAPI_H
