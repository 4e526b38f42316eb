//===- IREEOps.td - The IREE ops of IREE's test programs ---*- tablegen -*-===//
//
// Just enough of IREE's `check`, `util` and `flow` dialects to read the
// programs of IREE's end-to-end test suite, with IREE's syntax. Kiln does
// not execute these ops: kiln-convert-iree-compat rewrites them into Kiln
// and upstream ops during the input phase.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPAT_IREE_IREEOPS_TD
#define KILN_COMPAT_IREE_IREEOPS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

//===----------------------------------------------------------------------===//
// check
//===----------------------------------------------------------------------===//

def Check_Dialect : Dialect {
  let name = "check";
  let cppNamespace = "::kiln::iree_compat";
  let summary = "IREE's test assertions (parsed only; Kiln lowers them)";
}

class Check_Op<string mnemonic, list<Trait> traits = []>
    : Op<Check_Dialect, mnemonic, traits>;

def Check_ExpectTrueOp : Check_Op<"expect_true"> {
  let summary = "Asserts that an integer is nonzero";
  let arguments = (ins AnySignlessInteger:$operand);
  let assemblyFormat = "`(` $operand `)` attr-dict `:` type($operand)";
}

def Check_ExpectFalseOp : Check_Op<"expect_false"> {
  let summary = "Asserts that an integer is zero";
  let arguments = (ins AnySignlessInteger:$operand);
  let assemblyFormat = "`(` $operand `)` attr-dict `:` type($operand)";
}

def Check_ExpectAllTrueOp : Check_Op<"expect_all_true"> {
  let summary = "Asserts that every element of an integer tensor is nonzero";
  let arguments = (ins TensorOf<[AnySignlessInteger]>:$operand);
  let assemblyFormat = "`(` $operand `)` attr-dict `:` type($operand)";
}

def Check_ExpectEqOp
    : Check_Op<"expect_eq", [AllTypesMatch<["lhs", "rhs"]>]> {
  let summary = "Asserts that two tensors are equal";
  let arguments = (ins AnyTensor:$lhs, AnyTensor:$rhs);
  let assemblyFormat = "`(` $lhs `,` $rhs `)` attr-dict `:` type($lhs)";
}

def Check_ExpectEqConstOp
    : Check_Op<"expect_eq_const", [AllTypesMatch<["lhs", "value"]>]> {
  let summary = "Asserts that a tensor equals a constant";
  let arguments = (ins AnyTensor:$lhs, ElementsAttr:$value);
  let assemblyFormat = "`(` $lhs `,` $value `)` attr-dict `:` type($lhs)";
}

def Check_ExpectAlmostEqOp
    : Check_Op<"expect_almost_eq", [AllTypesMatch<["lhs", "rhs"]>]> {
  let summary = "Asserts that two float tensors are equal within tolerances";
  let arguments = (ins
    TensorOf<[AnyFloat]>:$lhs,
    TensorOf<[AnyFloat]>:$rhs,
    DefaultValuedAttr<F32Attr, "1.e-4f">:$atol,
    DefaultValuedAttr<F32Attr, "0.f">:$rtol
  );
  let assemblyFormat = [{
    `(` $lhs `,` $rhs (`` `,` `atol` $atol^)? (`` `,` `rtol` $rtol^)? `)`
    attr-dict `:` type($lhs)
  }];
}

def Check_ExpectAlmostEqConstOp
    : Check_Op<"expect_almost_eq_const", [AllTypesMatch<["lhs", "value"]>]> {
  let summary = "Asserts that a float tensor equals a constant within tolerances";
  let arguments = (ins
    TensorOf<[AnyFloat]>:$lhs,
    ElementsAttr:$value,
    DefaultValuedAttr<F32Attr, "1.e-4f">:$atol,
    DefaultValuedAttr<F32Attr, "0.f">:$rtol
  );
  let assemblyFormat = [{
    `(` $lhs `,` $value (`` `,` `atol` $atol^)? (`` `,` `rtol` $rtol^)? `)`
    attr-dict `:` type($lhs)
  }];
}

//===----------------------------------------------------------------------===//
// util
//===----------------------------------------------------------------------===//

def Util_Dialect : Dialect {
  let name = "util";
  let cppNamespace = "::kiln::iree_compat";
  let summary = "IREE's utility ops used by its tests (parsed only)";
}

class Util_Op<string mnemonic, list<Trait> traits = []>
    : Op<Util_Dialect, mnemonic, traits>;

def Util_UnfoldableConstantOp : Util_Op<"unfoldable_constant"> {
  let summary = "A constant the compiler must not fold";
  let arguments = (ins TypedAttrInterface:$value);
  let results = (outs AnyType:$result);
  let hasCustomAssemblyFormat = 1;
}

def Util_OptimizationBarrierOp : Util_Op<"optimization_barrier",
    [DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Values the optimizer may not look through";
  let arguments = (ins Variadic<AnyType>:$operands);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = [{
    attr-dict ($operands^ `:` type($operands))?
  }];
}

//===----------------------------------------------------------------------===//
// flow
//===----------------------------------------------------------------------===//

def Flow_Dialect : Dialect {
  let name = "flow";
  let cppNamespace = "::kiln::iree_compat";
  let summary = "IREE's tensor ops used by its tests (parsed only)";
}

class Flow_Op<string mnemonic, list<Trait> traits = []>
    : Op<Flow_Dialect, mnemonic, traits>;

def Flow_TensorDynamicConstantOp : Flow_Op<"tensor.dynamic_constant"> {
  let summary = "A constant whose static shape the compiler must not see";
  let arguments = (ins ElementsAttr:$value);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "attr-dict $value `->` type($result)";
  let hasVerifier = 1;
}

def Flow_TensorTieShapeOp : Flow_Op<"tensor.tie_shape",
    [AllTypesMatch<["operand", "result"]>]> {
  let summary = "Names the dynamic dimensions of a tensor";
  let arguments = (ins AnyRankedTensor:$operand, Variadic<Index>:$dims);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $operand attr-dict `:` type($result) (`{` $dims^ `}`)?
  }];
  let hasVerifier = 1;
}

def Flow_TensorBitCastOp : Flow_Op<"tensor.bitcast", [AttrSizedOperandSegments]> {
  let summary = "Reinterprets the bytes of a tensor as another type";
  let arguments = (ins
    AnyRankedTensor:$source,
    Variadic<Index>:$source_dims,
    Variadic<Index>:$result_dims
  );
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $source `:` type($source) (`{` $source_dims^ `}`)? `->`
    type($result) (`{` $result_dims^ `}`)? attr-dict
  }];
  let hasVerifier = 1;
}

#endif // KILN_COMPAT_IREE_IREEOPS_TD
