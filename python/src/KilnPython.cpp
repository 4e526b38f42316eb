//===- KilnPython.cpp - Kiln's compiler and runtime for Python ------------===//
//
// The extension module `kiln._kiln` behind the `kiln` package (kiln/
// __init__.py holds the API users call): compile sessions (CompileSession,
// one per call, so that Python threads compile at once, the GIL released),
// and the runtime (modules, functions, calls on numpy arrays, timing).
//
//===----------------------------------------------------------------------===//

#include "kiln-c/Compiler.h"
#include "kiln/Driver/CompileSession.h"
#include "kiln/Plugin/BuildInfo.h"
#include "kiln_runtime.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace py = pybind11;

namespace {

//===----------------------------------------------------------------------===//
// Compiling
//===----------------------------------------------------------------------===//

/// Raised (as kiln._kiln.CompileError, which kiln.CompileError wraps) with
/// the error and the diagnostics before it.
struct CompileFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void initialize() {
  char *error = nullptr;
  if (kiln_compiler_initialize(0, nullptr, &error)) {
    std::string message = error ? error : "unknown error";
    kiln_free(error);
    throw std::runtime_error("cannot initialize Kiln's compiler: " + message);
  }
}

/// `text` as Python can hold it in a str: valid UTF-8, other bytes (those
/// of a binary file the diagnostics quote, a NUL) written as \xHH.
std::string printable(const std::string &text) {
  std::string out;
  size_t i = 0;
  auto escape = [&](unsigned char byte) {
    static const char kHex[] = "0123456789abcdef";
    out += "\\x";
    out += kHex[byte >> 4];
    out += kHex[byte & 15];
  };
  while (i < text.size()) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7f)) {
      out += static_cast<char>(c);
      ++i;
      continue;
    }
    // A whole UTF-8 sequence stays; anything else is escaped byte by byte.
    size_t length = c >= 0xf0 && c < 0xf5   ? 4
                    : c >= 0xe0 && c < 0xf0 ? 3
                    : c >= 0xc2 && c < 0xe0 ? 2
                                            : 0;
    bool whole = length && i + length <= text.size();
    for (size_t k = 1; whole && k < length; ++k)
      whole = (static_cast<unsigned char>(text[i + k]) & 0xc0) == 0x80;
    if (!whole) {
      escape(c);
      ++i;
      continue;
    }
    out.append(text, i, length);
    i += length;
  }
  return out;
}

/// What one compile needs while it runs on its own thread, kept alive by
/// both threads.
struct CompileJob {
  std::unique_ptr<kiln::CompileSession> session;
  kiln::CompileRequest request;
  std::string output, diagnostics;
  llvm::raw_string_ostream diagnosticStream{diagnostics};
  std::atomic<bool> cancel{false};
  std::mutex mutex;
  std::condition_variable finished;
  bool done = false;
  bool failed = false;
  std::string failure; // the error's message
};

