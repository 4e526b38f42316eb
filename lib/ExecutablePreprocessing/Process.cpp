//===- Process.cpp - Running external tools, bounded ----------------------===//
//
// The tool runs under a supervisor (Supervisor.h) that kills everything
// the tool started when it ends; poll() feeds stdin and drains stdout and
// stderr together, so no pipe fills up and blocks the tool; a deadline and
// an output cap stop the supervisor, which kills the tool and all its
// descendants, those that left its process group included.
//
//===----------------------------------------------------------------------===//

#include "kiln/ExecutablePreprocessing/Process.h"
#include "Supervisor.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace kiln;

llvm::Expected<std::vector<std::string>>
kiln::splitCommandLine(llvm::StringRef command) {
  std::vector<std::string> words;
  std::string word;
  bool inWord = false;
  for (size_t i = 0; i < command.size(); ++i) {
    char c = command[i];
    if (c == ' ' || c == '\t' || c == '\n') {
      if (inWord)
        words.push_back(std::move(word));
      word.clear();
      inWord = false;
      continue;
    }
    inWord = true;
    if (c == '\\') {
      if (i + 1 == command.size())
        return llvm::createStringError("command '" + command +
                                       "' ends in a lone backslash");
      word += command[++i];
    } else if (c == '\'') {
      size_t end = command.find('\'', i + 1);
      if (end == llvm::StringRef::npos)
        return llvm::createStringError("command '" + command +
                                       "' has an unterminated ' quote");
      word += command.substr(i + 1, end - i - 1).str();
      i = end;
    } else if (c == '"') {
      size_t j = i + 1;
      for (; j < command.size() && command[j] != '"'; ++j) {
        if (command[j] == '\\' && j + 1 < command.size() &&
            llvm::StringRef("\"\\$`").contains(command[j + 1]))
          ++j;
        word += command[j];
      }
      if (j == command.size())
        return llvm::createStringError("command '" + command +
                                       "' has an unterminated \" quote");
      i = j;
    } else {
      word += c;
    }
  }
  if (inWord)
    words.push_back(std::move(word));
  if (words.empty())
    return llvm::createStringError("the command is empty");
  return words;
}

llvm::Expected<std::string> kiln::findProgram(llvm::StringRef program) {
  if (program.contains('/')) {
    if (!llvm::sys::fs::can_execute(program))
      return llvm::createStringError("'" + program +
                                     "' is not an executable file");
    return program.str();
  }
  // Next to the running tool first: Kiln's own helpers and tools.
  static int anchor;
  std::string self = llvm::sys::fs::getMainExecutable(nullptr, &anchor);
  llvm::SmallString<256> beside(llvm::sys::path::parent_path(self));
  llvm::sys::path::append(beside, program);
  if (!self.empty() && llvm::sys::fs::can_execute(beside) &&
      !llvm::sys::fs::is_directory(beside))
    return std::string(beside);
  if (llvm::ErrorOr<std::string> found = llvm::sys::findProgramByName(program))
    return *found;
  const char *path = std::getenv("PATH");
  return llvm::createStringError("command not found: '" + program +
                                 "' (looked in " +
                                 llvm::sys::path::parent_path(self) +
                                 " and on PATH=" + (path ? path : "") + ")");
}

std::string ProcessResult::describeFailure(const ProcessLimits &limits) const {
  if (timedOut)
    return "timed out after " +
           std::to_string(limits.timeout.count() / 1000.0).substr(0, 5) +
           " s and was killed";
  if (outputTooLarge)
    return "printed more than " + std::to_string(limits.maxOutputBytes) +
           " bytes and was killed";
  if (signal)
    return "was killed by signal " + std::to_string(*signal) + " (" +
           strsignal(*signal) + ")";
  if (exitCode)
    return "exited with status " + std::to_string(*exitCode);
  return "did not finish";
}

namespace {
/// Closes a file descriptor once.
struct Descriptor {
  int fd = -1;
  ~Descriptor() { close(); }
  void close() {
    if (fd >= 0)
      ::close(fd);
    fd = -1;
  }
};
} // namespace

