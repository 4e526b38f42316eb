// RUN: kiln-opt %s --pass-pipeline='builtin.module(kiln.executable(kiln.executable.variant(kiln-cpu-select-lowering-config)))' | FileCheck %s

// The cpu-convolution heuristic on an AVX-512 CPU: register tiles of 8
// pixels by 32 channels (16 accumulators); cache tiles of one output row by
// one panel of 32 channels; workgroups of output rows, whose part of the
// image stays under 64 KiB (what a kernel keeps on its stack).

// ResNet's 3x3 convolution over 56x56x64: two rows per workgroup (a
// 4x58x64 image tile, 58 KiB).
// CHECK-LABEL: func.func @resnet_3x3
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}}kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-convolution", workgroup = [1, 2, 56, 64, 0, 0, 0], cache = [1, 1, 56, 32, 0, 0, 0], register = [1, 1, 8, 32, 1, 1, 1], vector = [1, 1, 8, 32, 1, 1, 1]>

// Max pooling 3x3 with stride 2 over 64 channels: register strips of 4
// pixels by 4 vectors (a pooling reads each pixel's channels in runs that
// long), each padding its own window, so no image tile is made and the
// 64 KiB limit does not apply: whole rows, two per workgroup.
// CHECK-LABEL: func.func @pool_3x3_s2
// CHECK: linalg.pooling_nhwc_max {{.*}}kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-convolution", workgroup = [1, 2, 56, 64, 0, 0], cache = [1, 1, 56, 64, 0, 0], register = [1, 1, 4, 64, 1, 1], vector = [1, 1, 4, 64, 1, 1]>
// Depthwise: the channels are the vector dim, all 96 in one workgroup;
// whole rows of 56, padded per strip like the pooling; 96 channels are
// not a whole number of 4-vector tiles, so strips of 8 by 2 vectors.
// CHECK-LABEL: func.func @depthwise_s2
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc {{.*}}kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-convolution", workgroup = [1, 1, 56, 96, 0, 0], cache = [1, 1, 56, 32, 0, 0], register = [1, 1, 8, 32, 1, 1], vector = [1, 1, 8, 32, 1, 1]>
// A row of 24 outputs is three strips, padded per strip too: no part of
// the image is copied, and the 64 KiB limit on a copied part (256
// channels of 3x49 pixels would be 147 KiB) does not narrow the
// workgroup.
// CHECK-LABEL: func.func @depthwise_narrow
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc {{.*}}kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-convolution", workgroup = [1, 1, 24, 256, 0, 0], cache = [1, 1, 24, 64, 0, 0], register = [1, 1, 4, 64, 1, 1], vector = [1, 1, 4, 64, 1, 1]>
// 40 channels: the workgroup takes all 40, not a tile of 64 that would
// leave its channel count known only at run time.
// CHECK-LABEL: func.func @depthwise_40_channels
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc {{.*}}kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-convolution", workgroup = [1, 3, 56, 40, 0, 0], cache = [1, 1, 56, 32, 0, 0], register = [1, 1, 8, 32, 1, 1], vector = [1, 1, 8, 32, 1, 1]>
// A stride past any model's takes the scalar cpu-default path.
// A row of 14 pixels by 4 vectors of channels: strips of 4 and a
// peeled one of 2, not strips of 2 (the divisor of 14 at most 4), which
// would leave half of the 16 accumulators unused.
// CHECK-LABEL: func.func @depthwise_14_wide
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc {{.*}}register = [1, 1, 4, 64, 1, 1]
// CHECK-LABEL: func.func @huge_stride
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}}kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-default"
kiln.executable private @convs {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    builtin.module {
      func.func @resnet_3x3() {
        %zero = arith.constant 0.0 : f32
        %xb = kiln.dispatch.binding 0 readonly : memref<1x58x58x64xf32>
        %x = bufferization.to_tensor %xb restrict : memref<1x58x58x64xf32> to tensor<1x58x58x64xf32>
        %wb = kiln.dispatch.binding 1 readonly : memref<3x3x64x64xf32>
        %w = bufferization.to_tensor %wb restrict : memref<3x3x64x64xf32> to tensor<3x3x64x64xf32>
        %e = tensor.empty() : tensor<1x56x56x64xf32>
        %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
        %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
            ins(%x, %w : tensor<1x58x58x64xf32>, tensor<3x3x64x64xf32>) outs(%f : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
        %o = kiln.dispatch.binding 2 : memref<1x56x56x64xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<1x56x56x64xf32>, memref<1x56x56x64xf32>) -> ()
        return
      }
      func.func @pool_3x3_s2() {
        %zero = arith.constant 0.0 : f32
        %xb = kiln.dispatch.binding 0 readonly : memref<1x113x113x64xf32>
        %x = bufferization.to_tensor %xb restrict : memref<1x113x113x64xf32> to tensor<1x113x113x64xf32>
        %w = tensor.empty() : tensor<3x3xf32>
        %e = tensor.empty() : tensor<1x56x56x64xf32>
        %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
        %r = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
            ins(%x, %w : tensor<1x113x113x64xf32>, tensor<3x3xf32>) outs(%f : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
        %o = kiln.dispatch.binding 2 : memref<1x56x56x64xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<1x56x56x64xf32>, memref<1x56x56x64xf32>) -> ()
        return
      }
      func.func @depthwise_s2() {
        %zero = arith.constant 0.0 : f32
        %xb = kiln.dispatch.binding 0 readonly : memref<1x113x113x96xf32>
        %x = bufferization.to_tensor %xb restrict : memref<1x113x113x96xf32> to tensor<1x113x113x96xf32>
        %wb = kiln.dispatch.binding 1 readonly : memref<3x3x96xf32>
        %w = bufferization.to_tensor %wb restrict : memref<3x3x96xf32> to tensor<3x3x96xf32>
        %e = tensor.empty() : tensor<1x56x56x96xf32>
        %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x56x56x96xf32>) -> tensor<1x56x56x96xf32>
        %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
            ins(%x, %w : tensor<1x113x113x96xf32>, tensor<3x3x96xf32>) outs(%f : tensor<1x56x56x96xf32>) -> tensor<1x56x56x96xf32>
        %o = kiln.dispatch.binding 2 : memref<1x56x56x96xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<1x56x56x96xf32>, memref<1x56x56x96xf32>) -> ()
        return
      }
      func.func @depthwise_narrow() {
        %zero = arith.constant 0.0 : f32
        %xb = kiln.dispatch.binding 0 readonly : memref<1x49x49x256xf32>
        %x = bufferization.to_tensor %xb restrict : memref<1x49x49x256xf32> to tensor<1x49x49x256xf32>
        %wb = kiln.dispatch.binding 1 readonly : memref<3x3x256xf32>
        %w = bufferization.to_tensor %wb restrict : memref<3x3x256xf32> to tensor<3x3x256xf32>
        %e = tensor.empty() : tensor<1x24x24x256xf32>
        %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x24x24x256xf32>) -> tensor<1x24x24x256xf32>
        %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
            ins(%x, %w : tensor<1x49x49x256xf32>, tensor<3x3x256xf32>) outs(%f : tensor<1x24x24x256xf32>) -> tensor<1x24x24x256xf32>
        %o = kiln.dispatch.binding 2 : memref<1x24x24x256xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<1x24x24x256xf32>, memref<1x24x24x256xf32>) -> ()
        return
      }
      func.func @depthwise_40_channels() {
        %zero = arith.constant 0.0 : f32
        %xb = kiln.dispatch.binding 0 readonly : memref<1x58x58x40xf32>
        %x = bufferization.to_tensor %xb restrict : memref<1x58x58x40xf32> to tensor<1x58x58x40xf32>
        %wb = kiln.dispatch.binding 1 readonly : memref<3x3x40xf32>
        %w = bufferization.to_tensor %wb restrict : memref<3x3x40xf32> to tensor<3x3x40xf32>
        %e = tensor.empty() : tensor<1x56x56x40xf32>
        %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x56x56x40xf32>) -> tensor<1x56x56x40xf32>
        %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
            ins(%x, %w : tensor<1x58x58x40xf32>, tensor<3x3x40xf32>) outs(%f : tensor<1x56x56x40xf32>) -> tensor<1x56x56x40xf32>
        %o = kiln.dispatch.binding 2 : memref<1x56x56x40xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<1x56x56x40xf32>, memref<1x56x56x40xf32>) -> ()
        return
      }
      func.func @depthwise_14_wide() {
        %zero = arith.constant 0.0 : f32
        %xb = kiln.dispatch.binding 0 readonly : memref<1x16x16x576xf32>
        %x = bufferization.to_tensor %xb restrict : memref<1x16x16x576xf32> to tensor<1x16x16x576xf32>
        %wb = kiln.dispatch.binding 1 readonly : memref<3x3x576xf32>
        %w = bufferization.to_tensor %wb restrict : memref<3x3x576xf32> to tensor<3x3x576xf32>
        %e = tensor.empty() : tensor<1x14x14x576xf32>
        %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x14x14x576xf32>) -> tensor<1x14x14x576xf32>
        %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
            ins(%x, %w : tensor<1x16x16x576xf32>, tensor<3x3x576xf32>) outs(%f : tensor<1x14x14x576xf32>) -> tensor<1x14x14x576xf32>
        %o = kiln.dispatch.binding 2 : memref<1x14x14x576xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<1x14x14x576xf32>, memref<1x14x14x576xf32>) -> ()
        return
      }
      func.func @huge_stride() {
        %zero = arith.constant 0.0 : f32
        %xb = kiln.dispatch.binding 0 readonly : memref<1x3x3x8xf32>
        %x = bufferization.to_tensor %xb restrict : memref<1x3x3x8xf32> to tensor<1x3x3x8xf32>
        %wb = kiln.dispatch.binding 1 readonly : memref<3x3x8x8xf32>
        %w = bufferization.to_tensor %wb restrict : memref<3x3x8x8xf32> to tensor<3x3x8x8xf32>
        %e = tensor.empty() : tensor<1x1x1x8xf32>
        %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x1x8xf32>) -> tensor<1x1x1x8xf32>
        %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1073741824> : tensor<2xi64>}
            ins(%x, %w : tensor<1x3x3x8xf32>, tensor<3x3x8x8xf32>) outs(%f : tensor<1x1x1x8xf32>) -> tensor<1x1x1x8xf32>
        %o = kiln.dispatch.binding 2 : memref<1x1x1x8xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<1x1x1x8xf32>, memref<1x1x1x8xf32>) -> ()
        return
      }
    }
  }
}

