//===- kiln-benchmark.cpp - Time a function of a Kiln module --------------===//
//
//   kiln-benchmark MODULE [--function=NAME] [--input=SPEC]... [--threads=N]
//                  [--warmup=N] [--repetitions=N] [--no-buffer-cache]
//                  [--profile] [--trace=FILE.json] [--json]
//
// Calls a function repeatedly and reports the median, minimum and maximum
// time of a call, and GFLOP/s when the module knows the function's FLOPs;
// with --profile, the time of each dispatch over the timed calls. Inputs
// not given are filled with reproducible random values.
//
//===----------------------------------------------------------------------===//

#include "ModuleLoading.h"
#include "Profile.h"
#include "ValueIO.h"
#include "kiln/Support/Version.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace kiln::tooling;

namespace {

const char *kUsage =
    "usage: kiln-benchmark MODULE [--function=NAME] [--input=SPEC]...\n"
    "                      [--threads=N] [--warmup=N] [--repetitions=N]\n"
    "                      [--no-buffer-cache] [--profile] "
    "[--trace=FILE.json]\n"
    "                      [--json] [--variant=CPU] "
    "[--runtime-extension=LIB.so]...\n"
    "       kiln-benchmark --version\n"
    "\n"
    "  --function=NAME   the function to time (default: the module's only "
    "one)\n"
    "  --input=SPEC      inputs as for kiln-run (.npy, .pb, inline); missing "
    "ones are random\n"
    "  --threads=N       threads running dispatches (default: all cores)\n"
    "  --warmup=N        untimed calls first (default 3)\n"
    "  --repetitions=N   timed calls (default 20)\n"
    "  --no-buffer-cache every call takes fresh memory from the system (the\n"
    "                    runtime keeps no freed buffers): what keeping them\n"
    "                    saves\n"
    "  --profile         time every dispatch of the timed calls and print\n"
    "                    them, most time first, with root op, share and\n"
    "                    GFLOP/s or GB/s (with --json: \"dispatches\")\n"
    "  --trace=FILE.json write the timed calls as a Chrome trace (Perfetto,\n"
    "                    chrome://tracing): each call, dispatch and thread's\n"
    "                    share of its workgroups\n"
    "  --json            one JSON object instead of "
    "text\n" KILN_MODULE_LOAD_USAGE;

int fail(const std::string &message) {
  std::fprintf(stderr, "kiln-benchmark: error: %s\n", message.c_str());
  return 1;
}

} // namespace