/// Compiles a program, from a file or from memory, into bytes (a module, or
/// IR text or bytecode before the last phase). The compile runs on a
/// thread of its own while this one waits for it with the GIL released,
/// looking at Python's signals every tenth of a second: Ctrl-C stops the
/// compile at its next phase or executable and raises KeyboardInterrupt
/// (it waited for the whole compile before).
py::bytes compile(std::optional<std::string> path,
                  std::optional<py::bytes> source, const std::string &name,
                  const std::vector<std::string> &flags,
                  const std::vector<std::string> &plugins,
                  std::optional<std::string> compileTo) {
  initialize();
  auto job = std::make_shared<CompileJob>();
  job->session = kiln::CompileSession::create();
  if (llvm::Error error = job->session->setFlags(flags))
    throw CompileFailure(printable(llvm::toString(std::move(error))));
  for (const std::string &plugin : plugins)
    job->session->requestPlugin(plugin, "plugins=");
  kiln::CompileRequest &request = job->request;
  request.inputFile = path ? *path : name;
  if (source)
    request.inputContents = std::string(*source);
  request.outputBuffer = &job->output;
  request.diagnostics = &job->diagnosticStream;
  request.cancel = &job->cancel;
  if (compileTo) {
    llvm::Expected<kiln::Phase> phase = kiln::lookupPhase(*compileTo);
    if (!phase)
      throw CompileFailure(printable(llvm::toString(phase.takeError())));
    request.compileTo = *phase;
  }
  std::thread worker;
  try {
    worker = std::thread([job] {
      bool failed = false;
      std::string failure;
      try {
        if (llvm::Error error = job->session->compile(job->request)) {
          failed = true;
          failure = llvm::toString(std::move(error));
        }
      } catch (const std::bad_alloc &) {
        failed = true;
        failure = "the compile ran out of memory";
      }
      std::lock_guard<std::mutex> lock(job->mutex);
      job->failed = failed;
      job->failure = std::move(failure);
      job->done = true;
      job->finished.notify_all();
    });
  } catch (const std::system_error &error) {
    throw CompileFailure(std::string("cannot start the compile's thread: ") +
                         error.what());
  }
  bool interrupted = false;
  for (;;) {
    {
      py::gil_scoped_release release;
      std::unique_lock<std::mutex> lock(job->mutex);
      if (job->finished.wait_for(lock, std::chrono::milliseconds(100),
                                 [&] { return job->done; }))
        break;
    }
    if (!interrupted && PyErr_CheckSignals() != 0) {
      // Stop the compile, wait for it (up to its next phase or
      // executable), then let the signal's exception go on.
      interrupted = true;
      job->cancel = true;
    }
  }
  {
    py::gil_scoped_release release;
    worker.join();
  }
  if (interrupted)
    throw py::error_already_set();
  job->diagnosticStream.flush();
  if (job->failed)
    throw CompileFailure(printable(job->diagnostics + job->failure));
  return py::bytes(job->output);
}

//===----------------------------------------------------------------------===//
// Running
//===----------------------------------------------------------------------===//

struct RuntimeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void check(kiln_error *error) {
  if (!error)
    return;
  std::string message = kiln_error_message(error);
  kiln_error_free(error);
  throw RuntimeError(message);
}

/// The numpy dtype of a runtime element type (bf16 as its bits, uint16).
py::dtype dtypeOf(kiln_element_type type) {
  switch (type) {
  case KILN_ELEMENT_I1:
    return py::dtype("bool");
  case KILN_ELEMENT_I8:
    return py::dtype("int8");
  case KILN_ELEMENT_I16:
    return py::dtype("int16");
  case KILN_ELEMENT_I32:
    return py::dtype("int32");
  case KILN_ELEMENT_I64:
    return py::dtype("int64");
  case KILN_ELEMENT_F16:
    return py::dtype("float16");
  case KILN_ELEMENT_BF16:
    return py::dtype("uint16");
  case KILN_ELEMENT_F32:
    return py::dtype("float32");
  case KILN_ELEMENT_F64:
    return py::dtype("float64");
  default:
    throw RuntimeError("an element type numpy has no dtype for");
  }
}

class Runtime {
public:
  explicit Runtime(int threads) {
    kiln_runtime_options options = {};
    options.threads = threads;
    check(kiln_runtime_create(&options, &runtime));
  }
  ~Runtime() { kiln_runtime_destroy(runtime); }
  kiln_runtime *get() const { return runtime; }

private:
  kiln_runtime *runtime = nullptr;
};

