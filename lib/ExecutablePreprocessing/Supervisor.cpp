//===- Supervisor.cpp - A tool and all its descendants, as one ------------===//
//
// Starts kiln-tool-supervisor (tools/kiln-tool-supervisor) with posix_spawn,
// which does not copy the compiler's address space, and learns from the
// exec-error pipe whether the tool itself could be executed.
//
//===----------------------------------------------------------------------===//

#include "Supervisor.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char **environ;

using namespace kiln;

static constexpr const char *kHelperPath = "libexec/kiln/kiln-tool-supervisor";

/// Where kiln-tool-supervisor belongs: ../libexec/kiln from the folder of
/// the library holding this code (libKilnCompiler.so, in the build tree as
/// when installed); empty when the library cannot be located.
static std::string getSupervisorPath() {
  Dl_info info;
  if (!::dladdr(reinterpret_cast<void *>(&getSupervisorPath), &info) ||
      !info.dli_fname)
    return "";
  llvm::SmallString<256> library;
  if (llvm::sys::fs::real_path(info.dli_fname, library))
    return "";
  llvm::SmallString<256> path(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(library)));
  llvm::sys::path::append(path, kHelperPath);
  return std::string(path);
}

pid_t kiln::spawnSupervised(char *const *argv, int stdinFd, int stdoutFd,
                            int stderrFd, std::string &error) {
  static const std::string supervisor = getSupervisorPath();
  if (supervisor.empty() || !llvm::sys::fs::can_execute(supervisor) ||
      llvm::sys::fs::is_directory(supervisor)) {
    error = "Kiln's kiln-tool-supervisor is missing (looked for " +
            (supervisor.empty() ? std::string("it beside the compiler")
                                : supervisor) +
            "); reinstall Kiln";
    return -1;
  }

  int execError[2];
  if (::pipe2(execError, O_CLOEXEC) != 0) {
    error = std::string("cannot create a pipe: ") + std::strerror(errno);
    return -1;
  }
  std::string parent = std::to_string(::getpid());
  std::vector<char *> args = {const_cast<char *>(supervisor.c_str()),
                              parent.data()};
  for (char *const *arg = argv; *arg; ++arg)
    args.push_back(*arg);
  args.push_back(nullptr);

  // The tool's streams at 0-2 and the exec-error pipe at 3; every signal
  // at its default and none blocked, whatever the compiler's threads set.
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attributes;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, stdinFd, 0);
  posix_spawn_file_actions_adddup2(&actions, stdoutFd, 1);
  posix_spawn_file_actions_adddup2(&actions, stderrFd, 2);
  posix_spawn_file_actions_adddup2(&actions, execError[1], 3);
  posix_spawnattr_init(&attributes);
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  sigdelset(&all, SIGKILL);
  sigdelset(&all, SIGSTOP);
  posix_spawnattr_setsigmask(&attributes, &none);
  posix_spawnattr_setsigdefault(&attributes, &all);
  posix_spawnattr_setflags(&attributes,
                           POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  pid_t pid = -1;
  int spawned = ::posix_spawn(&pid, supervisor.c_str(), &actions, &attributes,
                              args.data(), environ);
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  ::close(execError[1]);
  if (spawned != 0) {
    error = "cannot start " + supervisor + ": " + std::strerror(spawned);
    ::close(execError[0]);
    return -1;
  }
  // EOF: the tool was executed. An errno: it could not be.
  int code = 0;
  ssize_t got;
  do
    got = ::read(execError[0], &code, sizeof(code));
  while (got < 0 && errno == EINTR);
  ::close(execError[0]);
  if (got == sizeof(code)) {
    int status;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    error = std::strerror(code);
    return -1;
  }
  return pid;
}

void kiln::stopSupervised(pid_t pid) { ::kill(pid, SIGTERM); }
