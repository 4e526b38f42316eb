//===- WeightPanels.h - How wide the targets want weight panels -*- C++ -*-===//
//
// The panel width of the passes that lay out constant weights for the
// register tiles of the targets the program is compiled for.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_LIB_GLOBALOPTIMIZATION_WEIGHTPANELS_H
#define KILN_LIB_GLOBALOPTIMIZATION_WEIGHTPANELS_H

#include "kiln/Target/TargetBackend.h"

#include <algorithm>

namespace kiln {

/// `panelBytes` when positive, 0 (no panels) when negative; for 0, the
/// width every target of `targets`
/// (llvm-cpu when empty), `cpu` and `cpuFeatures` asks for, 0 when they
/// ask for none or different ones. Target options that do not resolve
/// give 0: the executable-sources phase reports what is wrong with them.
inline int64_t resolveWeightPanelBytes(mlir::MLIRContext *context,
                                       int64_t panelBytes,
                                       llvm::ArrayRef<std::string> targets,
                                       llvm::StringRef cpu,
                                       llvm::StringRef cpuFeatures) {
  if (panelBytes != 0)
    return std::max<int64_t>(panelBytes, 0);
  TargetOptions options;
  if (!targets.empty())
    options.backends.assign(targets.begin(), targets.end());
  options.cpu = cpu.str();
  options.cpuFeatures = cpuFeatures.str();
  llvm::Expected<int64_t> bytes = getWeightPanelBytes(context, options);
  if (!bytes) {
    llvm::consumeError(bytes.takeError());
    return 0;
  }
  return *bytes;
}

} // namespace kiln

#endif // KILN_LIB_GLOBALOPTIMIZATION_WEIGHTPANELS_H
