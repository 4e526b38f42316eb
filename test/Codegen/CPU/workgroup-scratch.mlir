// RUN: kiln-compile %s --kiln-target-cpu=znver5 --compile-to=executable-codegen | FileCheck %s

// The matmul pipeline packs a transposed B (A * B^T) into panels of
// 256x256 (256 KiB, above the stack limit): they come from the workgroup
// scratch, which the kernel records for the host's launch; no workgroup
// calls malloc or free.
// CHECK:     llvm.func @mm_dispatch_0_{{.+}}(%{{.+}}: !llvm.ptr, %{{.+}}: i32, %{{.+}}: i32, %{{.+}}: i32, %{{.+}}: !llvm.ptr) attributes {kiln.workgroup_scratch_bytes = 262144 : i64}
// CHECK-NOT: llvm.call @malloc
// CHECK-NOT: llvm.call @free
func.func @mm(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
         ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}
