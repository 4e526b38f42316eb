/*===- extension.c - Runtime extensions ----------------------------------===*
 *
 * The extensions registered with a runtime (kiln_extension.h), from C or
 * from a library it loaded; how a module's `extern` lines resolve against
 * them; and the "kiln.call_extern" import through which host code calls a
 * host function.
 *
 *===----------------------------------------------------------------------===*/

#include "internal.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

struct kiln_extension_entry {
  const kiln_extension *extension;
  /* The library it came from (dlclose'd with the runtime), or NULL. */
  void *library;
};

static const char *kind_description(int32_t kind) {
  return kind == KILN_EXTENSION_HOST_FUNCTION ? "a host function"
                                              : "a kernel function";
}

static bool is_symbol_name(const char *name) {
  if (!name || !*name)
    return false;
  for (const char *p = name; *p; ++p)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
          (*p >= '0' && *p <= '9') || *p == '_' || *p == '.' || *p == '-'))
      return false;
  return true;
}

/* The symbol called `name` among the runtime's extensions, and the
 * extension's name; NULL when none has one. Under extension_mutex. */
static const kiln_extension_symbol *find_symbol(const kiln_runtime *runtime,
                                                const char *name,
                                                const char **extension_name) {
  for (size_t i = 0; i < runtime->extension_count; ++i) {
    const kiln_extension *extension = runtime->extensions[i].extension;
    for (size_t j = 0; j < extension->symbol_count; ++j)
      if (strcmp(extension->symbols[j].name, name) == 0) {
        *extension_name = extension->name;
        return &extension->symbols[j];
      }
  }
  return NULL;
}

/* What is wrong with `extension` as one more of the runtime's, or NULL.
 * Under extension_mutex. */
static kiln_error *check_extension(const kiln_runtime *runtime,
                                   const kiln_extension *extension) {
  if (!extension)
    return kiln_make_error("the extension is NULL");
  if (extension->abi_version != KILN_EXTENSION_ABI_VERSION)
    return kiln_make_error("the extension was built against extension ABI "
                           "version %u, this runtime supports version %d; "
                           "rebuild it against this Kiln's kiln_extension.h",
                           extension->abi_version, KILN_EXTENSION_ABI_VERSION);
  if (!extension->name || !*extension->name)
    return kiln_make_error("the extension has no name");
  if (extension->symbol_count && !extension->symbols)
    return kiln_make_error("extension '%s' lists %zu symbols but gives none",
                           extension->name, extension->symbol_count);
  for (size_t i = 0; i < extension->symbol_count; ++i) {
    const kiln_extension_symbol *symbol = &extension->symbols[i];
    if (!is_symbol_name(symbol->name))
      return kiln_make_error("extension '%s': symbol %zu has no name, or "
                             "one with characters other than letters, "
                             "digits, '_', '.' and '-'",
                             extension->name, i);
    if (symbol->kind != KILN_EXTENSION_HOST_FUNCTION &&
        symbol->kind != KILN_EXTENSION_KERNEL_FUNCTION)
      return kiln_make_error("extension '%s': '%s' has unknown kind %d",
                             extension->name, symbol->name, (int)symbol->kind);
    if (!symbol->signature || !*symbol->signature ||
        strchr(symbol->signature, ' '))
      return kiln_make_error("extension '%s': '%s' needs a signature without "
                             "spaces, such as "
                             "\"(tensor<?xf32>,f32)->(tensor<?xf32>)\"",
                             extension->name, symbol->name);
    if (!symbol->function)
      return kiln_make_error("extension '%s': '%s' has no function",
                             extension->name, symbol->name);
    for (size_t j = 0; j < i; ++j)
      if (strcmp(extension->symbols[j].name, symbol->name) == 0)
        return kiln_make_error("extension '%s' provides '%s' twice",
                               extension->name, symbol->name);
    const char *other = NULL;
    if (find_symbol(runtime, symbol->name, &other))
      return kiln_make_error("extension '%s' provides '%s', which extension "
                             "'%s' provides already",
                             extension->name, symbol->name, other);
  }
  return NULL;
}

static kiln_error *add_extension(kiln_runtime *runtime,
                                 const kiln_extension *extension,
                                 void *library) {
  pthread_mutex_lock(&runtime->extension_mutex);
  kiln_error *error = check_extension(runtime, extension);
  if (!error) {
    struct kiln_extension_entry *grown = realloc(
        runtime->extensions, (runtime->extension_count + 1) * sizeof(*grown));
    if (!grown) {
      error = kiln_make_error("out of memory");
    } else {
      runtime->extensions = grown;
      grown[runtime->extension_count].extension = extension;
      grown[runtime->extension_count].library = library;
      ++runtime->extension_count;
    }
  }
  pthread_mutex_unlock(&runtime->extension_mutex);
  return error;
}

kiln_error *kiln_runtime_add_extension(kiln_runtime *runtime,
                                       const kiln_extension *extension) {
  if (!runtime)
    return kiln_make_error("kiln_runtime_add_extension needs a runtime");
  return add_extension(runtime, extension, NULL);
}

/* Checks that `path` is a regular file holding a complete x86-64 shared
 * object before dlopen maps it. */
