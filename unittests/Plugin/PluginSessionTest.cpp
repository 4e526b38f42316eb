//===- PluginSessionTest.cpp - Registration and activation ----------------===//
//
// The plugin manager and sessions through the C++ API, with plugins
// registered in the test (a manager of their own, not the process's).
//
//===----------------------------------------------------------------------===//

#include "kiln/Plugin/PluginManager.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Transforms/Passes.h"

#include "gtest/gtest.h"

using namespace kiln;

namespace {

/// Records its calls into a shared log.
class LoggingPlugin : public Plugin {
public:
  LoggingPlugin(std::string id, std::vector<std::string> &log)
      : id(std::move(id)), log(log) {}
  llvm::Error activate(PluginSession &) override {
    log.push_back("activate " + id);
    return llvm::Error::success();
  }
  void getTuningSpecs(std::vector<TuningSpecSource> &specs) override {
    specs.push_back({id + ".mlir", "module {}"});
  }
  void addPassesAfter(Phase phase, mlir::OpPassManager &pm) override {
    if (phase == Phase::Input && addsPasses)
      pm.addPass(mlir::createCanonicalizerPass());
  }
  bool addsPasses = false;

private:
  std::string id;
  std::vector<std::string> &log;
};

struct PluginSessionTest : public ::testing::Test {
  llvm::Error add(PluginDescription description, bool addsPasses = false) {
    std::string id = description.id;
    return manager.registerPlugin(
        std::move(description),
        [this, id, addsPasses] {
          auto plugin = std::make_unique<LoggingPlugin>(id, log);
          plugin->addsPasses = addsPasses;
          return plugin;
        },
        "unit test");
  }
  std::vector<std::string> activeIds(const PluginSession &session) {
    std::vector<std::string> ids;
    for (RegisteredPlugin *entry : session.getActivePlugins())
      ids.push_back(entry->description.id);
    return ids;
  }

  PluginManager manager;
  std::vector<std::string> log;
};

TEST_F(PluginSessionTest, DependenciesComeFirstWhateverTheRequestOrder) {
  ASSERT_FALSE(add({"c", "1", "", {"b"}}));
  ASSERT_FALSE(add({"b", "1", "", {"a"}}));
  ASSERT_FALSE(add({"a", "1", ""}));
  ASSERT_FALSE(add({"z", "1", ""}));
  PluginSession session(manager);
  session.request("c", "test");
  ASSERT_FALSE(session.activate());
  EXPECT_EQ(activeIds(session), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(log, (std::vector<std::string>{"activate a", "activate b",
                                           "activate c"}));
  EXPECT_TRUE(session.isExplicit("a"));
  EXPECT_FALSE(session.isActive("z"));
}

TEST_F(PluginSessionTest, DefaultOnUnlessTurnedOff) {
  PluginDescription onByDefault{"on", "1", ""};
  onByDefault.defaultOn = true;
  ASSERT_FALSE(add(onByDefault));
  {
    PluginSession session(manager);
    ASSERT_FALSE(session.activate());
    EXPECT_TRUE(session.isActive("on"));
    EXPECT_FALSE(session.isExplicit("on"));
  }
  PluginSession session(manager);
  session.request("-on", "test");
  ASSERT_FALSE(session.activate());
  EXPECT_FALSE(session.isActive("on"));
}

TEST_F(PluginSessionTest, TuningSpecsInActivationOrder) {
  ASSERT_FALSE(add({"second", "1", "", {"first"}}));
  ASSERT_FALSE(add({"first", "1", ""}));
  PluginSession session(manager);
  session.request("second", "test");
  ASSERT_FALSE(session.activate());
  ASSERT_EQ(session.getTuningSpecs().size(), 2u);
  EXPECT_EQ(session.getTuningSpecs()[0].first, "first");
  EXPECT_EQ(session.getTuningSpecs()[0].second.name, "first.mlir");
  EXPECT_EQ(session.getTuningSpecs()[1].first, "second");
}

TEST_F(PluginSessionTest, Errors) {
  ASSERT_FALSE(add({"a", "1", "", {"missing"}}));
  ASSERT_FALSE(add({"loop_x", "1", "", {"loop_y"}}));
  ASSERT_FALSE(add({"loop_y", "1", "", {"loop_x"}}));

  llvm::Error duplicate = add({"a", "2", ""});
  ASSERT_TRUE(!!duplicate);
  EXPECT_EQ(llvm::toString(std::move(duplicate)),
            "two plugins have the id 'a': one from unit test, one from unit "
            "test");
  llvm::Error malformed = add({"Bad-Id", "1", ""});
  ASSERT_TRUE(!!malformed);
  EXPECT_EQ(llvm::toString(std::move(malformed)),
            "plugin id 'Bad-Id' (from unit test) is malformed: use "
            "lower-case letters, digits and underscores");

  auto activationError = [&](llvm::StringRef request) {
    PluginSession session(manager);
    session.request(request, "test");
    llvm::Error error = session.activate();
    return error ? llvm::toString(std::move(error)) : std::string();
  };
  EXPECT_EQ(activationError("nothere"),
            "unknown plugin 'nothere' (from test); known plugins: a, loop_x, "
            "loop_y");
  EXPECT_EQ(activationError("a"),
            "plugin 'a' depends on 'missing', which is not registered; known "
            "plugins: a, loop_x, loop_y");
  EXPECT_EQ(activationError("loop_x"),
            "plugins 'loop_x' and 'loop_y' depend on each other");
}

TEST_F(PluginSessionTest, DefaultOnPluginsMayNotAddPasses) {
  PluginDescription description{"pushy", "1", ""};
  description.defaultOn = true;
  ASSERT_FALSE(add(description, /*addsPasses=*/true));
  PluginSession session(manager);
  llvm::Error error = session.activate();
  ASSERT_TRUE(!!error);
  EXPECT_EQ(llvm::toString(std::move(error)),
            "plugin 'pushy' is on by default, and default-on plugins may only "
            "add opt-in capabilities, but it adds passes to phase 'input'; "
            "activate it with --kiln-plugin=pushy");
}

TEST_F(PluginSessionTest, HooksOfExplicitPluginsOnly) {
  ASSERT_FALSE(add({"adds", "1", ""}, /*addsPasses=*/true));
  mlir::MLIRContext context;
  for (bool requested : {false, true}) {
    PluginSession session(manager);
    if (requested)
      session.request("adds", "test");
    ASSERT_FALSE(session.activate());
    mlir::OpPassManager pm(mlir::ModuleOp::getOperationName());
    session.addPassesAfter(Phase::Input, pm);
    session.addPassesAfter(Phase::GlobalOptimization, pm);
    EXPECT_EQ(pm.size(), requested ? 1u : 0u);
  }
}

} // namespace
