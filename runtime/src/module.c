/*===- module.c - Loading modules ----------------------------------------===*
 *
 * A module is a shared object with a metadata text (see kiln_module_abi.h)
 * and one entry point per function. Loading checks the file, the metadata
 * and the CPU, and resolves the imports; calls are in call.c.
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

static char *copy_string(const char *s);

/* What modules may import, by name. */
static const struct {
  const char *name;
  void *function;
} kImports[] = {
    {KILN_IMPORT_CHECK, (void *)kiln_check_import},
    {KILN_IMPORT_ALLOCATE, (void *)kiln_allocate_import},
    {KILN_IMPORT_FREE, (void *)kiln_free_import},
    {KILN_IMPORT_CALL_EXTERN, (void *)kiln_call_extern_import},
    {KILN_IMPORT_FAIL, (void *)kiln_fail_import},
};

/* Resolves an `extern` line against the runtime's extensions; a kernel
 * function's address goes into the module's slot for it. */
static kiln_error *add_extern(kiln_module *module, const char *kind,
                              const char *name, const char *signature) {
  extern_info resolved;
  memset(&resolved, 0, sizeof(resolved));
  kiln_error *error =
      kiln_resolve_extern(module->runtime, kind, name, signature, &resolved);
  if (error)
    return error;
  if (resolved.kind == KILN_EXTENSION_KERNEL_FUNCTION && module->handle) {
    char slot_name[256];
    snprintf(slot_name, sizeof(slot_name), "__kiln_extern.%s", name);
    void **slot = (void **)dlsym(module->handle, slot_name);
    if (!slot)
      return kiln_make_error("the module calls '%s' from kernels but has no "
                             "'%s' to hold its address",
                             name, slot_name);
    *slot = resolved.function;
  }
  extern_info *grown =
      realloc(module->externs, (module->extern_count + 1) * sizeof(*grown));
  if (!grown)
    return kiln_make_error("out of memory");
  module->externs = grown;
  resolved.name = copy_string(name);
  grown[module->extern_count++] = resolved;
  if (!resolved.name)
    return kiln_make_error("out of memory");
  return NULL;
}

static kiln_error *add_import(kiln_module *module, const char *name) {
  void *function = NULL;
  for (size_t i = 0; i < sizeof(kImports) / sizeof(kImports[0]); ++i)
    if (strcmp(kImports[i].name, name) == 0)
      function = kImports[i].function;
  if (!function)
    return kiln_make_error("the module imports '%s', which this runtime does "
                           "not provide",
                           name);
  void **grown =
      realloc(module->imports, (module->import_count + 1) * sizeof(void *));
  if (!grown)
    return kiln_make_error("out of memory");
  grown[module->import_count++] = function;
  module->imports = grown;
  return NULL;
}

/*--- Metadata ------------------------------------------------------------*/

static char *copy_string(const char *s) {
  size_t length = strlen(s);
  char *copy = malloc(length + 1);
  if (copy)
    memcpy(copy, s, length + 1);
  return copy;
}

static void free_functions(kiln_module *module) {
  for (size_t i = 0; i < module->function_count; ++i) {
    kiln_function *function = &module->functions[i];
    free(function->name);
    for (size_t j = 0; j < function->input_count; ++j)
      free(function->inputs[j].name);
    for (size_t j = 0; j < function->output_count; ++j)
      free(function->outputs[j].name);
    free(function->inputs);
    free(function->outputs);
  }
  free(module->functions);
  module->functions = NULL;
  module->function_count = 0;
}

static void free_dispatches(kiln_module *module) {
  for (size_t i = 0; i < module->dispatch_count; ++i) {
    free(module->dispatches[i].name);
    free(module->dispatches[i].op);
    free(module->dispatches[i].loops);
    free(module->dispatches[i].element_type);
  }
  free(module->dispatches);
  module->dispatches = NULL;
  module->dispatch_count = 0;
}

/* Splits `line` (modified in place) into at most `max` words. */
static int split_words(char *line, char **words, int max) {
  int count = 0;
  char *save = NULL;
  for (char *word = strtok_r(line, " \t", &save); word && count < max;
       word = strtok_r(NULL, " \t", &save))
    words[count++] = word;
  return count;
}

static bool parse_int64(const char *text, int64_t *value) {
  char *end = NULL;
  long long parsed = strtoll(text, &end, 10);
  if (!text[0] || *end)
    return false;
  *value = parsed;
  return true;
}