static kiln_error *check_library_file(const char *path) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return kiln_make_error("cannot open runtime extension '%s': %s", path,
                           strerror(errno));
  struct stat info;
  if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    close(fd);
    return kiln_make_error("runtime extension '%s' is not a regular file",
                           path);
  }
  uint64_t size = (uint64_t)info.st_size;
  void *mapped =
      size ? mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;
  close(fd);
  if (mapped == MAP_FAILED)
    return kiln_make_error("'%s' is not a runtime extension: it is not a "
                           "shared object",
                           path);
  const char *problem = kiln_check_elf_shared_object(mapped, size);
  munmap(mapped, size);
  if (problem)
    return kiln_make_error("'%s' is not a runtime extension: %s", path,
                           problem);
  return NULL;
}

kiln_error *kiln_runtime_load_extension(kiln_runtime *runtime,
                                        const char *path) {
  if (!runtime || !path)
    return kiln_make_error("kiln_runtime_load_extension needs a runtime and "
                           "a path");
  kiln_error *error = check_library_file(path);
  if (error)
    return error;
  /* A path always means that file, not a search of the library path. */
  char *resolved = realpath(path, NULL);
  void *library = dlopen(resolved ? resolved : path, RTLD_NOW | RTLD_LOCAL);
  free(resolved);
  if (!library)
    return kiln_make_error("cannot load runtime extension '%s': %s", path,
                           dlerror());
  void *entry = dlsym(library, KILN_EXTENSION_ENTRY);
  if (!entry) {
    dlclose(library);
    return kiln_make_error("'%s' is not a runtime extension: it has no '%s' "
                           "(see kiln_extension.h)",
                           path, KILN_EXTENSION_ENTRY);
  }
  /* Called, it must be a function: data there would be run as code. */
  Dl_info info;
  const Elf64_Sym *symbol = NULL;
  if (!dladdr1(entry, &info, (void **)&symbol, RTLD_DL_SYMENT) || !symbol ||
      (ELF64_ST_TYPE(symbol->st_info) != STT_FUNC &&
       ELF64_ST_TYPE(symbol->st_info) != STT_GNU_IFUNC)) {
    dlclose(library);
    return kiln_make_error("'%s' is not a runtime extension: its '%s' is not "
                           "a function (see kiln_extension.h)",
                           path, KILN_EXTENSION_ENTRY);
  }
  kiln_extension_get_fn get;
  memcpy(&get, &entry, sizeof(get));
  error = add_extension(runtime, get(), library);
  if (error) {
    kiln_error *located = kiln_make_error("runtime extension '%s': %s", path,
                                          kiln_error_message(error));
    kiln_error_free(error);
    dlclose(library);
    return located;
  }
  return NULL;
}

size_t kiln_runtime_extension_count(const kiln_runtime *runtime) {
  return runtime->extension_count;
}

const kiln_extension *kiln_runtime_extension_at(const kiln_runtime *runtime,
                                                size_t index) {
  return index < runtime->extension_count ? runtime->extensions[index].extension
                                          : NULL;
}

void kiln_extensions_destroy(kiln_runtime *runtime) {
  for (size_t i = 0; i < runtime->extension_count; ++i)
    if (runtime->extensions[i].library)
      dlclose(runtime->extensions[i].library);
  free(runtime->extensions);
  runtime->extensions = NULL;
  runtime->extension_count = 0;
}

kiln_error *kiln_resolve_extern(kiln_runtime *runtime, const char *kind,
                                const char *name, const char *signature,
                                extern_info *out) {
  int32_t wanted = strcmp(kind, "host") == 0 ? KILN_EXTENSION_HOST_FUNCTION
                   : strcmp(kind, "kernel") == 0
                       ? KILN_EXTENSION_KERNEL_FUNCTION
                       : -1;
  if (wanted < 0)
    return kiln_make_error("unknown extern kind '%s' (host or kernel)", kind);
  pthread_mutex_lock(&runtime->extension_mutex);
  const char *extension = NULL;
  const kiln_extension_symbol *symbol = find_symbol(runtime, name, &extension);
  kiln_error *error = NULL;
  if (!symbol)
    error = kiln_make_error(
        "the module calls '%s' (%s), which no runtime extension provides; "
        "register the extension that does (kiln-run "
        "--runtime-extension=LIB.so, or kiln_runtime_load_extension)",
        name, kind_description(wanted));
  else if (symbol->kind != wanted)
    error = kiln_make_error("the module calls '%s' as %s, but extension "
                            "'%s' provides %s",
                            name, kind_description(wanted), extension,
                            kind_description(symbol->kind));
  else if (strcmp(symbol->signature, signature) != 0)
    error = kiln_make_error("the module calls '%s' as %s, but extension '%s' "
                            "provides it as %s",
                            name, signature, extension, symbol->signature);
  if (!error) {
    out->kind = wanted;
    out->function = symbol->function;
    out->user_data = symbol->user_data;
  }
  pthread_mutex_unlock(&runtime->extension_mutex);
  return error;
}

void kiln_call_extern_import(kiln_host_context *context, uint32_t index,
                             const kiln_tensor_view *args, int32_t arg_count,
                             const kiln_tensor_view *results,
                             int32_t result_count, const char *location) {
  kiln_call_context *call = (kiln_call_context *)context;
  const char *where = location && *location ? location : "(unknown location)";
  kiln_module *module = call->module;
  if (index >= module->extern_count ||
      module->externs[index].kind != KILN_EXTENSION_HOST_FUNCTION)
    kiln_call_fail(call,
                   "%s: host code calls extern %u, which the module "
                   "does not list as a host function",
                   where, index);
  const extern_info *callee = &module->externs[index];
  const char *message = ((kiln_extension_host_fn)callee->function)(
      callee->user_data, args, arg_count, results, result_count);
  if (message)
    kiln_call_fail(call, "%s: '%s' failed: %s", where, callee->name, message);
}
