//===- RuntimeTest.cpp - The runtime's C API ------------------------------===//
//
// Tests buffers, element types, module loading (and every way it refuses a
// module) and function calls, against hand-written fake modules.
//
//===----------------------------------------------------------------------===//

#include "RuntimeTestSupport.h"
#include "kiln_extension.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

// From the runtime's internal.h: the metadata parser without a module.
extern "C" kiln_error *kiln_module_check_info(kiln_runtime *runtime,
                                              const char *text);

namespace {

using namespace kiln_test;

TEST(ElementTypes, NamesAndSizes) {
  EXPECT_STREQ(kiln_element_type_name(KILN_ELEMENT_F32), "f32");
  EXPECT_EQ(kiln_element_type_from_name("bf16"), KILN_ELEMENT_BF16);
  EXPECT_EQ(kiln_element_type_from_name("f33"), KILN_ELEMENT_INVALID);
  EXPECT_EQ(kiln_element_type_size(KILN_ELEMENT_I1), 1u);
  EXPECT_EQ(kiln_element_type_size(KILN_ELEMENT_F64), 8u);
  EXPECT_EQ(kiln_element_type_size(KILN_ELEMENT_INVALID), 0u);
}

TEST(Buffers, CreateZeroFilled) {
  int64_t dims[2] = {3, 5};
  kiln_buffer *buffer = nullptr;
  ASSERT_EQ(errorOf([&] {
              return kiln_buffer_create(KILN_ELEMENT_I16, 2, dims, &buffer);
            }),
            "");
  EXPECT_EQ(kiln_buffer_element_count(buffer), 15);
  EXPECT_EQ(kiln_buffer_byte_size(buffer), 30u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(kiln_buffer_data(buffer)) % 64, 0u);
  const int16_t *data = static_cast<int16_t *>(kiln_buffer_data(buffer));
  for (int i = 0; i < 15; ++i)
    EXPECT_EQ(data[i], 0);
  kiln_buffer_retain(buffer);
  kiln_buffer_release(buffer);
  kiln_buffer_release(buffer);
}

TEST(Buffers, RefusesBadShapesAndData) {
  kiln_buffer *buffer = nullptr;
  int64_t negative[1] = {-2};
  EXPECT_TRUE(contains(errorOf([&] {
                         return kiln_buffer_create(KILN_ELEMENT_F32, 1,
                                                   negative, &buffer);
                       }),
                       "dim 0 is negative (-2)"));
  int64_t dims[1] = {4};
  EXPECT_TRUE(contains(errorOf([&] {
                         return kiln_buffer_create(KILN_ELEMENT_INVALID, 1,
                                                   dims, &buffer);
                       }),
                       "invalid element type"));
  EXPECT_TRUE(contains(errorOf([&] {
                         return kiln_buffer_create(KILN_ELEMENT_F32, 17, dims,
                                                   &buffer);
                       }),
                       "rank 17 is out of range"));
  float data[3] = {1, 2, 3};
  EXPECT_TRUE(contains(errorOf([&] {
                         return kiln_buffer_create_from_data(
                             KILN_ELEMENT_F32, 1, dims, data, sizeof(data),
                             &buffer);
                       }),
                       "data has 12 bytes but the buffer needs 16"));
}

TEST(Runtime, RefusesNegativeThreads) {
  kiln_runtime_options options = {-1, 0};
  kiln_runtime *runtime = nullptr;
  EXPECT_TRUE(
      contains(errorOf([&] { return kiln_runtime_create(&options, &runtime); }),
               "thread count must be positive"));
}

TEST(Runtime, DefaultsToAllCores) {
  kiln_runtime *runtime = nullptr;
  ASSERT_EQ(errorOf([&] { return kiln_runtime_create(nullptr, &runtime); }),
            "");
  EXPECT_GE(kiln_runtime_thread_count(runtime), 1);
  kiln_runtime_destroy(runtime);
}

TEST_F(RuntimeTest, ListsFunctionsAndTypes) {
  ASSERT_EQ(load(KILN_FAKE_MODULE), "");
  EXPECT_STREQ(kiln_module_target_cpu(module), "fakecpu");
  ASSERT_EQ(kiln_module_function_count(module), 5u);
  const kiln_function *scale = kiln_module_find_function(module, "scale");
  ASSERT_NE(scale, nullptr);
  EXPECT_EQ(kiln_module_find_function(module, "nope"), nullptr);
  EXPECT_EQ(kiln_function_input_count(scale), 1u);
  EXPECT_EQ(kiln_function_output_count(scale), 1u);
  kiln_tensor_type input = kiln_function_input(scale, 0);
  EXPECT_EQ(input.element_type, KILN_ELEMENT_F32);
  ASSERT_EQ(input.rank, 2);
  EXPECT_EQ(input.dims[0], KILN_DYNAMIC_DIM);
  EXPECT_EQ(input.dims[1], 4);
  EXPECT_EQ(kiln_function_flops(scale), 8.0);
  EXPECT_EQ(kiln_function_input(scale, 5).element_type, KILN_ELEMENT_INVALID);
  // Names, where the module gives them, %XX decoded.
  EXPECT_EQ(kiln_function_input_name(scale, 0), nullptr);
  const kiln_function *split = kiln_module_find_function(module, "split");
  ASSERT_NE(split, nullptr);
  EXPECT_STREQ(kiln_function_input_name(split, 0), "values in%");
  EXPECT_STREQ(kiln_function_output_name(split, 0), "first");
  EXPECT_EQ(kiln_function_output_name(split, 1), nullptr);
  EXPECT_EQ(kiln_function_output_name(split, 2), nullptr);
}

TEST_F(RuntimeTest, RefusesMalformedNames) {
  for (const char *name : {"x%2", "x%zz", "x%00y", "%"}) {
    std::string info = "kiln-module " +
                       std::to_string(KILN_MODULE_ABI_VERSION) +
                       "\n"
                       "target x86_64-unknown-linux-gnu znver4\n"
                       "features -\n"
                       // An entry point the process has.
                       "function f malloc 0\n"
                       "input f32 1 4 " +
                       name + "\n";
    std::string message =
        errorOf([&] { return kiln_module_check_info(runtime, info.c_str()); });
    EXPECT_TRUE(contains(message, "metadata line 5: malformed name '" +
                                      std::string(name) + "'"))
        << message;
  }
}

TEST_F(RuntimeTest, CallsAFunctionOnAllThreads) {
  ASSERT_EQ(load(KILN_FAKE_MODULE), "");
  // Enough rows (one workgroup each) that both threads take some.
  const int rows = 257;
  std::vector<float> values(rows * 4);
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = static_cast<float>(i);
  kiln_buffer *output = nullptr;
  ASSERT_EQ(callScale(module, values, rows, &output), "");
  ASSERT_EQ(kiln_buffer_rank(output), 2);
  EXPECT_EQ(kiln_buffer_dims(output)[0], rows);
  const float *result = static_cast<float *>(kiln_buffer_data(output));
  for (size_t i = 0; i < values.size(); ++i)
    ASSERT_EQ(result[i], 2 * values[i]) << "at " << i;
  kiln_buffer_release(output);
}

// Dispatches of one to three workgroups, back to back, on more threads than
// the machine may have cores: workers join some while spinning, wake too
// late for others (and must then leave the dispatch, whose state the
// fake module frees as soon as it returns: the sanitized build checks),
// and every workgroup runs exactly once.
TEST_F(RuntimeTest, RunsEachWorkgroupOnceInSmallDispatches) {
  restart({4, 0});
  ASSERT_EQ(load(KILN_FAKE_MODULE), "");
  for (int call = 0; call < 3000; ++call) {
    int64_t rows = 1 + call % 3;
    std::vector<float> values(rows * 4, float(call));
    kiln_buffer *output = nullptr;
    ASSERT_EQ(callScale(module, values, rows, &output), "");
    const float *result = static_cast<float *>(kiln_buffer_data(output));
    for (size_t i = 0; i < values.size(); ++i)
      ASSERT_EQ(result[i], 2.0f * call) << "call " << call << ", at " << i;
    kiln_buffer_release(output);
  }
}

TEST_F(RuntimeTest, ReturnsSeveralOutputs) {
  ASSERT_EQ(load(KILN_FAKE_MODULE), "");
  const kiln_function *split = kiln_module_find_function(module, "split");
  int32_t values[3] = {10, 20, 30};
  int64_t dims[1] = {3};
  kiln_buffer *input = nullptr;
  ASSERT_EQ(errorOf([&] {
              return kiln_buffer_create_from_data(
                  KILN_ELEMENT_I32, 1, dims, values, sizeof(values), &input);
            }),
            "");
  kiln_buffer *outputs[2] = {nullptr, nullptr};
  ASSERT_EQ(
      errorOf([&] { return kiln_function_call(split, &input, 1, outputs, 2); }),
      "");
  const int32_t *low = static_cast<int32_t *>(kiln_buffer_data(outputs[0]));
  const int32_t *high = static_cast<int32_t *>(kiln_buffer_data(outputs[1]));
  EXPECT_EQ(low[2], 29);
  EXPECT_EQ(high[0], 11);
  kiln_buffer_release(outputs[0]);
  kiln_buffer_release(outputs[1]);
  kiln_buffer_release(input);
}

TEST_F(RuntimeTest, RefusesWrongInputs) {
  ASSERT_EQ(load(KILN_FAKE_MODULE), "");
  const kiln_function *scale = kiln_module_find_function(module, "scale");
  kiln_buffer *output = nullptr;
  int64_t goodDims[2] = {2, 4}, badDims[2] = {2, 5}, flat[1] = {8};
  kiln_buffer *good = nullptr, *wrongDim = nullptr, *wrongType = nullptr,
              *wrongRank = nullptr;
  ASSERT_EQ(errorOf([&] {
              return kiln_buffer_create(KILN_ELEMENT_F32, 2, goodDims, &good);
            }),
            "");
  ASSERT_EQ(errorOf([&] {
              return kiln_buffer_create(KILN_ELEMENT_F32, 2, badDims,
                                        &wrongDim);
            }),
            "");
  ASSERT_EQ(errorOf([&] {
              return kiln_buffer_create(KILN_ELEMENT_I32, 2, goodDims,
                                        &wrongType);
            }),
            "");
  ASSERT_EQ(errorOf([&] {
              return kiln_buffer_create(KILN_ELEMENT_F32, 1, flat, &wrongRank);
            }),
            "");
  kiln_buffer *two[2] = {good, good};
  EXPECT_TRUE(contains(
      errorOf([&] { return kiln_function_call(scale, two, 2, &output, 1); }),
      "'scale' takes 1 inputs, got 2"));
  EXPECT_TRUE(contains(
      errorOf([&] { return kiln_function_call(scale, &good, 1, &output, 0); }),
      "'scale' returns 1 outputs"));
  EXPECT_TRUE(contains(errorOf([&] {
                         return kiln_function_call(scale, &wrongDim, 1, &output,
                                                   1);
                       }),
                       "input 0 of 'scale' must be tensor<?x4xf32>, got "
                       "tensor<2x5xf32>"));
  EXPECT_TRUE(contains(errorOf([&] {
                         return kiln_function_call(scale, &wrongType, 1,
                                                   &output, 1);
                       }),
                       "got tensor<2x4xi32>"));
  EXPECT_TRUE(contains(errorOf([&] {
                         return kiln_function_call(scale, &wrongRank, 1,
                                                   &output, 1);
                       }),
                       "got tensor<8xf32>"));
  kiln_buffer *missing = nullptr;
  EXPECT_TRUE(contains(errorOf([&] {
                         return kiln_function_call(scale, &missing, 1, &output,
                                                   1);
                       }),
                       "input 0 of 'scale' is missing"));
  EXPECT_EQ(output, nullptr);
  for (kiln_buffer *buffer : {good, wrongDim, wrongType, wrongRank})
    kiln_buffer_release(buffer);
}

TEST_F(RuntimeTest, RefusesMissingFiles) {
  EXPECT_TRUE(contains(load("/nonexistent/model.so"),
                       "cannot open module '/nonexistent/model.so'"));
}

TEST_F(RuntimeTest, RefusesFilesThatAreNotSharedObjects) {
  std::string path = testing::TempDir() + "not-a-module.so";
  std::ofstream(path) << "func.func @main() { return }\n";
  EXPECT_TRUE(contains(load(path.c_str()),
                       "is not a Kiln module: it is not a shared object"));
  std::remove(path.c_str());
}

TEST_F(RuntimeTest, RefusesDamagedModules) {
  std::ifstream in(KILN_FAKE_MODULE, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)),
                    std::istreambuf_iterator<char>());
  ASSERT_GT(bytes.size(), 1000u);
  std::string truncated = testing::TempDir() + "kiln-truncated.so";
  std::ofstream(truncated, std::ios::binary) << bytes.substr(0, 1000);
  EXPECT_TRUE(contains(load(truncated.c_str()),
                       "it does not end in the checksum kiln-compile writes"));
  std::string flipped = testing::TempDir() + "kiln-flipped.so";
  bytes[500] = static_cast<char>(~bytes[500]);
  std::ofstream(flipped, std::ios::binary) << bytes;
  EXPECT_TRUE(contains(load(flipped.c_str()),
                       "its checksum does not match its content"));
  std::remove(truncated.c_str());
  std::remove(flipped.c_str());
}

