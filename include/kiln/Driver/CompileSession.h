//===- CompileSession.h - Everything one user of the compiler set -*- C++
//-*-===//
//
// A compile session holds what one user of the compiler chose: the
// pipeline's options, the plugins asked for, and (for a session of its
// own) the plugins' objects and flags. Each compile it runs gets a context
// of its own, to which the session's plugin state is attached
// (PluginSession::attachTo): sessions with different flags and plugins
// compile at once, on different threads, in one process.
//
// A tool has one session, whose options are its command-line flags
// (forTool). The C API and Python make sessions of their own (create),
// whose flags setFlags parses without touching the process's command line.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DRIVER_COMPILESESSION_H
#define KILN_DRIVER_COMPILESESSION_H

#include "kiln/Driver/CompileDriver.h"
#include "kiln/Options/OptionsBinder.h"
#include "kiln/Pipeline/Pipeline.h"
#include "kiln/Plugin/PluginManager.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace kiln {

class CompileSession {
public:
  /// The session of a tool, once its command line (`arguments`, without
  /// the program's name) is parsed: the --kiln-* flags, --kiln-plugin
  /// requests and the process's plugin objects.
  static std::unique_ptr<CompileSession>
  forTool(llvm::ArrayRef<std::string> arguments);
  /// A session of its own, with default options.
  static std::unique_ptr<CompileSession> create();

  ~CompileSession();

  /// Sets flags as kiln-compile's command line would (a session of its
  /// own): Kiln's --kiln-* flags, --kiln-plugin=ID, and the flags of
  /// plugins. Flags that act on the whole process (--kiln-load-plugin,
  /// --load-pass-plugin, --load-dialect-plugin) are accepted, as the
  /// process took them when it started; MLIR's flags (--mlir-*) are the
  /// process's and an error here. The error names the flag.
  llvm::Error setFlags(llvm::ArrayRef<std::string> flags);

  /// Asks for plugin `id` (`-id`: against it), `origin` naming the asker
  /// in errors.
  void requestPlugin(llvm::StringRef spec, llvm::StringRef origin);

  const PipelineOptions &getOptions() const { return options; }

  /// A plugin session for one compile: this session's requests and its
  /// plugin objects, not yet activated.
  std::unique_ptr<PluginSession> makePluginSession() const;

  /// Compiles `request` in a context of its own; diagnostics go to the
  /// request's stream. Several compiles of one session, or of several,
  /// may run at once on different threads.
  llvm::Error compile(const CompileRequest &request) const;

private:
  CompileSession() = default;

  bool isTool = false;
  PipelineOptions options;
  std::unique_ptr<OptionsBinder> binder;
  std::unique_ptr<PluginInstances> instances;
  std::vector<std::pair<std::string, std::string>> requests; // spec, origin
  /// The flags the session was given (a tool's arguments), part of the
  /// object cache's keys.
  std::vector<std::string> flags;
};

} // namespace kiln

#endif // KILN_DRIVER_COMPILESESSION_H
