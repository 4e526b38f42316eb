//===- PluginManager.cpp - Registering and activating plugins -------------===//
//
// The registry of plugins (linked in or loaded from shared objects, with
// the handshake that refuses mismatched ones), the flags that load, list
// and activate them, and the session that activates them for a compile.
//
//===----------------------------------------------------------------------===//

#include "kiln/Plugin/PluginManager.h"
#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "kiln/Dialect/Kiln/IR/SessionState.h"
#include "kiln_module_abi.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/ManagedStatic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <mutex>
#include <set>

using namespace mlir;
using namespace kiln;

/// Defined by the registry CMake generates: registers every plugin linked
/// into the compiler.
namespace kiln {
llvm::Error registerLinkedPlugins(PluginRegistrar &registrar);
} // namespace kiln

//===----------------------------------------------------------------------===//
// The API's classes
//===----------------------------------------------------------------------===//

Plugin::~Plugin() = default;
PluginRegistrar::~PluginRegistrar() = default;

PluginOptions::PluginOptions(llvm::StringRef pluginId,
                             llvm::cl::OptionCategory &category,
                             llvm::cl::SubCommand *scope)
    : pluginId(pluginId.str()), category(category), scope(scope) {}

llvm::StringRef PluginOptions::keep(std::string text) {
  strings.push_back(std::make_unique<std::string>(std::move(text)));
  return *strings.back();
}

//===----------------------------------------------------------------------===//
// Flags
//===----------------------------------------------------------------------===//

namespace {
struct PluginFlags {
  llvm::cl::OptionCategory category{"Kiln plugin options"};
  llvm::cl::list<std::string> plugins{
      "kiln-plugin",
      llvm::cl::desc("Activate plugin ID for this compile, or with -ID keep "
                     "a default-on plugin off; repeat or separate with "
                     "commas"),
      llvm::cl::value_desc("[-]id"), llvm::cl::CommaSeparated,
      llvm::cl::cat(category)};
  llvm::cl::list<std::string> load{
      "kiln-load-plugin",
      llvm::cl::desc("Load the shared-object plugin at PATH (also: the "
                     "KILN_PLUGIN_PATH environment variable)"),
      llvm::cl::value_desc("path"), llvm::cl::cat(category)};
  llvm::cl::opt<bool> list{
      "kiln-list-plugins",
      llvm::cl::desc("List every plugin: id, version, where it came from, "
                     "and whether a compile with these flags (and, given a "
                     "program, its kiln.plugins) activates it"),
      llvm::cl::cat(category)};
};
} // namespace

static llvm::ManagedStatic<PluginFlags> flags;

void kiln::registerPluginFlags() { *flags; }

namespace {
/// MLIR's plugin flags, for tools without MLIR's opt driver. The plugins
/// are loaded before the command line is parsed
/// (loadUpstreamPluginsFromArguments); these make the flags known.
struct UpstreamPluginFlags {
  llvm::cl::list<std::string> passPlugins{
      "load-pass-plugin",
      llvm::cl::desc("Load an upstream MLIR pass plugin (a shared object "
                     "exporting mlirGetPassPluginInfo)"),
      llvm::cl::value_desc("path")};
  llvm::cl::list<std::string> dialectPlugins{
      "load-dialect-plugin",
      llvm::cl::desc("Load an upstream MLIR dialect plugin (a shared object "
                     "exporting mlirGetDialectPluginInfo)"),
      llvm::cl::value_desc("path")};
};
} // namespace

static llvm::ManagedStatic<UpstreamPluginFlags> upstreamFlags;

void kiln::registerUpstreamPluginFlags() { *upstreamFlags; }

bool kiln::shouldListPlugins() { return flags.isConstructed() && flags->list; }

//===----------------------------------------------------------------------===//
// PluginManager
//===----------------------------------------------------------------------===//

PluginManager &PluginManager::get() {
  // Never destroyed: at exit, LLVM closes the shared objects plugins came
  // from, and their destructors and flags would go first.
  static PluginManager *manager = new PluginManager();
  return *manager;
}