TEST_F(RuntimeTest, RefusesRepeatedTargetLines) {
  // Found by the module_info fuzzer: a second target line leaked the first.
  std::string info = "kiln-module " + std::to_string(KILN_MODULE_ABI_VERSION) +
                     "\n"
                     "target x86_64-unknown-linux-gnu znver4\n"
                     "target x86_64-unknown-linux-gnu znver5\n"
                     "features -\n";
  std::string message =
      errorOf([&] { return kiln_module_check_info(runtime, info.c_str()); });
  EXPECT_TRUE(contains(message, "metadata line 3: unexpected 'target'"))
      << message;
}

TEST_F(RuntimeTest, RefusesSharedObjectsWithoutMetadata) {
  EXPECT_TRUE(contains(load(KILN_FAKE_NO_METADATA_MODULE),
                       "is not a Kiln module: it has no 'kiln_module_info'"));
}

TEST_F(RuntimeTest, RefusesOtherABIVersions) {
  EXPECT_TRUE(contains(load(KILN_FAKE_VERSION_MODULE),
                       "compiled against module ABI version 999"));
}

TEST_F(RuntimeTest, RefusesModulesForOtherCPUs) {
  std::string message = load(KILN_FAKE_FEATURES_MODULE);
  EXPECT_TRUE(contains(message, "compiled for CPU 'fakecpu' and needs "
                                "warp-drive, which this CPU does not have"))
      << message;
}

