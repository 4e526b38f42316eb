/*===- demo_extension.c - A runtime extension, in plain C ----------------===*
 *
 * Gives modules the host function "demo.scaled_cumsum": the running sum of
 * a vector of floats, times a scale. scaled_cumsum.mlir calls it between
 * two dispatches. Build it with any C compiler against Kiln's runtime
 * headers, and load it with the module:
 *
 *   cc -shared -fPIC -O2 -I<kiln>/runtime/include demo_extension.c \
 *      -o libdemo_extension.so
 *   kiln-run scaled_cumsum.so --runtime-extension=./libdemo_extension.so \
 *      --input=4xf32=1,2,3,4 --input=f32=0.5
 *
 *===----------------------------------------------------------------------===*/

#include "kiln_extension.h"

#include <stdio.h>

/* (tensor<?xf32>, f32) -> (tensor<?xf32>): results[0][i] = scale * sum of
 * args[0][0..i]. Host code allocated the result with the input's length. */
static const char *scaled_cumsum(void *user_data, const kiln_tensor_view *args,
                                 int32_t arg_count,
                                 const kiln_tensor_view *results,
                                 int32_t result_count) {
  static __thread char message[128];
  if (arg_count != 2 || result_count != 1 || args[0].rank != 1 ||
      results[0].rank != 1)
    return "expects one vector and a scale, and returns one vector";
  if (args[0].dims[0] != results[0].dims[0]) {
    snprintf(message, sizeof(message),
             "the result has %lld elements, the input %lld",
             (long long)results[0].dims[0], (long long)args[0].dims[0]);
    return message;
  }
  const float *input = (const float *)args[0].data;
  float scale = *(const float *)args[1].data;
  float *output = (float *)results[0].data;
  float sum = 0;
  for (int64_t i = 0; i < args[0].dims[0]; ++i) {
    sum += input[i];
    output[i] = scale * sum;
  }
  return NULL;
}

static const kiln_extension_symbol kSymbols[] = {
    {"demo.scaled_cumsum", KILN_EXTENSION_HOST_FUNCTION,
     "(tensor<?xf32>,f32)->(tensor<?xf32>)", (void *)scaled_cumsum, NULL},
};

KILN_EXTENSION_EXPORT const kiln_extension *kiln_extension_get(void) {
  static const kiln_extension extension = {
      KILN_EXTENSION_ABI_VERSION, "demo",
      sizeof(kSymbols) / sizeof(kSymbols[0]), kSymbols};
  return &extension;
}