static int hex_digit(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/* `word` with its %XX escapes decoded, in a new string; NULL with *error
 * set when an escape is malformed or decodes to NUL. */
static char *decode_name(const char *word, kiln_error **error) {
  size_t length = strlen(word);
  char *name = malloc(length + 1);
  if (!name) {
    *error = kiln_make_error("out of memory");
    return NULL;
  }
  size_t out = 0;
  for (size_t i = 0; i < length; ++i) {
    if (word[i] != '%') {
      name[out++] = word[i];
      continue;
    }
    int high = i + 2 < length ? hex_digit(word[i + 1]) : -1;
    int low = high >= 0 ? hex_digit(word[i + 2]) : -1;
    if (low < 0 || (high == 0 && low == 0)) {
      free(name);
      *error = kiln_make_error("malformed name '%s'", word);
      return NULL;
    }
    name[out++] = (char)(high * 16 + low);
    i += 2;
  }
  name[out] = '\0';
  return name;
}

static kiln_error *parse_tensor(char **words, int count, tensor_info *info) {
  info->name = NULL;
  if (count < 3)
    return kiln_make_error("malformed %s type", words[0]);
  info->element_type = kiln_element_type_from_name(words[1]);
  if (info->element_type == KILN_ELEMENT_INVALID)
    return kiln_make_error("unknown element type '%s'", words[1]);
  int64_t rank = 0;
  if (count < 3 || !parse_int64(words[2], &rank) || rank < 0 ||
      rank > KILN_MAX_RANK || (count != 3 + rank && count != 4 + rank))
    return kiln_make_error("malformed %s type", words[0]);
  info->rank = (int32_t)rank;
  for (int64_t i = 0; i < rank; ++i)
    if (!parse_int64(words[3 + i], &info->dims[i]) || info->dims[i] < -1)
      return kiln_make_error("malformed dim '%s'", words[3 + i]);
  if (count == 4 + rank) {
    kiln_error *error = NULL;
    info->name = decode_name(words[3 + rank], &error);
    return error;
  }
  return NULL;
}

static kiln_error *append_tensor(tensor_info **list, size_t *count,
                                 tensor_info info) {
  tensor_info *grown = realloc(*list, (*count + 1) * sizeof(tensor_info));
  if (!grown) {
    free(info.name);
    return kiln_make_error("out of memory");
  }
  grown[(*count)++] = info;
  *list = grown;
  return NULL;
}

/* A `dispatch` line: name, FLOPs, bytes, op, loops, element type. */
static kiln_error *add_dispatch(kiln_module *module, char **words) {
  int64_t flops = 0, bytes = 0;
  if (!parse_int64(words[2], &flops) || flops < 0 ||
      !parse_int64(words[3], &bytes) || bytes < 0)
    return kiln_make_error("malformed dispatch '%s': its FLOPs and bytes must "
                           "be non-negative integers",
                           words[1]);
  if (module->dispatch_count >= UINT32_MAX)
    return kiln_make_error("too many dispatches");
  dispatch_info *grown = realloc(
      module->dispatches, (module->dispatch_count + 1) * sizeof(dispatch_info));
  if (!grown)
    return kiln_make_error("out of memory");
  module->dispatches = grown;
  dispatch_info *info = &grown[module->dispatch_count++];
  memset(info, 0, sizeof(*info));
  info->name = copy_string(words[1]);
  info->op = copy_string(words[4]);
  info->loops = copy_string(words[5]);
  info->element_type = copy_string(words[6]);
  info->flops = (double)flops;
  info->bytes = (double)bytes;
  if (!info->name || !info->op || !info->loops || !info->element_type)
    return kiln_make_error("out of memory");
  return NULL;
}

/*--- Variants ------------------------------------------------------------*/

static int count_features(const char *features) {
  if (strcmp(features, "-") == 0 || features[0] == '\0')
    return 0;
  int count = 1;
  for (const char *p = features; *p; ++p)
    count += *p == ',';
  return count;
}

/* Adds a variant for `backend`, `cpu` and `features`, and what of them
 * this CPU lacks. */
static kiln_error *add_variant(kiln_module *module, const char *backend,
                               const char *cpu, const char *features) {
  variant_info *grown =
      realloc(module->variants, (module->variant_count + 1) * sizeof(*grown));
  if (!grown)
    return kiln_make_error("out of memory");
  module->variants = grown;
  variant_info *variant = &module->variants[module->variant_count++];
  memset(variant, 0, sizeof(*variant));
  char missing[1024];
  if (strcmp(features, "-") == 0 ||
      kiln_find_missing_cpu_features(features, missing, sizeof(missing)) == 0)
    missing[0] = '\0';
  variant->backend = copy_string(backend);
  variant->cpu = copy_string(cpu);
  variant->features = copy_string(features);
  variant->missing = copy_string(missing);
  variant->feature_count = count_features(features);
  if (!variant->backend || !variant->cpu || !variant->features ||
      !variant->missing)
    return kiln_make_error("out of memory");
  return NULL;
}

static void free_variants(kiln_module *module) {
  for (size_t i = 0; i < module->variant_count; ++i) {
    free(module->variants[i].backend);
    free(module->variants[i].cpu);
    free(module->variants[i].features);
    free(module->variants[i].missing);
  }
  free(module->variants);
  module->variants = NULL;
  module->variant_count = 0;
}

/* Picks the variant host code runs: `forced` (a CPU name) when given, else
 * the one this CPU can run that requires the most features, the first on
 * a tie. Fails naming every variant when this CPU can run none. */
static kiln_error *choose_variant(kiln_module *module, const char *forced) {
  /* One CPU: the message says which features it lacks. */
  if (module->variant_count == 1 && module->variants[0].missing[0])
    return kiln_make_error("the module was compiled for CPU '%s' and needs "
                           "%s, which this CPU does not have; recompile it "
                           "with --kiln-target-cpu=host",
                           module->target_cpu, module->variants[0].missing);
  if (forced) {
    /* "cpu", or "backend:cpu" where two backends compiled for one CPU. */
    const char *colon = strchr(forced, ':');
    size_t backend_length = colon ? (size_t)(colon - forced) : 0;
    const char *cpu = colon ? colon + 1 : forced;
    int found = -1, matches = 0;
    for (size_t i = 0; i < module->variant_count; ++i) {
      variant_info *variant = &module->variants[i];
      if (strcmp(variant->cpu, cpu) != 0 ||
          (colon && (strlen(variant->backend) != backend_length ||
                     strncmp(variant->backend, forced, backend_length) != 0)))
        continue;
      if (found < 0)
        found = (int)i;
      ++matches;
    }
    if (matches > 1)
      return kiln_make_error("the module has %d variants for CPU '%s', one "
                             "per backend; name one as BACKEND:%s",
                             matches, cpu, cpu);
    if (found >= 0) {
      variant_info *variant = &module->variants[found];
      if (variant->missing[0])
        return kiln_make_error(
            "the module's variant for CPU '%s' needs %s, which this CPU "
            "does not have",
            forced, variant->missing);
      module->chosen_variant = (uint32_t)found;
      return NULL;
    }
    size_t length = 0;
    char known[1024] = "";
    for (size_t i = 0; i < module->variant_count; ++i) {
      int written = snprintf(known + length, sizeof(known) - length, "%s%s",
                             i ? ", " : "", module->variants[i].cpu);
      if (written > 0 && length + (size_t)written < sizeof(known))
        length += (size_t)written;
    }
    return kiln_make_error("the module has no variant for CPU '%s' (it has: "
                           "%s)",
                           forced, known);
  }
  int best = -1;
  for (size_t i = 0; i < module->variant_count; ++i) {
    variant_info *variant = &module->variants[i];
    if (!variant->missing[0] &&
        (best < 0 ||
         variant->feature_count > module->variants[best].feature_count))
      best = (int)i;
  }
  if (best >= 0) {
    module->chosen_variant = (uint32_t)best;
    /* Host code needs no more than a variant it runs beside (the compiler
     * makes it so); a module that says otherwise is refused. */
    char missing[1024];
    if (module->host_features && strcmp(module->host_features, "-") != 0 &&
        kiln_find_missing_cpu_features(module->host_features, missing,
                                       sizeof(missing)) > 0)
      return kiln_make_error("the module's host code needs %s, which this "
                             "CPU does not have",
                             missing);
    return NULL;
  }
  char text[2048];
  size_t length = 0;
  text[0] = '\0';
  for (size_t i = 0; i < module->variant_count; ++i) {
    int written = snprintf(
        text + length, sizeof(text) - length, "%s%s needs %s", i ? "; " : "",
        module->variants[i].cpu, module->variants[i].missing);
    if (written > 0 && length + (size_t)written < sizeof(text))
      length += (size_t)written;
  }
  return kiln_make_error("this CPU can run none of the module's variants: %s; "
                         "recompile it with --kiln-target-cpu=host or add a "
                         "variant this CPU can run",
                         text);
}

/* Parses the metadata text into `module`; the error says what and where. */
static kiln_error *parse_metadata(kiln_module *module, const char *text) {
  char *copy = copy_string(text);
  if (!copy)
    return kiln_make_error("out of memory");
  kiln_error *error = NULL;
  /* Errors about the module as a whole (version, CPU) carry no location. */
  bool whole_module = false;
  kiln_function *current = NULL;
  bool seen_header = false, seen_target = false;
  int line_number = 0;
  char *save = NULL;
  for (char *line = strtok_r(copy, "\n", &save); line && !error;
       line = strtok_r(NULL, "\n", &save)) {
    ++line_number;
    /* An input of the highest rank with its name, and one word more:
     * too many words is an error, not words left out. */
    char *words[3 + KILN_MAX_RANK + 2];
    int count = split_words(line, words, 3 + KILN_MAX_RANK + 2);
    if (count == 0)
      continue;
    const char *keyword = words[0];
    if (!seen_header) {
      int64_t version = 0;
      if (count != 2 || strcmp(keyword, "kiln-module") != 0 ||
          !parse_int64(words[1], &version)) {
        error = kiln_make_error("metadata does not start with 'kiln-module'");
      } else if (version != KILN_MODULE_ABI_VERSION) {
        whole_module = true;
        error = kiln_make_error(
            "the module was compiled against module ABI version %lld, this "
            "runtime supports version %d; recompile it with a matching "
            "kiln-compile",
            (long long)version, KILN_MODULE_ABI_VERSION);
      }
      seen_header = true;
    } else if (strcmp(keyword, "target") == 0 && count == 3 && !seen_target) {
      module->target_cpu = copy_string(words[2]);
      seen_target = module->target_cpu != NULL;
    } else if (strcmp(keyword, "features") == 0 && count == 2) {
      /* Checked once the variants are known (check_cpu). */
      free(module->host_features);
      module->host_features = copy_string(words[1]);
      if (!module->host_features)
        error = kiln_make_error("out of memory");
    } else if (strcmp(keyword, "variant") == 0 && count == 4 && !current) {
      error = add_variant(module, words[1], words[2], words[3]);
    } else if (strcmp(keyword, "extern") == 0 && count == 4 && !current) {
      error = add_extern(module, words[1], words[2], words[3]);
    } else if (strcmp(keyword, "import") == 0 && count == 2 && !current) {
      error = add_import(module, words[1]);
    } else if (strcmp(keyword, "dispatch") == 0 && count == 7 && !current) {
      error = add_dispatch(module, words);
    } else if (strcmp(keyword, "function") == 0 && count == 4) {
      kiln_function *grown = realloc(
          module->functions, (module->function_count + 1) * sizeof(*grown));
      if (!grown) {
        error = kiln_make_error("out of memory");
        break;
      }
      module->functions = grown;
      current = &module->functions[module->function_count++];
      memset(current, 0, sizeof(*current));
      current->module = module;
      current->name = copy_string(words[1]);
      current->flops = strtod(words[3], NULL);
      current->entry = (kiln_entry_fn)dlsym(module->handle, words[2]);
      if (!current->name)
        error = kiln_make_error("out of memory");
      else if (!current->entry)
        error = kiln_make_error("entry point '%s' of function '%s' is "
                                "missing",
                                words[2], words[1]);
    } else if ((strcmp(keyword, "input") == 0 ||
                strcmp(keyword, "output") == 0) &&
               current) {
      tensor_info info;
      error = parse_tensor(words, count, &info);
      if (!error)
        error = keyword[0] == 'i' ? append_tensor(&current->inputs,
                                                  &current->input_count, info)
                                  : append_tensor(&current->outputs,
                                                  &current->output_count, info);
    } else if (strcmp(keyword, "end") == 0 && count == 1 && current) {
      current = NULL;
    } else {
      error = kiln_make_error("unexpected '%s'", keyword);
    }
    if (error && !whole_module) {
      kiln_error *located = kiln_make_error("metadata line %d: %s", line_number,
                                            kiln_error_message(error));
      kiln_error_free(error);
      error = located;
    }
  }
  if (!error && (!seen_header || !seen_target))
    error = kiln_make_error("metadata is incomplete");
  /* A module for one CPU: its variant is the host code's target. */
  if (!error && module->variant_count == 0)
    error = add_variant(module, "llvm-cpu", module->target_cpu,
                        module->host_features ? module->host_features : "-");
  free(copy);
  return error;
}

/*--- Modules -------------------------------------------------------------*/

/* What is wrong with `data` (`size` bytes, starting with the ELF magic) as
 * a module file, or NULL: the trailer serialization writes, a checksum
 * that matches, a complete x86-64 shared object. */
const char *kiln_check_module_bytes(const unsigned char *data, uint64_t size) {
  if (size < KILN_MODULE_TRAILER_SIZE ||
      memcmp(data + size - 8, KILN_MODULE_TRAILER_MAGIC, 8) != 0)
    return "it does not end in the checksum kiln-compile writes (it was "
           "truncated, written by another tool, or by a Kiln before "
           "checksums; compile it again)";
  uint64_t content = size - KILN_MODULE_TRAILER_SIZE;
  uint64_t recorded_size, recorded_sum;
  memcpy(&recorded_size, data + content, 8);
  memcpy(&recorded_sum, data + content + 8, 8);
  if (recorded_size != content)
    return "its size does not match the size recorded in it (it was "
           "truncated or extended after kiln-compile wrote it)";
  if (kiln_checksum(data, content) != recorded_sum)
    return "its checksum does not match its content (it was damaged after "
           "kiln-compile wrote it)";
  return kiln_check_elf_shared_object(data, content);
}

/* Checks the file at `path` before dlopen maps it: a regular file that
 * passes kiln_check_module_bytes. */
static kiln_error *check_module_file(const char *path) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return kiln_make_error("cannot open module '%s': %s", path,
                           strerror(errno));
  struct stat info;
  if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    close(fd);
    return kiln_make_error("cannot load module '%s': it is not a regular "
                           "file",
                           path);
  }
  uint64_t size = (uint64_t)info.st_size;
  const unsigned char *data = NULL;
  if (size > 0) {
    void *mapped = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    data = mapped == MAP_FAILED ? NULL : mapped;
  }
  int map_error = errno;
  close(fd);
  if (size > 0 && !data)
    return kiln_make_error("cannot read module '%s': %s", path,
                           strerror(map_error));
  bool elf = size >= SELFMAG && memcmp(data, ELFMAG, SELFMAG) == 0;
  const char *problem = elf ? kiln_check_module_bytes(data, size) : NULL;
  if (data)
    munmap((void *)(uintptr_t)data, size);
  if (!elf)
    return kiln_make_error("'%s' is not a Kiln module: it is not a shared "
                           "object (compile one with kiln-compile)",
                           path);
  if (problem)
    return kiln_make_error("cannot load module '%s': %s", path, problem);
  return NULL;
}