// ResNet's 3x3 convolution over 14x14x256: the filter (2.3 MB, rows of
// 256 channels 1 KiB apart) outgrows L2, and a register panel of it (288
// KiB) L1: workgroups of one panel of 32 channels and all 14 rows (28
// register strips reusing the panel's contiguous copy), whose 16x16x256
// image tile (256 KiB) lives in scratch. A filter that fits L2 (128
// channels, 576 KiB) keeps workgroups of all channels.
// CHECK-LABEL: func.func @resnet_res4_3x3
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}}kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-convolution", workgroup = [1, 14, 14, 32, 0, 0, 0], cache = [1, 1, 14, 32, 0, 0, 0], register = [1, 1, 7, 32, 1, 1, 1], vector = [1, 1, 7, 32, 1, 1, 1]>
// CHECK-LABEL: func.func @filter_in_l2
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}}kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-convolution", workgroup = [1, 1, 14, 128, 0, 0, 0]
kiln.executable private @filter_panels {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    builtin.module {
      func.func @resnet_res4_3x3() {
        %zero = arith.constant 0.0 : f32
        %xb = kiln.dispatch.binding 0 readonly : memref<1x16x16x256xf32>
        %x = bufferization.to_tensor %xb restrict : memref<1x16x16x256xf32> to tensor<1x16x16x256xf32>
        %wb = kiln.dispatch.binding 1 readonly : memref<3x3x256x256xf32>
        %w = bufferization.to_tensor %wb restrict : memref<3x3x256x256xf32> to tensor<3x3x256x256xf32>
        %e = tensor.empty() : tensor<1x14x14x256xf32>
        %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x14x14x256xf32>) -> tensor<1x14x14x256xf32>
        %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
            ins(%x, %w : tensor<1x16x16x256xf32>, tensor<3x3x256x256xf32>) outs(%f : tensor<1x14x14x256xf32>) -> tensor<1x14x14x256xf32>
        %o = kiln.dispatch.binding 2 : memref<1x14x14x256xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<1x14x14x256xf32>, memref<1x14x14x256xf32>) -> ()
        return
      }
      func.func @filter_in_l2() {
        %zero = arith.constant 0.0 : f32
        %xb = kiln.dispatch.binding 0 readonly : memref<1x16x16x128xf32>
        %x = bufferization.to_tensor %xb restrict : memref<1x16x16x128xf32> to tensor<1x16x16x128xf32>
        %wb = kiln.dispatch.binding 1 readonly : memref<3x3x128x128xf32>
        %w = bufferization.to_tensor %wb restrict : memref<3x3x128x128xf32> to tensor<3x3x128x128xf32>
        %e = tensor.empty() : tensor<1x14x14x128xf32>
        %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x14x14x128xf32>) -> tensor<1x14x14x128xf32>
        %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
            ins(%x, %w : tensor<1x16x16x128xf32>, tensor<3x3x128x128xf32>) outs(%f : tensor<1x14x14x128xf32>) -> tensor<1x14x14x128xf32>
        %o = kiln.dispatch.binding 2 : memref<1x14x14x128xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<1x14x14x128xf32>, memref<1x14x14x128xf32>) -> ()
        return
      }
    }
  }
}

