// RUN: kiln-compile %s --kiln-target-cpu=haswell --compile-to=executable-codegen | FileCheck %s
// RUN: kiln-compile %s --kiln-target-cpu=sapphirerapids --compile-to=executable-codegen | FileCheck %s

// A depthwise convolution over rows of a width known only at run time: a
// workgroup takes a whole row (the width loop untiled, not a tile of 2^20
// that tiling would peel), and its register strips write the row of the
// dispatch's result in place. Nothing is allocated per workgroup: the row
// put back whole where it was taken from is the row itself
// (FoldWholeInsertSlice), so bufferization copies it into no buffer of its
// own. With 40 channels, peeled as 32 and 8 (8 and 8 and 8 ... on AVX2),
// each part is a slice of the row (MergeSlicesOfReads leaves the slices
// written into nested), not a second slice of the result beside it.
// CHECK:     kiln.executable.variant
// CHECK-NOT: llvm.call @malloc
// CHECK:     llvm.func @{{.*}}depthwise_conv_2d_nhwc_hwc_1xDxDx32x3x3_f32
// CHECK-NOT: llvm.call @malloc
// CHECK:     llvm.func @{{.*}}depthwise_conv_2d_nhwc_hwc_1xDxDx40x3x3_f32
// CHECK-NOT: llvm.call @malloc
func.func @depthwise_rows(%x: tensor<1x?x?x32xf32>, %w: tensor<3x3x32xf32>) -> tensor<1x?x?x32xf32> {
  %zero = arith.constant 0.0 : f32
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %h = tensor.dim %x, %c1 : tensor<1x?x?x32xf32>
  %wd = tensor.dim %x, %c2 : tensor<1x?x?x32xf32>
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x?x?x32xf32> to tensor<1x?x?x32xf32>
  %e = tensor.empty(%h, %wd) : tensor<1x?x?x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x?x?x32xf32>) -> tensor<1x?x?x32xf32>
  %c = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x?x?x32xf32>, tensor<3x3x32xf32>) outs(%f : tensor<1x?x?x32xf32>) -> tensor<1x?x?x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : tensor<1x?x?x32xf32>) outs(%e : tensor<1x?x?x32xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.maximumf %v, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x?x?x32xf32>
  return %r : tensor<1x?x?x32xf32>
}

func.func @depthwise_rows_40(%x: tensor<1x?x?x40xf32>, %w: tensor<3x3x40xf32>) -> tensor<1x?x?x40xf32> {
  %zero = arith.constant 0.0 : f32
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %h = tensor.dim %x, %c1 : tensor<1x?x?x40xf32>
  %wd = tensor.dim %x, %c2 : tensor<1x?x?x40xf32>
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x?x?x40xf32> to tensor<1x?x?x40xf32>
  %e = tensor.empty(%h, %wd) : tensor<1x?x?x40xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x?x?x40xf32>) -> tensor<1x?x?x40xf32>
  %c = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x?x?x40xf32>, tensor<3x3x40xf32>) outs(%f : tensor<1x?x?x40xf32>) -> tensor<1x?x?x40xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : tensor<1x?x?x40xf32>) outs(%e : tensor<1x?x?x40xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.maximumf %v, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x?x?x40xf32>
  return %r : tensor<1x?x?x40xf32>
}