namespace {
/// Registers into the manager, remembering where the plugins come from.
class ManagerRegistrar : public PluginRegistrar {
public:
  ManagerRegistrar(PluginManager &manager, llvm::StringRef source)
      : manager(manager), source(source.str()) {}
  llvm::Error
  registerPlugin(PluginDescription description,
                 std::function<std::unique_ptr<Plugin>()> create) override {
    return manager.registerPlugin(std::move(description), std::move(create),
                                  source);
  }

private:
  PluginManager &manager;
  std::string source;
};
} // namespace

static bool isValidId(llvm::StringRef id) {
  return !id.empty() && llvm::all_of(id, [](char c) {
    return llvm::isLower(c) || llvm::isDigit(c) || c == '_';
  });
}

llvm::Error
PluginManager::registerPlugin(PluginDescription description,
                              std::function<std::unique_ptr<Plugin>()> create,
                              llvm::StringRef source) {
  std::string id = description.id;
  if (!isValidId(id))
    return llvm::createStringError(
        "plugin id '" + id + "' (from " + source +
        ") is malformed: use lower-case letters, digits and underscores");
  if (RegisteredPlugin *existing = lookup(id))
    return llvm::createStringError("two plugins have the id '" + id +
                                   "': one from " + existing->source +
                                   ", one from " + source);
  std::unique_ptr<Plugin> instance = create ? create() : nullptr;
  if (!instance)
    return llvm::createStringError("plugin '" + id + "' (from " + source +
                                   ") created no instance");
  auto entry = std::make_unique<RegisteredPlugin>();
  entry->description = std::move(description);
  entry->create = std::move(create);
  entry->plugin = std::move(instance);
  entry->source = source.str();
  entry->categoryName = "Plugin '" + id + "' options";
  entry->category = std::make_unique<llvm::cl::OptionCategory>(
      entry->categoryName, entry->description.description);
  entry->options = std::make_unique<PluginOptions>(id, *entry->category);
  entry->plugin->registerPasses();
  entry->plugin->registerOptions(*entry->options);
  plugins.emplace(id, std::move(entry));
  return llvm::Error::success();
}

llvm::Error PluginManager::registerStaticPlugins() {
  if (staticRegistered)
    return llvm::Error::success();
  staticRegistered = true;
  ManagerRegistrar registrar(*this, "static");
  if (llvm::Error error = registerLinkedPlugins(registrar))
    return llvm::createStringError(
        "registering the plugins linked into Kiln failed: " +
        llvm::toString(std::move(error)));
  return llvm::Error::success();
}

llvm::Error PluginManager::loadPlugin(llvm::StringRef path) {
  for (const auto &entry : plugins)
    if (entry.second->source == path)
      return llvm::Error::success();
  if (!llvm::sys::fs::exists(path))
    return llvm::createStringError("cannot load plugin '" + path +
                                   "': no such file");
  if (llvm::sys::fs::is_directory(path))
    return llvm::createStringError("cannot load plugin '" + path +
                                   "': it is a directory");
  // The dynamic loader trusts what it maps: a truncated or damaged plugin
  // would crash inside it.
  auto bytes = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                           /*RequiresNullTerminator=*/false);
  if (!bytes)
    return llvm::createStringError("cannot load plugin '" + path +
                                   "': " + bytes.getError().message());
  if (const char *problem = kiln_check_elf_shared_object(
          reinterpret_cast<const unsigned char *>((*bytes)->getBufferStart()),
          (*bytes)->getBufferSize()))
    return llvm::createStringError("cannot load plugin '" + path +
                                   "': " + problem);
  std::string message;
  auto library = llvm::sys::DynamicLibrary::getPermanentLibrary(
      path.str().c_str(), &message);
  if (!library.isValid())
    return llvm::createStringError("cannot load plugin '" + path +
                                   "': " + message);

  using HandshakeFn = const kiln_plugin_handshake_info *(*)();
  auto handshake = reinterpret_cast<HandshakeFn>(
      library.getAddressOfSymbol("kiln_plugin_handshake"));
  if (!handshake)
    return llvm::createStringError(
        "'" + path +
        "' is not a Kiln plugin: it does not export kiln_plugin_handshake "
        "(build plugins with the kiln_add_plugin CMake function)");
  const kiln_plugin_handshake_info *info = handshake();
  std::string theirs = "plugin API version " +
                       std::to_string(info->api_version) + ", Kiln build " +
                       info->kiln_build_id + " and MLIR " + info->mlir_version;
  std::string ours =
      "plugin API version " + std::to_string(KILN_PLUGIN_API_VERSION) +
      ", Kiln build " KILN_BUILD_ID " and MLIR " + LLVM_VERSION_STRING;
  if (info->api_version != KILN_PLUGIN_API_VERSION ||
      llvm::StringRef(info->kiln_build_id) != KILN_BUILD_ID ||
      llvm::StringRef(info->mlir_version) != LLVM_VERSION_STRING)
    return llvm::createStringError("plugin '" + path + "' was built against " +
                                   theirs + "; this Kiln has " + ours +
                                   ": rebuild the plugin against this Kiln");

  using RegisterFn = llvm::Error *(*)(PluginRegistrar *);
  auto registerFn = reinterpret_cast<RegisterFn>(
      library.getAddressOfSymbol("kiln_plugin_register"));
  if (!registerFn)
    return llvm::createStringError("'" + path +
                                   "' is not a Kiln plugin: it does not export "
                                   "kiln_plugin_register");
  ManagerRegistrar registrar(*this, path);
  if (llvm::Error *error = registerFn(&registrar)) {
    std::string text = llvm::toString(std::move(*error));
    delete error;
    return llvm::createStringError("registering the plugin in '" + path +
                                   "' failed: " + text);
  }
  return llvm::Error::success();
}

