//===- MemoryTest.cpp - Host buffers and workgroup scratch of calls -------===//
//
// Tests what the runtime gives a call's host code and kernels: aligned
// buffers, an error that ends the call when memory runs out, workgroup
// scratch, and the block cache that keeps large buffers from one call to
// the next.
//
//===----------------------------------------------------------------------===//

#include "RuntimeTestSupport.h"

#include <cstdint>
#include <string>

namespace {

using namespace kiln_test;

TEST_F(RuntimeTest, AllocatesHostBuffersAligned) {
  ASSERT_EQ(load(KILN_FAKE_MODULE), "");
  kiln_buffer *output = nullptr;
  ASSERT_EQ(callBuffers(module, {16, 32, 10, 4}, &output), "");
  ASSERT_EQ(kiln_buffer_byte_size(output), 40u);
  const unsigned char *data =
      static_cast<unsigned char *>(kiln_buffer_data(output));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(data) % 64, 0u);
  for (int i = 0; i < 40; ++i)
    ASSERT_EQ(data[i], i % 251) << "at " << i;
  kiln_buffer_release(output);
  // Zero-sized buffers are buffers too.
  ASSERT_EQ(callBuffers(module, {0, 0, 0, 4}, &output), "");
  EXPECT_EQ(kiln_buffer_byte_size(output), 0u);
  kiln_buffer_release(output);
}

// The instrumented build checks that the buffers allocated before the one
// that failed are freed (LeakSanitizer, at exit).
TEST_F(RuntimeTest, EndsTheCallWhenMemoryRunsOut) {
  ASSERT_EQ(load(KILN_FAKE_MODULE), "");
  kiln_buffer *output = nullptr;
  // 2^62 bytes: more than any machine can give.
  std::string message =
      callBuffers(module, {16, 32, int64_t(1) << 60, 4}, &output);
  EXPECT_EQ(message, "'buffers' stopped: fake.mlir:5:1: out of memory "
                     "allocating a buffer of 4611686018427387904 bytes");
  EXPECT_EQ(output, nullptr);

  message = callBuffers(module, {16, 32, int64_t(1) << 62, 4}, &output);
  EXPECT_EQ(message, "'buffers' stopped: fake.mlir:5:1: a buffer of "
                     "4611686018427387904 elements of 4 bytes each is larger "
                     "than memory can be");
  // What host code passes for a negative dynamic size, or sizes whose
  // product overflows; any other negative count is a damaged module.
  message =
      callBuffers(module, {16, KILN_ALLOCATE_NEGATIVE_SIZE, 1, 1}, &output);
  EXPECT_EQ(message, "'buffers' stopped: fake.mlir:4:1: a buffer with a "
                     "negative dimension");
  message = callBuffers(module, {16, 32, KILN_ALLOCATE_TOO_MANY_ELEMENTS, 4},
                        &output);
  EXPECT_EQ(message, "'buffers' stopped: fake.mlir:5:1: a buffer of more "
                     "than 2^63 - 1 elements");
  message = callBuffers(module, {16, 32, -7, 4}, &output);
  EXPECT_EQ(message, "'buffers' stopped: fake.mlir:5:1: a buffer of -7 "
                     "elements of 4 bytes each is not a valid size");
  message = callBuffers(module, {16, 32, 4, 0}, &output);
  EXPECT_EQ(message, "'buffers' stopped: fake.mlir:5:1: a buffer of 4 "
                     "elements of 0 bytes each is not a valid size");

  // The runtime goes on: the next call works.
  ASSERT_EQ(callBuffers(module, {16, 32, 3, 1}, &output), "");
  EXPECT_EQ(kiln_buffer_byte_size(output), 3u);
  kiln_buffer_release(output);
}

// Workgroup scratch comes from the runtime: a dispatch that asks for more
// than memory can give runs nothing and ends the call with an error.
TEST_F(RuntimeTest, EndsTheCallWhenScratchRunsOut) {
  ASSERT_EQ(load(KILN_FAKE_MODULE), "");
  const kiln_function *scratch = kiln_module_find_function(module, "scratch");
  ASSERT_NE(scratch, nullptr);
  auto call = [&](uint64_t bytes) {
    int64_t dims[1] = {1};
    kiln_buffer *input = nullptr;
    std::string message = errorOf([&] {
      return kiln_buffer_create_from_data(KILN_ELEMENT_I64, 1, dims, &bytes,
                                          sizeof(bytes), &input);
    });
    if (message.empty())
      message = errorOf(
          [&] { return kiln_function_call(scratch, &input, 1, nullptr, 0); });
    kiln_buffer_release(input);
    return message;
  };
  std::string threads = std::to_string(kiln_runtime_thread_count(runtime));
  EXPECT_EQ(call(uint64_t(1) << 62),
            "'scratch' stopped: out of memory allocating 4611686018427387904 "
            "bytes of workgroup scratch for each of " +
                threads + " threads");
  EXPECT_EQ(call(~uint64_t(0)),
            "'scratch' stopped: out of memory allocating "
            "18446744073709551615 bytes of workgroup scratch for each of " +
                threads + " threads");
  // The runtime goes on, and keeps what it allocated for the next calls.
  EXPECT_EQ(call(1 << 20), "");
  EXPECT_EQ(call(1), "");
}

} // namespace

