//===- Passes.td - Input phase passes ----------------------*- tablegen -*-===//
//
// Passes of the input phase: convert what the user wrote (TOSA, plugin input
// dialects) to linalg on tensors, then check that what remains is something
// Kiln can compile.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_INPUT_PASSES_TD
#define KILN_INPUT_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertInputPass : Pass<"kiln-convert-input", "mlir::ModuleOp"> {
  let summary = "Convert input dialects (such as TOSA) to linalg on tensors";
  let description = [{
    Runs the conversion pipeline of every registered input conversion whose
    dialect the module uses (`input-type=auto`), of one named conversion, or
    of none. Kiln registers `tosa`, which runs upstream's TOSA-to-linalg
    pipelines plus TOSA-to-SCF, -arith and -tensor.

    Before:
    ```mlir
    %0 = tosa.add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    ```
    After:
    ```mlir
    %0 = linalg.generic {...} ins(%a, %b : tensor<4xf32>, tensor<4xf32>)
        outs(%init : tensor<4xf32>) { arith.addf ... } -> tensor<4xf32>
    ```
  }];
  let options = [
    Option<"inputType", "input-type", "std::string", /*default=*/"\"auto\"",
           "Which conversion to run: 'auto' (every one whose dialect the "
           "module uses), 'none', or a conversion's name such as 'tosa'">,
  ];
}

def VerifyInputLegalityPass
    : Pass<"kiln-verify-input-legality", "mlir::ModuleOp"> {
  let summary = "Reject ops that no Kiln phase can compile";
  let description = [{
    After input conversion a program may only use `func`, `arith`, `math`,
    `linalg`, `tensor` and `scf` (plus `ub` for poison values). Any other op
    is reported at its location with the dialects Kiln accepts, and the pass
    fails, so the error points at the user's source rather than at a later
    phase that cannot lower the op.
  }];
}

#endif // KILN_INPUT_PASSES_TD
