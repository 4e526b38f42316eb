/*===- fake_module.c - A Kiln module written by hand ---------------------===*
 *
 * Implements kiln_module_abi.h directly, so the runtime's unit tests do not
 * depend on the compiler. Built several times with different metadata:
 *
 *   (default)              scale(tensor<?x4xf32>) -> tensor<?x4xf32>, 2 * x,
 *                          one workgroup per row; split(tensor<3xi32>) ->
 *                          (tensor<3xi32>, tensor<3xi32>)
 *   FAKE_VERSION=N         claims module ABI version N
 *   FAKE_FEATURES="..."    requires these CPU features
 *   FAKE_MALFORMED         metadata with an unknown keyword
 *   FAKE_NO_METADATA       no kiln_module_info at all
 *   FAKE_IMPORT="name"     imports `name` instead of kiln.check
 *   FAKE_VARIANTS          three variants: basic (sse2), wide (sse2, avx)
 *                          and future (sse2, warp-drive)
 *
 * Every variant also has selfcheck(tensor<3xi32>) -> (), which checks
 * through the kiln.check import that its input is [1, 2, 3] and nonzero,
 * buffers(tensor<4xi64>) -> tensor<?xi8>, which allocates through the
 * kiln.allocate import as host code does (see fake_buffers), and
 * scratch(tensor<1xi64>) -> (), one workgroup asking for that many bytes of
 * workgroup scratch. Its dispatch table has scale's dispatch (row 0) and a
 * row no function runs; scratch's dispatch is in none
 * (KILN_DISPATCH_UNKNOWN).
 *
 *===----------------------------------------------------------------------===*/

#include "kiln_module_abi.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define STRINGIFY2(x) #x
#define STRINGIFY(x) STRINGIFY2(x)

#ifndef FAKE_VERSION
#define FAKE_VERSION KILN_MODULE_ABI_VERSION
#endif
#ifndef FAKE_FEATURES
#define FAKE_FEATURES "-"
#endif
#ifndef FAKE_IMPORT
#define FAKE_IMPORT KILN_IMPORT_CHECK
#endif

#ifndef FAKE_NO_METADATA
__attribute__((visibility("default"))) const char kiln_module_info[] =
    "kiln-module " STRINGIFY(
        FAKE_VERSION) "\n"
                      "target x86_64-unknown-linux-gnu fakecpu\n"
                      "features " FAKE_FEATURES "\n"
#ifdef FAKE_VARIANTS
                      "variant llvm-cpu basic sse2\n"
                      "variant llvm-cpu wide sse2,avx\n"
                      "variant llvm-cpu future sse2,warp-drive\n"
#endif
                      "import " FAKE_IMPORT "\n"
                      "import " KILN_IMPORT_ALLOCATE "\n"
                      "import " KILN_IMPORT_FREE "\n"
                      "dispatch scale_rows 8 32 linalg.generic ?x4 f32\n"
                      "dispatch never_run 0 0 ? ? ?\n"
#ifdef FAKE_MALFORMED
                      "frobnicate 1\n"
#endif
                      "function scale fake_scale 8\n"
                      "input f32 2 -1 4\n"
                      "output f32 2 -1 4\n"
                      "end\n"
                      "function split fake_split 0\n"
                      "input i32 1 3 values%20in%25\n"
                      "output i32 1 3 first\n"
                      "output i32 1 3\n"
                      "end\n"
                      "function selfcheck fake_selfcheck 0\n"
                      "input i32 1 3\n"
                      "end\n"
                      "function buffers fake_buffers 0\n"
                      "input i64 1 4\n"
                      "output i8 1 -1\n"
                      "end\n"
                      "function scratch fake_scratch 0\n"
                      "input i64 1 1\n"
                      "end\n";
#endif

/* One workgroup doubles one row of floats through its scratch (a row's
 * worth), and counts itself in a third binding so the tests can see every
 * workgroup ran exactly once; a workgroup whose scratch is missing or
 * misaligned counts itself twice. */
static void scale_row(const kiln_dispatch_state *state, uint32_t x, uint32_t y,
                      uint32_t z, void *scratch) {
  (void)y;
  (void)z;
  const float *in = state->bindings[0];
  float *out = state->bindings[1];
  int *runs = state->bindings[2];
  uint64_t columns = state->constants[0];
  float *row = scratch;
  for (uint64_t j = 0; row && j < columns; ++j)
    row[j] = 2 * in[x * columns + j];
  for (uint64_t j = 0; row && j < columns; ++j)
    out[x * columns + j] = row[j];
  bool usable = row && (uintptr_t)row % 64 == 0;
  __atomic_fetch_add(&runs[x], usable ? 1 : 2, __ATOMIC_RELAXED);
}

/* Writes the first and last byte of its scratch. */
static void touch_scratch(const kiln_dispatch_state *state, uint32_t x,
                          uint32_t y, uint32_t z, void *scratch) {
  (void)x;
  (void)y;
  (void)z;
  unsigned char *bytes = scratch;
  uint64_t size = state->constants[0];
  bytes[0] = 1;
  bytes[size - 1] = 1;
}

