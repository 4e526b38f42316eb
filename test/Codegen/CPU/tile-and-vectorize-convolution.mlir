// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(kiln.executable(kiln.executable.variant(builtin.module(func.func(kiln-cpu-tile-and-vectorize)))))' | FileCheck %s

// A convolution's register tile is one output row of 8 pixels by 32
// channels: a 1-D convolution, vectorized as a contraction of a column of
// 8 input elements with a row of 32 filter values per input channel. The
// fill is tiled with it: the accumulators start as zeros in registers
// (nothing is written before the convolution), are carried through the
// filter-window and input-channel loops as a vector, and written once.
// CHECK-LABEL: func.func @conv
// CHECK:         %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : vector<1x8x32xf32>
// CHECK-NOT:     vector.transfer_write
// CHECK:         scf.for %[[W:.+]] = %c0 to %c16 step %c8 iter_args(%[[OUT:.+]] = %{{.+}}) -> (tensor<1x1x16x32xf32>)
// CHECK-NOT:       vector.transfer_write
// CHECK:           %[[SUM:.+]] = scf.for %[[KH:.+]] = %c0 to %c3 step %c1 iter_args(%{{.+}} = %[[ZERO]]) -> (vector<1x8x32xf32>)
// CHECK:             scf.for %[[KW:.+]] = %c0 to %c3 step %c1 iter_args(%{{.+}}) -> (vector<1x8x32xf32>)
// CHECK:               scf.for %[[C:.+]] = %c0 to %c8 step %c1 iter_args(%[[A:.+]] = %{{.+}}) -> (vector<1x8x32xf32>)
// CHECK:                 %[[IN:.+]] = vector.transfer_read {{.*}}[%c0, %[[KH]], %{{.+}}, %[[C]]]{{.*}} : tensor<1x3x18x8xf32>, vector<8x1xf32>
// CHECK:                 vector.transfer_read {{.*}}[%[[KH]], %[[KW]], %[[C]], %c0]{{.*}} : tensor<3x3x8x32xf32>, vector<32xf32>
// CHECK:                 %[[ACC:.+]] = vector.extract %[[A]][0]
// CHECK:                 vector.contract {{.*}} %[[IN]], %{{.+}}, %[[ACC]] : vector<8x1xf32>, vector<1x32xf32> into vector<8x32xf32>
// CHECK:           %[[ROW:.+]] = vector.extract %[[SUM]][0]
// CHECK:           vector.transfer_write %[[ROW]], %[[OUT]][%c0, %c0, %[[W]], %c0]{{.*}} : vector<8x32xf32>, tensor<1x1x16x32xf32>
// CHECK-NOT:     linalg.
kiln.executable private @conv {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    builtin.module {
      func.func @conv() {
        %cst = arith.constant 0.000000e+00 : f32
        %x = kiln.dispatch.binding 0 readonly : memref<1x3x18x8xf32>
        %tx = bufferization.to_tensor %x restrict : memref<1x3x18x8xf32> to tensor<1x3x18x8xf32>
        %w = kiln.dispatch.binding 1 readonly : memref<3x3x8x32xf32>
        %tw = bufferization.to_tensor %w restrict : memref<3x3x8x32xf32> to tensor<3x3x8x32xf32>
        %e = tensor.empty() : tensor<1x1x16x32xf32>
        %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x1x16x32xf32>) -> tensor<1x1x16x32xf32>
        %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-convolution", workgroup = [1, 1, 16, 32, 0, 0, 0], cache = [1, 1, 16, 32, 0, 0, 0], register = [1, 1, 8, 32, 1, 1, 1], vector = [1, 1, 8, 32, 1, 1, 1]>}
            ins(%tx, %tw : tensor<1x3x18x8xf32>, tensor<3x3x8x32xf32>) outs(%f : tensor<1x1x16x32xf32>) -> tensor<1x1x16x32xf32>
        %o = kiln.dispatch.binding 2 : memref<1x1x16x32xf32>
        bufferization.materialize_in_destination %c in restrict writable %o : (tensor<1x1x16x32xf32>, memref<1x1x16x32xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Padding in a pooling's dispatch makes no padded tile: the pooling's
// register tile (5 pixels by 16 channels) reads each row of each window
// tap from the image, masked by whether the row lies in the image (rows
// above and below it, the columns beside it), at an index clamped into
// the image.
// CHECK-LABEL: func.func @padded_pool
// CHECK-NOT:     tensor.pad
// CHECK-NOT:     tensor<1x3x7x16xf32>
// CHECK:         %[[IMAGE:.+]] = bufferization.to_tensor
// CHECK:         scf.for {{.*}} -> (vector<1x5x16xf32>)
// CHECK:           scf.for {{.*}} -> (vector<1x5x16xf32>)
// CHECK:             %[[BELOW:.+]] = arith.cmpi sge, %[[ROW:.+]], %c0 : index
// CHECK:             %[[ABOVE:.+]] = arith.cmpi slt, %[[ROW]], %c1 : index
// CHECK:             %[[IN_ROW:.+]] = arith.andi %[[BELOW]], %[[ABOVE]] : i1
// CHECK:             %[[ROW_MIN:.+]] = arith.minsi %[[ROW]], %c0 : index
// CHECK:             %[[ROW_AT:.+]] = arith.maxsi %[[ROW_MIN]], %c0 : index
// CHECK:             %[[RIGHT:.+]] = arith.cmpi sge, %[[COL:.+]], %c0 : index
// CHECK:             %[[LEFT:.+]] = arith.cmpi slt, %[[COL]], %c5 : index
// CHECK:             %[[IN_COL:.+]] = arith.andi %[[RIGHT]], %[[LEFT]] : i1
// CHECK:             %[[COL_MIN:.+]] = arith.minsi %[[COL]], %c4 : index
// CHECK:             %[[COL_AT:.+]] = arith.maxsi %[[COL_MIN]], %c0 : index
// CHECK:             %[[IN:.+]] = arith.andi %[[IN_ROW]], %[[IN_COL]] : i1
// CHECK:             %[[MASK:.+]] = vector.broadcast %[[IN]] : i1 to vector<16xi1>
// CHECK:             vector.transfer_read %[[IMAGE]][%c0, %[[ROW_AT]], %[[COL_AT]], %c0], %{{.+}}, %[[MASK]] {in_bounds = [true]} : tensor<1x1x5x16xf32>, vector<16xf32>
// CHECK-COUNT-4:     vector.transfer_read %[[IMAGE]]{{.*}} {in_bounds = [true]} : tensor<1x1x5x16xf32>, vector<16xf32>
// CHECK:             arith.maximumf %{{.+}} : vector<5x16xf32>
// CHECK-NOT:     linalg.pooling
kiln.executable private @pool {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    builtin.module {
      func.func @padded_pool() {
        %lowest = arith.constant 0xFF800000 : f32
        %x = kiln.dispatch.binding 0 readonly : memref<1x1x5x16xf32>
        %tx = bufferization.to_tensor %x restrict : memref<1x1x5x16xf32> to tensor<1x1x5x16xf32>
        %p = tensor.pad %tx low[0, 1, 1, 0] high[0, 1, 1, 0] {
        ^bb0(%i: index, %j: index, %k: index, %l: index):
          tensor.yield %lowest : f32
        } : tensor<1x1x5x16xf32> to tensor<1x3x7x16xf32>
        %window = tensor.empty() : tensor<3x3xf32>
        %e = tensor.empty() : tensor<1x1x5x16xf32>
        %f = linalg.fill ins(%lowest : f32) outs(%e : tensor<1x1x5x16xf32>) -> tensor<1x1x5x16xf32>
        %r = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-convolution", workgroup = [1, 1, 5, 16, 0, 0], cache = [1, 1, 5, 16, 0, 0], register = [1, 1, 5, 16, 1, 1], vector = [1, 1, 5, 16, 1, 1]>}
            ins(%p, %window : tensor<1x3x7x16xf32>, tensor<3x3xf32>) outs(%f : tensor<1x1x5x16xf32>) -> tensor<1x1x5x16xf32>
        %o = kiln.dispatch.binding 1 : memref<1x1x5x16xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<1x1x5x16xf32>, memref<1x1x5x16xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Padding known only at run time (a workgroup's part of the image, padded
// where it meets the image's border): the loops over the window are
// versioned. When the part pads nothing, they read the image in place;
// otherwise each row of the window is a masked read of the image's part.
// CHECK-LABEL: func.func @dynamic_padding
// CHECK:         %[[LOW:.+]] = kiln.workgroup.id 0
// CHECK:         %[[IMAGE:.+]] = bufferization.to_tensor
// CHECK:         %[[PART:.+]] = tensor.extract_slice %[[IMAGE]]
// CHECK:         %[[NOTHING:.+]] = arith.cmpi eq, %[[LOW]], %c0
// CHECK:         scf.if %[[NOTHING]] -> (vector<1x5x16xf32>) {
// CHECK:           scf.for
// CHECK:             scf.for
// CHECK:               vector.transfer_read %[[IMAGE]]{{.*}} : tensor<1x3x9x16xf32>, vector<5x16xf32>
// CHECK:         } else {
// CHECK:           scf.for
// CHECK:             scf.for
// CHECK-COUNT-5:         vector.transfer_read %[[PART]][%c0, %{{.+}}, %{{.+}}, %c0], %{{.+}}, %{{.+}} {in_bounds = [true]} : tensor<1x3x?x16xf32>, vector<16xf32>
// CHECK-NOT:     tensor.pad
kiln.executable private @pool {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    builtin.module {
      func.func @dynamic_padding() {
        %lowest = arith.constant 0xFF800000 : f32
        %low = kiln.workgroup.id 0 : index
        %x = kiln.dispatch.binding 0 readonly : memref<1x3x9x16xf32>
        %tx = bufferization.to_tensor %x restrict : memref<1x3x9x16xf32> to tensor<1x3x9x16xf32>
        %width = affine.apply affine_map<()[s0] -> (7 - s0)>()[%low]
        %part = tensor.extract_slice %tx[0, 0, 0, 0] [1, 3, %width, 16] [1, 1, 1, 1] : tensor<1x3x9x16xf32> to tensor<1x3x?x16xf32>
        %p = tensor.pad %part low[0, 0, %low, 0] high[0, 0, 0, 0] {
        ^bb0(%i: index, %j: index, %k: index, %l: index):
          tensor.yield %lowest : f32
        } : tensor<1x3x?x16xf32> to tensor<1x3x7x16xf32>
        %window = tensor.empty() : tensor<3x3xf32>
        %e = tensor.empty() : tensor<1x1x5x16xf32>
        %f = linalg.fill ins(%lowest : f32) outs(%e : tensor<1x1x5x16xf32>) -> tensor<1x1x5x16xf32>
        %r = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-convolution", workgroup = [1, 1, 5, 16, 0, 0], cache = [1, 1, 5, 16, 0, 0], register = [1, 1, 5, 16, 1, 1], vector = [1, 1, 5, 16, 1, 1]>}
            ins(%p, %window : tensor<1x3x7x16xf32>, tensor<3x3xf32>) outs(%f : tensor<1x1x5x16xf32>) -> tensor<1x1x5x16xf32>
        %o = kiln.dispatch.binding 1 : memref<1x1x5x16xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<1x1x5x16xf32>, memref<1x1x5x16xf32>) -> ()
        return
      }
    }
  }
}

// -----

// A pooling whose workgroup row holds four register strips or more pads
// per strip: the padding moves under each strip's slice. A strip entirely
// in the padding reads a fill; the loops over the window are versioned for
// the others: a strip that pads nothing reads the image in place, one at
// the border reads its window from the image row by row (3 x 10 pixels),
// each row a read masked by whether it lies in the image. No padded tile
// is made, neither of the workgroup's part (3 x 34) nor of a strip's.
// CHECK-LABEL: func.func @padding_per_strip
// CHECK-NOT:     tensor<1x3x34x16xf32>
// CHECK:         scf.for %[[W:.+]] = %c0 to %c32 step %c8
// CHECK:           scf.if %{{.+}} -> (vector<1x8x16xf32>) {
// CHECK:             tensor.empty() : tensor<1x3x10x16xf32>
// CHECK:           } else {
// CHECK:             %[[PART:.+]] = tensor.extract_slice %{{.+}} : tensor<1x3x36x16xf32> to tensor<1x3x?x16xf32>
// CHECK:             scf.if %{{.+}} -> (vector<1x8x16xf32>) {
// CHECK:               scf.for {{.*}} -> (vector<1x8x16xf32>)
// CHECK:                 scf.for {{.*}} -> (vector<1x8x16xf32>)
// CHECK:                   vector.transfer_read %{{.+}} : tensor<1x3x36x16xf32>, vector<8x16xf32>
// CHECK:             } else {
// CHECK:               scf.for {{.*}} -> (vector<1x8x16xf32>)
// CHECK:                 scf.for {{.*}} -> (vector<1x8x16xf32>)
// CHECK-COUNT-8:             vector.transfer_read %[[PART]][%c0, %{{.+}}, %{{.+}}, %c0], %{{.+}}, %{{.+}} {in_bounds = [true]} : tensor<1x3x?x16xf32>, vector<16xf32>
// CHECK-NOT:     tensor<1x3x34x16xf32>
// CHECK-NOT:     tensor.pad
// CHECK-NOT:     linalg.pooling
kiln.executable private @pool {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    builtin.module {
      func.func @padding_per_strip() {
        %lowest = arith.constant 0xFF800000 : f32
        %low = kiln.workgroup.id 0 : index
        %x = kiln.dispatch.binding 0 readonly : memref<1x3x36x16xf32>
        %tx = bufferization.to_tensor %x restrict : memref<1x3x36x16xf32> to tensor<1x3x36x16xf32>
        %width = affine.apply affine_map<()[s0] -> (34 - s0)>()[%low]
        %part = tensor.extract_slice %tx[0, 0, 0, 0] [1, 3, %width, 16] [1, 1, 1, 1] : tensor<1x3x36x16xf32> to tensor<1x3x?x16xf32>
        %p = tensor.pad %part low[0, 0, %low, 0] high[0, 0, 0, 0] {
        ^bb0(%i: index, %j: index, %k: index, %l: index):
          tensor.yield %lowest : f32
        } : tensor<1x3x?x16xf32> to tensor<1x3x34x16xf32>
        %window = tensor.empty() : tensor<3x3xf32>
        %e = tensor.empty() : tensor<1x1x32x16xf32>
        %f = linalg.fill ins(%lowest : f32) outs(%e : tensor<1x1x32x16xf32>) -> tensor<1x1x32x16xf32>
        %r = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-convolution", workgroup = [1, 1, 32, 16, 0, 0], cache = [1, 1, 32, 16, 0, 0], register = [1, 1, 8, 16, 1, 1], vector = [1, 1, 8, 16, 1, 1]>}
            ins(%p, %window : tensor<1x3x34x16xf32>, tensor<3x3xf32>) outs(%f : tensor<1x1x32x16xf32>) -> tensor<1x1x32x16xf32>
        %o = kiln.dispatch.binding 1 : memref<1x1x32x16xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<1x1x32x16xf32>, memref<1x1x32x16xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Padding along the rows as well (a pooling over a one-row image): a strip
// away from the left and right borders reads its pixels with one mask per
// window row (whether the row lies in the image, compared with constants)
// and unclamped columns; only a strip at those borders checks each pixel's
// column against the part's width, known at run time.
// CHECK-LABEL: func.func @padding_rows_and_columns
// CHECK:         scf.for %{{.+}} = %c0 to %c32 step %c8
// CHECK:           scf.if %{{.+}} -> (vector<1x8x16xf32>) {
// CHECK:             tensor.empty() : tensor<1x3x10x16xf32>
// CHECK:           } else {
// CHECK:             %[[PART:.+]] = tensor.extract_slice {{.*}} to tensor<1x1x?x16xf32>
// CHECK:             %[[INSIDE:.+]] = arith.cmpi eq, %{{.+}}, %c0 : index
// CHECK:             scf.if %[[INSIDE]] -> (vector<1x8x16xf32>) {
// CHECK:               scf.for %[[KH:.+]] = %c0 to %c3
// CHECK:                 scf.for %[[KW:.+]] = %c0 to %c3
// CHECK-NOT:               arith.cmpi slt, %{{.+}}, %{{[0-9]+}} : index
// CHECK:                   %[[MASK:.+]] = vector.broadcast %{{.+}} : i1 to vector<16xi1>
// CHECK:                   vector.transfer_read %[[PART]][%c0, %{{.+}}, %[[KW]], %c0], %{{.+}}, %[[MASK]] {in_bounds = [true]}
// CHECK-NOT:               arith.cmpi slt, %{{.+}}, %{{[0-9]+}} : index
// CHECK:             } else {
// CHECK:               scf.for
// CHECK:                 scf.for
// CHECK:                   arith.cmpi slt, %{{.+}}, %{{[0-9]+}} : index
// CHECK-NOT:     tensor.pad
kiln.executable private @pool_rows {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    builtin.module {
      func.func @padding_rows_and_columns() {
        %lowest = arith.constant 0xFF800000 : f32
        %low = kiln.workgroup.id 0 : index
        %x = kiln.dispatch.binding 0 readonly : memref<1x1x36x16xf32>
        %tx = bufferization.to_tensor %x restrict : memref<1x1x36x16xf32> to tensor<1x1x36x16xf32>
        %width = affine.apply affine_map<()[s0] -> (34 - s0)>()[%low]
        %part = tensor.extract_slice %tx[0, 0, 0, 0] [1, 1, %width, 16] [1, 1, 1, 1] : tensor<1x1x36x16xf32> to tensor<1x1x?x16xf32>
        %p = tensor.pad %part low[0, 1, %low, 0] high[0, 1, 0, 0] {
        ^bb0(%i: index, %j: index, %k: index, %l: index):
          tensor.yield %lowest : f32
        } : tensor<1x1x?x16xf32> to tensor<1x3x34x16xf32>
        %window = tensor.empty() : tensor<3x3xf32>
        %e = tensor.empty() : tensor<1x1x32x16xf32>
        %f = linalg.fill ins(%lowest : f32) outs(%e : tensor<1x1x32x16xf32>) -> tensor<1x1x32x16xf32>
        %r = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-convolution", workgroup = [1, 1, 32, 16, 0, 0], cache = [1, 1, 32, 16, 0, 0], register = [1, 1, 8, 16, 1, 1], vector = [1, 1, 8, 16, 1, 1]>}
            ins(%p, %window : tensor<1x3x34x16xf32>, tensor<3x3xf32>) outs(%f : tensor<1x1x32x16xf32>) -> tensor<1x1x32x16xf32>
        %o = kiln.dispatch.binding 1 : memref<1x1x32x16xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<1x1x32x16xf32>, memref<1x1x32x16xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Partial tiles of odd sizes are peeled at both levels and have static
// shapes: 40 channels are a panel of 32 and one of 8, 11 pixels a register
// tile of 8 and one of 3; all four combinations vectorize.
// CHECK-LABEL: func.func @odd_sizes
// CHECK-COUNT-4: vector.contract {{.*}} into vector<{{8|3}}x{{32|8}}xf32>
// CHECK-NOT:     linalg.conv
kiln.executable private @odd {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    builtin.module {
      func.func @odd_sizes() {
        %cst = arith.constant 0.000000e+00 : f32
        %x = kiln.dispatch.binding 0 readonly : memref<1x1x11x4xf32>
        %tx = bufferization.to_tensor %x restrict : memref<1x1x11x4xf32> to tensor<1x1x11x4xf32>
        %w = kiln.dispatch.binding 1 readonly : memref<1x1x4x40xf32>
        %tw = bufferization.to_tensor %w restrict : memref<1x1x4x40xf32> to tensor<1x1x4x40xf32>
        %e = tensor.empty() : tensor<1x1x11x40xf32>
        %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x1x11x40xf32>) -> tensor<1x1x11x40xf32>
        %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-convolution", workgroup = [1, 1, 11, 64, 0, 0, 0], cache = [1, 1, 11, 32, 0, 0, 0], register = [1, 1, 8, 32, 1, 1, 1], vector = [1, 1, 8, 32, 1, 1, 1]>}
            ins(%tx, %tw : tensor<1x1x11x4xf32>, tensor<1x1x4x40xf32>) outs(%f : tensor<1x1x11x40xf32>) -> tensor<1x1x11x40xf32>
        %o = kiln.dispatch.binding 2 : memref<1x1x11x40xf32>
        bufferization.materialize_in_destination %c in restrict writable %o : (tensor<1x1x11x40xf32>, memref<1x1x11x40xf32>) -> ()
        return
      }
    }
  }
}

// -----

// A workgroup takes one panel of 32 output channels from a filter whose
// rows are 256 channels (1 KiB) apart, and sweeps it with 8 register
// strips: the panel is copied into a contiguous tensor up front, which
// the register tiles read.
// CHECK-LABEL: func.func @filter_panel
// CHECK:         %[[SLICE:.+]] = tensor.extract_slice %{{.+}}[0, 0, 0, %{{.+}}] [3, 3, 16, 32] [1, 1, 1, 1] : tensor<3x3x16x256xf32> to tensor<3x3x16x32xf32>
// CHECK:         %[[EMPTY:.+]] = tensor.empty() : tensor<3x3x16x32xf32>
// CHECK:         %[[PANEL:.+]] = scf.for {{.*}} iter_args(%{{.+}} = %[[EMPTY]]) -> (tensor<3x3x16x32xf32>)
// CHECK:           tensor.extract_slice %[[SLICE]]
// CHECK:         scf.for
// CHECK:           vector.transfer_read %[[PANEL]]{{.*}} : tensor<3x3x16x32xf32>, vector<32xf32>
kiln.executable private @filter_panel {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    builtin.module {
      func.func @filter_panel() {
        %cst = arith.constant 0.000000e+00 : f32
        %x = kiln.dispatch.binding 0 readonly : memref<1x10x10x16xf32>
        %tx = bufferization.to_tensor %x restrict : memref<1x10x10x16xf32> to tensor<1x10x10x16xf32>
        %w = kiln.dispatch.binding 1 readonly : memref<3x3x16x256xf32>
        %tw = bufferization.to_tensor %w restrict : memref<3x3x16x256xf32> to tensor<3x3x16x256xf32>
        %id = kiln.workgroup.id 0 : index
        %off = affine.apply affine_map<(d0) -> (d0 * 32)>(%id)
        %panel = tensor.extract_slice %tw[0, 0, 0, %off] [3, 3, 16, 32] [1, 1, 1, 1] : tensor<3x3x16x256xf32> to tensor<3x3x16x32xf32>
        %e = tensor.empty() : tensor<1x8x8x32xf32>
        %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
        %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-convolution", workgroup = [1, 8, 8, 32, 0, 0, 0], cache = [1, 1, 8, 32, 0, 0, 0], register = [1, 1, 8, 32, 1, 1, 1], vector = [1, 1, 8, 32, 1, 1, 1]>}
            ins(%tx, %panel : tensor<1x10x10x16xf32>, tensor<3x3x16x32xf32>) outs(%f : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
        %o = kiln.dispatch.binding 2 : memref<1x8x8x32xf32>
        bufferization.materialize_in_destination %c in restrict writable %o : (tensor<1x8x8x32xf32>, memref<1x8x8x32xf32>) -> ()
        return
      }
    }
  }
}

// -----

// One register strip: reading the filter's strided rows once costs less
// than copying them; the filter is read in place.
// CHECK-LABEL: func.func @filter_panel_one_strip
// CHECK-NOT:     tensor.empty() : tensor<3x3x16x32xf32>
// CHECK:         vector.transfer_read {{.*}} : tensor<3x3x16x256xf32>, vector<32xf32>
kiln.executable private @filter_panel_one_strip {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    builtin.module {
      func.func @filter_panel_one_strip() {
        %cst = arith.constant 0.000000e+00 : f32
        %x = kiln.dispatch.binding 0 readonly : memref<1x3x10x16xf32>
        %tx = bufferization.to_tensor %x restrict : memref<1x3x10x16xf32> to tensor<1x3x10x16xf32>
        %w = kiln.dispatch.binding 1 readonly : memref<3x3x16x256xf32>
        %tw = bufferization.to_tensor %w restrict : memref<3x3x16x256xf32> to tensor<3x3x16x256xf32>
        %id = kiln.workgroup.id 0 : index
        %off = affine.apply affine_map<(d0) -> (d0 * 32)>(%id)
        %panel = tensor.extract_slice %tw[0, 0, 0, %off] [3, 3, 16, 32] [1, 1, 1, 1] : tensor<3x3x16x256xf32> to tensor<3x3x16x32xf32>
        %e = tensor.empty() : tensor<1x1x8x32xf32>
        %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x1x8x32xf32>) -> tensor<1x1x8x32xf32>
        %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-convolution", workgroup = [1, 1, 8, 32, 0, 0, 0], cache = [1, 1, 8, 32, 0, 0, 0], register = [1, 1, 8, 32, 1, 1, 1], vector = [1, 1, 8, 32, 1, 1, 1]>}
            ins(%tx, %panel : tensor<1x3x10x16xf32>, tensor<3x3x16x32xf32>) outs(%f : tensor<1x1x8x32xf32>) -> tensor<1x1x8x32xf32>
        %o = kiln.dispatch.binding 2 : memref<1x1x8x32xf32>
        bufferization.materialize_in_destination %c in restrict writable %o : (tensor<1x1x8x32xf32>, memref<1x1x8x32xf32>) -> ()
        return
      }
    }
  }
}

// -----

// The epilogue (bias, then ReLU, as two ops) is tiled with the convolution
// down to its register tile: each tile adds the bias to its accumulators
// and clamps them in registers, then writes its 8 x 32 outputs once. No
// pass over the workgroup's tile follows the convolution.
// CHECK-LABEL: func.func @conv_bias_relu
// CHECK:         %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : vector<1x8x32xf32>
// CHECK:         scf.for %[[W:.+]] = %c0 to %c16 step %c8 iter_args(%[[OUT:.+]] = %{{.+}}) -> (tensor<1x1x16x32xf32>)
// CHECK-NOT:       vector.transfer_write
// CHECK:           %[[SUM:.+]] = scf.for {{.*}} iter_args(%{{.+}} = %[[ZERO]]) -> (vector<1x8x32xf32>)
// CHECK:             vector.contract
// CHECK:           %[[ROW:.+]] = vector.extract %[[SUM]][0] : vector<8x32xf32> from vector<1x8x32xf32>
// CHECK:           %[[BIASED:.+]] = arith.addf %[[ROW]], %{{.+}} : vector<8x32xf32>
// CHECK:           %[[CLAMPED:.+]] = arith.maximumf %[[BIASED]], %{{.+}} : vector<8x32xf32>
// CHECK:           vector.transfer_write %[[CLAMPED]], %[[OUT]][%c0, %c0, %[[W]], %c0]{{.*}} : vector<8x32xf32>, tensor<1x1x16x32xf32>
// CHECK-NOT:     scf.for
// CHECK-NOT:     linalg.
kiln.executable private @conv_bias_relu {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    builtin.module {
      func.func @conv_bias_relu() {
        %cst = arith.constant 0.000000e+00 : f32
        %x = kiln.dispatch.binding 0 readonly : memref<1x1x16x8xf32>
        %tx = bufferization.to_tensor %x restrict : memref<1x1x16x8xf32> to tensor<1x1x16x8xf32>
        %w = kiln.dispatch.binding 1 readonly : memref<1x1x8x32xf32>
        %tw = bufferization.to_tensor %w restrict : memref<1x1x8x32xf32> to tensor<1x1x8x32xf32>
        %b = kiln.dispatch.binding 2 readonly : memref<32xf32>
        %tb = bufferization.to_tensor %b restrict : memref<32xf32> to tensor<32xf32>
        %e = tensor.empty() : tensor<1x1x16x32xf32>
        %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x1x16x32xf32>) -> tensor<1x1x16x32xf32>
        %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-convolution", workgroup = [1, 1, 16, 32, 0, 0, 0], cache = [1, 1, 16, 32, 0, 0, 0], register = [1, 1, 8, 32, 1, 1, 1], vector = [1, 1, 8, 32, 1, 1, 1]>}
            ins(%tx, %tw : tensor<1x1x16x8xf32>, tensor<1x1x8x32xf32>) outs(%f : tensor<1x1x16x32xf32>) -> tensor<1x1x16x32xf32>
        %biased = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
            ins(%c, %tb : tensor<1x1x16x32xf32>, tensor<32xf32>) outs(%e : tensor<1x1x16x32xf32>) {
        ^bb0(%v: f32, %bias: f32, %o: f32):
          %s = arith.addf %v, %bias : f32
          linalg.yield %s : f32
        } -> tensor<1x1x16x32xf32>
        %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
            ins(%biased : tensor<1x1x16x32xf32>) outs(%e : tensor<1x1x16x32xf32>) {
        ^bb0(%v: f32, %o: f32):
          %m = arith.maximumf %v, %cst : f32
          linalg.yield %m : f32
        } -> tensor<1x1x16x32xf32>
        %o = kiln.dispatch.binding 3 : memref<1x1x16x32xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<1x1x16x32xf32>, memref<1x1x16x32xf32>) -> ()
        return
      }
    }
  }
}

// -----

// A convolution whose result the dispatch also writes out as it is has no
// epilogue to take along (its tile would be computed twice): the
// convolution's tiles are written, and the ReLU runs over them after.
// CHECK-LABEL: func.func @conv_two_users
// CHECK:         %[[CONV:.+]] = scf.for {{.*}} -> (tensor<1x1x16x32xf32>)
// CHECK:           vector.contract
// CHECK:         scf.for {{.*}} iter_args(%{{.+}} = %{{.+}}) -> (tensor<1x1x16x32xf32>)
// CHECK:           vector.transfer_read %[[CONV]]
// CHECK:           arith.maximumf
kiln.executable private @conv_two_users {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    builtin.module {
      func.func @conv_two_users() {
        %cst = arith.constant 0.000000e+00 : f32
        %x = kiln.dispatch.binding 0 readonly : memref<1x1x16x8xf32>
        %tx = bufferization.to_tensor %x restrict : memref<1x1x16x8xf32> to tensor<1x1x16x8xf32>
        %w = kiln.dispatch.binding 1 readonly : memref<1x1x8x32xf32>
        %tw = bufferization.to_tensor %w restrict : memref<1x1x8x32xf32> to tensor<1x1x8x32xf32>
        %e = tensor.empty() : tensor<1x1x16x32xf32>
        %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x1x16x32xf32>) -> tensor<1x1x16x32xf32>
        %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-convolution", workgroup = [1, 1, 16, 32, 0, 0, 0], cache = [1, 1, 16, 32, 0, 0, 0], register = [1, 1, 8, 32, 1, 1, 1], vector = [1, 1, 8, 32, 1, 1, 1]>}
            ins(%tx, %tw : tensor<1x1x16x8xf32>, tensor<1x1x8x32xf32>) outs(%f : tensor<1x1x16x32xf32>) -> tensor<1x1x16x32xf32>
        %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
            ins(%c : tensor<1x1x16x32xf32>) outs(%e : tensor<1x1x16x32xf32>) {
        ^bb0(%v: f32, %o: f32):
          %m = arith.maximumf %v, %cst : f32
          linalg.yield %m : f32
        } -> tensor<1x1x16x32xf32>
        %o1 = kiln.dispatch.binding 2 : memref<1x1x16x32xf32>
        bufferization.materialize_in_destination %c in restrict writable %o1 : (tensor<1x1x16x32xf32>, memref<1x1x16x32xf32>) -> ()
        %o2 = kiln.dispatch.binding 3 : memref<1x1x16x32xf32>
        bufferization.materialize_in_destination %r in restrict writable %o2 : (tensor<1x1x16x32xf32>, memref<1x1x16x32xf32>) -> ()
        return
      }
    }
  }
}

// -----

// A workgroup of a grouped convolution (a generic, its group loop 3 a
// unit one in the workgroup) is an ordinary convolution once the group is
// dropped from it, its fill and its epilogue: the same register tile of 8
// pixels by 32 channels, the image and filter read through rank-reducing
// slices of their 5-D tensors, the bias added in registers, the rows
// inserted into the workgroup's 5-D tile.
// CHECK-LABEL: func.func @grouped
// CHECK:         %[[BIAS:.+]] = vector.transfer_read {{.*}} : tensor<1x32xf32>, vector<8x32xf32>
// CHECK:         %[[ROWS:.+]] = scf.for %{{.+}} = %c0 to %c16 step %c8 iter_args(%{{.+}}) -> (tensor<1x1x16x32xf32>)
// CHECK:           %[[SUM:.+]] = scf.for {{.*}} -> (vector<1x8x32xf32>)
// CHECK:             scf.for {{.*}} -> (vector<1x8x32xf32>)
// CHECK:               scf.for {{.*}} -> (vector<1x8x32xf32>)
// CHECK:                 vector.transfer_read {{.*}} : tensor<1x3x18x1x8xf32>, vector<8x1xf32>
// CHECK:                 vector.transfer_read {{.*}} : tensor<3x3x1x8x32xf32>, vector<32xf32>
// CHECK:                 vector.contract {{.*}} : vector<8x1xf32>, vector<1x32xf32> into vector<8x32xf32>
// CHECK:           %[[ROW:.+]] = vector.extract %[[SUM]][0]
// CHECK:           %[[OUT:.+]] = arith.addf %[[ROW]], %[[BIAS]] : vector<8x32xf32>
// CHECK:           vector.transfer_write %[[OUT]], {{.*}} : vector<8x32xf32>, tensor<1x1x16x32xf32>
// CHECK:         tensor.insert_slice %[[ROWS]] into %{{.+}}[0, 0, 0, 0, 0] [1, 1, 16, 1, 32] [1, 1, 1, 1, 1] : tensor<1x1x16x32xf32> into tensor<1x1x16x1x32xf32>
// CHECK-NOT:     linalg.
kiln.executable private @grouped {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    builtin.module {
      func.func @grouped() {
        %cst = arith.constant 0.000000e+00 : f32
        %x = kiln.dispatch.binding 0 readonly : memref<1x3x18x1x8xf32>
        %tx = bufferization.to_tensor %x restrict : memref<1x3x18x1x8xf32> to tensor<1x3x18x1x8xf32>
        %w = kiln.dispatch.binding 1 readonly : memref<3x3x1x8x32xf32>
        %tw = bufferization.to_tensor %w restrict : memref<3x3x1x8x32xf32> to tensor<3x3x1x8x32xf32>
        %b = kiln.dispatch.binding 2 readonly : memref<1x32xf32>
        %tb = bufferization.to_tensor %b restrict : memref<1x32xf32> to tensor<1x32xf32>
        %e = tensor.empty() : tensor<1x1x16x1x32xf32>
        %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x1x16x1x32xf32>) -> tensor<1x1x16x1x32xf32>
        %c = linalg.generic {indexing_maps = [affine_map<(n, oh, ow, g, f, kh, kw, c) -> (n, oh + kh, ow + kw, g, c)>, affine_map<(n, oh, ow, g, f, kh, kw, c) -> (kh, kw, g, c, f)>, affine_map<(n, oh, ow, g, f, kh, kw, c) -> (n, oh, ow, g, f)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
            ins(%tx, %tw : tensor<1x3x18x1x8xf32>, tensor<3x3x1x8x32xf32>) outs(%f : tensor<1x1x16x1x32xf32>)
            attrs = {kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-convolution", workgroup = [1, 1, 16, 1, 32, 0, 0, 0], cache = [1, 1, 16, 1, 32, 0, 0, 0], register = [1, 1, 8, 1, 32, 1, 1, 1], vector = [1, 1, 8, 1, 32, 1, 1, 1]>} {
        ^bb0(%a: f32, %bb: f32, %o: f32):
          %m = arith.mulf %a, %bb : f32
          %s = arith.addf %o, %m : f32
          linalg.yield %s : f32
        } -> tensor<1x1x16x1x32xf32>
        %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, g, f) -> (n, h, w, g, f)>, affine_map<(n, h, w, g, f) -> (g, f)>, affine_map<(n, h, w, g, f) -> (n, h, w, g, f)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
            ins(%c, %tb : tensor<1x1x16x1x32xf32>, tensor<1x32xf32>) outs(%e : tensor<1x1x16x1x32xf32>) {
        ^bb0(%v: f32, %bias: f32, %o: f32):
          %s = arith.addf %v, %bias : f32
          linalg.yield %s : f32
        } -> tensor<1x1x16x1x32xf32>
        %o = kiln.dispatch.binding 3 : memref<1x1x16x1x32xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<1x1x16x1x32xf32>, memref<1x1x16x1x32xf32>) -> ()
        return
      }
    }
  }
}

