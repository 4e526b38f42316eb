//===- TargetBackend.h - Target backends and their registry -----*- C++ -*-===//
//
// A target backend compiles executable variants for one kind of device. A
// registry holds the backends a compile can use (the built-in ones and its
// session's plugins'); `--kiln-target=NAME` selects which ones a compile
// produces variants for.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TARGET_TARGETBACKEND_H
#define KILN_TARGET_TARGETBACKEND_H

#include "kiln/Dialect/Kiln/IR/KilnAttrs.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/TypeID.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kiln {

class ExecutableVariantOp;
class OptionsBinder;

/// What the user asked for: which backends, and for which CPUs. A compile
/// makes one variant per backend and CPU, backends first: `--kiln-target=a,b
/// --kiln-target-cpu=x,y` gives a/x, a/y, b/x, b/y.
struct TargetOptions {
  /// Backend names, in the order their variants appear.
  std::vector<std::string> backends = {"llvm-cpu"};
  /// `host`, or CPU names the backends understand, one variant each.
  std::vector<std::string> cpus = {"host"};
  /// Extra features added to (`+f`) or removed from (`-f`) every CPU's own.
  std::string cpuFeatures;

  /// Binds --kiln-target, --kiln-target-cpu and --kiln-target-cpu-features
  /// (TargetOptions.cpp).
  void bindOptions(OptionsBinder &binder);
};

/// What one variant is compiled for: what a backend resolves to a target
/// attribute.
struct TargetRequest {
  /// `host`, or a CPU name the backend understands.
  std::string cpu = "host";
  /// Extra features added to (`+f`) or removed from (`-f`) the CPU's own.
  std::string cpuFeatures;
};

/// How the kernels of one variant are named in the object serialization
/// makes of it: the symbol each export's kiln_kernel_fn must be defined
/// under (kiln_module_abi.h), by export name.
using KernelSymbols = llvm::StringMap<std::string>;

/// A codegen pipeline a backend has: the name a #kiln.lowering_config
/// selects it by, and one line on what it compiles.
struct PipelineInfo {
  llvm::StringLiteral name;
  llvm::StringLiteral description;
};

/// "a, b and c": the names of `pipelines`, for messages.
std::string listPipelineNames(llvm::ArrayRef<PipelineInfo> pipelines);

class TargetBackend {
public:
  virtual ~TargetBackend();

  /// The name `--kiln-target` selects this backend by, such as "llvm-cpu".
  virtual llvm::StringRef getName() const = 0;
  /// One line for listings.
  virtual llvm::StringRef getDescription() const = 0;

  /// The #kiln.target attribute of variants compiled for `request`, or an
  /// error that says what is wrong with it. Features the runtime checks
  /// before it runs a variant are the `+name` items of the attribute's
  /// `cpu_features` that are LLVM x86 ISA features (X86TargetParser.def,
  /// which kiln_module_abi.h's KILN_X86_FEATURES covers).
  virtual llvm::Expected<TargetAttr>
  getTargetAttr(mlir::MLIRContext *context,
                const TargetRequest &request) const = 0;

  /// Adds the passes that give every root op of a variant a
  /// #kiln.lowering_config (executable-configurations phase). `pm` runs on
  /// one kiln.executable.variant.
  virtual void buildConfigurationPipeline(mlir::OpPassManager &pm) const = 0;

  /// The codegen pipelines a lowering config of this backend's variants may
  /// name. Every config is checked against them (verifyLoweringConfig);
  /// none, the default, means the backend reads no `pipeline`.
  virtual llvm::ArrayRef<PipelineInfo> getPipelines() const { return {}; }

  /// Adds the passes that lower a configured variant to the LLVM dialect
  /// and resolve its exports' workgroup counts (executable-codegen phase).
  /// `pm` runs on one kiln.executable.variant.
  virtual void buildCodegenPipeline(mlir::OpPassManager &pm) const = 0;

  /// Serialization: the relocatable x86-64 ELF object of `variant`, which
  /// codegen (the backend's, or a claiming plugin's, or a preprocessing
  /// tool's) lowered. It defines each export's kernel, a kiln_kernel_fn,
  /// under the symbol `symbols` gives for the export's name; ld.lld links it
  /// with the host code and every other variant's object into the module.
  /// Runs on several variants at once. The default says the backend cannot.
  virtual llvm::Expected<std::string>
  serializeVariant(ExecutableVariantOp variant,
                   const KernelSymbols &symbols) const;

  /// Linking: files ld.lld links into the module besides the objects of
  /// serializeVariant, for `variant` (objects or archives the backend's
  /// kernels call into). By default, the object files the variant attaches
  /// (kiln.objects, which preprocessing tools add). Kiln checks that each
  /// can be linked.
  virtual llvm::Error getLinkInputs(ExecutableVariantOp variant,
                                    std::vector<std::string> &files) const;

  /// Bytes of a contraction's output columns that one register tile of
  /// code for `target` spans: global optimization lays constant weights
  /// out at compile time in panels this wide
  /// (kiln-pack-contraction-weights). 0, the default: the backend reads
  /// weights as the program stores them.
  virtual int64_t getWeightPanelBytes(TargetAttr target) const { return 0; }

