//===- DefaultSpecs.h - Kiln's embedded default tuning specs ----*- C++ -*-===//
//
// One default spec per CPU Kiln tunes for, in lib/TuningSpecs/Defaults/,
// verified at build time by `kiln-tune embed` and compiled into Kiln as
// MLIR bytecode. A compile for a CPU uses the spec of that CPU, else of its
// family, else of the widest vector ISA it has, else the generic x86-64 one.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TUNINGSPECS_DEFAULTSPECS_H
#define KILN_TUNINGSPECS_DEFAULTSPECS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace kiln {

struct EmbeddedTuningSpec {
  /// The CPU it is for, as LLVM names CPUs ("znver5"), or "x86-64".
  const char *name;
  /// Its source file, relative to Kiln's source tree.
  const char *path;
  /// The verified spec as MLIR bytecode.
  const unsigned char *data;
  size_t size;
  /// The spec it extends (the module's kiln.tuning_spec_extends), tried
  /// after it, or "".
  const char *extends;

  llvm::StringRef getBytecode() const {
    return llvm::StringRef(reinterpret_cast<const char *>(data), size);
  }
};

/// Every embedded default spec.
llvm::ArrayRef<EmbeddedTuningSpec> getEmbeddedTuningSpecs();

/// The default spec for `cpu` with `features` (an LLVM feature string), and
/// in `why` how it was chosen ("the CPU", "its family", ...). The specs it
/// extends follow it (findEmbeddedTuningSpec).
const EmbeddedTuningSpec &selectDefaultTuningSpec(llvm::StringRef cpu,
                                                  llvm::StringRef features,
                                                  std::string &why);

/// The embedded spec named `name`, or null.
const EmbeddedTuningSpec *findEmbeddedTuningSpec(llvm::StringRef name);

} // namespace kiln

#endif // KILN_TUNINGSPECS_DEFAULTSPECS_H
