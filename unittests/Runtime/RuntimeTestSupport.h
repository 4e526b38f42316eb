//===- RuntimeTestSupport.h - Helpers of the runtime's tests ---*- C++ -*-===//
//
// Error capture, a fixture that owns a runtime and a module, and calls of
// the fake module's functions (fake_module.c), shared by the runtime's
// test files.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_UNITTESTS_RUNTIME_RUNTIMETESTSUPPORT_H
#define KILN_UNITTESTS_RUNTIME_RUNTIMETESTSUPPORT_H

#include "kiln_module_abi.h"
#include "kiln_runtime.h"
#include "gtest/gtest.h"

#include <string>
#include <vector>

namespace kiln_test {

/// Runs `call`, returns its error message ("" on success) and frees it.
template <typename Call> std::string errorOf(Call call) {
  kiln_error *error = call();
  if (!error)
    return "";
  std::string message = kiln_error_message(error);
  kiln_error_free(error);
  return message;
}

inline bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

/// A runtime with two threads (or what `restart` asks), and the module
/// `load` loaded into it.
class RuntimeTest : public ::testing::Test {
protected:
  void SetUp() override { restart({2, 0}); }
  void TearDown() override {
    kiln_module_unload(module);
    kiln_runtime_destroy(runtime);
  }
  /// Replaces the runtime (and unloads the module) by one with `options`.
  void restart(kiln_runtime_options options) {
    TearDown();
    module = nullptr;
    runtime = nullptr;
    ASSERT_EQ(errorOf([&] { return kiln_runtime_create(&options, &runtime); }),
              "");
  }
  std::string load(const char *path) {
    return errorOf([&] { return kiln_module_load(runtime, path, &module); });
  }

  kiln_runtime *runtime = nullptr;
  kiln_module *module = nullptr;
};

/// Calls the fake module's `buffers` with [a, b, count, size] (see
/// fake_module.c); returns the error message, "" on success.
inline std::string callBuffers(kiln_module *module, std::vector<int64_t> sizes,
                               kiln_buffer **output) {
  const kiln_function *buffers = kiln_module_find_function(module, "buffers");
  if (!buffers)
    return "no function 'buffers'";
  int64_t dims[1] = {4};
  kiln_buffer *input = nullptr;
  std::string message = errorOf([&] {
    return kiln_buffer_create_from_data(KILN_ELEMENT_I64, 1, dims, sizes.data(),
                                        sizes.size() * sizeof(int64_t), &input);
  });
  if (message.empty())
    message = errorOf(
        [&] { return kiln_function_call(buffers, &input, 1, output, 1); });
  kiln_buffer_release(input);
  return message;
}

/// Calls the fake module's `scale` on `rows` rows of 4 `values`; returns the
/// error message, "" on success.
inline std::string callScale(kiln_module *module,
                             const std::vector<float> &values, int64_t rows,
                             kiln_buffer **output) {
  const kiln_function *scale = kiln_module_find_function(module, "scale");
  int64_t dims[2] = {rows, 4};
  kiln_buffer *input = nullptr;
  std::string message = errorOf([&] {
    return kiln_buffer_create_from_data(KILN_ELEMENT_F32, 2, dims,
                                        values.data(),
                                        values.size() * sizeof(float), &input);
  });
  if (message.empty())
    message = errorOf(
        [&] { return kiln_function_call(scale, &input, 1, output, 1); });
  kiln_buffer_release(input);
  return message;
}

} // namespace kiln_test

#endif // KILN_UNITTESTS_RUNTIME_RUNTIMETESTSUPPORT_H
