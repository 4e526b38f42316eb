/*===- ukernels_extension.c - The ukernels micro-kernel, at run time -----===*
 *
 * The runtime extension that modules compiled with --kiln-plugin=ukernels
 * --ukernels-mode=import call for their f32 matmuls, instead of carrying
 * the plugin's micro-kernel in every module: C[M x N] += A[M x K] * B[K x N],
 * rows `lda`, `ldb` and `ldc` floats apart, columns contiguous. The same
 * blocking as the MLIR micro-kernel of UkernelPasses.cpp: for each 32
 * columns, blocks of up to 256 rows of B copied into a contiguous panel,
 * each 6 x 32 tile of C kept in six 32-float accumulators over the block;
 * rows and columns past the last whole tile take a scalar loop. Compiled
 * once per x86-64 level (target_clones), the loader picks the one the CPU
 * runs.
 *
 *===----------------------------------------------------------------------===*/

#include "kiln_extension.h"

#include <string.h>

typedef float v32f __attribute__((vector_size(128), aligned(4)));

enum { kRows = 6, kColumns = 32, kPanelRows = 256 };

__attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3",
                             "default"))) static void
matmul_f32(const float *a, int64_t lda, const float *b, int64_t ldb, float *c,
           int64_t ldc, int64_t m, int64_t n, int64_t k) {
  int64_t full_m = m - m % kRows, full_n = n - n % kColumns;
  float panel[kPanelRows * kColumns] __attribute__((aligned(64)));
  for (int64_t j = 0; j < full_n; j += kColumns) {
    for (int64_t kk = 0; kk < k; kk += kPanelRows) {
      int64_t kc = k - kk < kPanelRows ? k - kk : kPanelRows;
      for (int64_t p = 0; p < kc; ++p)
        memcpy(&panel[p * kColumns], &b[(kk + p) * ldb + j],
               kColumns * sizeof(float));
      for (int64_t i = 0; i < full_m; i += kRows) {
        v32f acc[kRows];
        for (int r = 0; r < kRows; ++r)
          memcpy(&acc[r], &c[(i + r) * ldc + j], sizeof(v32f));
        for (int64_t p = 0; p < kc; ++p) {
          v32f row;
          memcpy(&row, &panel[p * kColumns], sizeof(v32f));
          for (int r = 0; r < kRows; ++r)
            acc[r] += a[(i + r) * lda + kk + p] * row;
        }
        for (int r = 0; r < kRows; ++r)
          memcpy(&c[(i + r) * ldc + j], &acc[r], sizeof(v32f));
      }
    }
  }
  /* What the tiles left: the last rows of the tiled columns, then the last
   * columns of every row. */
  for (int64_t i = full_m; i < m; ++i)
    for (int64_t j = 0; j < full_n; ++j) {
      float sum = c[i * ldc + j];
      for (int64_t p = 0; p < k; ++p)
        sum += a[i * lda + p] * b[p * ldb + j];
      c[i * ldc + j] = sum;
    }
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = full_n; j < n; ++j) {
      float sum = c[i * ldc + j];
      for (int64_t p = 0; p < k; ++p)
        sum += a[i * lda + p] * b[p * ldb + j];
      c[i * ldc + j] = sum;
    }
}

static const kiln_extension_symbol kSymbols[] = {
    {"kiln_ukernels.matmul_f32", KILN_EXTENSION_KERNEL_FUNCTION,
     "!llvm.func<void(ptr,i64,ptr,i64,ptr,i64,i64,i64,i64)>",
     (void *)matmul_f32, NULL},
};

KILN_EXTENSION_EXPORT const kiln_extension *kiln_extension_get(void) {
  static const kiln_extension extension = {
      KILN_EXTENSION_ABI_VERSION, "kiln_ukernels",
      sizeof(kSymbols) / sizeof(kSymbols[0]), kSymbols};
  return &extension;
}