// -----

// A workgroup of a convolution whose filter is packed in panels (a
// generic, its panel loop 3 a unit one in the workgroup) is an ordinary
// convolution once the panel is dropped: the image read in place (it has no
// panel dim), the filter through a rank-reducing slice of its 5-D panel,
// each tap's 32 output channels one contiguous vector.
// CHECK-LABEL: func.func @packed_filter
// CHECK:         %[[ROWS:.+]] = scf.for %{{.+}} = %c0 to %c16 step %c8 iter_args(%{{.+}}) -> (tensor<1x1x16x32xf32>)
// CHECK:           %[[SUM:.+]] = scf.for {{.*}} -> (vector<1x8x32xf32>)
// CHECK:             scf.for {{.*}} -> (vector<1x8x32xf32>)
// CHECK:               scf.for {{.*}} -> (vector<1x8x32xf32>)
// CHECK:                 vector.transfer_read {{.*}} : tensor<1x3x18x8xf32>, vector<8x1xf32>
// CHECK:                 vector.transfer_read {{.*}} : tensor<1x3x3x8x32xf32>, vector<32xf32>
// CHECK:                 vector.contract {{.*}} : vector<8x1xf32>, vector<1x32xf32> into vector<8x32xf32>
// CHECK:           vector.transfer_write {{.*}} : vector<8x32xf32>, tensor<1x1x16x32xf32>
// CHECK:         tensor.insert_slice %[[ROWS]] into %{{.+}}[0, 0, 0, 0, 0] [1, 1, 16, 1, 32] [1, 1, 1, 1, 1] : tensor<1x1x16x32xf32> into tensor<1x1x16x1x32xf32>
// CHECK-NOT:     linalg.
kiln.executable private @packed_filter {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    builtin.module {
      func.func @packed_filter() {
        %cst = arith.constant 0.000000e+00 : f32
        %x = kiln.dispatch.binding 0 readonly : memref<1x3x18x8xf32>
        %tx = bufferization.to_tensor %x restrict : memref<1x3x18x8xf32> to tensor<1x3x18x8xf32>
        %w = kiln.dispatch.binding 1 readonly : memref<1x3x3x8x32xf32>
        %tw = bufferization.to_tensor %w restrict : memref<1x3x3x8x32xf32> to tensor<1x3x3x8x32xf32>
        %e = tensor.empty() : tensor<1x1x16x1x32xf32>
        %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x1x16x1x32xf32>) -> tensor<1x1x16x1x32xf32>
        %c = linalg.generic {indexing_maps = [affine_map<(n, oh, ow, fo, fi, kh, kw, c) -> (n, oh + kh, ow + kw, c)>, affine_map<(n, oh, ow, fo, fi, kh, kw, c) -> (fo, kh, kw, c, fi)>, affine_map<(n, oh, ow, fo, fi, kh, kw, c) -> (n, oh, ow, fo, fi)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
            ins(%tx, %tw : tensor<1x3x18x8xf32>, tensor<1x3x3x8x32xf32>) outs(%f : tensor<1x1x16x1x32xf32>)
            attrs = {kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-convolution", workgroup = [1, 1, 16, 1, 32, 0, 0, 0], cache = [1, 1, 16, 1, 32, 0, 0, 0], register = [1, 1, 8, 1, 32, 1, 1, 1], vector = [1, 1, 8, 1, 32, 1, 1, 1]>} {
        ^bb0(%a: f32, %bb: f32, %o: f32):
          %m = arith.mulf %a, %bb : f32
          %s = arith.addf %o, %m : f32
          linalg.yield %s : f32
        } -> tensor<1x1x16x1x32xf32>
        %o = kiln.dispatch.binding 2 : memref<1x1x16x1x32xf32>
        bufferization.materialize_in_destination %c in restrict writable %o : (tensor<1x1x16x1x32xf32>, memref<1x1x16x1x32xf32>) -> ()
        return
      }
    }
  }
}