TEST_F(RuntimeTest, DisabledFeaturesCountAsMissing) {
  setenv("KILN_RUNTIME_DISABLE_CPU_FEATURES", "avx,sse2", 1);
  std::string message = load(KILN_FAKE_SSE2_MODULE);
  unsetenv("KILN_RUNTIME_DISABLE_CPU_FEATURES");
  EXPECT_TRUE(contains(message, "needs sse2, which this CPU does not have"))
      << message;
}

/// The CPU of the variant `module` runs.
std::string chosenVariant(const kiln_module *module) {
  for (size_t i = 0; i < kiln_module_variant_count(module); ++i)
    if (kiln_module_variant_at(module, i).chosen)
      return kiln_module_variant_at(module, i).cpu;
  return "";
}

// A module for several CPUs runs the variant this CPU can run that needs
// the most features; each variant says what this CPU lacks of it.
TEST_F(RuntimeTest, PicksTheMostSpecificVariantThisCPURuns) {
  ASSERT_EQ(load(KILN_FAKE_VARIANTS_MODULE), "");
  ASSERT_EQ(kiln_module_variant_count(module), 3u);
  EXPECT_EQ(chosenVariant(module), "wide");
  EXPECT_STREQ(kiln_module_target_cpu(module), "wide");
  kiln_module_variant future = kiln_module_variant_at(module, 2);
  EXPECT_STREQ(future.cpu, "future");
  EXPECT_STREQ(future.backend, "llvm-cpu");
  EXPECT_STREQ(future.features, "sse2,warp-drive");
  EXPECT_EQ(future.feature_count, 2);
  EXPECT_STREQ(future.missing, "warp-drive");
  EXPECT_STREQ(kiln_module_variant_at(module, 0).missing, "");
  EXPECT_EQ(kiln_module_variant_at(module, 3).cpu, nullptr);

  // As on a CPU without AVX: the one below it.
  kiln_module_unload(module);
  module = nullptr;
  setenv("KILN_RUNTIME_DISABLE_CPU_FEATURES", "avx", 1);
  std::string message = load(KILN_FAKE_VARIANTS_MODULE);
  unsetenv("KILN_RUNTIME_DISABLE_CPU_FEATURES");
  ASSERT_EQ(message, "");
  EXPECT_EQ(chosenVariant(module), "basic");
  EXPECT_STREQ(kiln_module_variant_at(module, 1).missing, "avx");
}

