/*===- saxpy_extension.c - saxpy_kernel.c's kernel, at run time ----------===*
 *
 * The same hand-written kernel as a runtime extension's kernel function
 * "demo.saxpy": a program names it in kiln.external_dispatch without an
 * object, and the runtime resolves it when the module loads.
 *
 *   cc -shared -fPIC -O2 -I<kiln>/runtime/include saxpy_kernel.c \
 *      saxpy_extension.c -o libsaxpy_extension.so
 *   kiln-run saxpy.so --runtime-extension=./libsaxpy_extension.so ...
 *
 *===----------------------------------------------------------------------===*/

#include "kiln_extension.h"

void saxpy_kernel(const kiln_dispatch_state *state, uint32_t x, uint32_t y,
                  uint32_t z, void *scratch);

static const kiln_extension_symbol kSymbols[] = {
    /* A kernel function's signature: kiln_kernel_fn in LLVM's types. */
    {"demo.saxpy", KILN_EXTENSION_KERNEL_FUNCTION,
     "!llvm.func<void(ptr,i32,i32,i32,ptr)>", (void *)saxpy_kernel, NULL},
};

KILN_EXTENSION_EXPORT const kiln_extension *kiln_extension_get(void) {
  static const kiln_extension extension = {
      KILN_EXTENSION_ABI_VERSION, "saxpy",
      sizeof(kSymbols) / sizeof(kSymbols[0]), kSymbols};
  return &extension;
}