int main(int argc, char **argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  std::string modulePath, functionName, value;
  std::vector<std::string> inputs;
  std::string flagError;
  ModuleLoadFlags loadFlags;
  long threads = 0, warmup = 3, repetitions = 20;
  bool json = false, bufferCache = true, profile = false;
  std::string tracePath;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--help" || args[i] == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (args[i] == "--version") {
      std::fputs(kiln::getVersionLine("kiln-benchmark").c_str(), stdout);
      return 0;
    } else if (matchFlag(args, i, "function", value)) {
      functionName = value;
    } else if (matchFlag(args, i, "input", value)) {
      inputs.push_back(value);
    } else if (matchFlag(args, i, "threads", value)) {
      if (!parseCount(value, 1, kMaxThreads, threads))
        return fail(describeCountError("threads", 1, kMaxThreads, value));
    } else if (matchFlag(args, i, "warmup", value)) {
      if (!parseCount(value, 0, kMaxCalls, warmup))
        return fail(describeCountError("warmup", 0, kMaxCalls, value));
    } else if (matchFlag(args, i, "repetitions", value)) {
      if (!parseCount(value, 1, kMaxCalls, repetitions))
        return fail(describeCountError("repetitions", 1, kMaxCalls, value));
    } else if (loadFlags.match(args, i, flagError)) {
      if (!flagError.empty())
        return fail(flagError);
    } else if (args[i] == "--json") {
      json = true;
    } else if (args[i] == "--no-buffer-cache") {
      bufferCache = false;
    } else if (args[i] == "--profile") {
      profile = true;
    } else if (matchFlag(args, i, "trace", value)) {
      if (value.empty())
        return fail("--trace takes a file to write, got ''");
      tracePath = value;
    } else if (args[i].rfind("--", 0) == 0) {
      return fail("unknown option '" + args[i] + "'\n" + kUsage);
    } else if (modulePath.empty()) {
      modulePath = args[i];
    } else {
      return fail("unexpected argument '" + args[i] + "'\n" + kUsage);
    }
  }
  if (modulePath.empty())
    return fail(std::string("no module given\n") + kUsage);

  // Open the trace before running: a path that cannot be written fails
  // now, not after the work.
  std::unique_ptr<kiln::OutputFile> traceFile;
  if (!tracePath.empty()) {
    std::vector<std::string> read = {modulePath};
    read.insert(read.end(), loadFlags.extensions.begin(),
                loadFlags.extensions.end());
    for (const std::string &spec : inputs)
      if (spec.size() > 1 && spec[0] == '@')
        read.push_back(spec.substr(1));
    std::string openError;
    traceFile = kiln::OutputFile::open(tracePath, openError, read);
    if (!traceFile)
      return fail(openError);
  }

  kiln_runtime_options options = {static_cast<int>(threads),
                                  bufferCache ? 0 : -1};
  kiln_runtime *runtime = nullptr;
  if (kiln_error *error = kiln_runtime_create(&options, &runtime)) {
    std::string message = kiln_error_message(error);
    kiln_error_free(error);
    return fail(message);
  }
  kiln_module *module = nullptr;
  if (kiln_error *error = loadFlags.load(runtime, modulePath, &module)) {
    std::string message = kiln_error_message(error);
    kiln_error_free(error);
    kiln_runtime_destroy(runtime);
    return fail(message);
  }
  auto finish = [&](int code) {
    kiln_module_unload(module);
    kiln_runtime_destroy(runtime);
    return code;
  };

  const kiln_function *function =
      functionName.empty()
          ? (kiln_module_function_count(module) == 1
                 ? kiln_module_function_at(module, 0)
                 : nullptr)
          : kiln_module_find_function(module, functionName.c_str());
  if (!function)
    return finish(
        fail(functionName.empty()
                 ? "the module has " +
                       std::to_string(kiln_module_function_count(module)) +
                       " functions; choose one with --function:\n" +
                       listFunctions(module)
                 : "the module has no function '" + functionName +
                       "'; it has:\n" + listFunctions(module)));

  size_t inputCount = kiln_function_input_count(function);
  if (inputs.size() > inputCount)
    return finish(fail("'" + std::string(kiln_function_name(function)) +
                       "' takes " + std::to_string(inputCount) +
                       " inputs, but " + std::to_string(inputs.size()) +
                       " --input were given"));
  std::vector<Buffer> inputBuffers;
  std::vector<kiln_buffer *> inputPointers;
  for (size_t i = 0; i < inputCount; ++i) {
    std::string error;
    Buffer buffer =
        i < inputs.size()
            ? parseInput(inputs[i], error)
            : makeRandomBuffer(kiln_function_input(function, i), i, error);
    if (!buffer)
      return finish(fail("input " + std::to_string(i) + ": " + error));
    inputPointers.push_back(buffer.get());
    inputBuffers.push_back(std::move(buffer));
  }

  size_t outputCount = kiln_function_output_count(function);
  std::vector<double> times;
  for (long call = 0; call < warmup + repetitions; ++call) {
    // The timed calls are profiled, the warm-up ones not.
    if (call == warmup && (profile || traceFile))
      if (kiln_error *error = kiln_runtime_set_profiling(
              runtime,
              traceFile ? KILN_PROFILING_TRACE : KILN_PROFILING_DISPATCHES)) {
        std::string message = kiln_error_message(error);
        kiln_error_free(error);
        return finish(fail(message));
      }
    std::vector<kiln_buffer *> outputs(outputCount, nullptr);
    auto start = std::chrono::steady_clock::now();
    kiln_error *error =
        kiln_function_call(function, inputPointers.data(), inputPointers.size(),
                           outputs.data(), outputCount);
    auto end = std::chrono::steady_clock::now();
    if (error) {
      std::string message = kiln_error_message(error);
      kiln_error_free(error);
      return finish(fail(message));
    }
    for (kiln_buffer *output : outputs)
      kiln_buffer_release(output);
    if (call >= warmup)
      times.push_back(
          std::chrono::duration<double, std::milli>(end - start).count());
  }

  (void)kiln_runtime_set_profiling(runtime, KILN_PROFILING_OFF);
  double timedNanoseconds = 0;
  for (double time : times)
    timedNanoseconds += time * 1e6;

  std::vector<double> sorted = times;
  std::sort(sorted.begin(), sorted.end());
  size_t n = sorted.size();
  double median =
      n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  double flops = kiln_function_flops(function);
  double gflops = flops > 0 ? flops / (median * 1e6) : 0;
  int threadCount = kiln_runtime_thread_count(runtime);
  if (json) {
    // Unknown FLOPs (0 from the runtime) are null, not a count of 0.
    char flopsText[64] = "null", gflopsText[64] = "null";
    if (flops > 0) {
      std::snprintf(flopsText, sizeof flopsText, "%.0f", flops);
      std::snprintf(gflopsText, sizeof gflopsText, "%.3f", gflops);
    }
    std::printf("{\"function\": \"%s\", \"threads\": %d, \"repetitions\": "
                "%zu, \"median_ms\": %.6f, \"min_ms\": %.6f, \"max_ms\": "
                "%.6f, \"flops\": %s, \"gflops\": %s",
                kiln_function_name(function), threadCount, n, median,
                sorted.front(), sorted.back(), flopsText, gflopsText);
    if (profile)
      std::printf(", \"dispatches\": %s",
                  formatProfileJson(module, timedNanoseconds).c_str());
    std::printf("}\n");
  } else {
    std::printf("function: %s\nthreads: %d\nrepetitions: %zu\n"
                "median: %.3f ms\nmin: %.3f ms\nmax: %.3f ms\n",
                kiln_function_name(function), threadCount, n, median,
                sorted.front(), sorted.back());
    if (flops > 0)
      std::printf("GFLOP/s: %.1f (median)\n", gflops);
    if (profile)
      std::printf("%s",
                  formatProfile(module, function, n, timedNanoseconds).c_str());
  }
  if (traceFile) {
    std::string traceError;
    if (!writeTrace(*traceFile, runtime, "kiln-benchmark " + modulePath,
                    traceError))
      return finish(fail(traceError));
  }
  return finish(0);
}