llvm::Error
PluginManager::loadPluginsFromArguments(llvm::ArrayRef<const char *> args) {
  std::vector<std::string> paths;
  for (size_t i = 0; i < args.size(); ++i) {
    llvm::StringRef arg = args[i];
    if (!arg.consume_front("--") && !arg.consume_front("-"))
      continue;
    if (arg.consume_front("kiln-load-plugin=")) {
      paths.push_back(arg.str());
    } else if (arg == "kiln-load-plugin" && i + 1 < args.size()) {
      paths.push_back(args[++i]);
    }
  }
  if (const char *env = std::getenv("KILN_PLUGIN_PATH")) {
    llvm::SmallVector<llvm::StringRef> entries;
    llvm::StringRef(env).split(entries, ':', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef entry : entries) {
      if (!llvm::sys::fs::is_directory(entry)) {
        paths.push_back(entry.str());
        continue;
      }
      std::vector<std::string> found;
      std::error_code ec;
      for (llvm::sys::fs::directory_iterator it(entry, ec), end;
           it != end && !ec; it.increment(ec))
        if (llvm::sys::path::extension(it->path()) == ".so")
          found.push_back(it->path());
      llvm::sort(found);
      llvm::append_range(paths, found);
    }
  }
  for (const std::string &path : paths)
    if (llvm::Error error = loadPlugin(path))
      return error;
  return llvm::Error::success();
}

void PluginManager::registerDialects(DialectRegistry &registry) const {
  for (const auto &entry : plugins)
    entry.second->plugin->registerDialects(registry);
  for (const auto &plugin : upstreamDialectPlugins)
    plugin->registerDialectRegistryCallbacks(registry);
}

llvm::Error PluginManager::loadUpstreamPluginsFromArguments(
    llvm::ArrayRef<const char *> args) {
  auto valueOf = [&](size_t &i,
                     llvm::StringRef name) -> std::optional<std::string> {
    llvm::StringRef arg = args[i];
    if (!arg.consume_front("--") && !arg.consume_front("-"))
      return std::nullopt;
    if (arg.consume_front(name) && arg.consume_front("="))
      return arg.str();
    if (arg == name && i + 1 < args.size())
      return std::string(args[++i]);
    return std::nullopt;
  };
  for (size_t i = 0; i < args.size(); ++i) {
    size_t at = i;
    if (std::optional<std::string> path = valueOf(i, "load-pass-plugin")) {
      if (llvm::is_contained(upstreamPassPlugins, *path))
        continue;
      if (!llvm::sys::fs::exists(*path))
        return llvm::createStringError("cannot load MLIR pass plugin '" +
                                       *path + "': no such file");
      llvm::Expected<PassPlugin> plugin = PassPlugin::load(*path);
      if (!plugin)
        return llvm::createStringError(
            "cannot load MLIR pass plugin '" + *path +
            "': " + llvm::toString(plugin.takeError()));
      plugin->registerPassRegistryCallbacks();
      upstreamPassPlugins.push_back(*path);
      continue;
    }
    i = at;
    if (std::optional<std::string> path = valueOf(i, "load-dialect-plugin")) {
      if (!llvm::sys::fs::exists(*path))
        return llvm::createStringError("cannot load MLIR dialect plugin '" +
                                       *path + "': no such file");
      llvm::Expected<DialectPlugin> plugin = DialectPlugin::load(*path);
      if (!plugin)
        return llvm::createStringError(
            "cannot load MLIR dialect plugin '" + *path +
            "': " + llvm::toString(plugin.takeError()));
      upstreamDialectPlugins.push_back(
          std::make_unique<DialectPlugin>(std::move(*plugin)));
    }
  }
  return llvm::Error::success();
}

