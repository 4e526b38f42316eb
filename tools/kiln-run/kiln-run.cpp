//===- kiln-run.cpp - Run a function of a Kiln module ---------------------===//
//
//   kiln-run MODULE [--function=NAME] [--input=SPEC]... [--output=@FILE]...
//            [--expected-output=SPEC]... [--rtol=R] [--atol=A]
//            [--random-inputs] [--threads=N] [--time] [--profile]
//            [--trace=FILE.json]
//            [--print-max=N] [--list] [--variant=CPU]
//            [--runtime-extension=LIB.so]...
//   kiln-run --check MODULE [--function=NAME] [--threads=N]
//
// Loads a module kiln-compile wrote, calls one of its functions with the
// given inputs and prints its outputs (or writes them as .npy files, or
// compares them with the expected ones), and with --profile the time each
// dispatch took. With --check, runs the module's test functions (no inputs, no
// outputs) and reports the checks (kiln.check, check.expect_*) that failed.
//
//===----------------------------------------------------------------------===//

#include "ModuleLoading.h"
#include "Profile.h"
#include "ValueIO.h"
#include "kiln/Support/Version.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace kiln::tooling;

namespace {

const char *kUsage =
    "usage: kiln-run MODULE [--function=NAME] [--input=SPEC]...\n"
    "                [--output=@FILE.npy]... [--expected-output=SPEC]...\n"
    "                [--random-inputs] [--rtol=R] [--atol=A] [--threads=N]\n"
    "                [--time] [--profile] [--trace=FILE.json] [--print-max=N]\n"
    "                [--list] [--variant=CPU] [--runtime-extension=LIB.so]...\n"
    "       kiln-run --check MODULE [--function=NAME] [--threads=N]\n"
    "       kiln-run --version\n"
    "\n"
    "  --function=NAME   the function to call (default: the module's only "
    "one)\n"
    "  --input=SPEC      one per input, in order: @file.npy, @file.pb (an "
    "ONNX\n"
    "                    TensorProto), or inline 2x3xf32=1,2,3,4,5,6 (one\n"
    "                    value fills the tensor)\n"
    "  --input=NAME=SPEC the input called NAME (an ONNX graph's input "
    "name,\n"
    "                    as --list shows them), in any order\n"
    "  --output=@FILE    write the next output as .npy instead of printing "
    "it\n"
    "  --random-inputs   fill the inputs not given with reproducible random\n"
    "                    values (kiln-benchmark's: input i from seed i)\n"
    "  --expected-output=SPEC\n"
    "                    compare the next output with SPEC (as --input):\n"
    "                    floats within --rtol and --atol as numpy.isclose\n"
    "                    (NaN matches NaN), the rest exactly; the first\n"
    "                    differing element is reported and the exit status\n"
    "                    is 1\n"
    "  --rtol=R, --atol=A  the tolerances (default 1e-3 and 1e-7, ONNX's)\n"
    "  --threads=N       threads running dispatches (default: all cores)\n"
    "  --time            print how long the call took\n"
    "  --profile         print the time of every dispatch of the call, most\n"
    "                    first, with its root op, share and GFLOP/s or GB/s\n"
    "  --trace=FILE.json write the call as a Chrome trace (open it in\n"
    "                    Perfetto or chrome://tracing): the call, each\n"
    "                    dispatch and each thread's share of its workgroups\n"
    "  --print-max=N     elide printed outputs above N elements (default "
    "1000)\n"
    "  --list            list the module's functions and their types, and\n"
    "                    its variants (one per CPU it was compiled for):\n"
    "                    which one runs here and why\n" KILN_MODULE_LOAD_USAGE
    "  --check           call every function that takes and returns nothing\n"
    "                    (or the --function given), report each as passed or\n"
    "                    failed with its failed checks; exit 1 on a failure\n"
    "\n"
    "A failed check (kiln.check, check.expect_*) in a call prints what\n"
    "differed and makes the exit status 1.\n";

int fail(const std::string &message) {
  std::fprintf(stderr, "kiln-run: error: %s\n", message.c_str());
  return 1;
}

int fail(kiln_error *error, const std::string &context = "") {
  std::string message = kiln_error_message(error);
  kiln_error_free(error);
  return fail(context.empty() ? message : context + ": " + message);
}

/// Whether `text`, what precedes '=' in an --input value, is shaped like a
/// tensor type as inline values begin (2x3xf32, or 2xq7 with a wrong
/// element type), rather than an input's name: sizes and 'x's, then
/// letters and digits.
bool isTypeSpelling(const std::string &text) {
  size_t x = text.rfind('x');
  std::string sizes = x == std::string::npos ? "" : text.substr(0, x + 1);
  std::string element = x == std::string::npos ? text : text.substr(x + 1);
  for (size_t i = 0; i < sizes.size(); ++i)
    if (!(std::isdigit(static_cast<unsigned char>(sizes[i])) ||
          sizes[i] == '-' || (sizes[i] == 'x' && i > 0 && sizes[i - 1] != 'x')))
      return false;
  size_t letters = 0;
  while (letters < element.size() &&
         std::isalpha(static_cast<unsigned char>(element[letters])))
    ++letters;
  return letters > 0 && letters < element.size() &&
         std::all_of(element.begin() + letters, element.end(),
                     [](char c) { return std::isdigit(c); });
}

/// Puts the --input values in `function`'s order: as given, or each
/// NAME=SPEC at the position of the input called NAME. Values are given
/// all by name or all in order; "" stands for an input not given.
bool orderInputs(const kiln_function *function,
                 std::vector<std::string> &inputs, bool &byName,
                 std::string &error) {
  byName = false;
  size_t count = kiln_function_input_count(function);
  std::string names;
  for (size_t i = 0; i < count; ++i)
    if (const char *name = kiln_function_input_name(function, i))
      names += (names.empty() ? "'" : ", '") + std::string(name) + "'";
  // A function without names takes its inputs in order.
  if (names.empty())
    return true;
  std::vector<std::string> ordered(count);
  std::vector<bool> given(count, false);
  size_t named = 0;
  for (const std::string &input : inputs) {
    size_t equals = input.find('=');
    if (input.empty() || input[0] == '@' || equals == std::string::npos ||
        equals == 0)
      continue;
    std::string name = input.substr(0, equals);
    size_t index = count;
    for (size_t i = 0; i < count; ++i)
      if (const char *candidate = kiln_function_input_name(function, i);
          candidate && name == candidate)
        index = i;
    if (index == count) {
      if (isTypeSpelling(name))
        continue;
      error = "--input=" + input + ": " + describeFunction(function) +
              " has no input called '" + name + "' (its inputs: " + names + ")";
      return false;
    }
    if (given[index]) {
      error = "input '" + name + "' is given twice";
      return false;
    }
    if (equals + 1 == input.size()) {
      error = "--input=" + input + " gives input '" + name + "' no value";
      return false;
    }
    given[index] = true;
    ordered[index] = input.substr(equals + 1);
    ++named;
  }
  if (named == 0)
    return true;
  if (named != inputs.size()) {
    error = "give every --input by name (NAME=SPEC) or every one in "
            "order; " +
            std::to_string(named) + " of the " + std::to_string(inputs.size()) +
            " given have names";
    return false;
  }
  inputs = std::move(ordered);
  byName = true;
  return true;
}

/// Prints the failures the checks of the last calls recorded, and forgets
/// them; returns how many there were.
size_t reportCheckFailures(kiln_runtime *runtime, const char *indent) {
  size_t failures = kiln_runtime_check_failure_count(runtime);
  for (size_t i = 0; i < failures; ++i)
    std::printf("%s%s\n", indent, kiln_runtime_check_failure(runtime, i));
  std::fflush(stdout);
  kiln_runtime_reset_checks(runtime);
  return failures;
}

/// --check: runs `functions`, each a test without inputs or outputs.
int runChecks(kiln_runtime *runtime,
              const std::vector<const kiln_function *> &functions) {
  size_t passed = 0;
  for (const kiln_function *function : functions) {
    const char *name = kiln_function_name(function);
    kiln_runtime_reset_checks(runtime);
    kiln_error *error = kiln_function_call(function, nullptr, 0, nullptr, 0);
    size_t checks = kiln_runtime_checks_run(runtime);
    size_t failures = kiln_runtime_check_failure_count(runtime);
    if (error) {
      std::printf("FAIL %s: %s\n", name, kiln_error_message(error));
      kiln_error_free(error);
    } else if (failures) {
      std::printf("FAIL %s: %zu of %zu checks failed\n", name, failures,
                  checks);
    } else {
      std::printf("PASS %s (%zu check%s)\n", name, checks,
                  checks == 1 ? "" : "s");
      ++passed;
    }
    reportCheckFailures(runtime, "  ");
  }
  std::printf("%zu of %zu test functions passed\n", passed, functions.size());
  return passed == functions.size() ? 0 : 1;
}

/// A tolerance: a finite number, at least 0.
bool parseTolerance(const std::string &text, double &value) {
  char *end = nullptr;
  double parsed = std::strtod(text.c_str(), &end);
  if (text.empty() || *end || !(parsed >= 0) || std::isinf(parsed))
    return false;
  value = parsed;
  return true;
}

std::string describeToleranceError(const std::string &name,
                                   const std::string &text) {
  return "--" + name + " takes a finite number of at least 0, got '" + text +
         "'";
}

} // namespace