/* Fills a rank-R descriptor over `data`, dense and row-major. */
static void describe(int64_t *words, void *data, int rank,
                     const int64_t *sizes) {
  words[0] = (int64_t)(intptr_t)data;
  words[1] = (int64_t)(intptr_t)data;
  words[2] = 0;
  int64_t stride = 1;
  for (int d = rank - 1; d >= 0; --d) {
    words[3 + d] = sizes[d];
    words[3 + rank + d] = stride;
    stride *= sizes[d];
  }
}

__attribute__((visibility("default"))) void
fake_scale(kiln_host_context *context, void *const *inputs, void *outputs) {
  const int64_t *in = inputs[0];
  int64_t rows = in[3], columns = in[4];
  float *out = malloc((size_t)(rows * columns) * sizeof(float) + 1);
  int *runs = calloc((size_t)rows + 1, sizeof(int));
  void *bindings[3] = {(void *)(intptr_t)in[1], out, runs};
  uint64_t constants[1] = {(uint64_t)columns};
  context->dispatch(context, scale_row, 0, (uint32_t)rows, 1, 1, bindings,
                    constants, (uint64_t)columns * sizeof(float));
  /* A workgroup that ran twice, or not at all, poisons its row. */
  for (int64_t i = 0; i < rows; ++i)
    if (runs[i] != 1)
      for (int64_t j = 0; j < columns; ++j)
        out[i * columns + j] = -1.0f;
  free(runs);
  int64_t sizes[2] = {rows, columns};
  describe(outputs, out, 2, sizes);
}

__attribute__((visibility("default"))) void
fake_split(kiln_host_context *context, void *const *inputs, void *outputs) {
  (void)context;
  const int64_t *in = inputs[0];
  const int32_t *data = (const int32_t *)(intptr_t)in[1];
  int32_t *low = malloc(3 * sizeof(int32_t));
  int32_t *high = malloc(3 * sizeof(int32_t));
  for (int i = 0; i < 3; ++i) {
    low[i] = data[i] - 1;
    high[i] = data[i] + 1;
  }
  int64_t size = 3;
  int64_t *words = outputs;
  describe(words, low, 1, &size);
  describe(words + KILN_DESCRIPTOR_WORDS(1), high, 1, &size);
}

__attribute__((visibility("default"))) void
fake_selfcheck(kiln_host_context *context, void *const *inputs, void *outputs) {
  (void)outputs;
  const int64_t *in = inputs[0];
  static const int32_t expected[3] = {1, 2, 3};
  static const int64_t dims[1] = {3};
  kiln_tensor_view actual = {(void *)(intptr_t)in[1], dims, 1,
                             4 /* KILN_ELEMENT_I32 */};
  kiln_tensor_view want = {(void *)(intptr_t)expected, dims, 1, 4};
  kiln_check_fn check = (kiln_check_fn)context->imports[0];
  kiln_check_args eq = {KILN_CHECK_EQ, 0,  "fake.mlir:1:1", actual, want,
                        0.0,           0.0};
  check(context, &eq);
  kiln_check_args nonzero = {
      KILN_CHECK_TRUE, 0, "fake.mlir:2:1", actual, want, 0.0, 0.0};
  check(context, &nonzero);
}

/* Given [a, b, count, size]: allocates a buffer of `a` bytes and frees it,
 * allocates one of `b` bytes and forgets it (the runtime frees it when the
 * call ends), then returns `count` elements of `size` bytes, byte i set to
 * i % 251. */
__attribute__((visibility("default"))) void
fake_buffers(kiln_host_context *context, void *const *inputs, void *outputs) {
  const int64_t *in = inputs[0];
  const int64_t *sizes = (const int64_t *)(intptr_t)in[1];
  kiln_allocate_fn allocate = (kiln_allocate_fn)context->imports[1];
  kiln_free_fn release = (kiln_free_fn)context->imports[2];
  void *first = allocate(context, sizes[0], 1, 0, "fake.mlir:3:1");
  release(context, first);
  allocate(context, sizes[1], 1, 128, "fake.mlir:4:1");
  unsigned char *result =
      allocate(context, sizes[2], sizes[3], 0, "fake.mlir:5:1");
  int64_t bytes = sizes[2] * sizes[3];
  for (int64_t i = 0; i < bytes; ++i)
    result[i] = (unsigned char)(i % 251);
  describe(outputs, result, 1, &bytes);
}

__attribute__((visibility("default"))) void
fake_scratch(kiln_host_context *context, void *const *inputs, void *outputs) {
  (void)outputs;
  const int64_t *in = inputs[0];
  const uint64_t *bytes = (const uint64_t *)(intptr_t)in[1];
  void *bindings[1] = {NULL};
  context->dispatch(context, touch_scratch, KILN_DISPATCH_UNKNOWN, 1, 1, 1,
                    bindings, bytes, *bytes);
}