RegisteredPlugin *PluginManager::lookup(llvm::StringRef id) const {
  auto it = plugins.find(id.str());
  return it == plugins.end() ? nullptr : it->second.get();
}

std::vector<RegisteredPlugin *> PluginManager::getPlugins() const {
  std::vector<RegisteredPlugin *> list;
  for (const auto &entry : plugins)
    list.push_back(entry.second.get());
  return list;
}

llvm::Error kiln::initializePlugins(int argc, char **argv,
                                    bool upstreamPlugins) {
  registerPluginFlags();
  PluginManager &manager = PluginManager::get();
  if (llvm::Error error = manager.registerStaticPlugins())
    return error;
  std::vector<const char *> args(argv, argv + argc);
  if (llvm::Error error = manager.loadPluginsFromArguments(args))
    return error;
  if (!upstreamPlugins)
    return llvm::Error::success();
  registerUpstreamPluginFlags();
  return manager.loadUpstreamPluginsFromArguments(args);
}

//===----------------------------------------------------------------------===//
// PluginSession
//===----------------------------------------------------------------------===//

namespace {
/// Dispatch claims of a session's explicitly active plugins.
class SessionClaims : public VariantClaims {
public:
  explicit SessionClaims(PluginSession &session) : session(session) {}

  std::optional<VariantClaim> claim(Operation *op) override {
    auto variant = dyn_cast<ExecutableVariantOp>(op);
    if (!variant)
      return std::nullopt;
    for (RegisteredPlugin *entry : session.getActivePlugins())
      if (session.isExplicit(entry->description.id) &&
          session.getPlugin(*entry).claimVariant(variant))
        return makeClaim(session.getPlugin(*entry), entry->description.id);
    return std::nullopt;
  }

  std::optional<VariantClaim> lookup(llvm::StringRef claimant) override {
    for (RegisteredPlugin *entry : session.getActivePlugins())
      if (entry->description.id == claimant && session.isExplicit(claimant))
        return makeClaim(session.getPlugin(*entry), entry->description.id);
    return std::nullopt;
  }

private:
  static VariantClaim makeClaim(Plugin &object, const std::string &id) {
    Plugin *plugin = &object;
    return VariantClaim{id,
                        [plugin](OpPassManager &pm) {
                          plugin->buildClaimedConfigurationPipeline(pm);
                        },
                        [plugin](OpPassManager &pm) {
                          plugin->buildClaimedCodegenPipeline(pm);
                        }};
  }

  PluginSession &session;
};
} // namespace

PluginSession::PluginSession(PluginManager &manager,
                             const PluginInstances *instances)
    : manager(manager), instances(instances),
      targets(&TargetRegistry::getBuiltin()),
      inputConversions(&InputConversionRegistry::getBuiltin()),
      claims(std::make_unique<SessionClaims>(*this)) {}

PluginSession::~PluginSession() = default;

Plugin &PluginSession::getPlugin(const RegisteredPlugin &entry) const {
  return instances ? instances->getPlugin(entry) : *entry.plugin;
}

const PluginOptions &
PluginSession::getOptions(const RegisteredPlugin &entry) const {
  return instances ? instances->getOptions(entry) : *entry.options;
}

//===----------------------------------------------------------------------===//
// PluginInstances
//===----------------------------------------------------------------------===//

/// Sessions of their own may be made on several threads at once; their
/// flags' registration with their private scopes goes one at a time.
static std::mutex &getInstancesMutex() {
  static std::mutex mutex;
  return mutex;
}

