// The ukernels plugin claims the dispatches that compute an f32 matmul and
// compiles them through its micro-kernel; the others take Kiln's path.

// Which dispatches it claims (kiln.claimed_by), with its own config:
// RUN: kiln-compile --kiln-plugin=ukernels %s --compile-to=executable-configurations | FileCheck %s --check-prefix=CLAIM
// CLAIM-LABEL: kiln.executable private @mixed_dispatch_0 attributes {kiln.root_op = {{.*}}} {
// CLAIM:         kiln.executable.variant public @llvm_cpu {{.*}} attributes {kiln.claimed_by = "ukernels"}
// CLAIM:         linalg.matmul {kiln.lowering_config = #kiln.lowering_config<pipeline = "ukernels-matmul", workgroup = [192, 64, 0]>}
// CLAIM-LABEL: kiln.executable private @mixed_dispatch_1 attributes {kiln.root_op = {{.*}}} {
// CLAIM-NOT:     claimed_by
// CLAIM:         pipeline = "cpu-elementwise"
// CLAIM-LABEL: kiln.executable private @mixed_dispatch_2 attributes {kiln.root_op = {{.*}}} {
// CLAIM-NOT:     claimed_by
// CLAIM:         linalg.matmul {kiln.configured_by = {heuristic = "cpu-contraction"}, kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-contraction"
// CLAIM-LABEL: kiln.executable private @dynamic_matmul_dispatch_0 attributes {kiln.root_op = {{.*}}} {
// CLAIM:         attributes {kiln.claimed_by = "ukernels"}
// CLAIM-LABEL: kiln.executable private @large_dispatch_0 attributes {kiln.root_op = {{.*}}} {
// CLAIM:         attributes {kiln.claimed_by = "ukernels"}

// The claimed dispatch calls the micro-kernel; the others do not.
// RUN: kiln-compile --kiln-plugin=ukernels %s --compile-to=executable-codegen | FileCheck %s --check-prefix=CODEGEN
// CODEGEN-LABEL: kiln.executable private @mixed_dispatch_0 attributes {kiln.root_op = {{.*}}} {
// CODEGEN:         llvm.call @kiln_ukernels_matmul_f32
// CODEGEN:         llvm.func @kiln_ukernels_matmul_f32
// CODEGEN-LABEL: kiln.executable private @mixed_dispatch_1 attributes {kiln.root_op = {{.*}}} {
// CODEGEN-NOT:     kiln_ukernels
// CODEGEN-LABEL: kiln.executable private @mixed_dispatch_2 attributes {kiln.root_op = {{.*}}} {
// CODEGEN-NOT:     kiln_ukernels
// CODEGEN-LABEL: kiln.executable private @dynamic_matmul_dispatch_0 attributes {kiln.root_op = {{.*}}} {
// CODEGEN:         llvm.call @kiln_ukernels_matmul_f32

// Without the plugin, nothing is claimed.
// RUN: kiln-compile %s --compile-to=executable-configurations | FileCheck %s --check-prefix=NONE
// NONE-NOT: claimed_by
// NONE-NOT: ukernels

// And the numbers are right, on 1 and 2 threads, static and dynamic.
// RUN: %e2e --compile-arg=--kiln-plugin=ukernels %s

// The micro-kernel imported from the runtime extension instead of compiled
// into the module (--ukernels-mode=import): the claimed dispatch calls it
// through the module's slot for it and lists it on its variant.
// RUN: kiln-compile --kiln-plugin=ukernels --ukernels-mode=import %s --compile-to=executable-codegen | FileCheck %s --check-prefix=IMPORT
// IMPORT-LABEL: kiln.executable private @mixed_dispatch_0 attributes {kiln.root_op = {{.*}}} {
// IMPORT:         attributes {kiln.claimed_by = "ukernels", kiln.externs = [{kind = "kernel", name = "kiln_ukernels.matmul_f32", signature = "!llvm.func<void(ptr,i64,ptr,i64,ptr,i64,i64,i64,i64)>"}]}
// IMPORT:         llvm.mlir.global external @__kiln_extern.kiln_ukernels.matmul_f32()
// IMPORT-NOT:     llvm.func @kiln_ukernels_matmul_f32
// IMPORT:         %[[SLOT:.+]] = llvm.mlir.addressof @__kiln_extern.kiln_ukernels.matmul_f32
// IMPORT:         %[[FN:.+]] = llvm.load %[[SLOT]] : !llvm.ptr -> !llvm.ptr
// IMPORT:         llvm.call %[[FN]](
// IMPORT-NOT:     llvm.func @kiln_ukernels_matmul_f32
// IMPORT-LABEL: kiln.executable private @mixed_dispatch_1 attributes {kiln.root_op = {{.*}}} {
// IMPORT-NOT:     kiln_ukernels
// IMPORT-LABEL: kiln.executable private @mixed_dispatch_2 attributes {kiln.root_op = {{.*}}} {
// RUN: %e2e --compile-arg=--kiln-plugin=ukernels --compile-arg=--ukernels-mode=import --run-arg=--runtime-extension=%kiln_lib/libkiln_ukernels_extension.so %s