llvm::Expected<ProcessResult>
kiln::runProcess(const std::vector<std::string> &argv, llvm::StringRef input,
                 const ProcessLimits &limits) {
  // A tool that exits without reading its input must not kill us.
  static std::once_flag ignoreSigpipe;
  std::call_once(ignoreSigpipe, [] { ::signal(SIGPIPE, SIG_IGN); });

  int in[2], out[2], err[2];
  if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC))
    return llvm::createStringError("cannot create pipes: " +
                                   std::string(strerror(errno)));
  Descriptor inWrite{in[1]}, outRead{out[0]}, errRead{err[0]};
  Descriptor inRead{in[0]}, outWrite{out[1]}, errWrite{err[1]};

  std::vector<char *> args;
  for (const std::string &arg : argv)
    args.push_back(const_cast<char *>(arg.c_str()));
  args.push_back(nullptr);
  std::string spawnError;
  pid_t pid = spawnSupervised(args.data(), in[0], out[1], err[1], spawnError);
  if (pid < 0)
    return llvm::createStringError("cannot run '" + argv[0] +
                                   "': " + spawnError);
  inRead.close();
  outWrite.close();
  errWrite.close();
  fcntl(inWrite.fd, F_SETFL, O_NONBLOCK);

  ProcessResult result;
  auto deadline = std::chrono::steady_clock::now() + limits.timeout;
  size_t written = 0;
  if (input.empty())
    inWrite.close();
  bool killed = false;
  auto kill = [&] {
    if (!killed)
      stopSupervised(pid);
    killed = true;
  };
  char buffer[65536];
  while (outRead.fd >= 0 || errRead.fd >= 0) {
    pollfd fds[3];
    nfds_t count = 0;
    if (inWrite.fd >= 0)
      fds[count++] = {inWrite.fd, POLLOUT, 0};
    if (outRead.fd >= 0)
      fds[count++] = {outRead.fd, POLLIN, 0};
    if (errRead.fd >= 0)
      fds[count++] = {errRead.fd, POLLIN, 0};
    // Once killed, the pipes close as the supervisor kills every process
    // the tool started; should one hold them open anyway, it gets a
    // second, then is abandoned.
    int wait = killed ? 1000 : -1;
    if (limits.timeout.count() > 0 && !killed) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) {
        result.timedOut = true;
        kill();
        inWrite.close();
        continue;
      }
      wait = static_cast<int>(left.count());
    }
    int ready = ::poll(fds, count, wait);
    if (ready < 0 && errno == EINTR)
      continue;
    if (ready < 0 || (ready == 0 && killed))
      break;
    for (nfds_t i = 0; i < count; ++i) {
      if (!fds[i].revents)
        continue;
      if (fds[i].fd == inWrite.fd) {
        ssize_t n =
            ::write(inWrite.fd, input.data() + written, input.size() - written);
        if (n > 0)
          written += n;
        if (n < 0 && errno != EAGAIN && errno != EINTR)
          inWrite.close(); // EPIPE: the tool stopped reading.
        else if (written == input.size())
          inWrite.close();
        continue;
      }
      Descriptor &source = fds[i].fd == outRead.fd ? outRead : errRead;
      ssize_t n = ::read(source.fd, buffer, sizeof(buffer));
      if (n < 0 && (errno == EINTR || errno == EAGAIN))
        continue;
      if (n <= 0) {
        source.close();
        continue;
      }
      if (&source == &outRead) {
        if (result.output.size() + n > limits.maxOutputBytes) {
          result.outputTooLarge = true;
          kill();
          inWrite.close();
          outRead.close();
          continue;
        }
        result.output.append(buffer, n);
      } else {
        size_t room = limits.maxErrorBytes -
                      std::min(limits.maxErrorBytes, result.errorOutput.size());
        size_t keep = std::min(room, static_cast<size_t>(n));
        result.errorOutput.append(buffer, keep);
        result.errorBytesDropped += n - keep;
      }
    }
  }
  inWrite.close();
  // The supervisor ends once the tool and everything it started are gone.
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status))
    result.exitCode = WEXITSTATUS(status);
  else if (WIFSIGNALED(status))
    result.signal = WTERMSIG(status);
  return result;
}
