/*===- bad_extension.c - Runtime extensions broken in one way each -------===*
 *
 * Built several times, each with one define, for test/Extensions:
 *
 *   BAD_SIGNATURE   demo.scaled_cumsum with f64 elements
 *   BAD_KIND        demo.scaled_cumsum as a kernel function
 *   BAD_VERSION     built against extension ABI version 999
 *   BAD_NAME        a symbol named "demo scaled" (a space)
 *   FAILING         demo.scaled_cumsum, which always fails
 *   NO_ENTRY        no kiln_extension_get
 *   DATA_ENTRY      kiln_extension_get is data, not a function
 *
 *===----------------------------------------------------------------------===*/

#include "kiln_extension.h"

__attribute__((unused)) static const char *
fails(void *user_data, const kiln_tensor_view *args, int32_t arg_count,
      const kiln_tensor_view *results, int32_t result_count) {
  return "the demo extension was told to fail";
}

#if defined(DATA_ENTRY)
KILN_EXTENSION_EXPORT const char kiln_extension_get[64] = "not a function";
#elif !defined(NO_ENTRY)
static const kiln_extension_symbol kSymbols[] = {
#if defined(BAD_SIGNATURE)
    {"demo.scaled_cumsum", KILN_EXTENSION_HOST_FUNCTION,
     "(tensor<?xf64>,f64)->(tensor<?xf64>)", (void *)fails, NULL},
#elif defined(BAD_KIND)
    {"demo.scaled_cumsum", KILN_EXTENSION_KERNEL_FUNCTION,
     "(tensor<?xf32>,f32)->(tensor<?xf32>)", (void *)fails, NULL},
#elif defined(BAD_NAME)
    {"demo scaled", KILN_EXTENSION_HOST_FUNCTION,
     "(tensor<?xf32>,f32)->(tensor<?xf32>)", (void *)fails, NULL},
#else
    {"demo.scaled_cumsum", KILN_EXTENSION_HOST_FUNCTION,
     "(tensor<?xf32>,f32)->(tensor<?xf32>)", (void *)fails, NULL},
#endif
};

KILN_EXTENSION_EXPORT const kiln_extension *kiln_extension_get(void) {
  static const kiln_extension extension = {
#ifdef BAD_VERSION
      999,
#else
      KILN_EXTENSION_ABI_VERSION,
#endif
      "bad", sizeof(kSymbols) / sizeof(kSymbols[0]), kSymbols};
  return &extension;
}
#else
KILN_EXTENSION_EXPORT int not_an_extension = 1;
#endif
