//===- LLVMCPUTarget.cpp - The llvm-cpu target backend ----------*- C++ -*-===//
//
// Resolves the CPU the llvm-cpu backend compiles for: the host, detected
// through LLVM, or a named x86-64 CPU checked against LLVM's X86 target.
//
//===----------------------------------------------------------------------===//

#include "kiln/Target/LLVMCPU/LLVMCPUTarget.h"
#include "kiln/Codegen/CPU/CPUPipelines.h"
#include "kiln/Codegen/CPU/CPUTargetInfo.h"
#include "kiln/Codegen/CPU/Passes.h"
#include "kiln/Serialization/ObjectCode.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <set>

using namespace mlir;
using namespace kiln;

/// The triple Kiln's CPU backend generates code for.
static constexpr llvm::StringLiteral kTriple = "x86_64-unknown-linux-gnu";

/// Applies comma-separated `+f`/`-f` edits to `enabled`.
static llvm::Error applyFeatureEdits(std::set<std::string> &enabled,
                                     llvm::StringRef edits,
                                     const llvm::MCSubtargetInfo &info) {
  llvm::SmallVector<llvm::StringRef> items;
  edits.split(items, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (llvm::StringRef item : items) {
    item = item.trim();
    if (item.size() < 2 || (item[0] != '+' && item[0] != '-'))
      return llvm::createStringError(
          "malformed CPU feature '" + item +
          "'; write features as +name or -name, comma-separated");
    llvm::StringRef name = item.drop_front();
    bool known = llvm::any_of(
        info.getAllProcessorFeatures(),
        [&](const llvm::SubtargetFeatureKV &kv) { return name == kv.Key; });
    if (!known)
      return llvm::createStringError("unknown x86-64 CPU feature '" + name +
                                     "'");
    if (item[0] == '+')
      enabled.insert(name.str());
    else
      enabled.erase(name.str());
  }
  return llvm::Error::success();
}

llvm::Expected<CPUDescription> kiln::resolveCPU(llvm::StringRef cpu,
                                                llvm::StringRef extraFeatures) {
  static bool initialized = [] {
    LLVMInitializeX86TargetInfo();
    LLVMInitializeX86TargetMC();
    return true;
  }();
  (void)initialized;

  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(llvm::Triple(kTriple), error);
  if (!target)
    return llvm::createStringError("LLVM has no x86-64 target: " + error);

  CPUDescription result;
  result.triple = kTriple.str();
  result.cpu = cpu == "host" ? llvm::sys::getHostCPUName().str() : cpu.str();
  // Checked on a generic CPU's info first: made for an unknown CPU, it
  // prints LLVM's "is not a recognized processor" warnings before Kiln's
  // error.
  std::unique_ptr<llvm::MCSubtargetInfo> generic(target->createMCSubtargetInfo(
      llvm::Triple(kTriple), "x86-64", /*Features=*/""));
  if (!generic || !generic->isCPUStringValid(result.cpu))
    return llvm::createStringError(
        "unknown CPU '" + result.cpu +
        "' for the llvm-cpu target; use 'host' or an LLVM x86-64 CPU name "
        "such as x86-64-v3, znver4, znver5 or sapphirerapids (llc-22 "
        "-mtriple=x86_64 -mcpu=help lists them all)");
  std::unique_ptr<llvm::MCSubtargetInfo> info(target->createMCSubtargetInfo(
      llvm::Triple(kTriple), result.cpu, /*Features=*/""));
  if (!info)
    return llvm::createStringError("LLVM cannot describe CPU '" + result.cpu +
                                   "'");

  std::set<std::string> enabled;
  if (cpu == "host") {
    for (const auto &feature : llvm::sys::getHostCPUFeatures())
      if (feature.getValue())
        enabled.insert(feature.getKey().str());
  } else {
    for (const llvm::SubtargetFeatureKV &kv : info->getAllProcessorFeatures())
      if (info->getFeatureBits().test(kv.Value))
        enabled.insert(kv.Key);
  }
  if (llvm::Error err = applyFeatureEdits(enabled, extraFeatures, *info))
    return std::move(err);
  // LLVM aborts the process on 64-bit code for a 32-bit CPU (i386,
  // pentium4, ...); refuse it here instead.
  if (!enabled.count("64bit"))
    return llvm::createStringError(
        "CPU '" + result.cpu +
        "' cannot run 64-bit code (or --kiln-target-cpu-features removed "
        "'64bit'); Kiln compiles for x86-64: use 'host' or an x86-64 CPU "
        "name such as x86-64, x86-64-v3, znver4 or sapphirerapids");

  result.features = llvm::join(
      llvm::map_range(enabled, [](const std::string &f) { return "+" + f; }),
      ",");
  return result;
}

namespace {
class LLVMCPUTargetBackend final : public TargetBackend {
public:
  llvm::StringRef getName() const override { return "llvm-cpu"; }
  llvm::StringRef getDescription() const override {
    return "x86-64 CPUs, through LLVM";
  }

  llvm::Expected<TargetAttr>
  getTargetAttr(MLIRContext *context,
                const TargetRequest &request) const override {
    auto cpu = resolveCPU(request.cpu, request.cpuFeatures);
    if (!cpu)
      return cpu.takeError();
    Builder b(context);
    auto config = b.getDictionaryAttr({
        b.getNamedAttr("cpu", b.getStringAttr(cpu->cpu)),
        b.getNamedAttr("cpu_features", b.getStringAttr(cpu->features)),
        b.getNamedAttr("triple", b.getStringAttr(cpu->triple)),
    });
    return TargetAttr::get(context, b.getStringAttr(getName()), config);
  }

  llvm::ArrayRef<PipelineInfo> getPipelines() const override {
    return getCPUPipelines();
  }

  void buildConfigurationPipeline(OpPassManager &pm) const override {
    buildCPUConfigurationPipeline(pm);
  }

  void buildCodegenPipeline(OpPassManager &pm) const override {
    buildCPUCodegenPipeline(pm);
  }

  // Codegen ends in the LLVM dialect: LLVM's -O3 for the variant's CPU.
  llvm::Expected<std::string>
  serializeVariant(ExecutableVariantOp variant,
                   const KernelSymbols &symbols) const override {
    return serializeLLVMVariant(variant, symbols);
  }

  LogicalResult verifyLoweringConfig(
      Operation *root, LoweringConfigAttr config,
      function_ref<InFlightDiagnostic()> emitError) const override {
    return verifyCPULoweringConfig(root, config, emitError);
  }

  // Two vectors of the widest registers: the columns of the contraction
  // pipeline's register tile (configureContraction in
  // SelectLoweringConfig.cpp).
  int64_t getWeightPanelBytes(TargetAttr target) const override {
    return 2 * getCPUTargetInfo(target).vectorBits / 8;
  }

  void getDependentDialects(DialectRegistry &registry) const override {
    registry
        .insert<affine::AffineDialect, arith::ArithDialect,
                bufferization::BufferizationDialect, cf::ControlFlowDialect,
                func::FuncDialect, index::IndexDialect, linalg::LinalgDialect,
                LLVM::LLVMDialect, math::MathDialect, memref::MemRefDialect,
                scf::SCFDialect, tensor::TensorDialect, ub::UBDialect,
                vector::VectorDialect>();
  }
};
} // namespace

std::unique_ptr<TargetBackend> kiln::createLLVMCPUTargetBackend() {
  return std::make_unique<LLVMCPUTargetBackend>();
}
