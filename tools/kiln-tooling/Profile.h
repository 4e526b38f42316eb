//===- Profile.h - Dispatch profiles and traces in Kiln's tools -*- C++ -*-===//
//
// What kiln-run --profile, kiln-benchmark --profile and --trace print and
// write from the runtime's profile (kiln_module_dispatch) and trace
// (kiln_runtime_trace_event): a table of dispatches sorted by time, the
// same as JSON, and a Chrome trace. Uses only the runtime's C API.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_TOOLING_PROFILE_H
#define KILN_TOOLS_KILN_TOOLING_PROFILE_H

#include "kiln/Support/OutputFile.h"
#include "kiln_runtime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kiln::tooling {

/// A dispatch that ran while profiling, and its figures.
struct DispatchRow {
  size_t index;
  kiln_dispatch_profile profile;
  /// Of the whole run: this dispatch's time over the calls' time.
  double share;
};

/// The dispatches of `module` that ran, most time first.
std::vector<DispatchRow> collectDispatches(const kiln_module *module,
                                           double callNanoseconds);

/// The profile table: a title line for `calls` calls of `function` that
/// took `callNanoseconds` in all, then a row per dispatch that ran (share
/// of the run, total and per-call time, calls, GFLOP/s, GB/s, name, root
/// op), then the time outside dispatches.
std::string formatProfile(const kiln_module *module,
                          const kiln_function *function, uint64_t calls,
                          double callNanoseconds);

/// The same rows as a JSON array of objects.
std::string formatProfileJson(const kiln_module *module,
                              double callNanoseconds);

/// Writes the runtime's trace as a Chrome trace (JSON, the Trace Event
/// Format: Perfetto and chrome://tracing open it), one track per thread;
/// `title` names the process. False with `error` set when writing fails.
bool writeTrace(OutputFile &file, const kiln_runtime *runtime,
                const std::string &title, std::string &error);

/// `text` as a JSON string, quotes included.
std::string quoteJson(const std::string &text);

} // namespace kiln::tooling

#endif // KILN_TOOLS_KILN_TOOLING_PROFILE_H
