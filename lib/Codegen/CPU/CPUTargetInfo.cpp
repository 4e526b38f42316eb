//===- CPUTargetInfo.cpp - What codegen needs to know of a CPU ------------===//
//
// Vector width and register count from the target's features; cache sizes
// from a table of CPUs, with a conservative fallback.
//
//===----------------------------------------------------------------------===//

#include "kiln/Codegen/CPU/CPUTargetInfo.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSwitch.h"

using namespace kiln;

CPUTargetInfo kiln::getCPUTargetInfo(TargetAttr target) {
  CPUTargetInfo info;
  auto hasFeature = [&](llvm::StringRef name) {
    return target && target.hasCPUFeature(name);
  };
  if (hasFeature("avx512f")) {
    info.vectorBits = 512;
    info.vectorRegisters = 32;
  } else if (hasFeature("avx")) {
    info.vectorBits = 256;
  }
  info.hasFMA = hasFeature("fma");

  // {L1d, L2} per core, in KiB.
  std::pair<int64_t, int64_t> caches =
      llvm::StringSwitch<std::pair<int64_t, int64_t>>(target ? target.getCPU()
                                                             : "")
          .Case("znver5", {48, 1024})
          .Case("znver4", {32, 1024})
          .Cases({"znver3", "znver2"}, {32, 512})
          .Cases({"sapphirerapids", "emeraldrapids", "graniterapids"},
                 {48, 2048})
          .Cases(
              {"icelake-server", "icelake-client", "tigerlake", "rocketlake"},
              {48, 1280})
          .Cases({"alderlake", "raptorlake", "meteorlake", "arrowlake"},
                 {48, 1280})
          .Cases({"skylake-avx512", "cascadelake", "cooperlake"}, {32, 1024})
          .Cases({"skylake", "haswell", "broadwell"}, {32, 256})
          .Default({32, 512});
  info.l1Bytes = caches.first * 1024;
  info.l2Bytes = caches.second * 1024;
  return info;
}
