//===- PluginManager.h - Registering and activating plugins ----*- C++ -*-===//
//
// The compiler's side of the plugin API: the registry of plugins (linked in
// or loaded from shared objects) and the per-compile session that
// activates some of them and calls their hooks.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PLUGIN_PLUGINMANAGER_H
#define KILN_PLUGIN_PLUGINMANAGER_H

#include "kiln/Plugin/PluginAPI.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"

#include <map>
#include <optional>

namespace kiln {

/// A plugin known to this process.
struct RegisteredPlugin {
  PluginDescription description;
  /// What makes a new instance (PluginInstances makes one per session).
  std::function<std::unique_ptr<Plugin>()> create;
  /// The process's instance: the one that registered the plugin's passes
  /// and dialects, and the one a tool's session uses.
  std::unique_ptr<Plugin> plugin;
  /// "static", or the path of the shared object it came from.
  std::string source;
  /// The heading of the plugin's flags in --help (the category refers to
  /// it, so it lives here).
  std::string categoryName;
  std::unique_ptr<llvm::cl::OptionCategory> category;
  std::unique_ptr<PluginOptions> options;
};

/// Every plugin of the process. Not thread-safe: tools register and load
/// plugins at startup, before any compile.
class PluginManager {
public:
  static PluginManager &get();

  /// Registers the plugins linked into the compiler. Idempotent.
  llvm::Error registerStaticPlugins();

  /// Loads the shared-object plugin at `path`, checks that it was built
  /// against this Kiln, and registers it.
  llvm::Error loadPlugin(llvm::StringRef path);

  /// Loads the plugins `--kiln-load-plugin=PATH` (in `args`) and the
  /// KILN_PLUGIN_PATH environment variable (files, or directories whose
  /// `*.so` files are plugins, separated by ':') name. Runs before flags
  /// are parsed, so that the plugins' flags exist.
  llvm::Error loadPluginsFromArguments(llvm::ArrayRef<const char *> args);

  /// Loads the upstream MLIR plugins that `--load-pass-plugin=PATH` and
  /// `--load-dialect-plugin=PATH` in `args` name: a pass plugin registers
  /// its passes now, a dialect plugin its dialects in every registry
  /// registerDialects fills. For kiln-compile and the C API; kiln-opt loads
  /// them through MLIR's own opt driver.
  llvm::Error
  loadUpstreamPluginsFromArguments(llvm::ArrayRef<const char *> args);

  /// Adds the dialects of every registered plugin and upstream dialect
  /// plugin.
  void registerDialects(mlir::DialectRegistry &registry) const;

  /// The plugin with `id`, or null.
  RegisteredPlugin *lookup(llvm::StringRef id) const;

  /// All plugins, by id.
  std::vector<RegisteredPlugin *> getPlugins() const;

  /// Registers a plugin (what PluginRegistrar::registerPlugin does).
  llvm::Error registerPlugin(PluginDescription description,
                             std::function<std::unique_ptr<Plugin>()> create,
                             llvm::StringRef source);

private:
  std::map<std::string, std::unique_ptr<RegisteredPlugin>> plugins;
  std::vector<std::string> upstreamPassPlugins;
  std::vector<std::unique_ptr<mlir::DialectPlugin>> upstreamDialectPlugins;
  bool staticRegistered = false;
};

/// The plugin objects of a session of its own (a C API or Python session):
/// every registered plugin instantiated anew, its flags private to the
/// session (set by setFlag) instead of on the process's command line.
class PluginInstances {
public:
  explicit PluginInstances(PluginManager &manager = PluginManager::get());
  ~PluginInstances();

  /// This session's instance of `entry`, and its flags.
  Plugin &getPlugin(const RegisteredPlugin &entry) const;
  const PluginOptions &getOptions(const RegisteredPlugin &entry) const;

  /// Whether some plugin has a flag called `name`.
  bool hasFlag(llvm::StringRef name) const;
  /// Sets the plugin flag `name` to `value` (none: a boolean flag given
  /// alone); the error names the flag.
  llvm::Error setFlag(llvm::StringRef name,
                      std::optional<llvm::StringRef> value);
  /// Whether the plugin flag `name` needs a value.
  bool takesValue(llvm::StringRef name) const;

private:
  struct Instance {
    std::unique_ptr<PluginOptions> options;
    std::unique_ptr<Plugin> plugin;
  };
  llvm::cl::Option *findFlag(llvm::StringRef name) const;

  // Declared first, destroyed last: the flags refer to it.
  std::unique_ptr<llvm::cl::SubCommand> scope;
  std::map<const RegisteredPlugin *, Instance> instances;
};

/// Which plugins take part in one compile, and the calls into them.
/// Requests come from flags (`--kiln-plugin`), the C API and the program
/// (`kiln.plugins`); activate() turns them into the active list.
class PluginSession : public PipelineHooks {
public:
  /// With `instances`, the session calls those plugin objects and checks
  /// their flags (a session of its own's); without, the process's.
  explicit PluginSession(PluginManager &manager = PluginManager::get(),
                         const PluginInstances *instances = nullptr);
  ~PluginSession() override;

