// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(kiln.executable(kiln.executable.variant(builtin.module(func.func(kiln-cpu-tile-and-vectorize)))))' | FileCheck %s

// A contraction: the fill is vectorized on its own; K is split by the cache
// tile (64); B, whose rows run along N, is read in place (no panels): the
// register tile (8 rows x 32 columns) is read once, updated for every k of
// the block with a column of A times a 32-wide run of B's row k, and
// written once.
// CHECK-LABEL: func.func @matmul
// CHECK:         vector.transfer_write %{{.+}} : vector<1x32xf32>, tensor<64x64xf32>
// CHECK-NOT:     tensor.empty
// CHECK:         scf.for %[[K0:.+]] = %c0 to %c128 step %c64
// CHECK:           scf.for %{{.+}} = %c0 to %c64 step %c8
// CHECK:             scf.for %[[N:.+]] = %c0 to %c64 step %c32
// CHECK:               %[[ACC:.+]] = vector.transfer_read {{.*}} : tensor<8x64xf32>, vector<8x32xf32>
// CHECK:               %[[SUM:.+]] = scf.for %[[K:.+]] = %c0 to %c64 step %c1 iter_args(%[[A:.+]] = %[[ACC]]) -> (vector<8x32xf32>)
// CHECK:                 %[[LHS:.+]] = vector.transfer_read {{.*}} : tensor<64x128xf32>, vector<8x1xf32>
// CHECK:                 %[[ROW_K:.+]] = affine.apply {{.*}}[%[[K0]], %[[K]]]
// CHECK:                 %[[RHS:.+]] = vector.transfer_read %{{.+}}[%[[ROW_K]], %[[N]]], %{{.+}} {in_bounds = [true, true]} : tensor<128x64xf32>, vector<1x32xf32>
// CHECK:                 vector.contract {{.*}} %[[LHS]], %[[RHS]], %[[A]] : vector<8x1xf32>, vector<1x32xf32> into vector<8x32xf32>
// CHECK:               vector.transfer_write %[[SUM]], {{.*}} : vector<8x32xf32>, tensor<8x64xf32>
kiln.executable private @mm {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    builtin.module {
      func.func @matmul() {
        %cst = arith.constant 0.000000e+00 : f32
        %a = kiln.dispatch.binding 0 readonly : memref<64x128xf32>
        %ta = bufferization.to_tensor %a restrict : memref<64x128xf32> to tensor<64x128xf32>
        %b = kiln.dispatch.binding 1 readonly : memref<128x64xf32>
        %tb = bufferization.to_tensor %b restrict : memref<128x64xf32> to tensor<128x64xf32>
        %e = tensor.empty() : tensor<64x64xf32>
        %f = linalg.fill ins(%cst : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
        %mm = linalg.matmul {kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-contraction", workgroup = [64, 64, 0], cache = [64, 64, 64], register = [8, 32, 1], vector = [8, 32, 1]>} ins(%ta, %tb : tensor<64x128xf32>, tensor<128x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
        %o = kiln.dispatch.binding 2 : memref<64x64xf32>
        bufferization.materialize_in_destination %mm in restrict writable %o : (tensor<64x64xf32>, memref<64x64xf32>) -> ()
        return
      }
    }
  }
}

// -----

// N known only at run time, B read in place: whole register tiles
// unmasked, then the last partial one read from B under a mask (the lanes
// past B's edge zero), without a padded copy of B.
// CHECK-LABEL: func.func @partial_panel
// CHECK-NOT:     tensor.pad
// CHECK:         scf.for {{.*}} step %c64
// CHECK:           scf.for {{.*}} step %c8
// CHECK:             scf.for {{.*}} step %c32
// CHECK-NOT:           vector.create_mask
// CHECK:               scf.for {{.*}} -> (vector<8x32xf32>)
// CHECK:                 vector.transfer_read {{.*}} {in_bounds = [true, true]} : tensor<16x?xf32>, vector<1x32xf32>
// CHECK:             scf.for {{.*}} step %c32
// CHECK:               %[[COLUMNS:.+]] = vector.create_mask %c1, %{{.+}} : vector<1x32xi1>
// CHECK:               scf.for {{.*}} -> (vector<8x32xf32>)
// CHECK:                 vector.transfer_read {{.*}}, %[[COLUMNS]] {in_bounds = [true, true]} : tensor<1x?xf32>, vector<1x32xf32>
// CHECK:                 vector.mask {{.*}} vector.contract
// CHECK-NOT:     tensor.pad
kiln.executable private @mm_partial {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    builtin.module {
      func.func @partial_panel() {
        %cst = arith.constant 0.000000e+00 : f32
        %n = kiln.dispatch.constant 0 : index
        %a = kiln.dispatch.binding 0 readonly : memref<16x16xf32>
        %ta = bufferization.to_tensor %a restrict : memref<16x16xf32> to tensor<16x16xf32>
        %b = kiln.dispatch.binding 1 readonly : memref<16x?xf32>{%n}
        %tb = bufferization.to_tensor %b restrict : memref<16x?xf32> to tensor<16x?xf32>
        %e = tensor.empty(%n) : tensor<16x?xf32>
        %f = linalg.fill ins(%cst : f32) outs(%e : tensor<16x?xf32>) -> tensor<16x?xf32>
        %mm = linalg.matmul {kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-contraction", workgroup = [16, 64, 0], cache = [16, 64, 16], register = [8, 32, 1], vector = [8, 32, 1]>} ins(%ta, %tb : tensor<16x16xf32>, tensor<16x?xf32>) outs(%f : tensor<16x?xf32>) -> tensor<16x?xf32>
        %o = kiln.dispatch.binding 2 : memref<16x?xf32>{%n}
        bufferization.materialize_in_destination %mm in restrict writable %o : (tensor<16x?xf32>, memref<16x?xf32>) -> ()
        return
      }
    }
  }
}

// -----

// B's rows 4 KiB apart (1024 floats): read in place, they would pile into
// the same L1 sets, so each K block of B is packed into panels of 32
// columns, one vector read from B and one write per panel row (no padded
// copy), for the 8 register tiles of rows of the cache tile to reuse.
// CHECK-LABEL: func.func @colliding_rows
// CHECK:         %[[PANELS:.+]] = tensor.empty() : tensor<2x16x32xf32>
// CHECK:         %[[PACKED:.+]] = scf.for %[[P:.+]] = %c0 to %c2 step %c1 iter_args(%{{.+}} = %[[PANELS]]) -> (tensor<2x16x32xf32>)
// CHECK:           %[[COL:.+]] = arith.muli %[[P]], %c32
// CHECK:           scf.for %[[K:.+]] = %c0 to %c16 step %c1
// CHECK:             %[[ROW:.+]] = vector.transfer_read %{{.+}}[%[[K]], %[[COL]]], %{{.+}} {in_bounds = [true]} : tensor<16x1024xf32>, vector<32xf32>
// CHECK:             vector.transfer_write %[[ROW]], %{{.+}}[%[[P]], %[[K]], %c0] {in_bounds = [true]} : vector<32xf32>, tensor<2x16x32xf32>
// CHECK-NOT:     tensor.pad
// CHECK:         scf.for {{.*}} -> (vector<8x1x32xf32>)
// CHECK:           vector.transfer_read %[[PACKED]]{{.*}} : tensor<2x16x32xf32>, vector<8x1x1x32xf32>
kiln.executable private @mm_colliding_rows {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    builtin.module {
      func.func @colliding_rows() {
        %cst = arith.constant 0.000000e+00 : f32
        %a = kiln.dispatch.binding 0 readonly : memref<64x16xf32>
        %ta = bufferization.to_tensor %a restrict : memref<64x16xf32> to tensor<64x16xf32>
        %b = kiln.dispatch.binding 1 readonly : memref<16x1024xf32>
        %tb = bufferization.to_tensor %b restrict : memref<16x1024xf32> to tensor<16x1024xf32>
        %sb = tensor.extract_slice %tb[0, 0] [16, 64] [1, 1] : tensor<16x1024xf32> to tensor<16x64xf32>
        %e = tensor.empty() : tensor<64x64xf32>
        %f = linalg.fill ins(%cst : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
        %mm = linalg.matmul {kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-contraction", workgroup = [64, 64, 0], cache = [64, 64, 16], register = [8, 32, 1], vector = [8, 32, 1]>} ins(%ta, %sb : tensor<64x16xf32>, tensor<16x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
        %o = kiln.dispatch.binding 2 : memref<64x64xf32>
        bufferization.materialize_in_destination %mm in restrict writable %o : (tensor<64x64xf32>, memref<64x64xf32>) -> ()
        return
      }
    }
  }
}

// -----

// The same B with a cache tile of 16 rows (two register tiles, as in LLM
// decode): a panel would be read too few times to repay its packing, so B
// is read in place.
// CHECK-LABEL: func.func @few_rows
// CHECK-NOT:     tensor.empty() : tensor<2x16x32xf32>
// CHECK:         scf.for {{.*}} -> (vector<8x32xf32>)
// CHECK:           vector.transfer_read {{.*}} : tensor<16x1024xf32>, vector<1x32xf32>
kiln.executable private @mm_few_rows {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    builtin.module {
      func.func @few_rows() {
        %cst = arith.constant 0.000000e+00 : f32
        %a = kiln.dispatch.binding 0 readonly : memref<16x16xf32>
        %ta = bufferization.to_tensor %a restrict : memref<16x16xf32> to tensor<16x16xf32>
        %b = kiln.dispatch.binding 1 readonly : memref<16x1024xf32>
        %tb = bufferization.to_tensor %b restrict : memref<16x1024xf32> to tensor<16x1024xf32>
        %e = tensor.empty() : tensor<16x1024xf32>
        %f = linalg.fill ins(%cst : f32) outs(%e : tensor<16x1024xf32>) -> tensor<16x1024xf32>
        %mm = linalg.matmul {kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-contraction", workgroup = [16, 64, 0], cache = [16, 64, 16], register = [8, 32, 1], vector = [8, 32, 1]>} ins(%ta, %tb : tensor<16x16xf32>, tensor<16x1024xf32>) outs(%f : tensor<16x1024xf32>) -> tensor<16x1024xf32>
        %o = kiln.dispatch.binding 2 : memref<16x1024xf32>
        bufferization.materialize_in_destination %mm in restrict writable %o : (tensor<16x1024xf32>, memref<16x1024xf32>) -> ()
        return
      }
    }
  }
}

// -----

// A static N past whole register tiles (35 columns: one tile of 32 and 3
// more) is split: the tile computed 32 wide, the 3 columns as a
// contraction of their own 4 wide (the width rounded up to a power of
// two) under a mask, not a second 32-wide tile masked to 3.
// CHECK-LABEL: func.func @narrow_tail
// CHECK:         scf.for {{.*}} -> (vector<8x32xf32>)
// CHECK:           vector.contract {{.*}} into vector<8x32xf32>
// CHECK:         scf.for {{.*}} -> (vector<8x4xf32>)
// CHECK:           vector.mask %{{.+}} { vector.contract {{.*}} into vector<8x4xf32> } : vector<8x4x1xi1>
// CHECK-NOT:     vector<8x32x1xi1>
kiln.executable private @mm_narrow_tail {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    builtin.module {
      func.func @narrow_tail() {
        %cst = arith.constant 0.000000e+00 : f32
        %a = kiln.dispatch.binding 0 readonly : memref<16x16xf32>
        %ta = bufferization.to_tensor %a restrict : memref<16x16xf32> to tensor<16x16xf32>
        %b = kiln.dispatch.binding 1 readonly : memref<16x35xf32>
        %tb = bufferization.to_tensor %b restrict : memref<16x35xf32> to tensor<16x35xf32>
        %e = tensor.empty() : tensor<16x35xf32>
        %f = linalg.fill ins(%cst : f32) outs(%e : tensor<16x35xf32>) -> tensor<16x35xf32>
        %mm = linalg.matmul {kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-contraction", workgroup = [16, 35, 0], cache = [16, 35, 16], register = [8, 32, 1], vector = [8, 32, 1]>} ins(%ta, %tb : tensor<16x16xf32>, tensor<16x35xf32>) outs(%f : tensor<16x35xf32>) -> tensor<16x35xf32>
        %o = kiln.dispatch.binding 2 : memref<16x35xf32>
        bufferization.materialize_in_destination %mm in restrict writable %o : (tensor<16x35xf32>, memref<16x35xf32>) -> ()
        return
      }
    }
  }
}

// -----

// B transposed (A * B^T, a linear layer's weight as stored): its panel rows
// are columns in memory, so each K block of B is packed into panels of 32
// columns, [N/32][K][32], by 16x16 blocks (a read of 16 rows of B through a
// transposing permutation, later a transpose in registers), and the
// register tile streams through them.
// CHECK-LABEL: func.func @transpose_b
// CHECK:         %[[PANELS:.+]] = tensor.empty() : tensor<2x64x32xf32>
// CHECK:         scf.for {{.*}} step %c64
// CHECK:           %[[PACKED:.+]] = scf.for {{.*}} iter_args(%{{.+}} = %[[PANELS]]) -> (tensor<2x64x32xf32>)
// CHECK:             %[[BLOCK:.+]] = vector.transfer_read {{.*}} {in_bounds = [true, true, true], permutation_map = #{{.+}}} : tensor<2x32x64xf32>, vector<1x16x16xf32>
// CHECK:             vector.transfer_write %[[BLOCK]], {{.*}} : vector<1x16x16xf32>, tensor<2x64x32xf32>
// CHECK:           scf.for {{.*}} -> (vector<8x1x32xf32>)
// CHECK:             vector.transfer_read %[[PACKED]]{{.*}} : tensor<2x64x32xf32>, vector<8x1x1x32xf32>
kiln.executable private @mm_transpose_b {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    builtin.module {
      func.func @transpose_b() {
        %cst = arith.constant 0.000000e+00 : f32
        %a = kiln.dispatch.binding 0 readonly : memref<64x128xf32>
        %ta = bufferization.to_tensor %a restrict : memref<64x128xf32> to tensor<64x128xf32>
        %b = kiln.dispatch.binding 1 readonly : memref<64x128xf32>
        %tb = bufferization.to_tensor %b restrict : memref<64x128xf32> to tensor<64x128xf32>
        %e = tensor.empty() : tensor<64x64xf32>
        %f = linalg.fill ins(%cst : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
        %mm = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] {kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-contraction", workgroup = [64, 64, 0], cache = [64, 64, 64], register = [8, 32, 1], vector = [8, 32, 1]>} ins(%ta, %tb : tensor<64x128xf32>, tensor<64x128xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
        %o = kiln.dispatch.binding 2 : memref<64x64xf32>
        bufferization.materialize_in_destination %mm in restrict writable %o : (tensor<64x64xf32>, memref<64x64xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Rows known only at run time: full register tiles of 8 rows, then the
// remaining rows (fewer than 8) as tiles of 4 rows (masked to the count
// left), then static tiles of 2 and 1 rows, each with its accumulators
// kept across K; not one tile of 8 masked by rows.
// CHECK-LABEL: func.func @row_remainder
// CHECK:         scf.for {{.*}} step %c8
// CHECK:           scf.for {{.*}} -> (vector<8x32xf32>)
// CHECK-NOT:       vector.create_mask
// CHECK:           vector.transfer_write {{.*}} : vector<8x32xf32>
// CHECK:         scf.for {{.*}} step %c8
// CHECK:           scf.for {{.*}} step %c4
// CHECK:             vector.create_mask
// CHECK:           scf.for {{.*}} step %c4
// CHECK:             scf.for {{.*}} step %c2
// CHECK-NOT:           vector.create_mask
// CHECK:               scf.for {{.*}} -> (vector<2x32xf32>)
// CHECK:             scf.for {{.*}} step %c2
// CHECK:               scf.for {{.*}} step %c1
// CHECK-NOT:             vector.create_mask
// CHECK:                 scf.for {{.*}} -> (vector<1x32xf32>)
// CHECK-NOT:     vector.create_mask
// CHECK:         return
kiln.executable private @mm_rows {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    builtin.module {
      func.func @row_remainder() {
        %cst = arith.constant 0.000000e+00 : f32
        %m = kiln.dispatch.constant 0 : index
        %a = kiln.dispatch.binding 0 readonly : memref<?x16xf32>{%m}
        %ta = bufferization.to_tensor %a restrict : memref<?x16xf32> to tensor<?x16xf32>
        %b = kiln.dispatch.binding 1 readonly : memref<16x32xf32>
        %tb = bufferization.to_tensor %b restrict : memref<16x32xf32> to tensor<16x32xf32>
        %e = tensor.empty(%m) : tensor<?x32xf32>
        %f = linalg.fill ins(%cst : f32) outs(%e : tensor<?x32xf32>) -> tensor<?x32xf32>
        %mm = linalg.matmul {kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-contraction", workgroup = [64, 32, 0], cache = [64, 32, 16], register = [8, 32, 1], vector = [8, 32, 1]>} ins(%ta, %tb : tensor<?x16xf32>, tensor<16x32xf32>) outs(%f : tensor<?x32xf32>) -> tensor<?x32xf32>
        %o = kiln.dispatch.binding 2 : memref<?x32xf32>{%m}
        bufferization.materialize_in_destination %mm in restrict writable %o : (tensor<?x32xf32>, memref<?x32xf32>) -> ()
        return
      }
    }
  }
}

// -----

// A row reduction: rows one at a time, each summed into a vector of 64
// partial sums kept in registers over the full tiles, the tail of the row
// added in under a mask, and the partial sums reduced into the result once
// per row.
// CHECK-LABEL: func.func @rows
// CHECK:         %[[TAIL:.+]] = vector.constant_mask [1, 40] : vector<1x64xi1>
// CHECK:         scf.for %[[ROW:.+]] = %c0 to %c16 step %c1
// CHECK:           %[[ZEROS:.+]] = vector.transfer_read {{.*}} : tensor<1x64xf32>, vector<1x64xf32>
// CHECK:           %[[SUMS:.+]] = scf.for %[[K:.+]] = %c0 to %c960 step %c64 iter_args(%[[ACC:.+]] = %[[ZEROS]]) -> (vector<1x64xf32>)
// CHECK:             %[[V:.+]] = vector.transfer_read %{{.+}}[%[[ROW]], %[[K]]], %{{.+}} {in_bounds = [true, true]} : tensor<16x1000xf32>, vector<1x64xf32>
// CHECK:             %[[NEXT:.+]] = arith.addf %[[V]], %[[ACC]] : vector<1x64xf32>
// CHECK:             scf.yield %[[NEXT]]
// CHECK:           vector.transfer_read {{.*}}, %[[TAIL]] {{.*}} : tensor<1x40xf32>, vector<1x64xf32>
// CHECK:           arith.addf {{.*}} : vector<1x64xf32>
// CHECK:           vector.multi_reduction <add>, %{{.+}}, %{{.+}} [1] : vector<1x64xf32> to vector<1xf32>

// Elementwise: vectors of two registers' worth, the tail masked.
// CHECK-LABEL: func.func @exp
// CHECK:         scf.for %{{.+}} = %c0 to %c8 step %c1
// CHECK:           scf.for %{{.+}} = %c0 to %c100 step %c32
// CHECK:             %[[MASK:.+]] = vector.create_mask %c1, %{{.+}} : vector<1x32xi1>
// CHECK:             vector.transfer_read {{.*}}, %[[MASK]]
// CHECK:             math.exp %{{.+}} : vector<1x32xf32>
// CHECK:             vector.transfer_write {{.*}}, %[[MASK]]
kiln.executable private @sum {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    builtin.module {
      func.func @rows() {
        %zero = arith.constant 0.0 : f32
        %a = kiln.dispatch.binding 0 readonly : memref<16x1000xf32>
        %ta = bufferization.to_tensor %a restrict : memref<16x1000xf32> to tensor<16x1000xf32>
        %e = tensor.empty() : tensor<16xf32>
        %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
        %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
            ins(%ta : tensor<16x1000xf32>) outs(%f : tensor<16xf32>) attrs = {kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-reduction", workgroup = [16, 0], register = [1, 64], vector = [1, 64]>} {
        ^bb0(%x: f32, %acc: f32):
          %s = arith.addf %x, %acc : f32
          linalg.yield %s : f32
        } -> tensor<16xf32>
        %o = kiln.dispatch.binding 1 : memref<16xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<16xf32>, memref<16xf32>) -> ()
        return
      }
      func.func @exp() {
        %a = kiln.dispatch.binding 0 readonly : memref<8x100xf32>
        %ta = bufferization.to_tensor %a restrict : memref<8x100xf32> to tensor<8x100xf32>
        %e = tensor.empty() : tensor<8x100xf32>
        %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
            ins(%ta : tensor<8x100xf32>) outs(%e : tensor<8x100xf32>) attrs = {kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-elementwise", workgroup = [8, 0], register = [1, 16], vector = [1, 16]>} {
        ^bb0(%x: f32, %o: f32):
          %y = math.exp %x : f32
          linalg.yield %y : f32
        } -> tensor<8x100xf32>
        %o = kiln.dispatch.binding 1 : memref<8x100xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<8x100xf32>, memref<8x100xf32>) -> ()
        return
      }
    }
  }
}

// -----

// An AVX2 target has 8 floats per register: elementwise vectors of 16.
// CHECK-LABEL: func.func @exp_avx2
// CHECK:         math.exp %{{.+}} : vector<1x16xf32>
kiln.executable private @avx2 {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "haswell", cpu_features = "+avx,+avx2,+fma", triple = "x86_64-unknown-linux-gnu"}>) {
    builtin.module {
      func.func @exp_avx2() {
        %a = kiln.dispatch.binding 0 readonly : memref<8x100xf32>
        %ta = bufferization.to_tensor %a restrict : memref<8x100xf32> to tensor<8x100xf32>
        %e = tensor.empty() : tensor<8x100xf32>
        %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
            ins(%ta : tensor<8x100xf32>) outs(%e : tensor<8x100xf32>) attrs = {kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-elementwise", workgroup = [8, 0], register = [1, 16], vector = [1, 16]>} {
        ^bb0(%x: f32, %o: f32):
          %y = math.exp %x : f32
          linalg.yield %y : f32
        } -> tensor<8x100xf32>
        %o = kiln.dispatch.binding 1 : memref<8x100xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<8x100xf32>, memref<8x100xf32>) -> ()
        return
      }
    }
  }
}

// -----

// A row softmax: one row at a time (the cache tile), decomposed into its
// steps. The maximum and the sum are each reduced into a vector of 64
// partial results over the full vectors of the row (the tail under a mask)
// and merged once; subtracting and exponentiating, and dividing, run on
// vectors of the row.
// CHECK-LABEL: func.func @softmax
// CHECK-NOT:     linalg.softmax
// CHECK:         scf.for %[[ROW:.+]] = %c0 to %c4 step %c1
// CHECK:           scf.for %{{.+}} = %c0 to %c960 step %c64 iter_args(%{{.+}} = %{{.+}}) -> (vector<1x64xf32>)
// CHECK:             arith.maxnumf %{{.+}}, %{{.+}} : vector<1x64xf32>
// CHECK:           vector.multi_reduction <maxnumf>, %{{.+}}, %{{.+}} [1] : vector<1x64xf32> to vector<1xf32>
// CHECK:           math.exp %{{.+}} : vector<1x32xf32>
// CHECK:           scf.for %{{.+}} = %c0 to %c960 step %c64 iter_args(%{{.+}} = %{{.+}}) -> (vector<1x64xf32>)
// CHECK:             arith.addf %{{.+}}, %{{.+}} : vector<1x64xf32>
// CHECK:           vector.multi_reduction <add>, %{{.+}}, %{{.+}} [1] : vector<1x64xf32> to vector<1xf32>
// CHECK:           arith.divf %{{.+}}, %{{.+}} : vector<1x32xf32>
kiln.executable private @softmax {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    builtin.module {
      func.func @softmax() {
        %a = kiln.dispatch.binding 0 readonly : memref<4x1000xf32>
        %ta = bufferization.to_tensor %a restrict : memref<4x1000xf32> to tensor<4x1000xf32>
        %e = tensor.empty() : tensor<4x1000xf32>
        %r = linalg.softmax {kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-reduction", workgroup = [4, 0], cache = [1, 0], register = [1, 64], vector = [1, 64]>} dimension(1) ins(%ta : tensor<4x1000xf32>) outs(%e : tensor<4x1000xf32>) -> tensor<4x1000xf32>
        %o = kiln.dispatch.binding 1 : memref<4x1000xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<4x1000xf32>, memref<4x1000xf32>) -> ()
        return
      }
    }
  }
}
