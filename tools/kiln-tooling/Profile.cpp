//===- Profile.cpp - Dispatch profiles and traces in Kiln's tools ---------===//

#include "Profile.h"

#include <algorithm>
#include <cstdio>

using namespace kiln;
using namespace kiln::tooling;

std::string kiln::tooling::quoteJson(const std::string &text) {
  std::string quoted = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      quoted += '\\';
      quoted += static_cast<char>(c);
    } else if (c < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
      quoted += escaped;
    } else {
      quoted += static_cast<char>(c);
    }
  }
  return quoted + "\"";
}

/// "linalg.matmul 8x16x32 f32", or "?" when nothing is known.
static std::string describeRoot(const kiln_dispatch_profile &profile) {
  std::string op = profile.op ? profile.op : "?";
  if (op == "?")
    return "?";
  return op + " " + profile.loops + " " + profile.element_type;
}

/// Units of `amount` (FLOPs or bytes) per nanosecond: G per second.
static double perSecond(double amount, const kiln_dispatch_profile &profile) {
  if (amount <= 0 || profile.total_ns == 0)
    return 0;
  return amount * static_cast<double>(profile.calls) /
         static_cast<double>(profile.total_ns);
}

std::vector<DispatchRow>
kiln::tooling::collectDispatches(const kiln_module *module,
                                 double callNanoseconds) {
  std::vector<DispatchRow> rows;
  for (size_t i = 0; i < kiln_module_dispatch_count(module); ++i) {
    kiln_dispatch_profile profile = kiln_module_dispatch(module, i);
    if (profile.calls == 0)
      continue;
    double share = callNanoseconds > 0
                       ? static_cast<double>(profile.total_ns) / callNanoseconds
                       : 0;
    rows.push_back({i, profile, share});
  }
  std::stable_sort(rows.begin(), rows.end(),
                   [](const DispatchRow &a, const DispatchRow &b) {
                     return a.profile.total_ns > b.profile.total_ns;
                   });
  return rows;
}

std::string kiln::tooling::formatProfile(const kiln_module *module,
                                         const kiln_function *function,
                                         uint64_t calls,
                                         double callNanoseconds) {
  std::vector<DispatchRow> rows = collectDispatches(module, callNanoseconds);
  double dispatchNanoseconds = 0;
  for (const DispatchRow &row : rows)
    dispatchNanoseconds += static_cast<double>(row.profile.total_ns);
  double perCall = calls ? callNanoseconds / 1e6 / calls : 0;

  std::string text;
  char line[512];
  std::snprintf(line, sizeof line,
                "profile of '%s': %llu call%s, %.3f ms per call, %zu "
                "dispatch%s ran\n",
                kiln_function_name(function),
                static_cast<unsigned long long>(calls), calls == 1 ? "" : "s",
                perCall, rows.size(), rows.size() == 1 ? "" : "es");
  text += line;
  std::snprintf(line, sizeof line, "%7s %11s %7s %10s %8s %8s  %-24s %s\n",
                "share", "total ms", "calls", "ms/call", "GFLOP/s", "GB/s",
                "dispatch", "root op");
  text += line;
  auto rate = [](double value, char *buffer, size_t size) {
    if (value > 0)
      std::snprintf(buffer, size, "%.1f", value);
    else
      std::snprintf(buffer, size, "-");
    return buffer;
  };
  for (const DispatchRow &row : rows) {
    const kiln_dispatch_profile &profile = row.profile;
    char gflops[32], gbytes[32];
    double total = static_cast<double>(profile.total_ns) / 1e6;
    std::snprintf(
        line, sizeof line, "%6.1f%% %11.3f %7llu %10.4f %8s %8s  %-24s %s\n",
        100 * row.share, total, static_cast<unsigned long long>(profile.calls),
        total / static_cast<double>(profile.calls),
        rate(perSecond(profile.flops, profile), gflops, sizeof gflops),
        rate(perSecond(profile.bytes, profile), gbytes, sizeof gbytes),
        profile.name, describeRoot(profile).c_str());
    text += line;
  }
  double outside = std::max(0.0, callNanoseconds - dispatchNanoseconds);
  std::snprintf(line, sizeof line, "%6.1f%% %11.3f %7s %10.4f %8s %8s  %s\n",
                callNanoseconds > 0 ? 100 * outside / callNanoseconds : 0.0,
                outside / 1e6, "", calls ? outside / 1e6 / calls : 0.0, "", "",
                "(outside dispatches: host code, buffers, waking threads)");
  text += line;
  return text;
}

