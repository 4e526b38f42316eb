// RUN: kiln-compile %s --compile-to=global-optimization | FileCheck %s --check-prefix=WIDE
// RUN: kiln-compile %s --compile-to=global-optimization --kiln-accumulate-narrow-floats-in-f32=false | FileCheck %s --check-prefix=KEEP

// By default an f16 sum accumulates in f32, its truncation fused after it;
// --kiln-accumulate-narrow-floats-in-f32=false keeps the program's f16 sum.
// WIDE-LABEL: func.func @sum
// WIDE: linalg.generic
// WIDE-SAME: outs(%{{.+}} : tensor<8xf32>)
// WIDE: arith.addf %{{.+}}, %{{.+}} : f32
// WIDE: arith.truncf %{{.+}} : f32 to f16
// KEEP-LABEL: func.func @sum
// KEEP-NOT: f32
// KEEP: arith.addf %{{.+}}, %{{.+}} : f16
// KEEP-NOT: f32
func.func @sum(%x: tensor<8x1024xf16>) -> tensor<8xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<8xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<8xf16>) -> tensor<8xf16>
  %r = linalg.reduce ins(%x : tensor<8x1024xf16>) outs(%f : tensor<8xf16>) dimensions = [1]
    (%a: f16, %b: f16) {
      %s = arith.addf %a, %b : f16
      linalg.yield %s : f16
    }
  return %r : tensor<8xf16>
}
