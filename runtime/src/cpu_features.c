/*===- cpu_features.c - Does this CPU run the module's code? ------------===*
 *
 * Checks the x86 features a module requires against CPUID, including
 * whether the OS saves the registers those features use, for every feature
 * LLVM names (KILN_X86_FEATURES in kiln_module_abi.h); a name the table
 * does not hold counts as missing. Features named in
 * KILN_RUNTIME_DISABLE_CPU_FEATURES (comma-separated) count as absent, to
 * try a module as an older CPU would.
 *
 *===----------------------------------------------------------------------===*/

#include "internal.h"

#include <cpuid.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static uint64_t read_xcr0(void) {
  uint32_t eax, edx;
  __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
  return ((uint64_t)edx << 32) | eax;
}

/* XCR0, or 0 when the OS has not enabled XSAVE (no vector state saved). */
static uint64_t os_saved_state(void) {
  unsigned a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 27)))
    return 0; /* no OSXSAVE */
  return read_xcr0();
}

/* Linux hands out AMX tile data only to processes that ask for it; a
 * module using AMX asks when it loads. */
static bool request_amx(void) {
#ifdef SYS_arch_prctl
  enum { kRequestPermission = 0x1023, kTileData = 18 };
  return syscall(SYS_arch_prctl, kRequestPermission, kTileData) == 0;
#else
  return false;
#endif
}

static bool has_state(int state) {
  uint64_t xcr0 = os_saved_state();
  bool ymm = (xcr0 & 0x6) == 0x6;
  switch (state) {
  case KILN_X86_STATE_NONE:
    return true;
  case KILN_X86_STATE_YMM:
    return ymm;
  case KILN_X86_STATE_ZMM:
    return ymm && (xcr0 & 0xe0) == 0xe0;
  case KILN_X86_STATE_AMX:
    return (xcr0 & 0x60000) == 0x60000 && request_amx();
  case KILN_X86_STATE_APX:
    return (xcr0 & 0x80000) == 0x80000;
  default:
    return false;
  }
}

/* Register `reg` of CPUID (leaf, subleaf), or false when the CPU does not
 * have that leaf (or, for leaf 7, that subleaf). */
static bool read_cpuid(unsigned leaf, unsigned subleaf, int reg,
                       unsigned *value) {
  unsigned regs[4] = {0, 0, 0, 0};
  if (leaf == 7 && subleaf > 0) {
    /* Leaf 7's subleaf 0 says how many subleaves there are; some CPUs
     * return garbage past them. */
    if (!__get_cpuid_count(7, 0, &regs[0], &regs[1], &regs[2], &regs[3]) ||
        regs[0] < subleaf)
      return false;
  }
  if (!__get_cpuid_count(leaf, subleaf, &regs[0], &regs[1], &regs[2], &regs[3]))
    return false;
  *value = regs[reg];
  return true;
}

static bool has_feature(int kind, unsigned leaf, unsigned subleaf, int reg,
                        int bit, int state) {
  unsigned value;
  switch (kind) {
  case KILN_X86_BASELINE:
  case KILN_X86_CODEGEN:
    return true;
  case KILN_X86_AVX10:
    if (!read_cpuid(7, 1, 3, &value) || !(value & (1u << 19)) ||
        !read_cpuid(0x24, 0, 1, &value) || (int)(value & 0xff) < bit)
      return false;
    return has_state(state);
  default:
    if (!read_cpuid(leaf, subleaf, reg, &value) || !(value & (1u << bit)))
      return false;
    return has_state(state);
  }
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

/* KILN_X86_FEATURES as a table. */
static const struct feature_row {
  const char *name;
  int kind;
  unsigned leaf, subleaf;
  int reg, bit, state;
} kFeatures[] = {
#define KILN_FEATURE_ROW(feature, kind, leaf, subleaf, reg, bit, state)        \
  {feature, kind, leaf, subleaf, reg, bit, state},
    KILN_X86_FEATURES(KILN_FEATURE_ROW)
#undef KILN_FEATURE_ROW
};

static const struct feature_row *find_feature(const char *name) {
  for (size_t i = 0; i < sizeof(kFeatures) / sizeof(kFeatures[0]); ++i)
    if (strcmp(kFeatures[i].name, name) == 0)
      return &kFeatures[i];
  return NULL;
}

bool kiln_cpu_feature_known(const char *name) {
  return find_feature(name) != NULL;
}

static bool cpu_has(const char *name) {
  const char *disabled = getenv("KILN_RUNTIME_DISABLE_CPU_FEATURES");
  if (disabled && in_list(disabled, name))
    return false;
  const struct feature_row *row = find_feature(name);
  /* A name the table does not hold may be anything: missing. */
  return row && has_feature(row->kind, row->leaf, row->subleaf, row->reg,
                            row->bit, row->state);
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
    bool known_length = length > 0 && length < sizeof(name);
    if (known_length) {
      memcpy(name, p, length);
      name[length] = '\0';
    }
    /* A name too long for any feature is missing too. */
    if (length > 0 && (!known_length || !cpu_has(name))) {
      int written = snprintf(missing + used, missing_size - used, "%s%.*s",
                             count ? ", " : "", (int)length, p);
      if (written > 0 && used + (size_t)written < missing_size)
        used += (size_t)written;
      ++count;
    }
    p = end ? end + 1 : NULL;
  }
  return count;
}