PluginInstances::PluginInstances(PluginManager &manager)
    : scope(std::make_unique<llvm::cl::SubCommand>()) {
  std::lock_guard<std::mutex> lock(getInstancesMutex());
  for (RegisteredPlugin *entry : manager.getPlugins()) {
    Instance &instance = instances[entry];
    // The process's category (LLVM keeps a category registered for good).
    instance.options = std::make_unique<PluginOptions>(
        entry->description.id, *entry->category, scope.get());
    instance.plugin = entry->create();
    if (instance.plugin)
      instance.plugin->registerOptions(*instance.options);
  }
}

PluginInstances::~PluginInstances() {
  std::lock_guard<std::mutex> lock(getInstancesMutex());
  instances.clear();
}

Plugin &PluginInstances::getPlugin(const RegisteredPlugin &entry) const {
  const Instance &instance = instances.at(&entry);
  // A factory that made an instance once (at registration) and not now
  // gets the process's.
  return instance.plugin ? *instance.plugin : *entry.plugin;
}

const PluginOptions &
PluginInstances::getOptions(const RegisteredPlugin &entry) const {
  return *instances.at(&entry).options;
}

llvm::cl::Option *PluginInstances::findFlag(llvm::StringRef name) const {
  auto it = scope->OptionsMap.find(name);
  return it == scope->OptionsMap.end() ? nullptr : it->second;
}

bool PluginInstances::hasFlag(llvm::StringRef name) const {
  return findFlag(name) != nullptr;
}

bool PluginInstances::takesValue(llvm::StringRef name) const {
  llvm::cl::Option *option = findFlag(name);
  return option && option->getValueExpectedFlag() == llvm::cl::ValueRequired;
}

llvm::Error PluginInstances::setFlag(llvm::StringRef name,
                                     std::optional<llvm::StringRef> value) {
  llvm::cl::Option *option = findFlag(name);
  if (!option)
    return llvm::createStringError("no plugin has a flag '--" + name + "'");
  if (!value && option->getValueExpectedFlag() == llvm::cl::ValueRequired)
    return llvm::createStringError("--" + name + " needs a value");
  // LLVM's parser reports a value it cannot read on stderr as well.
  if (option->addOccurrence(1, name, value.value_or("")))
    return llvm::createStringError("--" + name + "='" + value.value_or("") +
                                   "' is not a valid value");
  return llvm::Error::success();
}

void PluginSession::request(llvm::StringRef spec, llvm::StringRef origin) {
  requests.emplace_back(spec.trim().str(), origin.str());
}

void PluginSession::requestFromFlags() {
  if (!flags.isConstructed())
    return;
  for (const std::string &spec : flags->plugins)
    request(spec, "--kiln-plugin");
}

void PluginSession::requestFromModule(ModuleOp module) {
  // The kiln dialect's verifier has checked that it is an array of ids.
  auto ids =
      module->getAttrOfType<ArrayAttr>(KilnDialect::getPluginsAttrName());
  if (!ids)
    return;
  for (Attribute id : ids)
    request(cast<StringAttr>(id).getValue(), "the program's kiln.plugins");
}

bool PluginSession::isActive(llvm::StringRef id) const {
  return llvm::any_of(active, [&](RegisteredPlugin *entry) {
    return entry->description.id == id;
  });
}

bool PluginSession::isExplicit(llvm::StringRef id) const {
  return llvm::is_contained(explicitIds, id);
}

static std::string knownIds(const PluginManager &manager) {
  std::vector<std::string> ids;
  for (RegisteredPlugin *entry : manager.getPlugins())
    ids.push_back(entry->description.id);
  return ids.empty() ? "none" : llvm::join(ids, ", ");
}

