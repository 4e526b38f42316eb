//===- TransformOps.td - Kiln's transform-dialect extension --*- tablegen -*-===//
//
// The ops tuning specs are written with: matchers for contractions,
// convolutions and reductions by size, element type and whether the op is
// configured yet, and the action that sets an op's #kiln.lowering_config.
// They live in the transform dialect (`transform.kiln.*`), next to the
// upstream `transform.match.*` ops a spec may also use.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TUNINGSPECS_TRANSFORMOPS_TD
#define KILN_TUNINGSPECS_TRANSFORMOPS_TD

include "kiln/Dialect/Kiln/IR/KilnAttrs.td"
include "mlir/Dialect/Transform/IR/TransformDialect.td"
include "mlir/Dialect/Transform/Interfaces/MatchInterfaces.td"
include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpBase.td"

// A size constraint: `1024` (exactly), `[256, 4096]` (from 256 to 4096,
// both included) or `[256]` (at least 256).
def Kiln_SizeConstraintAttr : Attr<
    Or<[CPred<"::llvm::isa<::mlir::IntegerAttr>($_self)">,
        CPred<"::llvm::isa<::mlir::ArrayAttr>($_self)">]>,
    "a size (N), a range ([LO, HI]) or a lower bound ([LO])"> {
  let storageType = "::mlir::Attribute";
  let returnType = "::mlir::Attribute";
  let convertFromStorage = "$_self";
}

class Kiln_MatchOp<string mnemonic, list<Trait> traits = []>
    : Op<Transform_Dialect, "kiln.match." # mnemonic,
         !listconcat([SingleOpMatcher, MatchOpInterface,
                      DeclareOpInterfaceMethods<MemoryEffectsOpInterface>],
                     traits)> {
  let cppNamespace = "::kiln";
  let assemblyFormat = "$operand_handle attr-dict `:` type($operand_handle)";
  let hasVerifier = 1;
  let extraClassDeclaration = SingleOpMatcher.extraDeclaration;
  // Matchers read their handle and the payload, nothing else.
  let extraClassDefinition = [{
    void $cppClass::getEffects(
        ::llvm::SmallVectorImpl<::mlir::MemoryEffects::EffectInstance> &effects) {
      ::mlir::transform::onlyReadsHandle(getOperandHandleMutable(), effects);
      ::mlir::transform::onlyReadsPayload(effects);
    }
  }];
}