// ResNet's 3x3 convolution over 7x7x512 (a 9.4 MB filter): one image
// has 7 register strips, too few to pay for copying a panel, and its
// workgroups take one row by 256 channels. A batch of 8 has 56: each
// workgroup takes one panel of 32 channels and every image, so that the
// panel is copied once for all of them (a 8x9x9x512 image tile, 1.3 MB,
// in scratch). A batch of 16 would make that tile 2.6 MB, over twice L2:
// workgroups of 8 images. Workgroups take a divisor of the batch (their
// shapes static, as the copy needs): a batch of 13, whose only divisor
// under the bound is 1, keeps workgroups of one row of one image.
// CHECK-LABEL: func.func @resnet_res5_3x3
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}}workgroup = [1, 1, 7, 256, 0, 0, 0], cache = [1, 1, 7, 32, 0, 0, 0]
// CHECK-LABEL: func.func @resnet_res5_3x3_batch8
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}}workgroup = [8, 7, 7, 32, 0, 0, 0], cache = [1, 1, 7, 32, 0, 0, 0], register = [1, 1, 7, 32, 1, 1, 1]
// CHECK-LABEL: func.func @resnet_res5_3x3_batch16
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}}workgroup = [8, 7, 7, 32, 0, 0, 0]
// CHECK-LABEL: func.func @resnet_res5_3x3_batch13
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}}workgroup = [1, 1, 7, 256, 0, 0, 0]
// Without a batch dim (a generic convolution of one image), the panels
// take the rows alone.
// CHECK-LABEL: func.func @no_batch_dim
// CHECK: linalg.generic {{.*}}workgroup = [14, 14, 32, 0, 0, 0], cache = [1, 14, 32, 0, 0, 0]
kiln.executable private @batched_filter_panels {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    builtin.module {
      func.func @resnet_res5_3x3() {
        %zero = arith.constant 0.0 : f32
        %xb = kiln.dispatch.binding 0 readonly : memref<1x9x9x512xf32>
        %x = bufferization.to_tensor %xb restrict : memref<1x9x9x512xf32> to tensor<1x9x9x512xf32>
        %wb = kiln.dispatch.binding 1 readonly : memref<3x3x512x512xf32>
        %w = bufferization.to_tensor %wb restrict : memref<3x3x512x512xf32> to tensor<3x3x512x512xf32>
        %e = tensor.empty() : tensor<1x7x7x512xf32>
        %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x7x7x512xf32>) -> tensor<1x7x7x512xf32>
        %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
            ins(%x, %w : tensor<1x9x9x512xf32>, tensor<3x3x512x512xf32>) outs(%f : tensor<1x7x7x512xf32>) -> tensor<1x7x7x512xf32>
        %o = kiln.dispatch.binding 2 : memref<1x7x7x512xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<1x7x7x512xf32>, memref<1x7x7x512xf32>) -> ()
        return
      }
      func.func @resnet_res5_3x3_batch8() {
        %zero = arith.constant 0.0 : f32
        %xb = kiln.dispatch.binding 0 readonly : memref<8x9x9x512xf32>
        %x = bufferization.to_tensor %xb restrict : memref<8x9x9x512xf32> to tensor<8x9x9x512xf32>
        %wb = kiln.dispatch.binding 1 readonly : memref<3x3x512x512xf32>
        %w = bufferization.to_tensor %wb restrict : memref<3x3x512x512xf32> to tensor<3x3x512x512xf32>
        %e = tensor.empty() : tensor<8x7x7x512xf32>
        %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x7x7x512xf32>) -> tensor<8x7x7x512xf32>
        %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
            ins(%x, %w : tensor<8x9x9x512xf32>, tensor<3x3x512x512xf32>) outs(%f : tensor<8x7x7x512xf32>) -> tensor<8x7x7x512xf32>
        %o = kiln.dispatch.binding 2 : memref<8x7x7x512xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<8x7x7x512xf32>, memref<8x7x7x512xf32>) -> ()
        return
      }
      func.func @resnet_res5_3x3_batch16() {
        %zero = arith.constant 0.0 : f32
        %xb = kiln.dispatch.binding 0 readonly : memref<16x9x9x512xf32>
        %x = bufferization.to_tensor %xb restrict : memref<16x9x9x512xf32> to tensor<16x9x9x512xf32>
        %wb = kiln.dispatch.binding 1 readonly : memref<3x3x512x512xf32>
        %w = bufferization.to_tensor %wb restrict : memref<3x3x512x512xf32> to tensor<3x3x512x512xf32>
        %e = tensor.empty() : tensor<16x7x7x512xf32>
        %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x7x7x512xf32>) -> tensor<16x7x7x512xf32>
        %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
            ins(%x, %w : tensor<16x9x9x512xf32>, tensor<3x3x512x512xf32>) outs(%f : tensor<16x7x7x512xf32>) -> tensor<16x7x7x512xf32>
        %o = kiln.dispatch.binding 2 : memref<16x7x7x512xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<16x7x7x512xf32>, memref<16x7x7x512xf32>) -> ()
        return
      }
      func.func @resnet_res5_3x3_batch13() {
        %zero = arith.constant 0.0 : f32
        %xb = kiln.dispatch.binding 0 readonly : memref<13x9x9x512xf32>
        %x = bufferization.to_tensor %xb restrict : memref<13x9x9x512xf32> to tensor<13x9x9x512xf32>
        %wb = kiln.dispatch.binding 1 readonly : memref<3x3x512x512xf32>
        %w = bufferization.to_tensor %wb restrict : memref<3x3x512x512xf32> to tensor<3x3x512x512xf32>
        %e = tensor.empty() : tensor<13x7x7x512xf32>
        %f = linalg.fill ins(%zero : f32) outs(%e : tensor<13x7x7x512xf32>) -> tensor<13x7x7x512xf32>
        %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
            ins(%x, %w : tensor<13x9x9x512xf32>, tensor<3x3x512x512xf32>) outs(%f : tensor<13x7x7x512xf32>) -> tensor<13x7x7x512xf32>
        %o = kiln.dispatch.binding 2 : memref<13x7x7x512xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<13x7x7x512xf32>, memref<13x7x7x512xf32>) -> ()
        return
      }
      func.func @no_batch_dim() {
        %zero = arith.constant 0.0 : f32
        %xb = kiln.dispatch.binding 0 readonly : memref<16x16x256xf32>
        %x = bufferization.to_tensor %xb restrict : memref<16x16x256xf32> to tensor<16x16x256xf32>
        %wb = kiln.dispatch.binding 1 readonly : memref<3x3x256x256xf32>
        %w = bufferization.to_tensor %wb restrict : memref<3x3x256x256xf32> to tensor<3x3x256x256xf32>
        %e = tensor.empty() : tensor<14x14x256xf32>
        %f = linalg.fill ins(%zero : f32) outs(%e : tensor<14x14x256xf32>) -> tensor<14x14x256xf32>
        %r = linalg.generic {indexing_maps = [affine_map<(h, w, f, kh, kw, c) -> (h + kh, w + kw, c)>, affine_map<(h, w, f, kh, kw, c) -> (kh, kw, c, f)>, affine_map<(h, w, f, kh, kw, c) -> (h, w, f)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
            ins(%x, %w : tensor<16x16x256xf32>, tensor<3x3x256x256xf32>) outs(%f : tensor<14x14x256xf32>) {
        ^bb0(%a: f32, %b: f32, %acc: f32):
          %m = arith.mulf %a, %b : f32
          %s = arith.addf %acc, %m : f32
          linalg.yield %s : f32
        } -> tensor<14x14x256xf32>
        %o = kiln.dispatch.binding 2 : memref<14x14x256xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<14x14x256xf32>, memref<14x14x256xf32>) -> ()
        return
      }
    }
  }
}

