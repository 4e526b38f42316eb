//===- plugin_probe.cpp - What loading and activating a plugin costs ------===//
//
//   kiln-plugin-probe PLUGIN.so ID
//
// In a fresh process: registers Kiln's linked-in plugins, then times
// loading the shared-object plugin (dlopen, handshake, registration of its
// passes and flags) and activating plugin ID in a session (dependency
// order, flag checks, the plugin's activate hook, pipeline hooks). Prints
// one JSON object with the times in microseconds. Driven by
// bench/plugins.py, which runs it in many processes.
//
//===----------------------------------------------------------------------===//

#include "kiln/Driver/InitAll.h"
#include "kiln/Plugin/PluginManager.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using Clock = std::chrono::steady_clock;

static double microseconds(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double, std::micro>(to - from).count();
}

int main(int argc, char **argv) {
  if (argc != 3) {
    llvm::errs() << "usage: kiln-plugin-probe PLUGIN.so ID\n";
    return 2;
  }
  kiln::registerKilnPasses();
  char *noArgs[] = {argv[0]};
  if (llvm::Error error = kiln::initializePlugins(1, noArgs)) {
    llvm::errs() << llvm::toString(std::move(error)) << "\n";
    return 1;
  }

  // Not the plugin's cost: the context a compile has anyway.
  mlir::MLIRContext context;

  Clock::time_point start = Clock::now();
  if (llvm::Error error = kiln::PluginManager::get().loadPlugin(argv[1])) {
    llvm::errs() << llvm::toString(std::move(error)) << "\n";
    return 1;
  }
  Clock::time_point loaded = Clock::now();

  kiln::PluginSession session;
  session.request(argv[2], "kiln-plugin-probe");
  if (llvm::Error error = session.activate()) {
    llvm::errs() << llvm::toString(std::move(error)) << "\n";
    return 1;
  }
  session.attachTo(&context);
  // What a compile asks of an active plugin before running anything: its
  // passes at every phase boundary.
  mlir::PassManager pm(&context, mlir::ModuleOp::getOperationName());
  for (kiln::Phase phase : kiln::getAllPhases()) {
    session.addPassesBefore(phase, pm);
    session.addPassesAfter(phase, pm);
  }
  Clock::time_point activated = Clock::now();

  llvm::outs() << "{\"load_us\": " << microseconds(start, loaded)
               << ", \"activate_us\": " << microseconds(loaded, activated)
               << ", \"total_us\": " << microseconds(start, activated) << "}\n";
  return 0;
}
