// RUN: kiln-compile %s --compile-to=global-optimization | FileCheck %s --check-prefix=DEFAULT
// RUN: kiln-compile %s --compile-to=global-optimization --kiln-pack-filters-min-bytes=0 --kiln-target-cpu=skylake-avx512 | FileCheck %s --check-prefix=PACK
// RUN: kiln-compile %s --compile-to=global-optimization --kiln-pack-filters-min-bytes=0 --kiln-target-cpu=haswell | FileCheck %s --check-prefix=AVX2
// RUN: kiln-compile %s --compile-to=global-optimization --kiln-pack-filters-min-bytes=-1 | FileCheck %s --check-prefix=DEFAULT
// RUN: not kiln-compile %s --compile-to=global-optimization --kiln-pack-filters-min-bytes=lots 2>&1 | FileCheck %s --check-prefix=BAD

// A 1 KiB constant filter of 128 output channels stays HWCF under the
// default threshold (1 MiB) and with packing off (negative); with a
// threshold of 0 it is packed into panels as wide as the target's register
// tile, four of 32 channels on AVX-512, eight of 16 on AVX2, and the bias
// and ReLU after the convolution move inside the collapse of its result
// (elementwise fusion expands them to the panels).
// DEFAULT-LABEL: func.func @f
// DEFAULT:         linalg.conv_2d_nhwc_hwcf
// DEFAULT-NOT:     tensor.collapse_shape
// PACK-LABEL:  func.func @f
// PACK:          arith.constant dense<{{.+}}> : tensor<4x1x1x2x32xf32>
// PACK:          %[[C:.+]] = linalg.generic {{.+}} outs(%{{.+}} : tensor<1x3x3x4x32xf32>)
// PACK:          %[[R:.+]] = linalg.generic {{.+}} ins(%[[C]], %{{.+}} : tensor<1x3x3x4x32xf32>, tensor<4x32xf32>)
// PACK:            arith.maximumf
// PACK:          %[[O:.+]] = tensor.collapse_shape %[[R]] {{\[}}[0], [1], [2], [3, 4]] : tensor<1x3x3x4x32xf32> into tensor<1x3x3x128xf32>
// PACK:          return %[[O]]
// AVX2-LABEL:  func.func @f
// AVX2:          arith.constant dense<{{.+}}> : tensor<8x1x1x2x16xf32>
// AVX2:          tensor.collapse_shape %{{.+}} {{\[}}[0], [1], [2], [3, 4]] : tensor<1x3x3x8x16xf32> into tensor<1x3x3x128xf32>
// BAD: for the --kiln-pack-filters-min-bytes option: 'lots' value invalid for long argument!
func.func @f(%x: tensor<1x3x3x2xf32>, %b: tensor<128xf32>) -> tensor<1x3x3x128xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<"0x000080BF000040BF000000BF000080BE000000000000803E0000003F0000403F0000803F000080BF000040BF000000BF000080BE000000000000803E0000003F0000403F0000803F000080BF000040BF000000BF000080BE000000000000803E0000003F0000403F0000803F000080BF000040BF000000BF000080BE000000000000803E0000003F0000403F0000803F000080BF000040BF000000BF000080BE000000000000803E0000003F0000403F0000803F000080BF000040BF000000BF000080BE000000000000803E0000003F0000403F0000803F000080BF000040BF000000BF000080BE000000000000803E0000003F0000403F0000803F000080BF000040BF000000BF000080BE000000000000803E0000003F0000403F0000803F000080BF000040BF000000BF000080BE000000000000803E0000003F0000403F0000803F000080BF000040BF000000BF000080BE000000000000803E0000003F0000403F0000803F000080BF000040BF000000BF000080BE000000000000803E0000003F0000403F0000803F000080BF000040BF000000BF000080BE000000000000803E0000003F0000403F0000803F000080BF000040BF000000BF000080BE000000000000803E0000003F0000403F0000803F000080BF000040BF000000BF000080BE000000000000803E0000003F0000403F0000803F000080BF000040BF000000BF000080BE000000000000803E0000003F0000403F0000803F000080BF000040BF000000BF000080BE000000000000803E0000003F0000403F0000803F000080BF000040BF000000BF000080BE000000000000803E0000003F0000403F0000803F000080BF000040BF000000BF000080BE000000000000803E0000003F0000403F0000803F000080BF000040BF000000BF000080BE000000000000803E0000003F0000403F0000803F000080BF000040BF000000BF000080BE000000000000803E0000003F0000403F0000803F000080BF000040BF000000BF000080BE000000000000803E0000003F0000403F0000803F000080BF000040BF000000BF000080BE000000000000803E0000003F0000403F0000803F000080BF000040BF000000BF000080BE000000000000803E0000003F0000403F0000803F000080BF000040BF000000BF000080BE000000000000803E0000003F0000403F0000803F000080BF000040BF000000BF000080BE000000000000803E0000003F0000403F0000803F000080BF000040BF000000BF000080BE000000000000803E0000003F0000403F0000803F000080BF000040BF000000BF000080BE000000000000803E0000003F0000403F0000803F000080BF000040BF000000BF000080BE000000000000803E0000003F0000403F0000803F000080BF000040BF000000BF000080BE"> : tensor<1x1x2x128xf32>
  %e = tensor.empty() : tensor<1x3x3x128xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3x3x128xf32>) -> tensor<1x3x3x128xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x3x3x2xf32>, tensor<1x1x2x128xf32>) outs(%init : tensor<1x3x3x128xf32>) -> tensor<1x3x3x128xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %b : tensor<1x3x3x128xf32>, tensor<128xf32>) outs(%e : tensor<1x3x3x128xf32>) {
  ^bb0(%v: f32, %bias: f32, %out: f32):
    %s = arith.addf %v, %bias : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x3x3x128xf32>
  return %r : tensor<1x3x3x128xf32>
}
