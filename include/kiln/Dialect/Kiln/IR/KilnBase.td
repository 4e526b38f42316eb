//===- KilnBase.td - Kiln dialect definition ---------------*- tablegen -*-===//
//
// The kiln dialect: executables, their target variants and exports, the
// host-side dispatch of an export, and the lowering configuration that
// tuning specs and heuristics produce and code generation consumes.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECT_KILN_IR_KILNBASE_TD
#define KILN_DIALECT_KILN_IR_KILNBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Kiln_Dialect : Dialect {
  let name = "kiln";
  let cppNamespace = "::kiln";
  let summary = "Executables, dispatches and lowering configurations of Kiln";
  let description = [{
    The kiln dialect carries a program from dispatch formation to code
    generation. The host program calls `kiln.dispatch` on tensors; each
    dispatch names an export of a `kiln.executable`. An executable holds
    either target-independent source (exports and one `builtin.module`) or
    one `kiln.executable.variant` per target, each with its own exports and
    module. Inside an executable, kernels reach their buffers and scalar
    operands through `kiln.dispatch.binding` and `kiln.dispatch.constant`.

    The `#kiln.lowering_config` attribute, attached to the root op of a
    dispatch under the name `kiln.lowering_config`, is the single contract
    between configuration (tuning specs, heuristics) and code generation.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Per-compile state that the compile session owning this context
    /// attached to it (SessionState.h), by the TypeID of its type; null
    /// when there is none. Each context has its own dialect object, so two
    /// sessions compiling at once in two contexts never see each other's.
    void *getSessionState(::mlir::TypeID key) const {
      return sessionState.lookup(key);
    }
    void setSessionState(::mlir::TypeID key, void *state) {
      if (state)
        sessionState[key] = state;
      else
        sessionState.erase(key);
    }
  private:
    ::llvm::DenseMap<::mlir::TypeID, void *> sessionState;
  public:

    /// The discardable attribute name that carries a lowering configuration.
    static constexpr ::llvm::StringLiteral getLoweringConfigAttrName() {
      return ::llvm::StringLiteral("kiln.lowering_config");
    }
    /// On the top-level module: the #kiln.target host code is compiled for.
    static constexpr ::llvm::StringLiteral getTargetAttrName() {
      return ::llvm::StringLiteral("kiln.target");
    }
    /// On kiln.dispatch and kiln.launch: floating-point operations of one
    /// run, when they are known statically.
    static constexpr ::llvm::StringLiteral getFlopsAttrName() {
      return ::llvm::StringLiteral("kiln.flops");
    }
    /// On public host functions once renamed into Kiln's namespace: the
    /// name the program gave them, which the runtime calls them by.
    static constexpr ::llvm::StringLiteral getExportNameAttrName() {
      return ::llvm::StringLiteral("kiln.export_name");
    }
    /// On public host functions: their type before bufferization, which
    /// is the signature the runtime sees.
    static constexpr ::llvm::StringLiteral getSignatureAttrName() {
      return ::llvm::StringLiteral("kiln.signature");
    }
    /// On public functions: the names of their inputs and of their outputs
    /// (arrays of strings, "" where one has none), which the module's
    /// metadata keeps for callers that pass values by name (an ONNX
    /// graph's input and output names).
    static constexpr ::llvm::StringLiteral getInputNamesAttrName() {
      return ::llvm::StringLiteral("kiln.input_names");
    }
    static constexpr ::llvm::StringLiteral getOutputNamesAttrName() {
      return ::llvm::StringLiteral("kiln.output_names");
    }
    /// On the host module: the names of the runtime functions the module
    /// imports, in the order the module's metadata lists them.
    static constexpr ::llvm::StringLiteral getImportsAttrName() {
      return ::llvm::StringLiteral("kiln.imports");
    }
    /// On the host module: the targets of every executable's variants (an
    /// array of #kiln.target), in the order of the metadata's `variant`
    /// lines. With several (one per target CPU or backend) the runtime
    /// picks one at load, and kiln.variant_index reads which.
    static constexpr ::llvm::StringLiteral getVariantTargetsAttrName() {
      return ::llvm::StringLiteral("kiln.variant_targets");
    }
    /// On the host module (host functions, kiln.call_extern) and on
    /// variants (kernel functions, kiln.call_kernel_extern): what runtime
    /// extensions must provide, an array of {name, kind = "host" or
    /// "kernel", signature}; host ones in the order host code indexes them.
    static constexpr ::llvm::StringLiteral getExternsAttrName() {
      return ::llvm::StringLiteral("kiln.externs");
    }
    /// On the host module after linking: the object files the executables
    /// attached (an array of #kiln.object), linked into the shared object.
    static constexpr ::llvm::StringLiteral getObjectsAttrName() {
      return ::llvm::StringLiteral("kiln.objects");
    }
    /// On a tuning spec's module: the spec format version it is written in.
    static constexpr ::llvm::StringLiteral getTuningSpecVersionAttrName() {
      return ::llvm::StringLiteral("kiln.tuning_spec_version");
    }
    /// On the transform.named_sequence a tuning spec starts at (unit).
    static constexpr ::llvm::StringLiteral getTuningSpecEntrypointAttrName() {
      return ::llvm::StringLiteral("kiln.tuning_spec_entrypoint");
    }
    /// On a default tuning spec's module: the default spec it extends,
    /// whose entries apply after its own (a string, kiln-tune embed).
    static constexpr ::llvm::StringLiteral getTuningSpecExtendsAttrName() {
      return ::llvm::StringLiteral("kiln.tuning_spec_extends");
    }
    /// On the named sequences of a linked tuning library: the spec they
    /// came from (a file, or "default <cpu>", or "plugin <id>").
    static constexpr ::llvm::StringLiteral getTuningSpecSourceAttrName() {
      return ::llvm::StringLiteral("kiln.tuning_spec_source");
    }
    /// On a configured root op: what configured it (a dictionary: the spec,
    /// sequence and location, or the heuristic), and specs it overrode.
    static constexpr ::llvm::StringLiteral getConfiguredByAttrName() {
      return ::llvm::StringLiteral("kiln.configured_by");
    }
    /// On the program's module during configuration: the linked tuning
    /// library, as MLIR bytecode in a dense resource.
    static constexpr ::llvm::StringLiteral getTuningLibraryAttrName() {
      return ::llvm::StringLiteral("kiln.tuning_library");
    }
    /// On a tensor.extract in the body of a linalg op: its indices are
    /// already checked at run time and kept in range by whoever made the op
    /// (a front end's own check with a message in its terms), so
    /// kiln-guard-indices-and-divisors leaves them alone.
    static constexpr ::llvm::StringLiteral getCheckedIndicesAttrName() {
      return ::llvm::StringLiteral("kiln.checked_indices");
    }
    /// On a kiln.executable.variant: the plugin that claimed it, and
    /// configures and compiles it instead of its target backend.
    static constexpr ::llvm::StringLiteral getClaimedByAttrName() {
      return ::llvm::StringLiteral("kiln.claimed_by");
    }
    /// On the program's module: the ids of the plugins it needs; a compile
    /// activates them.
    static constexpr ::llvm::StringLiteral getPluginsAttrName() {
      return ::llvm::StringLiteral("kiln.plugins");
    }
    /// On a lowered kernel: the bytes of workgroup scratch it needs
    /// (kiln-lower-kernel-interface), which host code passes to the runtime
    /// with every launch of it; on a kiln.executable.export whose kernel
    /// came from the object cache, the same.
    static constexpr ::llvm::StringLiteral getWorkgroupScratchBytesAttrName() {
      return ::llvm::StringLiteral("kiln.workgroup_scratch_bytes");
    }
    /// On a kiln.executable.variant once serialized (or found in the
    /// object cache): its object code, a dense resource of bytes; on the
    /// host module after linking, the array of every executable's.
    static constexpr ::llvm::StringLiteral getObjectCodeAttrName() {
      return ::llvm::StringLiteral("kiln.object_code");
    }
    /// On a kiln.executable.variant between configuration and
    /// serialization: the key its object code goes into the object cache
    /// under.
    static constexpr ::llvm::StringLiteral getObjectCacheKeyAttrName() {
      return ::llvm::StringLiteral("kiln.object_cache_key");
    }
    /// On the program's module: the last phase that ran on it, which
    /// --compile-from must name.
    static constexpr ::llvm::StringLiteral getPhaseAttrName() {
      return ::llvm::StringLiteral("kiln.phase");
    }
    /// On a host function: [arena bytes, bytes apart] of the intermediates
    /// kiln-plan-host-memory placed in one arena.
    static constexpr ::llvm::StringLiteral getHostArenaAttrName() {
      return ::llvm::StringLiteral("kiln.host_arena");
    }
    /// On a kiln.executable: what its root op is, for profiles: the op's
    /// name, its loop sizes (`?` for a dynamic one, `-` without loops) and
    /// its result's element type, separated by spaces.
    static constexpr ::llvm::StringLiteral getRootOpAttrName() {
      return ::llvm::StringLiteral("kiln.root_op");
    }
    /// On a kiln.launch: the index of its entry point in the module's
    /// dispatch table, which host code passes to the runtime with it; on
    /// the host module, that table (kiln-number-dispatches).
    static constexpr ::llvm::StringLiteral getDispatchIdAttrName() {
      return ::llvm::StringLiteral("kiln.dispatch_id");
    }
    static constexpr ::llvm::StringLiteral getDispatchTableAttrName() {
      return ::llvm::StringLiteral("kiln.dispatch_table");
    }

  private:
    void registerAttributes();
  public:
  }];
}

class Kiln_Op<string mnemonic, list<Trait> traits = []>
    : Op<Kiln_Dialect, mnemonic, traits>;

class Kiln_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Kiln_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

#endif // KILN_DIALECT_KILN_IR_KILNBASE_TD