TEST_F(RuntimeTest, RunsTheVariantAskedFor) {
  kiln_module_options options = {};
  options.variant = "basic";
  ASSERT_EQ(errorOf([&] {
              return kiln_module_load_with_options(
                  runtime, KILN_FAKE_VARIANTS_MODULE, &options, &module);
            }),
            "");
  EXPECT_EQ(chosenVariant(module), "basic");
  kiln_module_unload(module);
  module = nullptr;

  options.variant = "future";
  std::string message = errorOf([&] {
    return kiln_module_load_with_options(runtime, KILN_FAKE_VARIANTS_MODULE,
                                         &options, &module);
  });
  EXPECT_TRUE(contains(message, "the module's variant for CPU 'future' needs "
                                "warp-drive, which this CPU does not have"))
      << message;
  options.variant = "nope";
  message = errorOf([&] {
    return kiln_module_load_with_options(runtime, KILN_FAKE_VARIANTS_MODULE,
                                         &options, &module);
  });
  EXPECT_TRUE(contains(message, "the module has no variant for CPU 'nope' "
                                "(it has: basic, wide, future)"))
      << message;
}

TEST_F(RuntimeTest, RefusesModulesWhoseVariantsThisCPURunsNone) {
  setenv("KILN_RUNTIME_DISABLE_CPU_FEATURES", "sse2", 1);
  std::string message = load(KILN_FAKE_VARIANTS_MODULE);
  unsetenv("KILN_RUNTIME_DISABLE_CPU_FEATURES");
  EXPECT_TRUE(contains(message,
                       "this CPU can run none of the module's variants: basic "
                       "needs sse2; wide needs sse2; future needs sse2, "
                       "warp-drive"))
      << message;
}