kiln_error *kiln_module_check_info(kiln_runtime *runtime, const char *text) {
  kiln_module *module = calloc(1, sizeof(*module));
  if (!module)
    return kiln_make_error("out of memory");
  module->runtime = runtime;
  kiln_error *error = parse_metadata(module, text);
  if (!error)
    error = choose_variant(module, NULL);
  kiln_module_unload(module);
  return error;
}

kiln_error *kiln_module_load(kiln_runtime *runtime, const char *path,
                             kiln_module **out) {
  return kiln_module_load_with_options(runtime, path, NULL, out);
}

kiln_error *kiln_module_load_with_options(kiln_runtime *runtime,
                                          const char *path,
                                          const kiln_module_options *options,
                                          kiln_module **out) {
  if (!runtime || !path || !out)
    return kiln_make_error("kiln_module_load needs a runtime, a path and an "
                           "output");
  kiln_error *checked = check_module_file(path);
  if (checked)
    return checked;

  /* dlopen searches the library path for names without a slash; a module
   * path always means that file. */
  char *resolved = realpath(path, NULL);
  void *handle = dlopen(resolved ? resolved : path, RTLD_NOW | RTLD_LOCAL);
  free(resolved);
  if (!handle)
    return kiln_make_error("cannot load module '%s': %s", path, dlerror());
  const char *info = dlsym(handle, KILN_MODULE_INFO_SYMBOL);
  if (!info) {
    dlclose(handle);
    return kiln_make_error("'%s' is not a Kiln module: it has no '%s' "
                           "(compile one with kiln-compile)",
                           path, KILN_MODULE_INFO_SYMBOL);
  }
  kiln_module *module = calloc(1, sizeof(*module));
  if (!module) {
    dlclose(handle);
    return kiln_make_error("out of memory");
  }
  module->runtime = runtime;
  module->handle = handle;
  kiln_error *error = parse_metadata(module, info);
  if (!error)
    error = choose_variant(module, options ? options->variant : NULL);
  if (error) {
    kiln_error *located = kiln_make_error("cannot load module '%s': %s", path,
                                          kiln_error_message(error));
    kiln_error_free(error);
    kiln_module_unload(module);
    return located;
  }
  *out = module;
  return NULL;
}