def Kiln_MatchContractionOp : Kiln_MatchOp<"contraction"> {
  let summary = "Matches a contraction (matmul-like op) by its sizes";
  let description = [{
    Succeeds when the payload op is a linalg contraction (matmul, batch
    matmul, matvec, a generic of the same form) whose sizes meet every
    constraint given; fails silenceably otherwise. `m`, `n`, `k` and `batch`
    constrain the product of the sizes of the loops of that kind (1 when
    there are none), `batch_dims` the number of batch loops; each is `N`,
    `[LO, HI]` or `[LO]`. A dynamic size meets no constraint. With
    `element_types = [lhs, rhs, result]` the element types must match; with
    `unconfigured` the op must not carry a `kiln.lowering_config` yet.

    ```mlir
    transform.kiln.match.contraction %op
        {m = [512], n = [512], k = [512], batch_dims = 0,
         element_types = [f32, f32, f32], unconfigured} : !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$operand_handle,
                       OptionalAttr<Kiln_SizeConstraintAttr>:$m,
                       OptionalAttr<Kiln_SizeConstraintAttr>:$n,
                       OptionalAttr<Kiln_SizeConstraintAttr>:$k,
                       OptionalAttr<Kiln_SizeConstraintAttr>:$batch,
                       OptionalAttr<Kiln_SizeConstraintAttr>:$batch_dims,
                       OptionalAttr<TypeArrayAttr>:$element_types,
                       UnitAttr:$unconfigured);
}

def Kiln_MatchConvolutionOp : Kiln_MatchOp<"convolution"> {
  let summary = "Matches a convolution by its sizes";
  let description = [{
    Succeeds when the payload op is a linalg convolution whose sizes meet
    every constraint given (each `N`, `[LO, HI]` or `[LO]`, on the product
    of the loops of that kind): `batch`, `output_image` (the output's
    spatial loops), `output_channels`, `input_channels`, `filter` (the
    filter's spatial loops) and `depth` (depthwise channels). With
    `element_types = [input, filter, result]` the element types must match;
    with `unconfigured` the op must not carry a `kiln.lowering_config` yet.
  }];
  let arguments = (ins TransformHandleTypeInterface:$operand_handle,
                       OptionalAttr<Kiln_SizeConstraintAttr>:$batch,
                       OptionalAttr<Kiln_SizeConstraintAttr>:$output_image,
                       OptionalAttr<Kiln_SizeConstraintAttr>:$output_channels,
                       OptionalAttr<Kiln_SizeConstraintAttr>:$input_channels,
                       OptionalAttr<Kiln_SizeConstraintAttr>:$filter,
                       OptionalAttr<Kiln_SizeConstraintAttr>:$depth,
                       OptionalAttr<TypeArrayAttr>:$element_types,
                       UnitAttr:$unconfigured);
}

def Kiln_MatchReductionOp : Kiln_MatchOp<"reduction"> {
  let summary = "Matches a reduction by its sizes";
  let description = [{
    Succeeds when the payload op is a linalg op with at least one reduction
    loop that is neither a contraction nor a convolution (a sum, a max, a
    softmax's reductions), and its sizes meet every constraint given:
    `reduction` and `parallel` on the product of the sizes of the loops of
    that kind, `rank` on the number of loops (each `N`, `[LO, HI]` or
    `[LO]`). With `element_types = [input, result]` the element types of
    the first input and the first result must match; with `unconfigured`
    the op must not carry a `kiln.lowering_config` yet.
  }];
  let arguments = (ins TransformHandleTypeInterface:$operand_handle,
                       OptionalAttr<Kiln_SizeConstraintAttr>:$reduction,
                       OptionalAttr<Kiln_SizeConstraintAttr>:$parallel,
                       OptionalAttr<Kiln_SizeConstraintAttr>:$rank,
                       OptionalAttr<TypeArrayAttr>:$element_types,
                       UnitAttr:$unconfigured);
}

def Kiln_MatchWorkloadOp : Kiln_MatchOp<"workload"> {
  let summary = "Matches the ops that compute one workload exactly";
  let description = [{
    Succeeds when the payload op's workload key is `key`: a hash of its
    name, operand and result types, inherent attributes and body (see
    `kiln/Dialect/Kiln/Utils/WorkloadKey.h`), so only ops that compute the
    same thing on the same shapes match. `kiln-tune search` writes one per
    op it tuned, after a readable shape matcher; `kiln-tune key` prints the
    keys of a program's dispatches. With `unconfigured` the op must not
    carry a `kiln.lowering_config` yet.

    ```mlir
    transform.kiln.match.workload %op {key = "kw1-0123456789abcdef"}
        : !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$operand_handle,
                       StrAttr:$key,
                       UnitAttr:$unconfigured);
}

def Kiln_SetLoweringConfigOp : Op<Transform_Dialect, "kiln.set_lowering_config",
    [DeclareOpInterfaceMethods<TransformOpInterface>,
     DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Sets the lowering configuration of the ops it is given";
  let description = [{
    Attaches `config` as the `kiln.lowering_config` of every payload op of
    the handle, and records in `kiln.configured_by` which spec, named
    sequence and line did it. The config must be one code generation can
    honor for that op (one tile size per loop, a pipeline the variant's
    target backend has); otherwise the spec fails with an error naming
    both. An op configured already (by a spec of higher precedence, or in
    the input program) keeps its config: the first spec to configure an op
    wins, and the later one is recorded in `kiln.configured_by` as
    overridden.

    ```mlir
    transform.kiln.set_lowering_config %op
        (#kiln.lowering_config<pipeline = "cpu-contraction", ...>) : !transform.any_op
    ```
  }];
  let cppNamespace = "::kiln";
  let arguments = (ins TransformHandleTypeInterface:$target,
                       Kiln_LoweringConfigAttr:$config);
  let assemblyFormat =
      "$target `(` qualified($config) `)` attr-dict `:` type($target)";
}

#endif // KILN_TUNINGSPECS_TRANSFORMOPS_TD