  /// Registers the dialects the pipelines above create ops of.
  virtual void getDependentDialects(mlir::DialectRegistry &registry) const {}

  /// Fails, with an error from `emitError` saying why, when codegen cannot
  /// honor `config` on `root` (tuning specs check what they set with it).
  /// The loop count is checked before; by default anything else goes.
  virtual llvm::LogicalResult verifyLoweringConfig(
      mlir::Operation *root, LoweringConfigAttr config,
      llvm::function_ref<mlir::InFlightDiagnostic()> emitError) const {
    return llvm::success();
  }
};

/// True when every op of the variant's inner module is in the LLVM dialect:
/// someone (a preprocessing tool, for instance) compiled it already, and
/// configuration and codegen leave it alone.
bool isLoweredToLLVM(ExecutableVariantOp variant);

/// Checks `config` on `root` the way code generation for `variant`'s target
/// will use it: `root` has loops, one size per loop at every level, the
/// pipeline is one the backend declares (getPipelines) and the backend's
/// own checks pass (an unknown backend is reported elsewhere).
/// Every config goes through this, whoever wrote it: the input program, a
/// tuning spec, a tuning library or a heuristic.
llvm::LogicalResult
verifyLoweringConfig(mlir::Operation *root, LoweringConfigAttr config,
                     ExecutableVariantOp variant,
                     llvm::function_ref<mlir::InFlightDiagnostic()> emitError);

/// The weight panel width (TargetBackend::getWeightPanelBytes) that every
/// target `options` names asks for; 0 when one asks for none or two ask
/// for different widths (a variant would read the other's layout badly).
/// An error when the options do not resolve.
llvm::Expected<int64_t> getWeightPanelBytes(mlir::MLIRContext *context,
                                            const TargetOptions &options);

/// A set of target backends, keyed by name. The built-in one holds the
/// backends linked into the process (llvm-cpu), registered at startup; a
/// compile session holds its own, over the built-in one, with the backends
/// of its active plugins, and attaches it to the context it compiles in.
class TargetRegistry {
public:
  /// A registry whose lookups fall back to `parent` (which outlives it).
  explicit TargetRegistry(const TargetRegistry *parent = nullptr)
      : parent(parent) {}

  /// The backends linked into the process. Filled at startup, before any
  /// compile; read-only after.
  static TargetRegistry &getBuiltin();

  /// The backends a compile in `context` sees: those of the session that
  /// owns the context, or the built-in ones outside a session.
  static const TargetRegistry &get(mlir::MLIRContext *context);

  /// Adds `backend`; fails when a backend of the same name exists here or
  /// in the parent.
  llvm::Error registerBackend(std::unique_ptr<TargetBackend> backend);

  /// The backend called `name`, or an error that lists the known ones.
  llvm::Expected<const TargetBackend *> lookup(llvm::StringRef name) const;

  /// The names of all backends (the parent's too), sorted.
  std::vector<std::string> getNames() const;

  /// Adds the dialects every backend's pipelines create ops of.
  void getDependentDialects(mlir::DialectRegistry &registry) const;

private:
  const TargetBackend *find(llvm::StringRef name) const;

  const TargetRegistry *parent;
  llvm::StringMap<std::unique_ptr<TargetBackend>> backends;
};

/// Resolves every backend and CPU in `options` to a target attribute, in
/// variant order (TargetOptions). Two requests that resolve to the same
/// target (a CPU named twice, or `host` and the host's name) are an error.
llvm::Expected<std::vector<std::pair<const TargetBackend *, TargetAttr>>>
resolveTargets(mlir::MLIRContext *context, const TargetOptions &options);

/// The backend `target` names, looked up in `context`'s registry, or an
/// error that names the known ones.
llvm::Expected<const TargetBackend *> lookupBackend(mlir::MLIRContext *context,
                                                    TargetAttr target);

/// A claim on a variant (a plugin's): the pipelines that configure and
/// compile it instead of its target backend's, and who made it.
struct VariantClaim {
  std::string claimant;
  std::function<void(mlir::OpPassManager &)> buildConfigurationPipeline;
  std::function<void(mlir::OpPassManager &)> buildCodegenPipeline;
};

/// Who claims which variants: a compile session attaches its plugins'
/// claims to the context it compiles in; without them every variant goes
/// to its backend.
class VariantClaims {
public:
  virtual ~VariantClaims();
  /// The claim on `variant` (an op of the kiln dialect), if any.
  virtual std::optional<VariantClaim> claim(mlir::Operation *variant) = 0;
  /// The claim `claimant` makes, if it can make claims in this compile.
  virtual std::optional<VariantClaim> lookup(llvm::StringRef claimant) = 0;
};

/// The claims of the session that owns `context`, or null.
VariantClaims *getVariantClaims(mlir::MLIRContext *context);

} // namespace kiln

MLIR_DECLARE_EXPLICIT_TYPE_ID(kiln::TargetRegistry)
MLIR_DECLARE_EXPLICIT_TYPE_ID(kiln::VariantClaims)

#endif // KILN_TARGET_TARGETBACKEND_H