void kiln_module_unload(kiln_module *module) {
  if (!module)
    return;
  free_functions(module);
  free_dispatches(module);
  free_variants(module);
  for (size_t i = 0; i < module->extern_count; ++i)
    free(module->externs[i].name);
  free(module->externs);
  free(module->host_features);
  free(module->imports);
  free(module->target_cpu);
  if (module->handle)
    dlclose(module->handle);
  free(module);
}

const char *kiln_module_target_cpu(const kiln_module *module) {
  return module->variant_count ? module->variants[module->chosen_variant].cpu
                               : module->target_cpu;
}

size_t kiln_module_variant_count(const kiln_module *module) {
  return module->variant_count;
}

kiln_module_variant kiln_module_variant_at(const kiln_module *module,
                                           size_t index) {
  kiln_module_variant result;
  memset(&result, 0, sizeof(result));
  if (index >= module->variant_count)
    return result;
  const variant_info *variant = &module->variants[index];
  result.backend = variant->backend;
  result.cpu = variant->cpu;
  result.features = variant->features;
  result.feature_count = variant->feature_count;
  result.missing = variant->missing;
  result.chosen = index == module->chosen_variant;
  return result;
}

size_t kiln_module_function_count(const kiln_module *module) {
  return module->function_count;
}

const kiln_function *kiln_module_function_at(const kiln_module *module,
                                             size_t index) {
  return index < module->function_count ? &module->functions[index] : NULL;
}

