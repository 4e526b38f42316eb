//===- DefaultSpecs.cpp - Kiln's embedded default tuning specs ------------===//
//
// The table kiln-tune generated from the .mlir files beside this one, and
// the choice of a spec for a CPU: by name, by family, by vector ISA, and
// the generic x86-64 spec last.
//
//===----------------------------------------------------------------------===//

#include "kiln/TuningSpecs/DefaultSpecs.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include "DefaultSpecs.inc"

using namespace kiln;

llvm::ArrayRef<EmbeddedTuningSpec> kiln::getEmbeddedTuningSpecs() {
  return kEmbeddedTuningSpecs;
}

const EmbeddedTuningSpec *kiln::findEmbeddedTuningSpec(llvm::StringRef name) {
  for (const EmbeddedTuningSpec &spec : kEmbeddedTuningSpecs)
    if (name == spec.name)
      return &spec;
  return nullptr;
}

/// The spec a CPU without one of its own shares with its family.
static llvm::StringRef getFamilySpec(llvm::StringRef cpu) {
  // Intel with AVX-512 and 32 vector registers.
  static constexpr llvm::StringLiteral avx512[] = {
      "graniterapids",  "graniterapids-d", "emeraldrapids", "icelake-server",
      "icelake-client", "tigerlake",       "rocketlake",    "cascadelake",
      "cooperlake",     "skylake-avx512",  "cannonlake"};
  // AVX2 without AVX-512.
  static constexpr llvm::StringLiteral avx2[] = {
      "broadwell",  "skylake",   "alderlake",   "raptorlake",
      "meteorlake", "arrowlake", "arrowlake-s", "lunarlake",
      "gracemont",  "znver1",    "znver2",      "znver3"};
  if (llvm::is_contained(avx512, cpu))
    return "sapphirerapids";
  if (llvm::is_contained(avx2, cpu))
    return "haswell";
  return "";
}

const EmbeddedTuningSpec &
kiln::selectDefaultTuningSpec(llvm::StringRef cpu, llvm::StringRef features,
                              std::string &why) {
  if (const EmbeddedTuningSpec *spec = findEmbeddedTuningSpec(cpu)) {
    why = "the target CPU";
    return *spec;
  }
  if (const EmbeddedTuningSpec *spec =
          findEmbeddedTuningSpec(getFamilySpec(cpu))) {
    why = "the family of '" + cpu.str() + "'";
    return *spec;
  }
  llvm::SmallVector<llvm::StringRef> list;
  features.split(list, ',');
  if (llvm::is_contained(list, "+avx512f")) {
    why = "AVX-512 in the target features";
    return *findEmbeddedTuningSpec("sapphirerapids");
  }
  if (llvm::is_contained(list, "+avx2")) {
    why = "AVX2 in the target features";
    return *findEmbeddedTuningSpec("haswell");
  }
  why = "no spec for '" + cpu.str() + "' or its family";
  return *findEmbeddedTuningSpec("x86-64");
}