TEST_F(RuntimeTest, RefusesMalformedVariantLines) {
  std::string info = "kiln-module " + std::to_string(KILN_MODULE_ABI_VERSION) +
                     "\n"
                     "target x86_64-unknown-linux-gnu x86-64\n"
                     "features -\n"
                     "variant llvm-cpu znver4\n";
  std::string message =
      errorOf([&] { return kiln_module_check_info(runtime, info.c_str()); });
  EXPECT_TRUE(contains(message, "metadata line 4: unexpected 'variant'"))
      << message;
}

const char *doubleValues(void *, const kiln_tensor_view *, int32_t,
                         const kiln_tensor_view *, int32_t) {
  return nullptr;
}

// Extensions registered through the C API resolve a module's externs by
// name, kind and signature; the runtime refuses malformed and clashing
// ones, saying why.
TEST_F(RuntimeTest, ResolvesExternsAgainstRegisteredExtensions) {
  static const kiln_extension_symbol symbols[] = {
      {"test.double", KILN_EXTENSION_HOST_FUNCTION, "(tensor<3xi32>)->()",
       reinterpret_cast<void *>(&doubleValues), nullptr}};
  static const kiln_extension extension = {KILN_EXTENSION_ABI_VERSION, "test",
                                           1, symbols};
  std::string header = "kiln-module " +
                       std::to_string(KILN_MODULE_ABI_VERSION) +
                       "\ntarget x86_64-unknown-linux-gnu x86-64\n"
                       "features -\n";
  auto check = [&](const std::string &line) {
    std::string info = header + line + "\n";
    return errorOf(
        [&] { return kiln_module_check_info(runtime, info.c_str()); });
  };
  std::string line = "extern host test.double (tensor<3xi32>)->()";
  EXPECT_TRUE(contains(check(line), "which no runtime extension provides"));

  ASSERT_EQ(
      errorOf([&] { return kiln_runtime_add_extension(runtime, &extension); }),
      "");
  EXPECT_EQ(kiln_runtime_extension_count(runtime), 1u);
  EXPECT_EQ(kiln_runtime_extension_at(runtime, 0), &extension);
  EXPECT_EQ(check(line), "");
  EXPECT_TRUE(contains(check("extern host test.double (tensor<4xi32>)->()"),
                       "the module calls 'test.double' as "
                       "(tensor<4xi32>)->(), but extension 'test' provides "
                       "it as (tensor<3xi32>)->()"));
  EXPECT_TRUE(contains(check("extern kernel test.double (tensor<3xi32>)->()"),
                       "as a kernel function, but extension 'test' "
                       "provides a host function"));
  EXPECT_TRUE(contains(check("extern device test.double ()->()"),
                       "unknown extern kind 'device' (host or kernel)"));

  // The same name twice, another ABI, a malformed symbol.
  EXPECT_TRUE(contains(
      errorOf([&] { return kiln_runtime_add_extension(runtime, &extension); }),
      "extension 'test' provides 'test.double', which extension 'test' "
      "provides already"));
  kiln_extension old = extension;
  old.abi_version = KILN_EXTENSION_ABI_VERSION + 1;
  EXPECT_TRUE(contains(
      errorOf([&] { return kiln_runtime_add_extension(runtime, &old); }),
      "built against extension ABI version"));
  kiln_extension_symbol spaced = symbols[0];
  spaced.name = "test.other";
  spaced.signature = "(tensor<3xi32>) -> ()";
  kiln_extension withSpaces = {KILN_EXTENSION_ABI_VERSION, "spaced", 1,
                               &spaced};
  EXPECT_TRUE(contains(
      errorOf([&] { return kiln_runtime_add_extension(runtime, &withSpaces); }),
      "'test.other' needs a signature without spaces"));
  EXPECT_TRUE(contains(
      errorOf([&] { return kiln_runtime_add_extension(runtime, nullptr); }),
      "the extension is NULL"));
  EXPECT_EQ(kiln_runtime_extension_count(runtime), 1u);
}