const kiln_function *kiln_module_find_function(const kiln_module *module,
                                               const char *name) {
  for (size_t i = 0; name && i < module->function_count; ++i)
    if (strcmp(module->functions[i].name, name) == 0)
      return &module->functions[i];
  return NULL;
}

/*--- Functions -----------------------------------------------------------*/

const char *kiln_function_name(const kiln_function *function) {
  return function->name;
}
size_t kiln_function_input_count(const kiln_function *function) {
  return function->input_count;
}
size_t kiln_function_output_count(const kiln_function *function) {
  return function->output_count;
}
double kiln_function_flops(const kiln_function *function) {
  return function->flops;
}

static kiln_tensor_type to_public(const tensor_info *info) {
  kiln_tensor_type type = {info->element_type, info->rank, info->dims};
  return type;
}

kiln_tensor_type kiln_function_input(const kiln_function *function,
                                     size_t index) {
  static const tensor_info invalid = {KILN_ELEMENT_INVALID, 0, {0}};
  return to_public(index < function->input_count ? &function->inputs[index]
                                                 : &invalid);
}

kiln_tensor_type kiln_function_output(const kiln_function *function,
                                      size_t index) {
  static const tensor_info invalid = {KILN_ELEMENT_INVALID, 0, {0}};
  return to_public(index < function->output_count ? &function->outputs[index]
                                                  : &invalid);
}

