// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(kiln-guard-indices-and-divisors))' | FileCheck %s

// A read at an index from data: safe in the body (element 0 when out of
// range), and checked before the op by a reduction over the indices alone
// (the loop over the row is not the check's), counting the bad ones and
// the indices' range.
// CHECK-LABEL: func.func @gather
// CHECK-SAME:    (%[[DATA:.+]]: tensor<5x3xf32>, %[[IDX:.+]]: tensor<?xi64>)
// CHECK:         %[[C:.+]]:3 = linalg.generic {{.*}}iterator_types = ["reduction"]} ins(%[[IDX]] : tensor<?xi64>) outs(%{{.+}}, %{{.+}}, %{{.+}} : tensor<i64>, tensor<i64>, tensor<i64>)
// CHECK:           arith.cmpi slt
// CHECK:           arith.cmpi sge
// CHECK:           arith.minsi
// CHECK:           arith.maxsi
// CHECK:         kiln.assert %{{.+}}, "'gather_node': {0} reads at an index outside [0, {1}) along dimension 0 of input 0 (the indices range from {2} to {3})"
// CHECK:         linalg.generic
// CHECK:           %[[BAD:.+]] = arith.ori
// CHECK:           %[[SAFE:.+]] = arith.select %[[BAD]], %{{.+}}, %{{.+}} : index
// CHECK:           tensor.extract %[[DATA]][%[[SAFE]], %{{.+}}]
func.func @gather(%data: tensor<5x3xf32>, %idx: tensor<?xi64>) -> tensor<?x3xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %idx, %c0 : tensor<?xi64>
  %e = tensor.empty(%n) : tensor<?x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%idx : tensor<?xi64>) outs(%e : tensor<?x3xf32>) {
  ^bb0(%i: i64, %o: f32):
    %ii = arith.index_cast %i : i64 to index
    %j = linalg.index 1 : index
    %v = tensor.extract %data[%ii, %j] : tensor<5x3xf32>
    linalg.yield %v : f32
  } -> tensor<?x3xf32> loc("gather_node")
  return %r : tensor<?x3xf32>
}

// -----

// Indices from loop indices are trusted; a read a front end checked itself
// (kiln.checked_indices) is left alone.
// CHECK-LABEL: func.func @trusted
// CHECK-NOT:     kiln.assert
// CHECK-NOT:     arith.select
func.func @trusted(%data: tensor<5xf32>, %idx: tensor<4xindex>) -> (tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%e : tensor<4xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %v = tensor.extract %data[%i] : tensor<5xf32>
    linalg.yield %v : f32
  } -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%idx : tensor<4xindex>) outs(%e : tensor<4xf32>) {
  ^bb0(%i: index, %o: f32):
    %v = tensor.extract %data[%i] {kiln.checked_indices} : tensor<5xf32>
    linalg.yield %v : f32
  } -> tensor<4xf32>
  return %r, %s : tensor<4xf32>, tensor<4xf32>
}

// -----

// A signed division of data by data: both hazards counted by the check,
// the divisor replaced by 1 where either holds.
// CHECK-LABEL: func.func @divide
// CHECK:         %[[C:.+]]:2 = linalg.generic {{.*}}iterator_types = ["reduction"]}
// CHECK:         kiln.assert %{{.+}}, "'linalg.generic': {0} integer divisions by zero and {1} of the smallest integer by -1"
// CHECK:         linalg.generic
// CHECK:           %[[BAD:.+]] = arith.ori
// CHECK:           %[[SAFE:.+]] = arith.select %[[BAD]], %{{.+}}, %{{.+}} : i32
// CHECK:           arith.divsi %{{.+}}, %[[SAFE]] : i32
func.func @divide(%a: tensor<8xi32>, %b: tensor<8xi32>) -> tensor<8xi32> {
  %e = tensor.empty() : tensor<8xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a, %b : tensor<8xi32>, tensor<8xi32>) outs(%e : tensor<8xi32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %q = arith.divsi %x, %y : i32
    linalg.yield %q : i32
  } -> tensor<8xi32>
  return %r : tensor<8xi32>
}

// -----

// A divisor from the host is checked there, with no reduction; a constant
// divisor other than 0 and -1 needs nothing.
// CHECK-LABEL: func.func @host_divisor
// CHECK-NOT:     iterator_types = ["reduction"]
// CHECK:         kiln.assert %{{.+}}, "'linalg.generic': an integer division by zero"
// CHECK-NOT:     kiln.assert
// CHECK:         return
func.func @host_divisor(%a: tensor<8xi32>, %d: i32) -> (tensor<8xi32>, tensor<8xi32>) {
  %e = tensor.empty() : tensor<8xi32>
  %c3 = arith.constant 3 : i32
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<8xi32>) outs(%e : tensor<8xi32>) {
  ^bb0(%x: i32, %o: i32):
    %q = arith.divui %x, %d : i32
    linalg.yield %q : i32
  } -> tensor<8xi32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<8xi32>) outs(%e : tensor<8xi32>) {
  ^bb0(%x: i32, %o: i32):
    %q = arith.remsi %x, %c3 : i32
    linalg.yield %q : i32
  } -> tensor<8xi32>
  return %r, %s : tensor<8xi32>, tensor<8xi32>
}

// -----

// Shape arithmetic on the host.
// CHECK-LABEL: func.func @host_division
// CHECK:         %[[BAD:.+]] = arith.cmpi eq, %{{.+}}, %{{.+}} : index
// CHECK:         kiln.assert %{{.+}}, "'arith.ceildivui': an integer division of {0} by {1} (a division by zero)"
// CHECK:         %[[SAFE:.+]] = arith.select %[[BAD]], %{{.+}}, %{{.+}} : index
// CHECK:         arith.ceildivui %{{.+}}, %[[SAFE]] : index
func.func @host_division(%n: index, %m: index) -> index {
  %q = arith.ceildivui %n, %m : index
  return %q : index
}
