//===- kiln-tool-supervisor.cpp - A preprocessing tool and its descendants
//-===//
//
// Kiln's own helper, not a user tool: executable preprocessing runs each
// tool under it (lib/ExecutablePreprocessing/Supervisor.cpp starts it with
// posix_spawn from <prefix>/libexec/kiln). It is a child subreaper, to which
// every orphaned descendant of the tool is reparented, even one that left
// the tool's process group or session (setsid). When the tool ends, or when
// Kiln stops it (SIGTERM), the supervisor kills the tool's process group and
// then every descendant left, until it has no child; so nothing the tool
// started outlives it or holds its pipes open. It exits as the tool did:
// its status, or the signal that killed it.
//
//   kiln-tool-supervisor COMPILER_PID TOOL [ARGUMENTS...]
//
// The tool's standard streams are the supervisor's 0-2. Descriptor 3 is the
// compiler's exec-error pipe: it receives errno when TOOL cannot be
// executed, and is closed (EOF) when it was.
//
// A small program of its own rather than a fork of the compiler: forking
// the compiler copied the page tables of its whole address space (LLVM and
// MLIR mapped, a heap of IR), twice per tool, and made every page the
// compiler wrote while the tool ran a copy-on-write fault; that cost 4x the
// tool's own spawn.
//
//===----------------------------------------------------------------------===//

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace {
/// The tool's pid (and process group), for the SIGTERM handler.
volatile sig_atomic_t toolPid = 0;
volatile sig_atomic_t stopRequested = 0;

void onStop(int) {
  stopRequested = 1;
  if (toolPid > 0)
    ::kill(-toolPid, SIGKILL);
}

/// Kills every child of the supervisor, reaps one, and again, until none is
/// left: each killed process's own children are then reparented here.
void killDescendants() {
  for (;;) {
    int fd = ::open("/proc/thread-self/children", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
      return; // No way to list them: leave the rest (and do not wait).
    char buffer[4096];
    ssize_t size = ::read(fd, buffer, sizeof(buffer) - 1);
    ::close(fd);
    pid_t pid = 0;
    for (ssize_t i = 0; i <= size; ++i) {
      char c = i < size ? buffer[i] : ' ';
      if (c >= '0' && c <= '9') {
        pid = pid * 10 + (c - '0');
      } else if (pid > 0) {
        ::kill(-pid, SIGKILL); // its group, if it leads one
        ::kill(pid, SIGKILL);
        pid = 0;
      }
    }
    int status;
    if (::waitpid(-1, &status, 0) < 0 && errno == ECHILD)
      return;
  }
}

[[noreturn]] void usage() {
  const char text[] = "kiln-tool-supervisor: Kiln's helper for executable "
                      "preprocessing, started by the compiler, not by "
                      "hand\nusage: kiln-tool-supervisor COMPILER_PID TOOL "
                      "[ARGUMENTS...]\n";
  (void)!::write(2, text, sizeof(text) - 1);
  ::_exit(2);
}
} // namespace

int main(int argc, char **argv) {
  if (argc < 3)
    usage();
  char *end = nullptr;
  long parent = std::strtol(argv[1], &end, 10);
  if (*argv[1] == '\0' || *end != '\0' || parent <= 0)
    usage();
  // Descriptor 3 is the exec-error pipe; without it there is no compiler.
  if (::fcntl(3, F_GETFD) < 0)
    usage();

  struct sigaction action;
  std::memset(&action, 0, sizeof(action));
  action.sa_handler = onStop; // no SA_RESTART: waitpid returns on it
  ::sigaction(SIGTERM, &action, nullptr);
  ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
  ::prctl(PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0);
  if (::getppid() != static_cast<pid_t>(parent)) // the compiler is gone
    stopRequested = 1;
  // A tool that crashes is reported, not dumped into the working folder.
  struct rlimit noCore = {0, 0};
  ::setrlimit(RLIMIT_CORE, &noCore);
  // Nothing of the compiler's (other tools' pipes) stays open here.
  ::fcntl(3, F_SETFD, FD_CLOEXEC);
  ::syscall(SYS_close_range, 4u, ~0u, 0u);

  pid_t tool = ::fork();
  if (tool == 0) {
    ::setpgid(0, 0);
    ::execve(argv[2], argv + 2, environ);
    int code = errno;
    (void)!::write(3, &code, sizeof(code));
    ::_exit(127);
  }
  // Only the tool holds its streams now.
  int null = ::open("/dev/null", O_RDWR);
  for (int fd = 0; fd < 3; ++fd)
    ::dup2(null, fd);
  ::close(null);
  ::close(3);
  if (tool < 0)
    return 127;
  ::setpgid(tool, tool);
  toolPid = tool;
  if (stopRequested)
    ::kill(-tool, SIGKILL);

  int status = 0;
  for (;;) {
    int childStatus;
    pid_t done = ::waitpid(-1, &childStatus, 0);
    if (done == tool) {
      status = childStatus;
      break;
    }
    if (done < 0 && errno == ECHILD)
      break;
  }
  // The tool is done: whatever it started goes too.
  ::kill(-tool, SIGKILL);
  killDescendants();
  if (stopRequested)
    ::kill(::getpid(), SIGKILL);
  if (WIFEXITED(status))
    return WEXITSTATUS(status);
  int sig = WTERMSIG(status);
  action.sa_handler = SIG_DFL;
  ::sigaction(sig, &action, nullptr);
  ::kill(::getpid(), sig);
  return 128 + sig;
}