namespace {

/// A runtime of one thread keeping at most `cacheBytes` of freed buffers,
/// with the fake module loaded.
class BlockCacheTest : public RuntimeTest {
protected:
  void start(int64_t cacheBytes) {
    restart({1, cacheBytes});
    ASSERT_EQ(load(KILN_FAKE_MODULE), "");
  }
  /// Calls `buffers` for an output of `bytes`, checking its contents.
  kiln_buffer *output(int64_t bytes, int64_t freedFirst = 0) {
    kiln_buffer *result = nullptr;
    EXPECT_EQ(callBuffers(module, {freedFirst, 0, bytes, 1}, &result), "");
    if (!result)
      return nullptr;
    const unsigned char *data =
        static_cast<unsigned char *>(kiln_buffer_data(result));
    for (int64_t i = 0; i < bytes; i += 4093)
      EXPECT_EQ(data[i], i % 251) << "at " << i;
    return result;
  }
};

constexpr int64_t kMiB = 1 << 20;

TEST_F(BlockCacheTest, ServesTheNextCallFromAReleasedOutput) {
  start(0);
  kiln_buffer *first = output(kMiB);
  void *storage = kiln_buffer_data(first);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(storage) % 4096, 0u);
  EXPECT_EQ(kiln_runtime_cached_bytes(runtime), 0u);
  kiln_buffer_release(first);
  EXPECT_EQ(kiln_runtime_cached_bytes(runtime), size_t(kMiB));
  // Same size class (from 960 KiB to 1 MiB): the same storage.
  kiln_buffer *second = output(kMiB - 1000);
  EXPECT_EQ(kiln_buffer_data(second), storage);
  EXPECT_EQ(kiln_runtime_cached_bytes(runtime), 0u);
  // Another class: fresh storage, the kept block stays kept.
  kiln_buffer_release(second);
  kiln_buffer *third = output(3 * kMiB);
  EXPECT_NE(kiln_buffer_data(third), storage);
  EXPECT_EQ(kiln_runtime_cached_bytes(runtime), size_t(kMiB));
  kiln_buffer_release(third);
  EXPECT_EQ(kiln_runtime_cached_bytes(runtime), size_t(4 * kMiB));
  kiln_runtime_trim(runtime);
  EXPECT_EQ(kiln_runtime_cached_bytes(runtime), 0u);
}

TEST_F(BlockCacheTest, ReusesAnIntermediateWithinTheCall) {
  start(0);
  // `buffers` frees a 1 MiB buffer before it allocates its output of the
  // same class: the output takes its block, nothing is left kept.
  kiln_buffer *result = output(kMiB, kMiB);
  EXPECT_EQ(kiln_runtime_cached_bytes(runtime), 0u);
  kiln_buffer_release(result);
  EXPECT_EQ(kiln_runtime_cached_bytes(runtime), size_t(kMiB));
}

TEST_F(BlockCacheTest, LeavesBuffersSmallerThanAPageToMalloc) {
  start(0);
  kiln_buffer_release(output(1000));
  kiln_buffer_release(output(4095));
  EXPECT_EQ(kiln_runtime_cached_bytes(runtime), 0u);
  kiln_buffer_release(output(4096));
  EXPECT_EQ(kiln_runtime_cached_bytes(runtime), size_t(4096));
  // Kept blocks are whole pages.
  kiln_buffer_release(output(4097));
  EXPECT_EQ(kiln_runtime_cached_bytes(runtime), size_t(4096 + 8192));
}

TEST_F(BlockCacheTest, KeepsNoMoreThanItsLimit) {
  start(kMiB + kMiB / 2);
  kiln_buffer *a = output(kMiB);
  kiln_buffer *b = output(kMiB);
  kiln_buffer *c = output(2 * kMiB);
  kiln_buffer_release(a);
  kiln_buffer_release(b); // a is freed to make room for b
  EXPECT_EQ(kiln_runtime_cached_bytes(runtime), size_t(kMiB));
  kiln_buffer_release(c); // larger than the limit: freed
  EXPECT_EQ(kiln_runtime_cached_bytes(runtime), size_t(kMiB));
}

TEST_F(BlockCacheTest, KeepsNothingWhenToldSo) {
  start(-1);
  kiln_buffer_release(output(kMiB));
  EXPECT_EQ(kiln_runtime_cached_bytes(runtime), 0u);
}

// An output may outlive its module and runtime; the sanitized build checks
// that its storage is neither freed early nor leaked.
TEST_F(BlockCacheTest, OutputsOutliveTheRuntime) {
  start(0);
  kiln_buffer *kept = output(kMiB);
  kiln_buffer_release(output(2 * kMiB));
  kiln_module_unload(module);
  module = nullptr;
  kiln_runtime_destroy(runtime);
  runtime = nullptr;
  unsigned char *data = static_cast<unsigned char *>(kiln_buffer_data(kept));
  EXPECT_EQ(data[kMiB - 1], (kMiB - 1) % 251);
  data[0] = 7;
  kiln_buffer_release(kept);
}

} // namespace
