//===- LLVMCPUTarget.h - The llvm-cpu target backend ------------*- C++ -*-===//
//
// Kiln's CPU backend: x86-64 code through LLVM. This header exposes how it
// turns a CPU name (or `host`) into the CPU and feature set it targets.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TARGET_LLVMCPU_LLVMCPUTARGET_H
#define KILN_TARGET_LLVMCPU_LLVMCPUTARGET_H

#include "kiln/Target/TargetBackend.h"

namespace kiln {

/// A CPU that the llvm-cpu backend can generate code for.
struct CPUDescription {
  std::string triple;
  std::string cpu;
  /// LLVM feature string: the enabled features, each as `+name`, sorted.
  std::string features;
};

/// Resolves `cpu` (`host` or an LLVM x86-64 CPU name) plus `extraFeatures`
/// (comma-separated `+f` / `-f`) into the CPU the backend targets.
llvm::Expected<CPUDescription> resolveCPU(llvm::StringRef cpu,
                                          llvm::StringRef extraFeatures);

/// Creates the llvm-cpu backend.
std::unique_ptr<TargetBackend> createLLVMCPUTargetBackend();

} // namespace kiln

#endif // KILN_TARGET_LLVMCPU_LLVMCPUTARGET_H
