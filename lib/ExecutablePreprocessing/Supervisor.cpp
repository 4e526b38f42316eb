//===- Supervisor.cpp - A tool and all its descendants, as one ------------===//
//
// The supervisor is a fork of the compiler, which has other threads: until
// it exits it calls only async-signal-safe functions (raw system calls, no
// allocation, no locks), on data prepared before the fork.
//
//===----------------------------------------------------------------------===//

#include "Supervisor.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

using namespace kiln;

namespace {
/// The tool's pid (and process group), for the SIGTERM handler.
volatile sig_atomic_t toolPid = 0;
volatile sig_atomic_t stopRequested = 0;
} // namespace

static void onStop(int) {
  stopRequested = 1;
  if (toolPid > 0)
    ::kill(-toolPid, SIGKILL);
}

/// Kills every child of the supervisor, reaps one, and again, until none is
/// left: each killed process's own children are then reparented here.
static void killDescendants() {
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

/// The supervisor: never returns. `execError` receives errno if the tool
/// cannot be executed.
[[noreturn]] static void supervise(char *const *argv, int in, int out, int err,
                                   int execError, pid_t parent) {
  struct sigaction action;
  std::memset(&action, 0, sizeof(action));
  action.sa_handler = SIG_DFL;
  for (int sig = 1; sig < NSIG; ++sig)
    ::sigaction(sig, &action, nullptr);
  action.sa_handler = onStop; // no SA_RESTART: waitpid returns on it
  ::sigaction(SIGTERM, &action, nullptr);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
  ::prctl(PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0);
  if (::getppid() != parent) // the compiler is gone already
    stopRequested = 1;
  // A tool that crashes is reported, not dumped into the working folder.
  struct rlimit noCore = {0, 0};
  ::setrlimit(RLIMIT_CORE, &noCore);

  // The tool's streams at 0-2, the exec-error pipe at 3; nothing else of
  // the compiler's (other tools' pipes) stays open here.
  if (::dup2(in, 0) < 0 || ::dup2(out, 1) < 0 || ::dup2(err, 2) < 0 ||
      ::dup2(execError, 3) < 0)
    ::_exit(127);
  ::fcntl(3, F_SETFD, FD_CLOEXEC);
  ::syscall(SYS_close_range, 4u, ~0u, 0u);

  pid_t tool = ::fork();
  if (tool == 0) {
    ::setpgid(0, 0);
    ::execve(argv[0], argv, environ);
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
    ::_exit(127);
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
    ::_exit(WEXITSTATUS(status));
  int sig = WTERMSIG(status);
  action.sa_handler = SIG_DFL;
  ::sigaction(sig, &action, nullptr);
  ::kill(::getpid(), sig);
  ::_exit(128 + sig);
}

pid_t kiln::spawnSupervised(char *const *argv, int stdinFd, int stdoutFd,
                            int stderrFd, std::string &error) {
  int execError[2];
  if (::pipe2(execError, O_CLOEXEC) != 0) {
    error = std::string("cannot create a pipe: ") + std::strerror(errno);
    return -1;
  }
  pid_t parent = ::getpid();
  pid_t pid = ::fork();
  if (pid == 0)
    supervise(argv, stdinFd, stdoutFd, stderrFd, execError[1], parent);
  ::close(execError[1]);
  if (pid < 0) {
    error = std::string("cannot start a process: ") + std::strerror(errno);
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