// -----

// A padded convolution's tile of one output row takes only the filter rows
// that meet image rows: rows r + k of the padded tile for filter row k,
// the image's rows 1 to 3 of it (one row of padding above), so k runs from
// max(1 - r, 0) to min(4 - r, 3): filter rows 1 and 2 for the top output
// row, all three for the middle one, 0 and 1 for the bottom one.
// CHECK-DAG:   #[[FIRST:.+]] = affine_map<()[s0] -> (-s0 + 1, 0)>
// CHECK-DAG:   #[[END:.+]] = affine_map<()[s0] -> (-s0 + 4, 3)>
// CHECK-LABEL: func.func @conv_padded_rows
// CHECK:         scf.for %[[R:.+]] = %c0 to %c3 step %c1 iter_args(%{{.+}}) -> (tensor<1x3x8x32xf32>)
// CHECK:           %[[FIRSTV:.+]] = affine.max #[[FIRST]]()[%[[R]]]
// CHECK:           %[[ENDV:.+]] = affine.min #[[END]]()[%[[R]]]
// CHECK:           %[[N:.+]] = affine.max #{{.+}}()[%[[FIRSTV]], %[[ENDV]]]
// CHECK:           scf.for %{{.+}} = %c0 to %[[N]] step %c1 iter_args(%{{.+}}) -> (vector<1x8x32xf32>)
// CHECK:             vector.contract {{.*}} : vector<8x1xf32>, vector<1x32xf32> into vector<8x32xf32>
kiln.executable private @conv_padded_rows {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    builtin.module {
      func.func @conv_padded_rows() {
        %cst = arith.constant 0.000000e+00 : f32
        %x = kiln.dispatch.binding 0 readonly : memref<1x3x8x8xf32>
        %tx = bufferization.to_tensor %x restrict : memref<1x3x8x8xf32> to tensor<1x3x8x8xf32>
        %w = kiln.dispatch.binding 1 readonly : memref<3x3x8x32xf32>
        %tw = bufferization.to_tensor %w restrict : memref<3x3x8x32xf32> to tensor<3x3x8x32xf32>
        %p = tensor.pad %tx low[0, 1, 1, 0] high[0, 1, 1, 0] {
        ^bb0(%i: index, %j: index, %k: index, %l: index):
          tensor.yield %cst : f32
        } : tensor<1x3x8x8xf32> to tensor<1x5x10x8xf32>
        %e = tensor.empty() : tensor<1x3x8x32xf32>
        %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x3x8x32xf32>) -> tensor<1x3x8x32xf32>
        %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-convolution", workgroup = [1, 3, 8, 32, 0, 0, 0], cache = [1, 1, 8, 32, 0, 0, 0], register = [1, 1, 8, 32, 1, 1, 1], vector = [1, 1, 8, 32, 1, 1, 1]>}
            ins(%p, %tw : tensor<1x5x10x8xf32>, tensor<3x3x8x32xf32>) outs(%f : tensor<1x3x8x32xf32>) -> tensor<1x3x8x32xf32>
        %o = kiln.dispatch.binding 2 : memref<1x3x8x32xf32>
        bufferization.materialize_in_destination %c in restrict writable %o : (tensor<1x3x8x32xf32>, memref<1x3x8x32xf32>) -> ()
        return
      }
    }
  }
}