// Pointwise convolutions at 7x7 whose filter exceeds L2: one image's 7
// strips are too few to copy a panel, but a panel of 32 output channels
// that fits a quarter of the L2 its strided rows can occupy is read in
// place by a workgroup of every row, so that it stays in L2 across them:
// MobileNetV2's 960>320 (a 123 KB panel, rows 3840 bytes apart at 16
// offsets within a page: 512 KB of L2). ResNet's 512>2048 (64 KB, rows 8
// KiB apart at one offset: 32 KB of L2) and 2048>512 (256 KB) keep
// workgroups of rows by 256 channels, and at batch 8 the 960>320 copies
// its panels for all the images.
// CHECK-LABEL: func.func @pointwise_960_320
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}}workgroup = [1, 7, 7, 32, 0, 0, 0], cache = [1, 1, 7, 32, 0, 0, 0], register = [1, 1, 7, 32, 1, 1, 1]
// CHECK-LABEL: func.func @pointwise_512_2048
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}}workgroup = [1, 4, 7, 256, 0, 0, 0]
// CHECK-LABEL: func.func @pointwise_2048_512
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}}workgroup = [1, 1, 7, 256, 0, 0, 0]
// CHECK-LABEL: func.func @pointwise_960_320_batch8
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}}workgroup = [8, 7, 7, 32, 0, 0, 0]
kiln.executable private @panels_in_l2 {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    builtin.module {
      func.func @pointwise_960_320() {
        %zero = arith.constant 0.0 : f32
        %xb = kiln.dispatch.binding 0 readonly : memref<1x7x7x960xf32>
        %x = bufferization.to_tensor %xb restrict : memref<1x7x7x960xf32> to tensor<1x7x7x960xf32>
        %wb = kiln.dispatch.binding 1 readonly : memref<1x1x960x320xf32>
        %w = bufferization.to_tensor %wb restrict : memref<1x1x960x320xf32> to tensor<1x1x960x320xf32>
        %e = tensor.empty() : tensor<1x7x7x320xf32>
        %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x7x7x320xf32>) -> tensor<1x7x7x320xf32>
        %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
            ins(%x, %w : tensor<1x7x7x960xf32>, tensor<1x1x960x320xf32>) outs(%f : tensor<1x7x7x320xf32>) -> tensor<1x7x7x320xf32>
        %o = kiln.dispatch.binding 2 : memref<1x7x7x320xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<1x7x7x320xf32>, memref<1x7x7x320xf32>) -> ()
        return
      }
      func.func @pointwise_512_2048() {
        %zero = arith.constant 0.0 : f32
        %xb = kiln.dispatch.binding 0 readonly : memref<1x7x7x512xf32>
        %x = bufferization.to_tensor %xb restrict : memref<1x7x7x512xf32> to tensor<1x7x7x512xf32>
        %wb = kiln.dispatch.binding 1 readonly : memref<1x1x512x2048xf32>
        %w = bufferization.to_tensor %wb restrict : memref<1x1x512x2048xf32> to tensor<1x1x512x2048xf32>
        %e = tensor.empty() : tensor<1x7x7x2048xf32>
        %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x7x7x2048xf32>) -> tensor<1x7x7x2048xf32>
        %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
            ins(%x, %w : tensor<1x7x7x512xf32>, tensor<1x1x512x2048xf32>) outs(%f : tensor<1x7x7x2048xf32>) -> tensor<1x7x7x2048xf32>
        %o = kiln.dispatch.binding 2 : memref<1x7x7x2048xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<1x7x7x2048xf32>, memref<1x7x7x2048xf32>) -> ()
        return
      }
      func.func @pointwise_2048_512() {
        %zero = arith.constant 0.0 : f32
        %xb = kiln.dispatch.binding 0 readonly : memref<1x7x7x2048xf32>
        %x = bufferization.to_tensor %xb restrict : memref<1x7x7x2048xf32> to tensor<1x7x7x2048xf32>
        %wb = kiln.dispatch.binding 1 readonly : memref<1x1x2048x512xf32>
        %w = bufferization.to_tensor %wb restrict : memref<1x1x2048x512xf32> to tensor<1x1x2048x512xf32>
        %e = tensor.empty() : tensor<1x7x7x512xf32>
        %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x7x7x512xf32>) -> tensor<1x7x7x512xf32>
        %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
            ins(%x, %w : tensor<1x7x7x2048xf32>, tensor<1x1x2048x512xf32>) outs(%f : tensor<1x7x7x512xf32>) -> tensor<1x7x7x512xf32>
        %o = kiln.dispatch.binding 2 : memref<1x7x7x512xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<1x7x7x512xf32>, memref<1x7x7x512xf32>) -> ()
        return
      }
      func.func @pointwise_960_320_batch8() {
        %zero = arith.constant 0.0 : f32
        %xb = kiln.dispatch.binding 0 readonly : memref<8x7x7x960xf32>
        %x = bufferization.to_tensor %xb restrict : memref<8x7x7x960xf32> to tensor<8x7x7x960xf32>
        %wb = kiln.dispatch.binding 1 readonly : memref<1x1x960x320xf32>
        %w = bufferization.to_tensor %wb restrict : memref<1x1x960x320xf32> to tensor<1x1x960x320xf32>
        %e = tensor.empty() : tensor<8x7x7x320xf32>
        %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x7x7x320xf32>) -> tensor<8x7x7x320xf32>
        %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
            ins(%x, %w : tensor<8x7x7x960xf32>, tensor<1x1x960x320xf32>) outs(%f : tensor<8x7x7x320xf32>) -> tensor<8x7x7x320xf32>
        %o = kiln.dispatch.binding 2 : memref<8x7x7x320xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<8x7x7x320xf32>, memref<8x7x7x320xf32>) -> ()
        return
      }
    }
  }
}