class Module {
public:
  /// Loads the module in file `path`, or in `bytes` (through a file that
  /// lives in memory only, memfd).
  Module(std::optional<std::string> path, std::optional<py::bytes> bytes,
         int threads, const std::vector<std::string> &extensions,
         std::optional<std::string> variant)
      : runtime(std::make_shared<Runtime>(threads)) {
    for (const std::string &extension : extensions)
      check(kiln_runtime_load_extension(runtime->get(), extension.c_str()));
    kiln_module_options options = {};
    options.variant = variant ? variant->c_str() : nullptr;
    if (path) {
      check(kiln_module_load_with_options(runtime->get(), path->c_str(),
                                          &options, &module));
      return;
    }
    std::string data = *bytes;
    int fd = memfd_create("kiln-module", MFD_CLOEXEC);
    if (fd < 0)
      throw RuntimeError("cannot make an in-memory file for the module");
    size_t written = 0;
    while (written < data.size()) {
      ssize_t n = write(fd, data.data() + written, data.size() - written);
      if (n <= 0) {
        close(fd);
        throw RuntimeError("cannot write the module to an in-memory file");
      }
      written += size_t(n);
    }
    // dlopen knows a module by its path, here /proc/self/fd/N: the file
    // stays open while the module is loaded, so that no other module's
    // file takes that number (and dlopen hands back this one for it).
    std::string where = "/proc/self/fd/" + std::to_string(fd);
    kiln_error *error = kiln_module_load_with_options(
        runtime->get(), where.c_str(), &options, &module);
    if (error)
      close(fd);
    else
      memoryFile = fd;
    check(error);
  }
  ~Module() {
    kiln_module_unload(module);
    if (memoryFile >= 0)
      close(memoryFile);
  }
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;

  py::list variants() const {
    py::list list;
    for (size_t i = 0; i < kiln_module_variant_count(module); ++i) {
      kiln_module_variant variant = kiln_module_variant_at(module, i);
      auto split = [](const char *text) {
        py::list items;
        std::string all = text;
        size_t start = 0;
        while (!all.empty() && all != "-" && start <= all.size()) {
          size_t comma = all.find(',', start);
          std::string item = all.substr(start, comma - start);
          while (!item.empty() && item.front() == ' ')
            item.erase(0, 1);
          items.append(item);
          if (comma == std::string::npos)
            break;
          start = comma + 1;
        }
        return items;
      };
      py::dict entry;
      entry["backend"] = variant.backend;
      entry["cpu"] = variant.cpu;
      entry["features"] = split(variant.features);
      entry["missing"] = split(variant.missing);
      entry["chosen"] = static_cast<bool>(variant.chosen);
      list.append(entry);
    }
    return list;
  }

  std::vector<std::string> functions() const {
    std::vector<std::string> names;
    for (size_t i = 0; i < kiln_module_function_count(module); ++i)
      names.push_back(kiln_function_name(kiln_module_function_at(module, i)));
    return names;
  }

  const kiln_function *find(const std::string &name) const {
    const kiln_function *function =
        kiln_module_find_function(module, name.c_str());
    if (!function) {
      std::string known;
      for (const std::string &other : functions())
        known += (known.empty() ? "" : ", ") + other;
      throw RuntimeError("the module has no function '" + name + "'; it has " +
                         known);
    }
    return function;
  }

  /// (inputs, outputs), each a list of (element type name, dims; -1 where
  /// dynamic, name or None).
  py::tuple signature(const std::string &name) const {
    const kiln_function *function = find(name);
    auto describe = [](kiln_tensor_type type, const char *name) {
      std::vector<int64_t> dims(type.dims, type.dims + type.rank);
      // Names are bytes in ONNX's files: any that are not UTF-8 come
      // through as surrogates rather than failing the load.
      py::object text = py::none();
      if (name)
        text = py::reinterpret_steal<py::object>(
            PyUnicode_DecodeUTF8(name, strlen(name), "surrogateescape"));
      return py::make_tuple(kiln_element_type_name(type.element_type), dims,
                            text);
    };
    py::list inputs, outputs;
    for (size_t i = 0; i < kiln_function_input_count(function); ++i)
      inputs.append(describe(kiln_function_input(function, i),
                             kiln_function_input_name(function, i)));
    for (size_t i = 0; i < kiln_function_output_count(function); ++i)
      outputs.append(describe(kiln_function_output(function, i),
                              kiln_function_output_name(function, i)));
    return py::make_tuple(inputs, outputs);
  }

  double flops(const std::string &name) const {
    return kiln_function_flops(find(name));
  }

