//===- KilnAttrs.td - Kiln attributes ----------------------*- tablegen -*-===//
//
// Targets of executable variants and the lowering configuration of a
// dispatch's root op.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECT_KILN_IR_KILNATTRS_TD
#define KILN_DIALECT_KILN_IR_KILNATTRS_TD

include "kiln/Dialect/Kiln/IR/KilnBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

def Kiln_TargetAttr : Kiln_Attr<"Target", "target"> {
  let summary = "A target backend and its configuration";
  let description = [{
    Names the backend that compiles an executable variant (`"llvm-cpu"` for
    Kiln's CPU backend, or one a plugin registers) and the configuration it
    compiles for. The CPU backend uses the keys `cpu` (an LLVM CPU name such
    as `"znver5"`), `cpu_features` (an LLVM feature string such as
    `"+avx2,+fma"`) and `triple`; other backends define their own keys.

    ```mlir
    #kiln.target<"llvm-cpu", {cpu = "znver5", cpu_features = "+avx512f",
                              triple = "x86_64-unknown-linux-gnu"}>
    ```
  }];
  let parameters = (ins
    "::mlir::StringAttr":$backend,
    OptionalParameter<"::mlir::DictionaryAttr">:$configuration
  );
  let assemblyFormat = "`<` $backend (`,` $configuration^)? `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Returns the string value of `key` in the configuration, or "" when it
    /// is absent or not a string.
    ::llvm::StringRef getConfigString(::llvm::StringRef key) const;
    ::llvm::StringRef getCPU() const { return getConfigString("cpu"); }
    ::llvm::StringRef getCPUFeatures() const {
      return getConfigString("cpu_features");
    }
    /// Whether cpu_features enables `name` ("+name" in the list).
    bool hasCPUFeature(::llvm::StringRef name) const;
    ::llvm::StringRef getTriple() const { return getConfigString("triple"); }
  }];
}

def Kiln_ObjectAttr : Kiln_Attr<"Object", "object"> {
  let summary = "An object file linked into the module with a variant";
  let description = [{
    A relocatable object file (`.o`) or an archive of them (`.a`) that the
    variant's code calls into, for instance a kernel an executable
    preprocessing tool compiled with its own compiler. Serialization links
    every attached object into the module's shared object; a symbol the
    module needs that no object defines fails the link. A relative path is
    relative to the directory the compiler runs in.

    ```mlir
    kiln.executable.variant public @llvm_cpu target(...) attributes {
      objects = [#kiln.object<"/tmp/my_kernels.o">]
    } { ... }
    ```
  }];
  let parameters = (ins "::mlir::StringAttr":$path);
  let assemblyFormat = "`<` $path `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The path, made absolute against the current directory.
    std::string getAbsolutePath() const;
    /// Fails, saying why, unless the file can be read and is a relocatable
    /// ELF object or an archive.
    ::llvm::Error checkLinkable() const;
  }];
}

def Kiln_ObjectArrayAttr : TypedArrayAttrBase<Kiln_ObjectAttr,
                                              "array of #kiln.object">;

def Kiln_LoweringConfigAttr : Kiln_Attr<"LoweringConfig", "lowering_config"> {
  let summary = "How code generation lowers a dispatch's root op";
  let description = [{
    The one contract between configuration and code generation: tuning specs
    and heuristics attach it to the root op of a dispatch (attribute name
    `kiln.lowering_config`), the codegen pipeline it names consumes it.

    - `pipeline`: the codegen pipeline that lowers the dispatch, such as
      `"cpu-contraction"`; plugins may register more.
    - `workgroup`: tile sizes that split the iteration space into workgroups,
      which the runtime runs in parallel.
    - `cache`: tile sizes of each workgroup's tile that keep operands in cache.
    - `register`: tile sizes of the innermost tile, held in vector registers.
    - `vector`: vector sizes used to vectorize the register tile (masked when
      the tile is partial); by default the register tile sizes.

    Every list has one entry per loop of the root op, in the op's loop order;
    0 means "do not tile this loop at this level", and no size is above
    2^31 - 1 (`kMaxTileSize`), so that tile arithmetic in 64 bits cannot
    overflow. All lists but `pipeline` are optional.

    ```mlir
    #kiln.lowering_config<pipeline = "cpu-contraction", workgroup = [64, 256, 0],
                          cache = [64, 256, 256], register = [8, 32, 1]>
    ```
  }];
  let parameters = (ins
    "::mlir::StringAttr":$pipeline,
    OptionalArrayRefParameter<"int64_t">:$workgroupTile,
    OptionalArrayRefParameter<"int64_t">:$cacheTile,
    OptionalArrayRefParameter<"int64_t">:$registerTile,
    OptionalArrayRefParameter<"int64_t">:$vectorSizes
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The largest tile or vector size a config may hold.
    static constexpr int64_t kMaxTileSize = (int64_t(1) << 31) - 1;
    /// The vector sizes: `vector` when set, else the register tile sizes.
    ::llvm::ArrayRef<int64_t> getEffectiveVectorSizes() const {
      return getVectorSizes().empty() ? getRegisterTile() : getVectorSizes();
    }
    /// Checks that every tile-size list fits an op with `numLoops` loops;
    /// reports through `emitError` otherwise.
    ::mlir::LogicalResult verifyForLoopCount(
        ::llvm::function_ref<::mlir::InFlightDiagnostic()> emitError,
        unsigned numLoops) const;
  }];
}

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Kiln_CheckKindAttr : I32EnumAttr<"CheckKind", "what a kiln.check asserts", [
    I32EnumAttrCase<"True", 0, "true">,
    I32EnumAttrCase<"False", 1, "false">,
    I32EnumAttrCase<"Eq", 2, "eq">,
    I32EnumAttrCase<"AlmostEq", 3, "almost_eq">]> {
  let cppNamespace = "::kiln";
}

#endif // KILN_DIALECT_KILN_IR_KILNATTRS_TD