// A global average pool (7x7 to one pixel, 2048 channels): a strip of one
// pixel by 2 vectors holds 2 accumulators, each waiting on the last add
// into it; the register tile takes 8 vectors of channels instead. With 3
// pixels a strip takes 4 vectors (12 accumulators; a power of two, not
// the 3 that would make 9); with fewer than 32 channels, what there is.
// CHECK-LABEL: func.func @global_pool
// CHECK: linalg.pooling_nhwc_sum {{.*}}kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-convolution", workgroup = [1, 1, 1, 256, 0, 0], cache = [1, 1, 1, 128, 0, 0], register = [1, 1, 1, 128, 1, 1], vector = [1, 1, 1, 128, 1, 1]>
// CHECK-LABEL: func.func @three_pixels
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc {{.*}}register = [1, 1, 3, 64, 1, 1]
// CHECK-LABEL: func.func @global_pool_narrow
// CHECK: linalg.pooling_nhwc_sum {{.*}}register = [1, 1, 1, 24, 1, 1]
kiln.executable private @global_pool {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    builtin.module {
      func.func @global_pool() {
        %zero = arith.constant 0.0 : f32
        %xb = kiln.dispatch.binding 0 readonly : memref<1x7x7x2048xf32>
        %x = bufferization.to_tensor %xb restrict : memref<1x7x7x2048xf32> to tensor<1x7x7x2048xf32>
        %window = tensor.empty() : tensor<7x7xf32>
        %e = tensor.empty() : tensor<1x1x1x2048xf32>
        %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x1x2048xf32>) -> tensor<1x1x1x2048xf32>
        %r = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
            ins(%x, %window : tensor<1x7x7x2048xf32>, tensor<7x7xf32>) outs(%f : tensor<1x1x1x2048xf32>) -> tensor<1x1x1x2048xf32>
        %o = kiln.dispatch.binding 1 : memref<1x1x1x2048xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<1x1x1x2048xf32>, memref<1x1x1x2048xf32>) -> ()
        return
      }
      func.func @three_pixels() {
        %zero = arith.constant 0.0 : f32
        %xb = kiln.dispatch.binding 0 readonly : memref<1x5x5x96xf32>
        %x = bufferization.to_tensor %xb restrict : memref<1x5x5x96xf32> to tensor<1x5x5x96xf32>
        %wb = kiln.dispatch.binding 1 readonly : memref<3x3x96xf32>
        %w = bufferization.to_tensor %wb restrict : memref<3x3x96xf32> to tensor<3x3x96xf32>
        %e = tensor.empty() : tensor<1x3x3x96xf32>
        %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3x3x96xf32>) -> tensor<1x3x3x96xf32>
        %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
            ins(%x, %w : tensor<1x5x5x96xf32>, tensor<3x3x96xf32>) outs(%f : tensor<1x3x3x96xf32>) -> tensor<1x3x3x96xf32>
        %o = kiln.dispatch.binding 2 : memref<1x3x3x96xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<1x3x3x96xf32>, memref<1x3x3x96xf32>) -> ()
        return
      }
      func.func @global_pool_narrow() {
        %zero = arith.constant 0.0 : f32
        %xb = kiln.dispatch.binding 0 readonly : memref<1x7x7x24xf32>
        %x = bufferization.to_tensor %xb restrict : memref<1x7x7x24xf32> to tensor<1x7x7x24xf32>
        %window = tensor.empty() : tensor<7x7xf32>
        %e = tensor.empty() : tensor<1x1x1x24xf32>
        %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x1x24xf32>) -> tensor<1x1x1x24xf32>
        %r = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
            ins(%x, %window : tensor<1x7x7x24xf32>, tensor<7x7xf32>) outs(%f : tensor<1x1x1x24xf32>) -> tensor<1x1x1x24xf32>
        %o = kiln.dispatch.binding 1 : memref<1x1x1x24xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<1x1x1x24xf32>, memref<1x1x1x24xf32>) -> ()
        return
      }
    }
  }
}

// Filters packed in panels at compile time (generics whose output channels
// are a panel loop, 3, and 32 channels within it): a workgroup takes one
// panel. ResNet's 1x1 512>2048 (a 4 MiB filter, larger than the 1 MiB L2
// of a Zen 4): every row, so that each panel comes from L3 once per image;
// its 1x1 1024>256 (1 MiB, which L2 holds): workgroups of rows, as an
// unpacked filter's, cycling through the panels.
// CHECK-LABEL: func.func @packed_512_2048
// CHECK: linalg.generic {{.*}}kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-convolution", workgroup = [1, 7, 7, 1, 32, 0, 0, 0], cache = [1, 1, 7, 1, 32, 0, 0, 0], register = [1, 1, 7, 1, 32, 1, 1, 1], vector = [1, 1, 7, 1, 32, 1, 1, 1]>
// CHECK-LABEL: func.func @packed_1024_256
// CHECK: linalg.generic {{.*}}kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-convolution", workgroup = [1, 1, 14, 1, 32, 0, 0, 0], cache = [1, 1, 14, 1, 32, 0, 0, 0], register = [1, 1, 7, 1, 32, 1, 1, 1], vector = [1, 1, 7, 1, 32, 1, 1, 1]>
kiln.executable private @packed {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    builtin.module {
      func.func @packed_512_2048() {
        %zero = arith.constant 0.0 : f32
        %xb = kiln.dispatch.binding 0 readonly : memref<1x7x7x512xf32>
        %x = bufferization.to_tensor %xb restrict : memref<1x7x7x512xf32> to tensor<1x7x7x512xf32>
        %wb = kiln.dispatch.binding 1 readonly : memref<64x1x1x512x32xf32>
        %w = bufferization.to_tensor %wb restrict : memref<64x1x1x512x32xf32> to tensor<64x1x1x512x32xf32>
        %e = tensor.empty() : tensor<1x7x7x64x32xf32>
        %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x7x7x64x32xf32>) -> tensor<1x7x7x64x32xf32>
        %r = linalg.generic {indexing_maps = [affine_map<(n, oh, ow, fo, fi, kh, kw, c) -> (n, oh + kh, ow + kw, c)>, affine_map<(n, oh, ow, fo, fi, kh, kw, c) -> (fo, kh, kw, c, fi)>, affine_map<(n, oh, ow, fo, fi, kh, kw, c) -> (n, oh, ow, fo, fi)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
            ins(%x, %w : tensor<1x7x7x512xf32>, tensor<64x1x1x512x32xf32>) outs(%f : tensor<1x7x7x64x32xf32>) {
        ^bb0(%a: f32, %b: f32, %o: f32):
          %m = arith.mulf %a, %b : f32
          %s = arith.addf %o, %m : f32
          linalg.yield %s : f32
        } -> tensor<1x7x7x64x32xf32>
        %o = kiln.dispatch.binding 2 : memref<1x7x7x64x32xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<1x7x7x64x32xf32>, memref<1x7x7x64x32xf32>) -> ()
        return
      }
      func.func @packed_1024_256() {
        %zero = arith.constant 0.0 : f32
        %xb = kiln.dispatch.binding 0 readonly : memref<1x14x14x1024xf32>
        %x = bufferization.to_tensor %xb restrict : memref<1x14x14x1024xf32> to tensor<1x14x14x1024xf32>
        %wb = kiln.dispatch.binding 1 readonly : memref<8x1x1x1024x32xf32>
        %w = bufferization.to_tensor %wb restrict : memref<8x1x1x1024x32xf32> to tensor<8x1x1x1024x32xf32>
        %e = tensor.empty() : tensor<1x14x14x8x32xf32>
        %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x14x14x8x32xf32>) -> tensor<1x14x14x8x32xf32>
        %r = linalg.generic {indexing_maps = [affine_map<(n, oh, ow, fo, fi, kh, kw, c) -> (n, oh + kh, ow + kw, c)>, affine_map<(n, oh, ow, fo, fi, kh, kw, c) -> (fo, kh, kw, c, fi)>, affine_map<(n, oh, ow, fo, fi, kh, kw, c) -> (n, oh, ow, fo, fi)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
            ins(%x, %w : tensor<1x14x14x1024xf32>, tensor<8x1x1x1024x32xf32>) outs(%f : tensor<1x14x14x8x32xf32>) {
        ^bb0(%a: f32, %b: f32, %o: f32):
          %m = arith.mulf %a, %b : f32
          %s = arith.addf %o, %m : f32
          linalg.yield %s : f32
        } -> tensor<1x14x14x8x32xf32>
        %o = kiln.dispatch.binding 2 : memref<1x14x14x8x32xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<1x14x14x8x32xf32>, memref<1x14x14x8x32xf32>) -> ()
        return
      }
    }
  }
}