llvm::Error PluginSession::activate() {
  if (activated)
    return llvm::Error::success();
  activated = true;

  // Which plugins: default-on ones, then the requests in order.
  std::set<std::string> wanted, off;
  for (RegisteredPlugin *entry : manager.getPlugins())
    if (entry->description.defaultOn)
      wanted.insert(entry->description.id);
  for (const auto &[spec, origin] : requests) {
    llvm::StringRef id = spec;
    bool disable = id.consume_front("-");
    if (!manager.lookup(id))
      return llvm::createStringError("unknown plugin '" + id + "' (from " +
                                     origin +
                                     "); known plugins: " + knownIds(manager));
    if (disable) {
      wanted.erase(id.str());
      off.insert(id.str());
      llvm::erase(explicitIds, id.str());
    } else {
      wanted.insert(id.str());
      off.erase(id.str());
      if (!llvm::is_contained(explicitIds, id.str()))
        explicitIds.push_back(id.str());
    }
  }

  // Dependencies come along, and come first; ties go by id.
  std::vector<std::string> order;
  std::set<std::string> done, visiting;
  std::function<llvm::Error(const std::string &, const std::string &)> visit =
      [&](const std::string &id, const std::string &by) -> llvm::Error {
    if (done.count(id))
      return llvm::Error::success();
    RegisteredPlugin *entry = manager.lookup(id);
    if (!entry)
      return llvm::createStringError("plugin '" + by + "' depends on '" + id +
                                     "', which is not registered; known "
                                     "plugins: " +
                                     knownIds(manager));
    if (off.count(id))
      return llvm::createStringError("plugin '" + by + "' depends on '" + id +
                                     "', which --kiln-plugin=-" + id +
                                     " turns off");
    if (!visiting.insert(id).second)
      return llvm::createStringError("plugins '" + id + "' and '" + by +
                                     "' depend on each other");
    std::vector<std::string> dependencies = entry->description.dependencies;
    llvm::sort(dependencies);
    for (const std::string &dependency : dependencies) {
      // A dependency of an explicit plugin is explicit too (and so are
      // its own, marked when it is visited).
      if (isExplicit(id) && !isExplicit(dependency))
        explicitIds.push_back(dependency);
      if (llvm::Error error = visit(dependency, id))
        return error;
    }
    visiting.erase(id);
    done.insert(id);
    order.push_back(id);
    return llvm::Error::success();
  };
  for (const std::string &id : wanted)
    if (llvm::Error error = visit(id, id))
      return error;
  for (const std::string &id : order)
    active.push_back(manager.lookup(id));

  // The flags of inactive plugins must not be used.
  for (RegisteredPlugin *entry : manager.getPlugins()) {
    if (isActive(entry->description.id))
      continue;
    for (const auto &option : getOptions(*entry).getOptions())
      if (option->getNumOccurrences())
        return llvm::createStringError(
            "--" + option->ArgStr + " is a flag of plugin '" +
            entry->description.id +
            "', which is not active in this compile; activate it with "
            "--kiln-plugin=" +
            entry->description.id);
  }

  for (RegisteredPlugin *entry : active) {
    const std::string &id = entry->description.id;
    Plugin &plugin = getPlugin(*entry);
    // On by default, a plugin may only add what a compile opts into.
    if (!isExplicit(id)) {
      for (Phase phase : getAllPhases()) {
        OpPassManager before(ModuleOp::getOperationName());
        OpPassManager after(ModuleOp::getOperationName());
        plugin.addPassesBefore(phase, before);
        plugin.addPassesAfter(phase, after);
        if (before.size() || after.size())
          return llvm::createStringError(
              "plugin '" + id +
              "' is on by default, and default-on plugins may only add "
              "opt-in capabilities, but it adds passes to phase '" +
              getPhaseName(phase) + "'; activate it with --kiln-plugin=" + id);
      }
    }
    if (llvm::Error error = plugin.activate(*this))
      return llvm::createStringError(
          "plugin '" + id +
          "' failed to activate: " + llvm::toString(std::move(error)));
    std::vector<InputConversion> conversions;
    plugin.getInputConversions(conversions);
    for (InputConversion &conversion : conversions) {
      std::string name = conversion.name;
      if (llvm::Error error = inputConversions.add(std::move(conversion))) {
        llvm::consumeError(std::move(error));
        return llvm::createStringError(
            "plugin '" + id + "' adds input conversion '" + name +
            "', but one of that name exists already");
      }
    }
    std::vector<std::unique_ptr<TargetBackend>> backends;
    plugin.getTargetBackends(backends);
    for (auto &backend : backends) {
      std::string name = backend->getName().str();
      if (llvm::Error error = targets.registerBackend(std::move(backend))) {
        llvm::consumeError(std::move(error));
        return llvm::createStringError(
            "plugin '" + id + "' adds target backend '" + name +
            "', but one of that name exists already");
      }
    }
    std::vector<TuningSpecSource> specs;
    plugin.getTuningSpecs(specs);
    for (TuningSpecSource &spec : specs)
      tuningSpecs.emplace_back(id, std::move(spec));
  }
  return llvm::Error::success();
}

