/*===- kiln_extension.h - Runtime extensions: code modules call ----------===*
 *
 * A runtime extension gives modules functions the runtime does not have:
 * host functions a program calls by name (kiln.call_extern), and
 * functions kernels call (a plugin's micro-kernel imported instead of
 * compiled into every module). A module names what it needs, each with
 * its signature; the runtime resolves the names when it loads the module,
 * from the extensions registered with it, and refuses a module that needs
 * one no extension provides or that expects another signature.
 *
 * An extension is a table of symbols. Register one from C or C++ with
 * kiln_runtime_add_extension (kiln_runtime.h), or build it into a shared
 * object that exports KILN_EXTENSION_ENTRY and load that with
 * kiln_runtime_load_extension (kiln-run --runtime-extension=LIB.so):
 *
 *   static const char *scale(void *user, const kiln_tensor_view *args,
 *                            int32_t arg_count,
 *                            const kiln_tensor_view *results,
 *                            int32_t result_count) { ...; return NULL; }
 *   static const kiln_extension_symbol symbols[] = {
 *       {"demo.scale", KILN_EXTENSION_HOST_FUNCTION,
 *        "(tensor<?xf32>,f32)->(tensor<?xf32>)", (void *)scale, NULL}};
 *   KILN_EXTENSION_EXPORT const kiln_extension *kiln_extension_get(void) {
 *     static const kiln_extension extension = {
 *         KILN_EXTENSION_ABI_VERSION, "demo", 1, symbols};
 *     return &extension;
 *   }
 *
 *===----------------------------------------------------------------------===*/

#ifndef KILN_EXTENSION_H
#define KILN_EXTENSION_H

#include "kiln_module_abi.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever anything in this header changes; the runtime refuses an
 * extension built against another version. */
#define KILN_EXTENSION_ABI_VERSION 1

typedef enum kiln_extension_kind {
  /* Called by host code (kiln.call_extern): a kiln_extension_host_fn. */
  KILN_EXTENSION_HOST_FUNCTION = 0,
  /* Called by kernels through their dispatch state's `externs`: a
   * function of the C type its signature spells in LLVM's types, such as
   * "(!llvm.ptr,i64)->()" for void f(void *, int64_t). */
  KILN_EXTENSION_KERNEL_FUNCTION = 1,
} kiln_extension_kind;

/* A host function. `args` are its operands in order (tensors, and scalars
 * as rank-0 views), `results` its results, which host code allocated with
 * the shapes the program gave them and the function fills. Returns NULL,
 * or a message (valid until the next call on this thread) that ends the
 * module's call with an error naming the place in the program. */
typedef const char *(*kiln_extension_host_fn)(void *user_data,
                                              const kiln_tensor_view *args,
                                              int32_t arg_count,
                                              const kiln_tensor_view *results,
                                              int32_t result_count);

typedef struct kiln_extension_symbol {
  /* What modules call it by, such as "demo.scale": letters, digits, '_',
   * '.' and '-'. */
  const char *name;
  /* A kiln_extension_kind. */
  int32_t kind;
  /* Its type as the compiler writes it, without spaces: MLIR's function
   * type of the call, "(tensor<?xf32>,f32)->(tensor<?xf32>)" for a host
   * function, LLVM dialect types for a kernel function. */
  const char *signature;
  void *function;
  /* Passed to a host function as `user_data`. */
  void *user_data;
} kiln_extension_symbol;

typedef struct kiln_extension {
  uint32_t abi_version; /* KILN_EXTENSION_ABI_VERSION */
  const char *name;     /* for messages */
  size_t symbol_count;
  const kiln_extension_symbol *symbols;
} kiln_extension;

/* What an extension library exports: a kiln_extension_get_fn that returns
 * its table, which stays valid while the library is loaded. */
#define KILN_EXTENSION_ENTRY "kiln_extension_get"
typedef const kiln_extension *(*kiln_extension_get_fn)(void);

#define KILN_EXTENSION_EXPORT __attribute__((visibility("default")))

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* KILN_EXTENSION_H */