  /// The buffers for `arrays`, checked against the function's inputs:
  /// in place where an array is C-contiguous, 64-byte aligned and whole
  /// cache lines, a copy otherwise. `copied` counts the copies.
  std::vector<kiln_buffer *> makeInputs(const kiln_function *function,
                                        const std::string &name,
                                        const std::vector<py::array> &arrays,
                                        size_t *copied) const {
    size_t expected = kiln_function_input_count(function);
    if (arrays.size() != expected)
      throw py::type_error(name + " takes " + std::to_string(expected) +
                           " input" + (expected == 1 ? "" : "s") + ", got " +
                           std::to_string(arrays.size()));
    std::vector<kiln_buffer *> buffers;
    auto releaseAll = [&] {
      for (kiln_buffer *buffer : buffers)
        kiln_buffer_release(buffer);
    };
    for (size_t i = 0; i < arrays.size(); ++i) {
      kiln_tensor_type type = kiln_function_input(function, i);
      const py::array &array = arrays[i];
      std::string where = name + ": input " + std::to_string(i);
      py::dtype want = dtypeOf(type.element_type);
      if (!array.dtype().is(want) && !array.dtype().equal(want)) {
        releaseAll();
        throw py::type_error(
            where + " must be " +
            std::string(kiln_element_type_name(type.element_type)) +
            " (numpy " + std::string(py::str(want)) + "), got numpy " +
            std::string(py::str(array.dtype())));
      }
      bool shapeOk = array.ndim() == type.rank;
      for (int32_t d = 0; shapeOk && d < type.rank; ++d)
        shapeOk =
            type.dims[d] == KILN_DYNAMIC_DIM || type.dims[d] == array.shape(d);
      if (!shapeOk) {
        std::string want = "(", got = "(";
        for (int32_t d = 0; d < type.rank; ++d)
          want += (d ? ", " : "") + (type.dims[d] == KILN_DYNAMIC_DIM
                                         ? std::string("?")
                                         : std::to_string(type.dims[d]));
        for (py::ssize_t d = 0; d < array.ndim(); ++d)
          got += (d ? ", " : "") + std::to_string(array.shape(d));
        releaseAll();
        throw py::value_error(where + " must have shape " + want +
                              (type.rank == 1 ? ",)" : ")") + ", got " + got +
                              (array.ndim() == 1 ? ",)" : ")"));
      }
      std::vector<int64_t> dims(array.shape(), array.shape() + array.ndim());
      kiln_buffer *buffer = nullptr;
      bool contiguous =
          (array.flags() & py::array::c_style) == py::array::c_style;
      uintptr_t address = reinterpret_cast<uintptr_t>(array.data());
      size_t bytes = size_t(array.nbytes());
      if (contiguous && address % KILN_BUFFER_ALIGNMENT == 0 &&
          bytes % KILN_BUFFER_ALIGNMENT == 0) {
        // The buffer keeps the array alive until the runtime lets go.
        PyObject *owner = array.ptr();
        Py_INCREF(owner);
        kiln_error *error = kiln_buffer_wrap(
            type.element_type, int32_t(dims.size()), dims.data(),
            const_cast<void *>(array.data()), bytes,
            [](void *user) {
              py::gil_scoped_acquire acquire;
              Py_DECREF(static_cast<PyObject *>(user));
            },
            owner, &buffer);
        if (error) {
          Py_DECREF(owner);
          releaseAll();
          check(error);
        }
      } else {
        py::array copy =
            py::array::ensure(array, py::array::c_style | py::array::forcecast);
        kiln_error *error = kiln_buffer_create_from_data(
            type.element_type, int32_t(dims.size()), dims.data(), copy.data(),
            size_t(copy.nbytes()), &buffer);
        if (error) {
          releaseAll();
          check(error);
        }
        ++*copied;
      }
      buffers.push_back(buffer);
    }
    return buffers;
  }

  /// Calls `name`; the outputs are numpy arrays over the runtime's buffers
  /// (no copy).
  py::list call(const std::string &name,
                const std::vector<py::array> &arrays) const {
    const kiln_function *function = find(name);
    size_t copied = 0;
    std::vector<kiln_buffer *> inputs =
        makeInputs(function, name, arrays, &copied);
    std::vector<kiln_buffer *> outputs(kiln_function_output_count(function));
    kiln_error *error;
    {
      py::gil_scoped_release release;
      error = kiln_function_call(function, inputs.data(), inputs.size(),
                                 outputs.data(), outputs.size());
    }
    for (kiln_buffer *buffer : inputs)
      kiln_buffer_release(buffer);
    check(error);
    py::list results;
    for (kiln_buffer *buffer : outputs)
      results.append(toArray(buffer));
    return results;
  }

