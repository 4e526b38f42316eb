// RUN: kiln-opt %s --pass-pipeline='builtin.module(func.func(kiln-cpu-lower-vectors))' | FileCheck %s

// A multiply feeding an add may fuse into an FMA.
// CHECK-LABEL: func.func @fma
// CHECK:         arith.mulf %{{.+}}, %{{.+}} fastmath<contract> : vector<4x32xf32>
// CHECK:         arith.addf %{{.+}}, %{{.+}} fastmath<contract> : vector<4x32xf32>
func.func @fma(%a: vector<4x32xf32>, %b: vector<4x32xf32>, %c: vector<4x32xf32>) -> vector<4x32xf32> {
  %m = arith.mulf %a, %b : vector<4x32xf32>
  %s = arith.addf %c, %m : vector<4x32xf32>
  return %s : vector<4x32xf32>
}

// A contraction becomes outer products: per k, each row of A broadcast and
// multiplied into a row of B with FMAs on 1-D vectors.
// CHECK-LABEL: func.func @contract
// CHECK-NOT:     vector.contract
// CHECK:         %[[B0:.+]] = vector.extract %{{.+}}[0] : vector<16xf32> from vector<8x16xf32>
// CHECK:         %[[A00:.+]] = vector.extract %{{.+}}[0, 0] : f32 from vector<4x8xf32>
// CHECK:         %[[SPLAT:.+]] = vector.broadcast %[[A00]] : f32 to vector<16xf32>
// CHECK:         %[[C0:.+]] = vector.extract %{{.+}}[0] : vector<16xf32> from vector<4x16xf32>
// CHECK:         vector.fma %[[SPLAT]], %[[B0]], %[[C0]] : vector<16xf32>
// CHECK-COUNT-31: vector.fma
// CHECK-NOT:     vector.fma
func.func @contract(%a: vector<4x8xf32>, %b: vector<8x16xf32>, %c: vector<4x16xf32>) -> vector<4x16xf32> {
  %r = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<4x8xf32>, vector<8x16xf32> into vector<4x16xf32>
  return %r : vector<4x16xf32>
}

