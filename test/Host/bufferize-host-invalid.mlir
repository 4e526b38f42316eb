// RUN: kiln-opt %s --split-input-file --kiln-bufferize-host -verify-diagnostics

// The runtime passes tensors only.
// expected-error @+1 {{public function @scalar has argument #1 of type 'f32'; the runtime passes ranked tensors of i1, i8, i16, i32, i64, f16, bf16, f32 or f64 (wrap scalars in 0-d tensors, or make the function private)}}
func.func @scalar(%a: tensor<4xf32>, %s: f32) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// -----

// expected-error @+1 {{public function @unranked has result #0 of type 'tensor<*xf32>'}}
func.func @unranked(%a: tensor<4xf32>) -> tensor<*xf32> {
  %c = tensor.cast %a : tensor<4xf32> to tensor<*xf32>
  return %c : tensor<*xf32>
}

// -----

// expected-error @+1 {{public function @complex has argument #0 of type 'tensor<4xcomplex<f32>>'}}
func.func @complex(%a: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  return %a : tensor<4xcomplex<f32>>
}

// -----

// A dispatch of an export whose workgroup count codegen has not computed.
kiln.executable private @ex {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu">) {
    kiln.executable.export public @k workgroups(%n: index) -> (index, index, index) {
      %x, %y, %z = kiln.workgroup_count_from_workload(%n)
      kiln.return %x, %y, %z : index, index, index
    }
  }
}
func.func @not_lowered(%a: tensor<8xf32>) -> tensor<8xf32> {
  %c8 = arith.constant 8 : index
  // (One-shot bufferization adds its own generic error after ours.)
  // expected-error @+2 {{failed to bufferize op}}
  // expected-error @+1 {{'kiln.dispatch' op launches @k, whose workgroup count code generation has not computed}}
  %b = kiln.dispatch @ex::@k[%c8](%a) : (tensor<8xf32>) -> tensor<8xf32>
  return %b : tensor<8xf32>
}

// -----

// The module's metadata is text: names with spaces cannot be listed.
// expected-error @+1 {{public function @"my model" cannot be exported: the runtime needs names without spaces or control characters (rename it, or make it private)}}
func.func @"my model"(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// -----

// The runtime's buffers hold at most 16 dimensions.
// expected-error @+1 {{public function @rank17 has argument #0 of rank 17; the runtime passes tensors of rank at most 16 (reshape it, or make the function private)}}
func.func @rank17(%a: tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x2xf32>) -> tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x2xf32> {
  return %a : tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x2xf32>
}