TEST_F(RuntimeTest, RefusesMalformedMetadata) {
  std::string message = load(KILN_FAKE_MALFORMED_MODULE);
  EXPECT_TRUE(contains(message, "metadata line 9: unexpected 'frobnicate'"))
      << message;
}

TEST_F(RuntimeTest, RefusesUnknownImports) {
  std::string message = load(KILN_FAKE_IMPORT_MODULE);
  EXPECT_TRUE(contains(message, "metadata line 4: the module imports "
                                "'kiln.teleport', which this runtime does "
                                "not provide"))
      << message;
}

TEST_F(RuntimeTest, ChecksCountAndRecordFailures) {
  ASSERT_EQ(load(KILN_FAKE_MODULE), "");
  const kiln_function *selfcheck =
      kiln_module_find_function(module, "selfcheck");
  ASSERT_NE(selfcheck, nullptr);
  auto call = [&](std::vector<int32_t> values) {
    int64_t dims[1] = {3};
    kiln_buffer *input = nullptr;
    EXPECT_EQ(errorOf([&] {
                return kiln_buffer_create_from_data(
                    KILN_ELEMENT_I32, 1, dims, values.data(),
                    values.size() * sizeof(int32_t), &input);
              }),
              "");
    EXPECT_EQ(errorOf([&] {
                return kiln_function_call(selfcheck, &input, 1, nullptr, 0);
              }),
              "");
    kiln_buffer_release(input);
  };

  call({1, 2, 3});
  EXPECT_EQ(kiln_runtime_checks_run(runtime), 2u);
  EXPECT_EQ(kiln_runtime_check_failure_count(runtime), 0u);

  call({1, 0, 7});
  EXPECT_EQ(kiln_runtime_checks_run(runtime), 4u);
  ASSERT_EQ(kiln_runtime_check_failure_count(runtime), 2u);
  EXPECT_EQ(std::string(kiln_runtime_check_failure(runtime, 0)),
            "fake.mlir:1:1: expected equal 3xi32 values, but 2 of 3 elements "
            "differ; the first at index [1]: expected 2, got 0");
  EXPECT_EQ(std::string(kiln_runtime_check_failure(runtime, 1)),
            "fake.mlir:2:1: expected every element nonzero, but 1 of 3 "
            "elements are not; the first at index [1] is 0");
  EXPECT_EQ(kiln_runtime_check_failure(runtime, 2), nullptr);

  kiln_runtime_reset_checks(runtime);
  EXPECT_EQ(kiln_runtime_checks_run(runtime), 0u);
  EXPECT_EQ(kiln_runtime_check_failure_count(runtime), 0u);
}

} // namespace
