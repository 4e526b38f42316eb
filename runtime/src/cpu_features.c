/*===- cpu_features.c - Does this CPU run the module's code? ------------===*
 *
 * Checks the x86 features a module requires against CPUID, including
 * whether the OS saves the vector registers those features use. Features
 * named in KILN_RUNTIME_DISABLE_CPU_FEATURES (comma-separated) count as
 * absent, to try a module as an older CPU would.
 *
 *===----------------------------------------------------------------------===*/

#include "internal.h"

#include <cpuid.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t read_xcr0(void) {
  uint32_t eax, edx;
  __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
  return ((uint64_t)edx << 32) | eax;
}

/* Whether the OS saves the registers of AVX (ymm) and AVX-512 (zmm). */
static void os_vector_state(bool *ymm, bool *zmm) {
  unsigned a, b, c, d;
  *ymm = *zmm = false;
  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 27)))
    return; /* no OSXSAVE */
  uint64_t xcr0 = read_xcr0();
  *ymm = (xcr0 & 0x6) == 0x6;
  *zmm = *ymm && (xcr0 & 0xe0) == 0xe0;
}

static bool in_list(const char *list, const char *name) {
  size_t length = strlen(name);
  for (const char *p = list; p && *p;) {
    const char *end = strchr(p, ',');
    size_t item = end ? (size_t)(end - p) : strlen(p);
    if (item == length && strncmp(p, name, length) == 0)
      return true;
    p = end ? end + 1 : NULL;
  }
  return false;
}

static bool cpu_has(const char *name) {
  const char *disabled = getenv("KILN_RUNTIME_DISABLE_CPU_FEATURES");
  if (disabled && in_list(disabled, name))
    return false;
  bool ymm, zmm;
  os_vector_state(&ymm, &zmm);
#define KILN_CHECK_FEATURE(feature, leaf, subleaf, reg, bit)                   \
  if (strcmp(name, feature) == 0) {                                            \
    unsigned regs[4] = {0, 0, 0, 0};                                           \
    if (!__get_cpuid_count(leaf, subleaf, &regs[0], &regs[1], &regs[2],        \
                           &regs[3]))                                          \
      return false;                                                            \
    if (!(regs[reg] & (1u << (bit))))                                          \
      return false;                                                            \
    if (strncmp(name, "avx512", 6) == 0)                                       \
      return zmm;                                                              \
    if (strncmp(name, "avx", 3) == 0 || strcmp(name, "fma") == 0 ||            \
        strcmp(name, "f16c") == 0 || strcmp(name, "vaes") == 0 ||              \
        strcmp(name, "vpclmulqdq") == 0)                                       \
      return ymm;                                                              \
    return true;                                                               \
  }
  KILN_X86_FEATURES(KILN_CHECK_FEATURE)
#undef KILN_CHECK_FEATURE
  return false; /* unknown */
}

int kiln_find_missing_cpu_features(const char *features, char *missing,
                                   size_t missing_size) {
  int count = 0;
  size_t used = 0;
  if (missing_size)
    missing[0] = '\0';
  for (const char *p = features; p && *p;) {
    const char *end = strchr(p, ',');
    size_t length = end ? (size_t)(end - p) : strlen(p);
    char name[64];
    if (length > 0 && length < sizeof(name)) {
      memcpy(name, p, length);
      name[length] = '\0';
      if (!cpu_has(name)) {
        int written = snprintf(missing + used, missing_size - used, "%s%s",
                               count ? ", " : "", name);
        if (written > 0 && used + (size_t)written < missing_size)
          used += (size_t)written;
        ++count;
      }
    }
    p = end ? end + 1 : NULL;
  }
  return count;
}