int main(int argc, char **argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  std::string modulePath, functionName, value, flagError;
  ModuleLoadFlags loadFlags;
  std::vector<std::string> inputs, outputs, expectedOutputs;
  Tolerance tolerance;
  long threads = 0, printMax = 1000;
  bool time = false, list = false, check = false, profile = false,
       randomInputs = false;
  std::string tracePath;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--help" || args[i] == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (args[i] == "--version") {
      std::fputs(kiln::getVersionLine("kiln-run").c_str(), stdout);
      return 0;
    } else if (loadFlags.match(args, i, flagError)) {
      if (!flagError.empty())
        return fail(flagError);
    } else if (matchFlag(args, i, "function", value)) {
      functionName = value;
    } else if (matchFlag(args, i, "input", value)) {
      inputs.push_back(value);
    } else if (matchFlag(args, i, "output", value)) {
      if (value.size() < 2 || value[0] != '@')
        return fail("--output takes @FILE.npy, got '" + value + "'");
      outputs.push_back(value.substr(1));
    } else if (matchFlag(args, i, "expected-output", value)) {
      expectedOutputs.push_back(value);
    } else if (matchFlag(args, i, "rtol", value)) {
      if (!parseTolerance(value, tolerance.rtol))
        return fail(describeToleranceError("rtol", value));
    } else if (matchFlag(args, i, "atol", value)) {
      if (!parseTolerance(value, tolerance.atol))
        return fail(describeToleranceError("atol", value));
    } else if (matchFlag(args, i, "threads", value)) {
      if (!parseCount(value, 1, kMaxThreads, threads))
        return fail(describeCountError("threads", 1, kMaxThreads, value));
    } else if (matchFlag(args, i, "print-max", value)) {
      if (!parseCount(value, 0, LONG_MAX, printMax))
        return fail(describeCountError("print-max", 0, LONG_MAX, value));
    } else if (args[i] == "--time") {
      time = true;
    } else if (args[i] == "--profile") {
      profile = true;
    } else if (args[i] == "--random-inputs") {
      randomInputs = true;
    } else if (matchFlag(args, i, "trace", value)) {
      if (value.empty())
        return fail("--trace takes a file to write, got ''");
      tracePath = value;
    } else if (args[i] == "--list") {
      list = true;
    } else if (args[i] == "--check") {
      check = true;
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

  // Open the outputs before running: a folder, a block device or one of
  // the files read fails now, not after the work.
  std::vector<std::string> read = {modulePath};
  read.insert(read.end(), loadFlags.extensions.begin(),
              loadFlags.extensions.end());
  for (const std::string &spec : inputs)
    if (spec.size() > 1 && spec[0] == '@')
      read.push_back(spec.substr(1));
  for (const std::string &spec : expectedOutputs)
    if (spec.size() > 1 && spec[0] == '@')
      read.push_back(spec.substr(1));
  std::vector<std::unique_ptr<kiln::OutputFile>> outputFiles;
  for (const std::string &path : outputs) {
    std::string openError;
    for (const auto &earlier : outputFiles)
      if (earlier->getPath() == path)
        return fail("--output=@" + path + " is given twice");
    outputFiles.push_back(kiln::OutputFile::open(path, openError, read));
    if (!outputFiles.back())
      return fail(openError);
  }
  std::unique_ptr<kiln::OutputFile> traceFile;
  if (!tracePath.empty()) {
    if (check || list)
      return fail("--trace records a call; it does not go with --check or "
                  "--list");
    for (const auto &output : outputFiles)
      if (output->getPath() == tracePath)
        return fail("--trace=" + tracePath + " is also an --output");
    std::string openError;
    traceFile = kiln::OutputFile::open(tracePath, openError, read);
    if (!traceFile)
      return fail(openError);
  }
  if (profile && (check || list))
    return fail("--profile times a call; it does not go with --check or "
                "--list");

  kiln_runtime_options options = {static_cast<int>(threads), 0};
  kiln_runtime *runtime = nullptr;
  if (kiln_error *error = kiln_runtime_create(&options, &runtime))
    return fail(error);
  kiln_module *module = nullptr;
  if (kiln_error *error = loadFlags.load(runtime, modulePath, &module)) {
    kiln_runtime_destroy(runtime);
    return fail(error);
  }
  int status = 0;
  auto finish = [&](int code) {
    kiln_module_unload(module);
    kiln_runtime_destroy(runtime);
    return code;
  };
  if (list) {
    std::printf("%s%s", listFunctions(module).c_str(),
                listVariants(module, loadFlags.forceVariant).c_str());
    return finish(0);
  }

  if (check) {
    if (!inputs.empty() || !outputs.empty() || !expectedOutputs.empty())
      return finish(fail("--check runs functions without inputs or outputs; "
                         "it takes no --input, --output or "
                         "--expected-output"));
    std::vector<const kiln_function *> tests;
    if (!functionName.empty()) {
      const kiln_function *function =
          kiln_module_find_function(module, functionName.c_str());
      if (!function)
        return finish(fail("the module has no function '" + functionName +
                           "'; it has:\n" + listFunctions(module)));
      if (kiln_function_input_count(function) ||
          kiln_function_output_count(function))
        return finish(fail(describeFunction(function) +
                           " is not a test function: --check runs functions "
                           "without inputs or outputs"));
      tests.push_back(function);
    } else {
      for (size_t i = 0; i < kiln_module_function_count(module); ++i) {
        const kiln_function *function = kiln_module_function_at(module, i);
        if (!kiln_function_input_count(function) &&
            !kiln_function_output_count(function))
          tests.push_back(function);
      }
      if (tests.empty())
        return finish(fail("the module has no test functions (functions "
                           "without inputs or outputs); it has:\n" +
                           listFunctions(module)));
    }
    return finish(runChecks(runtime, tests));
  }

  const kiln_function *function = nullptr;
  if (functionName.empty()) {
    if (kiln_module_function_count(module) != 1)
      return finish(fail("the module has " +
                         std::to_string(kiln_module_function_count(module)) +
                         " functions; choose one with --function:\n" +
                         listFunctions(module)));
    function = kiln_module_function_at(module, 0);
  } else {
    function = kiln_module_find_function(module, functionName.c_str());
    if (!function)
      return finish(fail("the module has no function '" + functionName +
                         "'; it has:\n" + listFunctions(module)));
  }

  size_t inputCount = kiln_function_input_count(function);
  size_t outputCount = kiln_function_output_count(function);
  std::string orderError;
  bool byName = false;
  if (!orderInputs(function, inputs, byName, orderError))
    return finish(fail(orderError));
  for (size_t i = 0; byName && !randomInputs && i < inputs.size(); ++i)
    if (inputs[i].empty()) {
      const char *name = kiln_function_input_name(function, i);
      return finish(fail(describeFunction(function) + ": input " +
                         std::to_string(i) +
                         (name ? " ('" + std::string(name) + "')" : "") +
                         " is not given (--random-inputs fills it)"));
    }
  if (inputs.size() > inputCount ||
      (inputs.size() < inputCount && !randomInputs))
    return finish(fail(describeFunction(function) + " takes " +
                       std::to_string(inputCount) + " inputs, but " +
                       std::to_string(inputs.size()) + " --input were given"));
  if (outputs.size() > outputCount)
    return finish(fail(describeFunction(function) + " returns " +
                       std::to_string(outputCount) + " outputs, but " +
                       std::to_string(outputs.size()) +
                       " --output were given"));
  if (expectedOutputs.size() > outputCount)
    return finish(fail(describeFunction(function) + " returns " +
                       std::to_string(outputCount) + " outputs, but " +
                       std::to_string(expectedOutputs.size()) +
                       " --expected-output were given"));

  std::vector<Buffer> inputBuffers;
  std::vector<kiln_buffer *> inputPointers;
  for (size_t i = 0; i < inputCount; ++i) {
    std::string error;
    if (i >= inputs.size() || (byName && inputs[i].empty())) {
      Buffer buffer =
          makeRandomBuffer(kiln_function_input(function, i), i, error);
      if (!buffer)
        return finish(fail("input " + std::to_string(i) + ": " + error));
      inputPointers.push_back(buffer.get());
      inputBuffers.push_back(std::move(buffer));
      continue;
    }
    Buffer buffer = parseInput(inputs[i], error);
    if (!buffer)
      return finish(fail("input " + std::to_string(i) + " ('" + inputs[i] +
                         "'): " + error));
    inputPointers.push_back(buffer.get());
    inputBuffers.push_back(std::move(buffer));
  }

  // The expected outputs too, before the call: a bad file fails first.
  std::vector<Buffer> expectedBuffers;
  for (size_t i = 0; i < expectedOutputs.size(); ++i) {
    std::string error;
    Buffer buffer = parseInput(expectedOutputs[i], error);
    if (!buffer)
      return finish(fail("expected output " + std::to_string(i) + " ('" +
                         expectedOutputs[i] + "'): " + error));
    expectedBuffers.push_back(std::move(buffer));
  }

  if (profile || traceFile)
    if (kiln_error *error = kiln_runtime_set_profiling(
            runtime,
            traceFile ? KILN_PROFILING_TRACE : KILN_PROFILING_DISPATCHES))
      return finish(fail(error));
  std::vector<kiln_buffer *> outputPointers(outputCount, nullptr);
  auto start = std::chrono::steady_clock::now();
  kiln_error *error =
      kiln_function_call(function, inputPointers.data(), inputPointers.size(),
                         outputPointers.data(), outputPointers.size());
  auto end = std::chrono::steady_clock::now();
  if (error)
    return finish(fail(error));
  (void)kiln_runtime_set_profiling(runtime, KILN_PROFILING_OFF);
  std::vector<Buffer> outputBuffers;
  for (kiln_buffer *buffer : outputPointers)
    outputBuffers.emplace_back(buffer);

  for (size_t i = 0; i < outputCount; ++i) {
    if (i < expectedBuffers.size()) {
      std::string report;
      if (compareBuffers(outputBuffers[i].get(), expectedBuffers[i].get(),
                         tolerance, report))
        std::printf("output %zu: %s\n", i, report.c_str());
      else
        status = fail("output " + std::to_string(i) + " differs from '" +
                      expectedOutputs[i] + "': " + report);
    }
    if (i < outputs.size()) {
      std::string writeError;
      if (!writeNpy(*outputFiles[i], outputBuffers[i].get(), writeError))
        status = fail(writeError);
      continue;
    }
    if (i < expectedBuffers.size())
      continue;
    std::printf("%s\n", formatBuffer(outputBuffers[i].get(),
                                     static_cast<size_t>(printMax))
                            .c_str());
  }
  double callMilliseconds =
      std::chrono::duration<double, std::milli>(end - start).count();
  if (time)
    std::printf("time: %.3f ms\n", callMilliseconds);
  if (profile)
    std::printf(
        "%s",
        formatProfile(module, function, 1, callMilliseconds * 1e6).c_str());
  if (traceFile) {
    std::string traceError;
    if (!writeTrace(*traceFile, runtime, "kiln-run " + modulePath, traceError))
      status = fail(traceError);
  }
  if (size_t failures = kiln_runtime_check_failure_count(runtime)) {
    std::fflush(stdout);
    std::fprintf(stderr, "kiln-run: %zu of %zu checks failed:\n", failures,
                 kiln_runtime_checks_run(runtime));
    for (size_t i = 0; i < failures; ++i)
      std::fprintf(stderr, "  %s\n", kiln_runtime_check_failure(runtime, i));
    status = 1;
  }
  return finish(status);
}
