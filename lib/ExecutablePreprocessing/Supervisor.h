//===- Supervisor.h - A tool and all its descendants, as one ------*- C++
//-*-===//
//
// A tool runs under a supervisor process of Kiln's, kiln-tool-supervisor
// (tools/kiln-tool-supervisor): a child subreaper, to which every orphaned
// descendant of the tool is reparented, even one that left the tool's
// process group or session (setsid). When the tool ends, or when Kiln stops
// it, the supervisor kills its process group and then every descendant
// left, until it has no child; so nothing the tool started outlives it or
// holds its pipes open.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_LIB_EXECUTABLEPREPROCESSING_SUPERVISOR_H
#define KILN_LIB_EXECUTABLEPREPROCESSING_SUPERVISOR_H

#include <string>
#include <sys/types.h>

namespace kiln {

/// Starts `argv[0]` (a path; `argv` ends in a null) with the process's
/// environment and `stdinFd`, `stdoutFd`, `stderrFd` as its standard
/// streams, under a supervisor. Returns the supervisor's pid, whose exit
/// mirrors the tool's (its status, or the signal that killed it), or -1
/// with `error` saying why the tool could not start (the supervisor
/// missing included).
pid_t spawnSupervised(char *const *argv, int stdinFd, int stdoutFd,
                      int stderrFd, std::string &error);

/// Asks the supervisor `pid` to kill the tool and all it started; it then
/// ends by SIGKILL.
void stopSupervised(pid_t pid);

} // namespace kiln

#endif // KILN_LIB_EXECUTABLEPREPROCESSING_SUPERVISOR_H