  /// Asks for plugin `id`, or with `-id` against it. `origin` says where
  /// the request came from, for errors.
  void request(llvm::StringRef spec, llvm::StringRef origin);
  /// The `--kiln-plugin` flags.
  void requestFromFlags();
  /// The `kiln.plugins` attribute of `module` (an array of ids).
  void requestFromModule(mlir::ModuleOp module);

  /// Computes the active plugins (default-on ones, requested ones and their
  /// dependencies, minus the ones turned off) in dependency order, checks
  /// that no inactive plugin's flag was given, calls each plugin's
  /// activate() and registers its input conversions and targets for this
  /// session. Once per session.
  llvm::Error activate();
  bool isActivated() const { return activated; }

  /// Fails when `module` uses a dialect that only an inactive plugin
  /// provides (its ops would parse, but nothing would compile them), with
  /// an error that names the plugin. Call after activate().
  llvm::Error checkDialectsOfInactivePlugins(mlir::ModuleOp module) const;

  /// What a compile does with its session once the program is read: adds
  /// the program's own requests (requestFromModule), activates, checks the
  /// program's dialects (checkDialectsOfInactivePlugins) and attaches the
  /// session to the program's context (attachTo).
  llvm::Error beginCompile(mlir::ModuleOp module);

  /// The importer for an input file that is not MLIR: the one `inputType`
  /// (--kiln-input-type) names, or else one that recognizes `contents`;
  /// nullopt for MLIR (no importer named or recognizing it). Finding one
  /// activates the session (there is no program to add requests), and an
  /// importer of a plugin that is not active is an error naming it.
  /// `path` names the input in errors.
  llvm::Expected<std::optional<InputImporter>>
  findImporter(llvm::StringRef contents, llvm::StringRef inputType,
               llvm::StringRef path);

  /// The tuning specs the active plugins contribute, in activation order,
  /// each with the id of its plugin.
  llvm::ArrayRef<std::pair<std::string, TuningSpecSource>>
  getTuningSpecs() const {
    return tuningSpecs;
  }

  /// The active plugins, in activation order.
  llvm::ArrayRef<RegisteredPlugin *> getActivePlugins() const { return active; }
  bool isActive(llvm::StringRef id) const;
  /// True when `id` is active because something asked for it, not only
  /// because it is on by default.
  bool isExplicit(llvm::StringRef id) const;

  void addPassesBefore(Phase phase, mlir::OpPassManager &pm) override;
  void addPassesAfter(Phase phase, mlir::OpPassManager &pm) override;
  void addTuningSpecs(std::vector<TuningOptions::PluginSpec> &specs) override;

  /// Attaches this session to `context` (SessionState.h): passes compiling
  /// in it see the session's target backends, input conversions, dispatch
  /// claims and hooks (PipelineHooks), and the
  /// dialects the active plugins' passes need are loaded. Call after
  /// activate(), before compiling; the session must outlive the compile.
  void attachTo(mlir::MLIRContext *context);


  /// The object of `entry` this session calls, and its flags.
  Plugin &getPlugin(const RegisteredPlugin &entry) const;
  const PluginOptions &getOptions(const RegisteredPlugin &entry) const;

private:
  PluginManager &manager;
  const PluginInstances *instances;
  std::vector<std::pair<std::string, std::string>> requests; // spec, origin
  std::vector<RegisteredPlugin *> active;
  std::vector<std::string> explicitIds;
  TargetRegistry targets;
  InputConversionRegistry inputConversions;
  std::unique_ptr<VariantClaims> claims;
  std::vector<std::pair<std::string, TuningSpecSource>> tuningSpecs;
  bool activated = false;
};

/// Registers --kiln-plugin, --kiln-load-plugin and --kiln-list-plugins
/// with LLVM's command line. Idempotent.
void registerPluginFlags();

/// True when --kiln-list-plugins was given.
bool shouldListPlugins();

/// A table of every plugin: id, version, where it came from, and whether
/// `session` (if any) activated it and why.
std::string describePlugins(const PluginSession *session);

/// Registers --load-pass-plugin and --load-dialect-plugin (tools other than
/// kiln-opt, which has MLIR's). Idempotent.
void registerUpstreamPluginFlags();

/// Everything a tool does at startup for plugins: registers the static
/// ones, loads the shared objects the arguments and environment name, and
/// registers every plugin's passes and flags; with `upstreamPlugins`, also
/// registers the flags of upstream MLIR plugins and loads those the
/// arguments name. Errors say which plugin.
llvm::Error initializePlugins(int argc, char **argv,
                              bool upstreamPlugins = false);

} // namespace kiln

#endif // KILN_PLUGIN_PLUGINMANAGER_H