// AVX2 (16 registers: strips of at most 6 pixels by 16 channels), ResNet's
// 3x3 convolution of 512 channels at 7x7 with its filter in panels of 16
// channels. A row of 7 is strips of 4 and 3, not 6 and a peeled single
// pixel. An image read in place: one workgroup takes the panel and all 7
// rows, its part of the image (166 KB) beside the panel (295 KB) in the
// 512 KB L2. An image padded in the dispatch, which each workgroup copies:
// rows whose part fits a quarter of L2.
// CHECK-LABEL: func.func @panel_7x7_in_place
// CHECK: linalg.generic {{.*}}kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-convolution", workgroup = [1, 7, 7, 1, 16, 0, 0, 0], cache = [1, 1, 7, 1, 16, 0, 0, 0], register = [1, 1, 4, 1, 16, 1, 1, 1], vector = [1, 1, 4, 1, 16, 1, 1, 1]>
// CHECK-LABEL: func.func @panel_7x7_padded
// CHECK: linalg.generic {{.*}}kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-convolution", workgroup = [1, 4, 7, 1, 16, 0, 0, 0], cache = [1, 1, 7, 1, 16, 0, 0, 0], register = [1, 1, 4, 1, 16, 1, 1, 1], vector = [1, 1, 4, 1, 16, 1, 1, 1]>
kiln.executable private @panels_avx2 {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver3", cpu_features = "+avx,+avx2,+fma", triple = "x86_64-unknown-linux-gnu"}>) {
    builtin.module {
      func.func @panel_7x7_in_place() {
        %zero = arith.constant 0.0 : f32
        %xb = kiln.dispatch.binding 0 readonly : memref<1x9x9x512xf32>
        %x = bufferization.to_tensor %xb restrict : memref<1x9x9x512xf32> to tensor<1x9x9x512xf32>
        %wb = kiln.dispatch.binding 1 readonly : memref<32x3x3x512x16xf32>
        %w = bufferization.to_tensor %wb restrict : memref<32x3x3x512x16xf32> to tensor<32x3x3x512x16xf32>
        %e = tensor.empty() : tensor<1x7x7x32x16xf32>
        %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x7x7x32x16xf32>) -> tensor<1x7x7x32x16xf32>
        %r = linalg.generic {indexing_maps = [affine_map<(n, oh, ow, fo, fi, kh, kw, c) -> (n, oh + kh, ow + kw, c)>, affine_map<(n, oh, ow, fo, fi, kh, kw, c) -> (fo, kh, kw, c, fi)>, affine_map<(n, oh, ow, fo, fi, kh, kw, c) -> (n, oh, ow, fo, fi)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
            ins(%x, %w : tensor<1x9x9x512xf32>, tensor<32x3x3x512x16xf32>) outs(%f : tensor<1x7x7x32x16xf32>) {
        ^bb0(%a: f32, %b: f32, %o: f32):
          %m = arith.mulf %a, %b : f32
          %s = arith.addf %o, %m : f32
          linalg.yield %s : f32
        } -> tensor<1x7x7x32x16xf32>
        %o = kiln.dispatch.binding 2 : memref<1x7x7x32x16xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<1x7x7x32x16xf32>, memref<1x7x7x32x16xf32>) -> ()
        return
      }
      func.func @panel_7x7_padded() {
        %zero = arith.constant 0.0 : f32
        %xb = kiln.dispatch.binding 0 readonly : memref<1x7x7x512xf32>
        %x7 = bufferization.to_tensor %xb restrict : memref<1x7x7x512xf32> to tensor<1x7x7x512xf32>
        %x = tensor.pad %x7 low[0, 1, 1, 0] high[0, 1, 1, 0] {
        ^bb0(%i: index, %j: index, %k: index, %l: index):
          tensor.yield %zero : f32
        } : tensor<1x7x7x512xf32> to tensor<1x9x9x512xf32>
        %wb = kiln.dispatch.binding 1 readonly : memref<32x3x3x512x16xf32>
        %w = bufferization.to_tensor %wb restrict : memref<32x3x3x512x16xf32> to tensor<32x3x3x512x16xf32>
        %e = tensor.empty() : tensor<1x7x7x32x16xf32>
        %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x7x7x32x16xf32>) -> tensor<1x7x7x32x16xf32>
        %r = linalg.generic {indexing_maps = [affine_map<(n, oh, ow, fo, fi, kh, kw, c) -> (n, oh + kh, ow + kw, c)>, affine_map<(n, oh, ow, fo, fi, kh, kw, c) -> (fo, kh, kw, c, fi)>, affine_map<(n, oh, ow, fo, fi, kh, kw, c) -> (n, oh, ow, fo, fi)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
            ins(%x, %w : tensor<1x9x9x512xf32>, tensor<32x3x3x512x16xf32>) outs(%f : tensor<1x7x7x32x16xf32>) {
        ^bb0(%a: f32, %b: f32, %o: f32):
          %m = arith.mulf %a, %b : f32
          %s = arith.addf %o, %m : f32
          linalg.yield %s : f32
        } -> tensor<1x7x7x32x16xf32>
        %o = kiln.dispatch.binding 2 : memref<1x7x7x32x16xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<1x7x7x32x16xf32>, memref<1x7x7x32x16xf32>) -> ()
        return
      }
    }
  }
}