std::string kiln::tooling::formatProfileJson(const kiln_module *module,
                                             double callNanoseconds) {
  std::string json = "[";
  char numbers[512];
  for (const DispatchRow &row : collectDispatches(module, callNanoseconds)) {
    const kiln_dispatch_profile &profile = row.profile;
    if (json.size() > 1)
      json += ", ";
    json += "{\"dispatch\": " + quoteJson(profile.name) +
            ", \"root\": " + quoteJson(describeRoot(profile));
    double gflops = perSecond(profile.flops, profile);
    double gbytes = perSecond(profile.bytes, profile);
    char gflopsText[32] = "null", gbytesText[32] = "null";
    if (gflops > 0)
      std::snprintf(gflopsText, sizeof gflopsText, "%.3f", gflops);
    if (gbytes > 0)
      std::snprintf(gbytesText, sizeof gbytesText, "%.3f", gbytes);
    std::snprintf(numbers, sizeof numbers,
                  ", \"calls\": %llu, \"total_ms\": %.6f, \"share\": %.6f, "
                  "\"gflops\": %s, \"gbytes_per_s\": %s}",
                  static_cast<unsigned long long>(profile.calls),
                  static_cast<double>(profile.total_ns) / 1e6, row.share,
                  gflopsText, gbytesText);
    json += numbers;
  }
  return json + "]";
}

/// The name a trace shows for `event`.
static std::string nameEvent(const kiln_trace_event &event) {
  if (event.kind == KILN_TRACE_CALL)
    return kiln_function_name(event.function);
  kiln_dispatch_profile profile =
      kiln_module_dispatch(event.module, event.dispatch);
  return profile.name ? profile.name : "dispatch";
}

bool kiln::tooling::writeTrace(OutputFile &file, const kiln_runtime *runtime,
                               const std::string &title, std::string &error) {
  size_t count = kiln_runtime_trace_event_count(runtime);
  uint64_t origin = UINT64_MAX;
  for (size_t i = 0; i < count; ++i)
    origin = std::min(origin, kiln_runtime_trace_event(runtime, i)->begin_ns);

  std::string json = "{\"displayTimeUnit\": \"ms\", \"traceEvents\": [\n";
  json += "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 1, "
          "\"args\": {\"name\": " +
          quoteJson(title) + "}}";
  int threads = kiln_runtime_thread_count(runtime);
  for (int thread = 0; thread < threads; ++thread) {
    std::string name =
        thread == 0 ? "calling thread" : "worker " + std::to_string(thread);
    json += ",\n{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, "
            "\"tid\": " +
            std::to_string(thread) +
            ", \"args\": {\"name\": " + quoteJson(name) + "}}";
    json += ",\n{\"name\": \"thread_sort_index\", \"ph\": \"M\", \"pid\": 1, "
            "\"tid\": " +
            std::to_string(thread) +
            ", \"args\": {\"sort_index\": " + std::to_string(thread) + "}}";
  }
  static const char *const kCategories[] = {"call", "dispatch", "workgroups"};
  char times[128];
  for (size_t i = 0; i < count; ++i) {
    const kiln_trace_event &event = *kiln_runtime_trace_event(runtime, i);
    std::snprintf(times, sizeof times, "\"ts\": %.3f, \"dur\": %.3f",
                  static_cast<double>(event.begin_ns - origin) / 1e3,
                  static_cast<double>(event.end_ns - event.begin_ns) / 1e3);
    json += ",\n{\"name\": " + quoteJson(nameEvent(event)) + ", \"cat\": \"" +
            kCategories[event.kind % 3] + "\", \"ph\": \"X\", " + times +
            ", \"pid\": 1, \"tid\": " + std::to_string(event.thread);
    if (event.kind == KILN_TRACE_DISPATCH) {
      kiln_dispatch_profile profile =
          kiln_module_dispatch(event.module, event.dispatch);
      json += ", \"args\": {\"root\": " +
              quoteJson(profile.name ? describeRoot(profile) : "?") +
              ", \"workgroups\": " + std::to_string(event.workgroups) + "}";
    } else if (event.kind == KILN_TRACE_WORKGROUPS) {
      json +=
          ", \"args\": {\"workgroups\": " + std::to_string(event.workgroups) +
          "}";
    }
    json += "}";
  }
  json += "\n],\n\"otherData\": {\"dropped_events\": " +
          std::to_string(kiln_runtime_trace_dropped(runtime)) + "}}\n";
  return file.write(json.data(), json.size(), error) && file.commit(error);
}