  /// Times `repetitions` calls after `warmup` untimed ones, each call on
  /// its own as kiln-benchmark times it; milliseconds per call.
  std::vector<double> time(const std::string &name,
                           const std::vector<py::array> &arrays, int64_t warmup,
                           int64_t repetitions) const {
    if (warmup < 0 || warmup > kMaxCalls || repetitions < 1 ||
        repetitions > kMaxCalls)
      throw py::value_error(
          "warmup must be from 0 to 1000000 and repetitions from 1 to "
          "1000000, not " +
          std::to_string(warmup) + " and " + std::to_string(repetitions));
    const kiln_function *function = find(name);
    size_t copied = 0;
    std::vector<kiln_buffer *> inputs =
        makeInputs(function, name, arrays, &copied);
    std::vector<kiln_buffer *> outputs(kiln_function_output_count(function));
    std::vector<double> times;
    kiln_error *error = nullptr;
    {
      py::gil_scoped_release release;
      for (int64_t i = 0; i < warmup + repetitions && !error; ++i) {
        auto start = std::chrono::steady_clock::now();
        error = kiln_function_call(function, inputs.data(), inputs.size(),
                                   outputs.data(), outputs.size());
        auto end = std::chrono::steady_clock::now();
        if (error)
          break;
        for (kiln_buffer *&buffer : outputs) {
          kiln_buffer_release(buffer);
          buffer = nullptr;
        }
        if (i >= warmup)
          times.push_back(
              std::chrono::duration<double, std::milli>(end - start).count());
      }
    }
    for (kiln_buffer *buffer : inputs)
      kiln_buffer_release(buffer);
    check(error);
    return times;
  }

  int threads() const { return kiln_runtime_thread_count(runtime->get()); }

private:
  /// The most calls `time` makes of each kind: a million calls of the
  /// smallest function take seconds, a count beyond is a mistake.
  static constexpr int64_t kMaxCalls = 1000000;

  static py::array toArray(kiln_buffer *buffer) {
    std::vector<py::ssize_t> shape(kiln_buffer_dims(buffer),
                                   kiln_buffer_dims(buffer) +
                                       kiln_buffer_rank(buffer));
    py::capsule owner(buffer, [](void *pointer) {
      kiln_buffer_release(static_cast<kiln_buffer *>(pointer));
    });
    return py::array(dtypeOf(kiln_buffer_element_type(buffer)), shape,
                     kiln_buffer_data(buffer), owner);
  }

  std::shared_ptr<Runtime> runtime;
  kiln_module *module = nullptr;
  int memoryFile = -1;
};

} // namespace

PYBIND11_MODULE(_kiln, m) {
  m.doc() = "Kiln's compiler and runtime (use the kiln package)";
  py::register_exception<CompileFailure>(m, "CompileFailure",
                                         PyExc_RuntimeError);
  py::register_exception<RuntimeError>(m, "RuntimeFailure", PyExc_RuntimeError);
  m.attr("version") = KILN_VERSION;
  m.attr("build_id") = KILN_BUILD_ID;
  m.def("compile", &compile, py::arg("path"), py::arg("source"),
        py::arg("name"), py::arg("flags"), py::arg("plugins"),
        py::arg("compile_to"));
  py::class_<Module>(m, "Module")
      .def(py::init<std::optional<std::string>, std::optional<py::bytes>, int,
                    const std::vector<std::string> &,
                    std::optional<std::string>>(),
           py::arg("path"), py::arg("data"), py::arg("threads"),
           py::arg("extensions"), py::arg("variant"))
      .def("functions", &Module::functions)
      .def("variants", &Module::variants)
      .def("signature", &Module::signature)
      .def("flops", &Module::flops)
      .def("call", &Module::call)
      .def("time", &Module::time)
      .def("threads", &Module::threads);
}