// Grouped convolutions (generics over NHWGC) with fewer output channels
// per group than a vector's 16 lanes: register tiles of as many groups as
// fill a vector (ResNeXt's 4 channels per group: 4 groups; 8: 2), the
// workgroup and cache tiles of as many, the filter window and input
// channels whole (0). Workgroups of rows of about 8K outputs.
// CHECK-LABEL: func.func @resnext_4_per_group
// CHECK: linalg.generic {{.*}}kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-convolution", workgroup = [1, 9, 56, 4, 4, 0, 0, 0], cache = [1, 1, 56, 4, 4, 0, 0, 0], register = [1, 1, 14, 4, 4, 0, 0, 0], vector = [1, 1, 14, 4, 4, 0, 0, 0]>
// CHECK-LABEL: func.func @resnext_8_per_group_s2
// CHECK: linalg.generic {{.*}}kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-convolution", workgroup = [1, 14, 14, 2, 8, 0, 0, 0], cache = [1, 1, 14, 2, 8, 0, 0, 0], register = [1, 1, 14, 2, 8, 0, 0, 0], vector = [1, 1, 14, 2, 8, 0, 0, 0]>
// A vector's worth of channels per group, and groups that a vector's
// share does not divide (3 groups of 4), keep workgroups of one group.
// CHECK-LABEL: func.func @resnext_16_per_group
// CHECK: linalg.generic {{.*}}register = [1, 1, 14, 1, 16, 1, 1, 1]
// CHECK-LABEL: func.func @three_groups
// CHECK: linalg.generic {{.*}}register = [1, 1, 14, 1, 4, 1, 1, 1]
// A row width known only at run time: register tiles of several groups
// need a static shape, so one group per workgroup.
// CHECK-LABEL: func.func @dynamic_width
// CHECK: linalg.generic {{.*}}workgroup = [1, {{[0-9]+}}, {{[0-9]+}}, 1, 4,
kiln.executable private @grouped {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    builtin.module {
      func.func @resnext_4_per_group() {
        %zero = arith.constant 0.0 : f32
        %xb = kiln.dispatch.binding 0 readonly : memref<1x58x58x32x4xf32>
        %x = bufferization.to_tensor %xb restrict : memref<1x58x58x32x4xf32> to tensor<1x58x58x32x4xf32>
        %wb = kiln.dispatch.binding 1 readonly : memref<3x3x32x4x4xf32>
        %w = bufferization.to_tensor %wb restrict : memref<3x3x32x4x4xf32> to tensor<3x3x32x4x4xf32>
        %e = tensor.empty() : tensor<1x56x56x32x4xf32>
        %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x56x56x32x4xf32>) -> tensor<1x56x56x32x4xf32>
        %r = linalg.generic {indexing_maps = [affine_map<(n, oh, ow, g, f, kh, kw, c) -> (n, oh * 1 + kh, ow * 1 + kw, g, c)>, affine_map<(n, oh, ow, g, f, kh, kw, c) -> (kh, kw, g, c, f)>, affine_map<(n, oh, ow, g, f, kh, kw, c) -> (n, oh, ow, g, f)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
            ins(%x, %w : tensor<1x58x58x32x4xf32>, tensor<3x3x32x4x4xf32>) outs(%f : tensor<1x56x56x32x4xf32>) {
        ^bb0(%a: f32, %b: f32, %o: f32):
          %m = arith.mulf %a, %b : f32
          %s = arith.addf %o, %m : f32
          linalg.yield %s : f32
        } -> tensor<1x56x56x32x4xf32>
        %o = kiln.dispatch.binding 2 : memref<1x56x56x32x4xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<1x56x56x32x4xf32>, memref<1x56x56x32x4xf32>) -> ()
        return
      }
      func.func @resnext_8_per_group_s2() {
        %zero = arith.constant 0.0 : f32
        %xb = kiln.dispatch.binding 0 readonly : memref<1x29x29x32x8xf32>
        %x = bufferization.to_tensor %xb restrict : memref<1x29x29x32x8xf32> to tensor<1x29x29x32x8xf32>
        %wb = kiln.dispatch.binding 1 readonly : memref<3x3x32x8x8xf32>
        %w = bufferization.to_tensor %wb restrict : memref<3x3x32x8x8xf32> to tensor<3x3x32x8x8xf32>
        %e = tensor.empty() : tensor<1x14x14x32x8xf32>
        %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x14x14x32x8xf32>) -> tensor<1x14x14x32x8xf32>
        %r = linalg.generic {indexing_maps = [affine_map<(n, oh, ow, g, f, kh, kw, c) -> (n, oh * 2 + kh, ow * 2 + kw, g, c)>, affine_map<(n, oh, ow, g, f, kh, kw, c) -> (kh, kw, g, c, f)>, affine_map<(n, oh, ow, g, f, kh, kw, c) -> (n, oh, ow, g, f)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
            ins(%x, %w : tensor<1x29x29x32x8xf32>, tensor<3x3x32x8x8xf32>) outs(%f : tensor<1x14x14x32x8xf32>) {
        ^bb0(%a: f32, %b: f32, %o: f32):
          %m = arith.mulf %a, %b : f32
          %s = arith.addf %o, %m : f32
          linalg.yield %s : f32
        } -> tensor<1x14x14x32x8xf32>
        %o = kiln.dispatch.binding 2 : memref<1x14x14x32x8xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<1x14x14x32x8xf32>, memref<1x14x14x32x8xf32>) -> ()
        return
      }
      func.func @resnext_16_per_group() {
        %zero = arith.constant 0.0 : f32
        %xb = kiln.dispatch.binding 0 readonly : memref<1x30x30x32x16xf32>
        %x = bufferization.to_tensor %xb restrict : memref<1x30x30x32x16xf32> to tensor<1x30x30x32x16xf32>
        %wb = kiln.dispatch.binding 1 readonly : memref<3x3x32x16x16xf32>
        %w = bufferization.to_tensor %wb restrict : memref<3x3x32x16x16xf32> to tensor<3x3x32x16x16xf32>
        %e = tensor.empty() : tensor<1x28x28x32x16xf32>
        %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x28x28x32x16xf32>) -> tensor<1x28x28x32x16xf32>
        %r = linalg.generic {indexing_maps = [affine_map<(n, oh, ow, g, f, kh, kw, c) -> (n, oh * 1 + kh, ow * 1 + kw, g, c)>, affine_map<(n, oh, ow, g, f, kh, kw, c) -> (kh, kw, g, c, f)>, affine_map<(n, oh, ow, g, f, kh, kw, c) -> (n, oh, ow, g, f)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
            ins(%x, %w : tensor<1x30x30x32x16xf32>, tensor<3x3x32x16x16xf32>) outs(%f : tensor<1x28x28x32x16xf32>) {
        ^bb0(%a: f32, %b: f32, %o: f32):
          %m = arith.mulf %a, %b : f32
          %s = arith.addf %o, %m : f32
          linalg.yield %s : f32
        } -> tensor<1x28x28x32x16xf32>
        %o = kiln.dispatch.binding 2 : memref<1x28x28x32x16xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<1x28x28x32x16xf32>, memref<1x28x28x32x16xf32>) -> ()
        return
      }
      func.func @three_groups() {
        %zero = arith.constant 0.0 : f32
        %xb = kiln.dispatch.binding 0 readonly : memref<1x30x30x3x4xf32>
        %x = bufferization.to_tensor %xb restrict : memref<1x30x30x3x4xf32> to tensor<1x30x30x3x4xf32>
        %wb = kiln.dispatch.binding 1 readonly : memref<3x3x3x4x4xf32>
        %w = bufferization.to_tensor %wb restrict : memref<3x3x3x4x4xf32> to tensor<3x3x3x4x4xf32>
        %e = tensor.empty() : tensor<1x28x28x3x4xf32>
        %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x28x28x3x4xf32>) -> tensor<1x28x28x3x4xf32>
        %r = linalg.generic {indexing_maps = [affine_map<(n, oh, ow, g, f, kh, kw, c) -> (n, oh * 1 + kh, ow * 1 + kw, g, c)>, affine_map<(n, oh, ow, g, f, kh, kw, c) -> (kh, kw, g, c, f)>, affine_map<(n, oh, ow, g, f, kh, kw, c) -> (n, oh, ow, g, f)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
            ins(%x, %w : tensor<1x30x30x3x4xf32>, tensor<3x3x3x4x4xf32>) outs(%f : tensor<1x28x28x3x4xf32>) {
        ^bb0(%a: f32, %b: f32, %o: f32):
          %m = arith.mulf %a, %b : f32
          %s = arith.addf %o, %m : f32
          linalg.yield %s : f32
        } -> tensor<1x28x28x3x4xf32>
        %o = kiln.dispatch.binding 2 : memref<1x28x28x3x4xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<1x28x28x3x4xf32>, memref<1x28x28x3x4xf32>) -> ()
        return
      }
      func.func @dynamic_width(%x: tensor<1x30x?x32x4xf32>, %w: tensor<3x3x32x4x4xf32>, %init: tensor<1x28x?x32x4xf32>) -> tensor<1x28x?x32x4xf32> {
        %r = linalg.generic {indexing_maps = [affine_map<(n, oh, ow, g, f, kh, kw, c) -> (n, oh + kh, ow + kw, g, c)>, affine_map<(n, oh, ow, g, f, kh, kw, c) -> (kh, kw, g, c, f)>, affine_map<(n, oh, ow, g, f, kh, kw, c) -> (n, oh, ow, g, f)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
            ins(%x, %w : tensor<1x30x?x32x4xf32>, tensor<3x3x32x4x4xf32>) outs(%init : tensor<1x28x?x32x4xf32>) {
        ^bb0(%a: f32, %b: f32, %o: f32):
          %m = arith.mulf %a, %b : f32
          %s = arith.addf %o, %m : f32
          linalg.yield %s : f32
        } -> tensor<1x28x?x32x4xf32>
        return %r : tensor<1x28x?x32x4xf32>
      }
    }
  }
}


// Output channels between one vector and two but not whole vectors
// (MobileNetV2's 1x1 projections to 24): register tiles of 8 channels,
// the largest power of two dividing 24, not one odd vector of 24 that LLVM
// splits and shuffles.
// CHECK-LABEL: func.func @pointwise_144_24
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}}register = [1, 1, {{[0-9]+}}, 8, 1, 1, 1]
kiln.executable private @odd_channels {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    builtin.module {
      func.func @pointwise_144_24() {
        %zero = arith.constant 0.0 : f32
        %xb = kiln.dispatch.binding 0 readonly : memref<1x56x56x144xf32>
        %x = bufferization.to_tensor %xb restrict : memref<1x56x56x144xf32> to tensor<1x56x56x144xf32>
        %wb = kiln.dispatch.binding 1 readonly : memref<1x1x144x24xf32>
        %w = bufferization.to_tensor %wb restrict : memref<1x1x144x24xf32> to tensor<1x1x144x24xf32>
        %e = tensor.empty() : tensor<1x56x56x24xf32>
        %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x56x56x24xf32>) -> tensor<1x56x56x24xf32>
        %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
            ins(%x, %w : tensor<1x56x56x144xf32>, tensor<1x1x144x24xf32>) outs(%f : tensor<1x56x56x24xf32>) -> tensor<1x56x56x24xf32>
        %o = kiln.dispatch.binding 2 : memref<1x56x56x24xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<1x56x56x24xf32>, memref<1x56x56x24xf32>) -> ()
        return
      }
    }
  }
}