// The module names the micro-kernel; without the extension it does not load.
// RUN: rm -rf %t && mkdir -p %t
// RUN: kiln-compile --kiln-plugin=ukernels --ukernels-mode=import %s -o %t/import.so
// RUN: not kiln-run %t/import.so --function=dynamic_matmul --random-inputs 2>&1 | FileCheck %s --check-prefix=NO-EXTENSION
// NO-EXTENSION: error: cannot load module '{{.*}}import.so': metadata line {{[0-9]+}}: the module calls 'kiln_ukernels.matmul_f32' (a kernel function), which no runtime extension provides
// With the object cache, twice: a variant that calls the extension is not
// cached (a hit would skip the codegen that lists what it calls), and the
// second module loads and runs as the first.
// RUN: kiln-compile --kiln-plugin=ukernels --ukernels-mode=import --kiln-object-cache=%t/cache %s -o %t/cached1.so
// RUN: kiln-compile --kiln-plugin=ukernels --ukernels-mode=import --kiln-object-cache=%t/cache %s -o %t/cached2.so
// RUN: kiln-run %t/cached2.so --function=mixed --random-inputs --runtime-extension=%kiln_lib/libkiln_ukernels_extension.so --output=@%t/out2_0.npy --output=@%t/out2_1.npy --output=@%t/out2_2.npy
// RUN: kiln-run %t/cached1.so --function=mixed --random-inputs --runtime-extension=%kiln_lib/libkiln_ukernels_extension.so --expected-output=@%t/out2_0.npy --expected-output=@%t/out2_1.npy --expected-output=@%t/out2_2.npy | FileCheck %s --check-prefix=CACHED
// CACHED: output 0: 9000 elements match
// RUN: not kiln-compile --kiln-plugin=ukernels --ukernels-mode=fast %s -o %t/fast.so 2>&1 | FileCheck %s --check-prefix=BAD-MODE
// BAD-MODE: --ukernels-mode must be 'inline' or 'import', got 'fast'
// RUN: not ls %t/fast.so

// CASE: mixed
// INPUT: a = rand(100, 70)
// INPUT: b = rand(70, 90)
// INPUT: bias = rand(90)
// INPUT: ia = np.arange(128, dtype=np.int32).reshape(16, 8) % 7 - 3
// INPUT: ib = np.arange(96, dtype=np.int32).reshape(8, 12) % 5 - 2
// REFERENCE: np.maximum(a @ b + bias, 0)
// REFERENCE: (b * b).T
// REFERENCE: ia @ ib
func.func @mixed(%a: tensor<100x70xf32>, %b: tensor<70x90xf32>, %bias: tensor<90xf32>,
                 %ia: tensor<16x8xi32>, %ib: tensor<8x12xi32>)
    -> (tensor<100x90xf32>, tensor<90x70xf32>, tensor<16x12xi32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<100x90xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<100x90xf32>) -> tensor<100x90xf32>
  %m = linalg.matmul ins(%a, %b : tensor<100x70xf32>, tensor<70x90xf32>) outs(%f : tensor<100x90xf32>) -> tensor<100x90xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<100x90xf32>, tensor<90xf32>) outs(%e : tensor<100x90xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %t = arith.maximumf %s, %z : f32
    linalg.yield %t : f32
  } -> tensor<100x90xf32>
  %et = tensor.empty() : tensor<90x70xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<70x90xf32>) outs(%et : tensor<90x70xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.mulf %x, %x : f32
    linalg.yield %s : f32
  } -> tensor<90x70xf32>
  %zi = arith.constant 0 : i32
  %ei = tensor.empty() : tensor<16x12xi32>
  %fi = linalg.fill ins(%zi : i32) outs(%ei : tensor<16x12xi32>) -> tensor<16x12xi32>
  %mi = linalg.matmul ins(%ia, %ib : tensor<16x8xi32>, tensor<8x12xi32>) outs(%fi : tensor<16x12xi32>) -> tensor<16x12xi32>
  return %r, %t, %mi : tensor<100x90xf32>, tensor<90x70xf32>, tensor<16x12xi32>
}

// CASE: dynamic_matmul
// INPUT: a = rand(131, 67)
// INPUT: b = rand(67, 259)
// REFERENCE: a @ b
func.func @dynamic_matmul(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %n = tensor.dim %b, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%f : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// CASE: large
// INPUT: a = rand(384, 256)
// INPUT: b = rand(256, 512)
// REFERENCE: a @ b
// TOLERANCE: 1e-4
func.func @large(%a: tensor<384x256xf32>, %b: tensor<256x512xf32>) -> tensor<384x512xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<384x512xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<384x512xf32>) -> tensor<384x512xf32>
  %r = linalg.matmul ins(%a, %b : tensor<384x256xf32>, tensor<256x512xf32>) outs(%f : tensor<384x512xf32>) -> tensor<384x512xf32>
  return %r : tensor<384x512xf32>
}
