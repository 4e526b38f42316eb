//===- CPUFeaturesTest.cpp - The runtime knows every x86 feature ----------===//
//
// A module lists every LLVM x86 ISA feature its code was compiled for, and
// the runtime refuses one whose features this CPU lacks: so the runtime
// must know each of LLVM's features, and find each as the kernel does.
//
//===----------------------------------------------------------------------===//

#include "kiln_runtime.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

// From the runtime's internal.h.
extern "C" bool kiln_cpu_feature_known(const char *name);
extern "C" int kiln_find_missing_cpu_features(const char *features,
                                              char *missing,
                                              size_t missing_size);

namespace {

TEST(CPUFeaturesTest, KnowsEveryFeatureLLVMNames) {
  static const char *const kLLVMFeatures[] = {
#define X86_FEATURE(ENUM, STR) STR,
#include "llvm/TargetParser/X86TargetParser.def"
  };
  for (const char *name : kLLVMFeatures)
    EXPECT_TRUE(kiln_cpu_feature_known(name))
        << "LLVM's x86 feature '" << name
        << "' is not in KILN_X86_FEATURES (kiln_module_abi.h)";
}

TEST(CPUFeaturesTest, UnknownFeaturesAreMissing) {
  char missing[256];
  EXPECT_EQ(kiln_find_missing_cpu_features("sse2,warp-drive", missing,
                                           sizeof(missing)),
            1);
  EXPECT_STREQ(missing, "warp-drive");
  std::string longName(200, 'x');
  EXPECT_EQ(kiln_find_missing_cpu_features(longName.c_str(), missing,
                                           sizeof(missing)),
            1);
}

/// The flags /proc/cpuinfo lists for the first CPU.
std::set<std::string> readCpuinfoFlags() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  std::set<std::string> flags;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("flags", 0) != 0)
      continue;
    std::istringstream words(line.substr(line.find(':') + 1));
    std::string word;
    while (words >> word)
      flags.insert(word);
    break;
  }
  return flags;
}

// The kernel reads the same CPUID bits and XCR0: its flags and the
// runtime's verdict agree, for features with a flag of their own (AMX needs
// a permission the kernel's flags do not show).
TEST(CPUFeaturesTest, AgreesWithTheKernel) {
  std::set<std::string> flags = readCpuinfoFlags();
  if (flags.empty())
    GTEST_SKIP() << "no /proc/cpuinfo flags";
  if (std::getenv("KILN_RUNTIME_DISABLE_CPU_FEATURES"))
    GTEST_SKIP() << "KILN_RUNTIME_DISABLE_CPU_FEATURES is set";
  const std::vector<std::pair<const char *, const char *>> kFlags = {
      {"sse3", "pni"},
      {"pclmul", "pclmulqdq"},
      {"ssse3", "ssse3"},
      {"fma", "fma"},
      {"cx16", "cx16"},
      {"sse4.1", "sse4_1"},
      {"sse4.2", "sse4_2"},
      {"movbe", "movbe"},
      {"popcnt", "popcnt"},
      {"aes", "aes"},
      {"avx", "avx"},
      {"f16c", "f16c"},
      {"rdrnd", "rdrand"},
      {"bmi", "bmi1"},
      {"avx2", "avx2"},
      {"bmi2", "bmi2"},
      {"avx512f", "avx512f"},
      {"avx512dq", "avx512dq"},
      {"rdseed", "rdseed"},
      {"adx", "adx"},
      {"avx512ifma", "avx512ifma"},
      {"clflushopt", "clflushopt"},
      {"clwb", "clwb"},
      {"avx512cd", "avx512cd"},
      {"sha", "sha_ni"},
      {"avx512bw", "avx512bw"},
      {"avx512vl", "avx512vl"},
      {"avx512vbmi", "avx512vbmi"},
      {"gfni", "gfni"},
      {"vaes", "vaes"},
      {"vpclmulqdq", "vpclmulqdq"},
      {"avx512vnni", "avx512_vnni"},
      {"avx512bitalg", "avx512_bitalg"},
      {"avx512vpopcntdq", "avx512_vpopcntdq"},
      {"avx512bf16", "avx512_bf16"},
      {"avx512fp16", "avx512_fp16"},
      {"avxvnni", "avx_vnni"},
      {"sahf", "lahf_lm"},
      {"lzcnt", "abm"},
      {"sse4a", "sse4a"},
      {"prfchw", "3dnowprefetch"},
      {"xop", "xop"},
      {"fma4", "fma4"},
      {"tbm", "tbm"},
      {"movdiri", "movdiri"},
      {"movdir64b", "movdir64b"},
      {"serialize", "serialize"},
      {"waitpkg", "waitpkg"},
      {"cldemote", "cldemote"},
  };
  for (const auto &[feature, flag] : kFlags) {
    char missing[64];
    bool has =
        kiln_find_missing_cpu_features(feature, missing, sizeof(missing)) == 0;
    EXPECT_EQ(has, flags.count(flag) == 1)
        << "'" << feature << "': the runtime says " << (has ? "yes" : "no")
        << ", /proc/cpuinfo's flag '" << flag << "' says the opposite";
  }
}

} // namespace