/// Lets `add` put the plugin's passes for one phase boundary into a fresh
/// pass manager, and adds them to `pm` in a pass whose failure names the
/// plugin.
static void
addPluginPasses(OpPassManager &pm, const RegisteredPlugin &entry,
                Plugin &plugin, llvm::StringRef where,
                llvm::function_ref<void(Plugin &, OpPassManager &)> add) {
  OpPassManager passes(ModuleOp::getOperationName());
  add(plugin, passes);
  if (passes.size() == 0)
    return;
  pm.addPass(createRunPipelinePass(
      std::move(passes),
      ("the passes plugin '" + entry.description.id + "' runs " + where)
          .str()));
}

llvm::Error
PluginSession::checkDialectsOfInactivePlugins(ModuleOp module) const {
  for (RegisteredPlugin *entry : manager.getPlugins()) {
    if (isActive(entry->description.id))
      continue;
    DialectRegistry registry;
    getPlugin(*entry).registerDialects(registry);
    // A registry starts with the builtin dialect; that one is nobody's.
    llvm::SmallVector<llvm::StringRef> names = llvm::filter_to_vector(
        registry.getDialectNames(),
        [](llvm::StringRef name) { return name != "builtin"; });
    if (names.empty())
      continue;
    Operation *found = nullptr;
    module.walk([&](Operation *op) {
      if (llvm::is_contained(names, op->getName().getDialectNamespace())) {
        found = op;
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (!found)
      continue;
    const std::string &id = entry->description.id;
    std::string advice = entry->description.defaultOn
                             ? "it is on by default: drop --kiln-plugin=-" + id
                             : "activate it with --kiln-plugin=" + id;
    found->emitError() << "'" << found->getName() << "' belongs to dialect '"
                       << found->getName().getDialectNamespace()
                       << "' of plugin '" << id
                       << "', which is not active in this compile; " << advice;
    return llvm::createStringError("the program needs plugin '" + id +
                                   "' (see above), which is not active");
  }
  return llvm::Error::success();
}

void PluginSession::addPassesBefore(Phase phase, OpPassManager &pm) {
  for (RegisteredPlugin *entry : active)
    if (isExplicit(entry->description.id))
      addPluginPasses(pm, *entry, getPlugin(*entry),
                      ("before phase '" + getPhaseName(phase) + "'").str(),
                      [&](Plugin &plugin, OpPassManager &passes) {
                        plugin.addPassesBefore(phase, passes);
                      });
}

void PluginSession::addPassesAfter(Phase phase, OpPassManager &pm) {
  for (RegisteredPlugin *entry : active)
    if (isExplicit(entry->description.id))
      addPluginPasses(pm, *entry, getPlugin(*entry),
                      ("after phase '" + getPhaseName(phase) + "'").str(),
                      [&](Plugin &plugin, OpPassManager &passes) {
                        plugin.addPassesAfter(phase, passes);
                      });
}

void PluginSession::addTuningSpecs(
    std::vector<TuningOptions::PluginSpec> &specs) {
  for (const auto &[plugin, spec] : tuningSpecs)
    specs.push_back({plugin, spec.name, spec.contents});
}

llvm::Error PluginSession::beginCompile(ModuleOp module) {
  requestFromModule(module);
  if (llvm::Error error = activate())
    return error;
  if (llvm::Error error = checkDialectsOfInactivePlugins(module))
    return error;
  attachTo(module->getContext());
  return llvm::Error::success();
}

llvm::Expected<std::optional<InputImporter>>
PluginSession::findImporter(llvm::StringRef contents, llvm::StringRef inputType,
                            llvm::StringRef path) {
  // Every registered plugin's importers, so that a file whose importer is
  // turned off is named as such instead of failing to parse as MLIR. By
  // content first; a file no importer recognizes goes to the one named as
  // its extension (a damaged model.onnx to the ONNX importer, which says
  // where it is damaged, not to MLIR's parser).
  std::optional<std::pair<InputImporter, std::string>> found, byExtension;
  llvm::StringRef extension = llvm::sys::path::extension(path);
  extension.consume_front(".");
  for (RegisteredPlugin *entry : manager.getPlugins()) {
    std::vector<InputImporter> importers;
    getPlugin(*entry).getInputImporters(importers);
    for (InputImporter &importer : importers) {
      bool selected = inputType == "auto" ? importer.recognizes(contents)
                                          : importer.name == inputType;
      if (selected && !found)
        found.emplace(std::move(importer), entry->description.id);
      else if (inputType == "auto" && !byExtension && !extension.empty() &&
               extension.equals_insensitive(importer.name))
        byExtension.emplace(std::move(importer), entry->description.id);
    }
  }
  if (!found)
    found = std::move(byExtension);
  if (!found)
    return std::nullopt;
  if (llvm::Error error = activate())
    return std::move(error);
  const std::string &id = found->second;
  if (!isActive(id))
    return llvm::createStringError(
        "'" + path + "' is " + found->first.description + ", which plugin '" +
        id + "' reads, but that plugin is not active in this compile" +
        (manager.lookup(id)->description.defaultOn
             ? " (--kiln-plugin=-" + id + " turns it off)"
             : "; activate it with --kiln-plugin=" + id));
  return std::optional<InputImporter>(std::move(found->first));
}

void PluginSession::attachTo(MLIRContext *context) {
  attachSessionState<PipelineHooks>(context, this);
  attachSessionState<TargetRegistry>(context, &targets);
  attachSessionState<InputConversionRegistry>(context, &inputConversions);
  attachSessionState<VariantClaims>(context, claims.get());
  // What the plugins' backends, conversions and passes create, loaded now:
  // passes find only the built-in ones' dialects from their declarations,
  // and a context compiling on several threads loads none later.
  DialectRegistry registry;
  targets.getDependentDialects(registry);
  inputConversions.getDependentDialects(registry);
  for (Phase phase : getAllPhases()) {
    OpPassManager pm(ModuleOp::getOperationName());
    addPassesBefore(phase, pm);
    addPassesAfter(phase, pm);
    pm.getDependentDialects(registry);
  }
  for (RegisteredPlugin *entry : active)
    if (isExplicit(entry->description.id)) {
      OpPassManager configuration(ExecutableVariantOp::getOperationName());
      OpPassManager codegen(ExecutableVariantOp::getOperationName());
      getPlugin(*entry).buildClaimedConfigurationPipeline(configuration);
      getPlugin(*entry).buildClaimedCodegenPipeline(codegen);
      configuration.getDependentDialects(registry);
      codegen.getDependentDialects(registry);
    }
  context->appendDialectRegistry(registry);
  for (llvm::StringRef name : registry.getDialectNames())
    context->getOrLoadDialect(name);
}

std::string kiln::describePlugins(const PluginSession *session) {
  std::vector<RegisteredPlugin *> plugins = PluginManager::get().getPlugins();
  if (plugins.empty())
    return "no plugins\n";
  struct Row {
    std::string id, version, status, source;
  };
  std::vector<Row> rows = {{"id", "version", "status", "source"}};
  for (RegisteredPlugin *entry : plugins) {
    const PluginDescription &d = entry->description;
    std::string status;
    if (!session)
      status = d.defaultOn ? "default-on" : "opt-in";
    else if (session->isActive(d.id))
      status = session->isExplicit(d.id) ? "active" : "active (default-on)";
    else
      status = d.defaultOn ? "inactive (default-on, turned off)" : "inactive";
    rows.push_back({d.id, d.version, status, entry->source});
  }
  size_t idWidth = 0, versionWidth = 0, statusWidth = 0;
  for (const Row &row : rows) {
    idWidth = std::max(idWidth, row.id.size() + 2);
    versionWidth = std::max(versionWidth, row.version.size() + 2);
    statusWidth = std::max(statusWidth, row.status.size() + 2);
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  for (const Row &row : rows)
    os << llvm::left_justify(row.id, idWidth)
       << llvm::left_justify(row.version, versionWidth)
       << llvm::left_justify(row.status, statusWidth) << row.source << "\n";
  os.flush();
  return text;
}