const char *kiln_function_input_name(const kiln_function *function,
                                     size_t index) {
  return index < function->input_count ? function->inputs[index].name : NULL;
}

const char *kiln_function_output_name(const kiln_function *function,
                                      size_t index) {
  return index < function->output_count ? function->outputs[index].name : NULL;
}

/*--- Dispatches ----------------------------------------------------------*/

size_t kiln_module_dispatch_count(const kiln_module *module) {
  return module->dispatch_count;
}

kiln_dispatch_profile kiln_module_dispatch(const kiln_module *module,
                                           size_t index) {
  kiln_dispatch_profile profile;
  memset(&profile, 0, sizeof(profile));
  if (index >= module->dispatch_count)
    return profile;
  const dispatch_info *info = &module->dispatches[index];
  profile.name = info->name;
  profile.op = info->op;
  profile.loops = info->loops;
  profile.element_type = info->element_type;
  profile.flops = info->flops;
  profile.bytes = info->bytes;
  profile.calls = info->calls;
  profile.total_ns = info->total_ns;
  return profile;
}

void kiln_module_reset_profile(kiln_module *module) {
  pthread_mutex_lock(&module->runtime->call_mutex);
  for (size_t i = 0; i < module->dispatch_count; ++i) {
    module->dispatches[i].calls = 0;
    module->dispatches[i].total_ns = 0;
  }
  pthread_mutex_unlock(&module->runtime->call_mutex);
}