// -----

// A register tile of four groups of four channels (lanes (group, channel)
// of one 16-lane vector): one vector of accumulators per output pixel,
// carried through a loop over the filter's rows, its columns unrolled.
// Each image pixel's run of the four groups' channels is read once per
// filter row (6 pixels for 4 outputs of a 3-wide window), and each of its
// shuffles (input channel c of each group under that group's lanes) serves
// every tap that reads the pixel; the filter's values for a tap and
// channel are a vector of the four groups' rows.
// CHECK-LABEL: func.func @multi_group
// CHECK:         %[[IMAGE:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0], [1], [2], [3, 4]] : tensor<1x3x6x4x4xf32> into tensor<1x3x6x16xf32>
// CHECK:         %[[SUMS:.+]]:4 = scf.for %[[ROW:.+]] = %c0 to %c3 step %c1 iter_args({{.+}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// CHECK-COUNT-6:   vector.transfer_read %[[IMAGE]][%c0, %[[ROW]], %{{.+}}, %c0], {{.+}} : tensor<1x3x6x16xf32>, vector<16xf32>
// CHECK:           %[[W:.+]] = vector.transfer_read %{{.+}}[%[[ROW]], %c0, %c0, %c0, %c0], {{.+}} : tensor<3x3x4x4x4xf32>, vector<4x4xf32>
// CHECK:           %[[W0:.+]] = vector.shape_cast %[[W]] : vector<4x4xf32> to vector<16xf32>
// CHECK-COUNT-2:   vector.transfer_read
// CHECK:           %[[X:.+]] = vector.shuffle %[[PIXEL:.+]], %[[PIXEL]] [0, 0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8, 12, 12, 12, 12]
// CHECK:           vector.fma %[[X]], %[[W0]], %{{.+}} : vector<16xf32>
// CHECK:           vector.shuffle {{.+}} [1, 1, 1, 1, 5, 5, 5, 5, 9, 9, 9, 9, 13, 13, 13, 13]
// CHECK:           vector.shuffle {{.+}} [3, 3, 3, 3, 7, 7, 7, 7, 11, 11, 11, 11, 15, 15, 15, 15]
// CHECK:           scf.yield
// CHECK-NOT:     linalg.generic
// CHECK:         vector.transfer_write %{{.+}} : vector<4x4x4xf32>, tensor<1x1x4x4x4xf32>
kiln.executable private @grouped {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    builtin.module {
      func.func @multi_group() {
        %zero = arith.constant 0.0 : f32
        %x = kiln.dispatch.binding 0 readonly : memref<1x3x6x4x4xf32>
        %tx = bufferization.to_tensor %x restrict : memref<1x3x6x4x4xf32> to tensor<1x3x6x4x4xf32>
        %w = kiln.dispatch.binding 1 readonly : memref<3x3x4x4x4xf32>
        %tw = bufferization.to_tensor %w restrict : memref<3x3x4x4x4xf32> to tensor<3x3x4x4x4xf32>
        %e = tensor.empty() : tensor<1x1x4x4x4xf32>
        %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x4x4x4xf32>) -> tensor<1x1x4x4x4xf32>
        %c = linalg.generic {indexing_maps = [affine_map<(n, oh, ow, g, f, kh, kw, c) -> (n, oh + kh, ow + kw, g, c)>, affine_map<(n, oh, ow, g, f, kh, kw, c) -> (kh, kw, g, c, f)>, affine_map<(n, oh, ow, g, f, kh, kw, c) -> (n, oh, ow, g, f)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"], kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-convolution", workgroup = [1, 1, 4, 4, 4, 0, 0, 0], cache = [1, 1, 4, 4, 4, 0, 0, 0], register = [1, 1, 4, 4, 4, 0, 0, 0], vector = [1, 1, 4, 4, 4, 0, 0, 0]>}
            ins(%tx, %tw : tensor<1x3x6x4x4xf32>, tensor<3x3x4x4x4xf32>) outs(%f : tensor<1x1x4x4x4xf32>) {
        ^bb0(%a: f32, %b: f32, %o: f32):
          %m = arith.mulf %a, %b : f32
          %s = arith.addf %o, %m : f32
          linalg.yield %s : f32
        } -> tensor<1x1x4x4x4xf32>
        %o = kiln.dispatch.binding 2 : memref<1x1x4x4x4xf32>
        bufferization.materialize_in_destination %c in restrict writable %o : (tensor<1x1x4x4x4xf32>, memref<1x1x4x4x4xf32>) -> ()
        return
      }
    }
  }
}