// A masked contraction of a batched tile (a batch of one, rows and columns
// of it masked) that extends i8 into i32 loses its leading unit dim, then
// becomes outer products; no vector.mask nor n-D mask is left for LLVM
// lowering (MLIR's lowering alone leaves it).
// CHECK-LABEL: func.func @masked_batch_contract
// CHECK-NOT:     vector.contract
// CHECK-NOT:     vector.mask
// CHECK-NOT:     vector<1x8x16x1xi1>
// CHECK:         arith.muli %{{.+}}, %{{.+}} : vector<16xi32>
// CHECK:         arith.addi
// CHECK:         arith.select %{{.+}}, %{{.+}}, %{{.+}} : vector<16xi1>, vector<16xi32>
// CHECK-NOT:     vector.contract
// CHECK-NOT:     vector.mask
// CHECK:         return
func.func @masked_batch_contract(%a: vector<1x8x1xi8>, %b: vector<1x1x16xi8>, %c: vector<1x8x16xi32>) -> vector<1x8x16xi32> {
  %mask = vector.constant_mask [1, 3, 2, 1] : vector<1x8x16x1xi1>
  %r = vector.mask %mask { vector.contract {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<1x8x1xi8>, vector<1x1x16xi8> into vector<1x8x16xi32> } : vector<1x8x16x1xi1> -> vector<1x8x16xi32>
  return %r : vector<1x8x16xi32>
}

// A 16x16 block of 32-bit elements read through a transposing permutation
// (a transposing copy's tile) becomes a read of its 16 rows and shuffles
// of whole rows (4 stages of 16), not 256 element loads.
// CHECK-LABEL: func.func @transposed_block
// CHECK-NOT:     vector.transpose
// CHECK:         vector.transfer_read %{{.+}}[%{{.+}}, %{{.+}}], %{{.+}} {in_bounds = [true, true]} : memref<32x64xf32>, vector<16x16xf32>
// CHECK-COUNT-64: vector.shuffle {{.*}} : vector<16xf32>, vector<16xf32>
// CHECK-NOT:     vector.shuffle
// CHECK-NOT:     memref.load
// CHECK:         return
func.func @transposed_block(%m: memref<32x64xf32>, %i: index, %j: index) -> vector<16x16xf32> {
  %pad = arith.constant 0.0 : f32
  %v = vector.transfer_read %m[%i, %j], %pad {in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<32x64xf32>, vector<16x16xf32>
  return %v : vector<16x16xf32>
}

// A masked read becomes a masked load.
// CHECK-LABEL: func.func @masked_read
// CHECK:         %[[MASK:.+]] = vector.create_mask %{{.+}} : vector<16xi1>
// CHECK:         vector.maskedload %{{.+}}[%{{.+}}], %[[MASK]], %{{.+}} : memref<?xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
func.func @masked_read(%m: memref<?xf32>, %n: index) -> vector<16xf32> {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %mask = vector.create_mask %n : vector<16xi1>
  %v = vector.mask %mask { vector.transfer_read %m[%c0], %pad {in_bounds = [true]} : memref<?xf32>, vector<16xf32> } : vector<16xi1> -> vector<16xf32>
  return %v : vector<16xf32>
}

// A reduction across rows adds whole rows.
// CHECK-LABEL: func.func @column_sum
// CHECK-NOT:     vector.multi_reduction
// CHECK-COUNT-8: arith.addf %{{.+}}, %{{.+}} : vector<16xf32>
func.func @column_sum(%v: vector<8x16xf32>, %acc: vector<16xf32>) -> vector<16xf32> {
  %r = vector.multi_reduction <add>, %v, %acc [0] : vector<8x16xf32> to vector<16xf32>
  return %r : vector<16xf32>
}

// A reduction along rows becomes one horizontal reduction per row, masked
// or not.
// CHECK-LABEL: func.func @row_max
// CHECK:         %[[R0:.+]] = vector.extract %{{.+}}[0] : vector<16xf32> from vector<2x16xf32>
// CHECK:         vector.reduction <maxnumf>, %[[R0]], %{{.+}} : vector<16xf32> into f32
// CHECK:         %[[R1:.+]] = vector.extract %{{.+}}[1] : vector<16xf32> from vector<2x16xf32>
// CHECK:         vector.reduction <maxnumf>, %[[R1]], %{{.+}} : vector<16xf32> into f32
func.func @row_max(%v: vector<2x16xf32>, %acc: vector<2xf32>) -> vector<2xf32> {
  %r = vector.multi_reduction <maxnumf>, %v, %acc [1] : vector<2x16xf32> to vector<2xf32>
  return %r : vector<2xf32>
}

// CHECK-LABEL: func.func @masked_row_sum
// CHECK:         %[[MASK:.+]] = vector.create_mask %{{.+}} : vector<16xi1>
// CHECK:         vector.mask %[[MASK]] { vector.reduction <add>, %{{.+}}, %{{.+}} : vector<16xf32> into f32 } : vector<16xi1> -> f32
func.func @masked_row_sum(%v: vector<1x16xf32>, %n: index, %acc: vector<1xf32>) -> vector<1xf32> {
  %c1 = arith.constant 1 : index
  %mask = vector.create_mask %c1, %n : vector<1x16xi1>
  %r = vector.mask %mask { vector.multi_reduction <add>, %v, %acc [1] : vector<1x16xf32> to vector<1xf32> } : vector<1x16xi1> -> vector<1xf32>
  return %r : vector<1xf32>
}

// exp, log, tanh, erf and their kin become polynomials (f16 through f32);
// sin and cos stay calls, for accuracy at large arguments.
// CHECK-LABEL: func.func @math
// CHECK-NOT:     math.exp
// CHECK-NOT:     math.tanh
// CHECK:         math.fma
// CHECK:         arith.extf %{{.+}} : vector<16xf16> to vector<16xf32>
// CHECK:         arith.truncf %{{.+}} : vector<16xf32> to vector<16xf16>
// CHECK:         math.sin %{{.+}} : vector<16xf32>
func.func @math(%x: vector<16xf32>, %h: vector<16xf16>) -> (vector<16xf32>, vector<16xf16>, vector<16xf32>) {
  %e = math.exp %x : vector<16xf32>
  %t = math.tanh %h : vector<16xf16>
  %s = math.sin %x : vector<16xf32>
  return %e, %t, %s : vector<16xf32>, vector<16xf16>, vector<16xf32>
}
