/*===- saxpy_kernel.c - A dispatch's kernel, written by hand in C --------===*
 *
 * out = a * x + y over n floats, as a kiln_kernel_fn (kiln_module_abi.h):
 * bindings x, y (inputs), then out (the result); constants a (an f32's
 * bits) and n, in the order saxpy.mlir passes them. Each workgroup takes
 * 4096 elements: the program's workgroup count is ceil(n / 4096).
 *
 * Linked into a module as an object file (kiln.external_dispatch ...
 * object("saxpy_kernel.o")):
 *
 *   cc -c -O2 -fPIC -I<kiln>/runtime/include saxpy_kernel.c -o saxpy_kernel.o
 *
 * or provided at run time by a runtime extension (demo_extension.c gives
 * it as "demo.saxpy").
 *
 *===----------------------------------------------------------------------===*/

#include "kiln_module_abi.h"

#include <string.h>

enum { kElementsPerWorkgroup = 4096 };

void saxpy_kernel(const kiln_dispatch_state *state, uint32_t x, uint32_t y,
                  uint32_t z, void *scratch) {
  const float *input = (const float *)state->bindings[0];
  const float *addend = (const float *)state->bindings[1];
  float *output = (float *)state->bindings[2];
  uint32_t bits = (uint32_t)state->constants[0];
  float a;
  memcpy(&a, &bits, sizeof(a));
  int64_t n = (int64_t)state->constants[1];
  int64_t begin = (int64_t)x * kElementsPerWorkgroup;
  int64_t end =
      begin + kElementsPerWorkgroup < n ? begin + kElementsPerWorkgroup : n;
  for (int64_t i = begin; i < end; ++i)
    output[i] = a * input[i] + addend[i];
}