// Over a width known only at run time, a workgroup takes whole rows with
// the width loop untiled (0), not a tile of 2^20 or of 1024 that tiling
// would peel for every image narrower than it: a 1x1 convolution (which
// copies no part of the image) and a depthwise one (padded per strip).
// CHECK-LABEL: func.func @dynamic_width_1x1
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}}workgroup = [1, 1, 0, 88, 0, 0, 0], cache = [1, 1, 0, 32, 0, 0, 0], register = [1, 1, 8, 32, 1, 1, 1]
// CHECK-LABEL: func.func @dynamic_width_depthwise
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc {{.*}}workgroup = [1, 1, 0, 88, 0, 0], cache = [1, 1, 0, 32, 0, 0], register = [1, 1, 8, 32, 1, 1]
kiln.executable private @dynamic_widths {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    builtin.module {
      func.func @dynamic_width_1x1() {
        %zero = arith.constant 0.0 : f32
        %h = kiln.dispatch.constant 0 : index
        %w = kiln.dispatch.constant 1 : index
        %xb = kiln.dispatch.binding 0 readonly : memref<1x?x?x16xf32>{%h, %w}
        %x = bufferization.to_tensor %xb restrict : memref<1x?x?x16xf32> to tensor<1x?x?x16xf32>
        %fb = kiln.dispatch.binding 1 readonly : memref<1x1x16x88xf32>
        %filter = bufferization.to_tensor %fb restrict : memref<1x1x16x88xf32> to tensor<1x1x16x88xf32>
        %e = tensor.empty(%h, %w) : tensor<1x?x?x88xf32>
        %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x?x?x88xf32>) -> tensor<1x?x?x88xf32>
        %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
            ins(%x, %filter : tensor<1x?x?x16xf32>, tensor<1x1x16x88xf32>) outs(%f : tensor<1x?x?x88xf32>) -> tensor<1x?x?x88xf32>
        %ob = kiln.dispatch.binding 2 : memref<1x?x?x88xf32>{%h, %w}
        bufferization.materialize_in_destination %r in restrict writable %ob : (tensor<1x?x?x88xf32>, memref<1x?x?x88xf32>) -> ()
        return
      }
      func.func @dynamic_width_depthwise() {
        %zero = arith.constant 0.0 : f32
        %h = kiln.dispatch.constant 0 : index
        %w = kiln.dispatch.constant 1 : index
        %xb = kiln.dispatch.binding 0 readonly : memref<1x?x?x88xf32>{%h, %w}
        %x = bufferization.to_tensor %xb restrict : memref<1x?x?x88xf32> to tensor<1x?x?x88xf32>
        %fb = kiln.dispatch.binding 1 readonly : memref<5x5x88xf32>
        %filter = bufferization.to_tensor %fb restrict : memref<5x5x88xf32> to tensor<5x5x88xf32>
        %p = tensor.pad %x low[0, 2, 2, 0] high[0, 2, 2, 0] {
        ^bb0(%i: index, %j: index, %k: index, %l: index):
          tensor.yield %zero : f32
        } : tensor<1x?x?x88xf32> to tensor<1x?x?x88xf32>
        %e = tensor.empty(%h, %w) : tensor<1x?x?x88xf32>
        %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x?x?x88xf32>) -> tensor<1x?x?x88xf32>
        %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
            ins(%p, %filter : tensor<1x?x?x88xf32>, tensor<5x5x88xf32>) outs(%f : tensor<1x?x?x88xf32>) -> tensor<1x?x?x88xf32>
        %ob = kiln.dispatch.binding 2 : memref<1x?x?x88xf32>{%h, %w}
        bufferization.materialize_in_destination %r in restrict writable %ob : (tensor<1x?x?x88xf32>, memref<1x?x?x88xf32>) -> ()
        return
      }
    }
  }
}
