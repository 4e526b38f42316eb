// RUN: kiln-opt %s --transform-interpreter --split-input-file -verify-diagnostics

// Configs code generation cannot honor fail the spec at the action.

kiln.executable private @ex {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "x86-64"}>) {
    kiln.executable.export public @kernel workgroups() -> (index, index, index) {
      %x, %y, %z = kiln.workgroup_count_from_workload()
      kiln.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @kernel(%a: tensor<512x128xf32>, %b: tensor<128x256xf32>, %c: tensor<512x256xf32>) -> tensor<512x256xf32> {
        // expected-note @below {{the op}}
        %mm = linalg.matmul ins(%a, %b : tensor<512x128xf32>, tensor<128x256xf32>) outs(%c : tensor<512x256xf32>) -> tensor<512x256xf32>
        return %mm : tensor<512x256xf32>
      }
    }
  }
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{sets a lowering config that code generation cannot honor on 'linalg.matmul': lowering config 'workgroup' has 2 sizes but the op has 3 loops}}
    transform.kiln.set_lowering_config %mm (#kiln.lowering_config<pipeline = "cpu-contraction", workgroup = [64, 128]>) : !transform.any_op
    transform.yield
  }
}

// -----

kiln.executable private @ex {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "x86-64"}>) {
    kiln.executable.export public @kernel workgroups() -> (index, index, index) {
      %x, %y, %z = kiln.workgroup_count_from_workload()
      kiln.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @kernel(%a: tensor<512x128xf32>, %b: tensor<128x256xf32>, %c: tensor<512x256xf32>) -> tensor<512x256xf32> {
        // expected-note @below {{the op}}
        %mm = linalg.matmul ins(%a, %b : tensor<512x128xf32>, tensor<128x256xf32>) outs(%c : tensor<512x256xf32>) -> tensor<512x256xf32>
        return %mm : tensor<512x256xf32>
      }
    }
  }
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{sets a lowering config that code generation cannot honor on 'linalg.matmul': pipeline 'cpu-fast' is not one the llvm-cpu backend has (it has cpu-contraction, cpu-convolution, cpu-elementwise, cpu-reduction and cpu-default)}}
    transform.kiln.set_lowering_config %mm (#kiln.lowering_config<pipeline = "cpu-fast", workgroup = [64, 128, 0]>) : !transform.any_op
    transform.yield
  }
}

// -----

kiln.executable private @ex {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "x86-64"}>) {
    kiln.executable.export public @kernel workgroups() -> (index, index, index) {
      %x, %y, %z = kiln.workgroup_count_from_workload()
      kiln.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @kernel(%r: tensor<64x1000xf32>, %acc: tensor<64xf32>) -> tensor<64xf32> {
        // expected-note @below {{the op}}
        %sum = linalg.reduce ins(%r : tensor<64x1000xf32>) outs(%acc : tensor<64xf32>) dimensions = [1]
          (%x: f32, %y: f32) {
            %s = arith.addf %x, %y : f32
            linalg.yield %s : f32
          }
        return %sum : tensor<64xf32>
      }
    }
  }
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %r = transform.structured.match ops{["linalg.reduce"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{pipeline 'cpu-contraction' needs a contraction, and 'linalg.reduce' is none}}
    transform.kiln.set_lowering_config %r (#kiln.lowering_config<pipeline = "cpu-contraction", workgroup = [8, 0]>) : !transform.any_op
    transform.yield
  }
}

// -----

kiln.executable private @ex {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "x86-64"}>) {
    kiln.executable.export public @kernel workgroups() -> (index, index, index) {
      %x, %y, %z = kiln.workgroup_count_from_workload()
      kiln.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @kernel(%a: tensor<512x128xf32>, %b: tensor<128x256xf32>, %c: tensor<512x256xf32>) -> tensor<512x256xf32> {
        // expected-note @below {{the op}}
        %mm = linalg.matmul ins(%a, %b : tensor<512x128xf32>, tensor<128x256xf32>) outs(%c : tensor<512x256xf32>) -> tensor<512x256xf32>
        return %mm : tensor<512x256xf32>
      }
    }
  }
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{its register tile holds 8192 elements, more than vector registers hold (at most 4096)}}
    transform.kiln.set_lowering_config %mm (#kiln.lowering_config<pipeline = "cpu-contraction", workgroup = [64, 128, 0], register = [64, 128, 1]>) : !transform.any_op
    transform.yield
  }
}

// -----

kiln.executable private @ex {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "x86-64"}>) {
    kiln.executable.export public @kernel workgroups() -> (index, index, index) {
      %x, %y, %z = kiln.workgroup_count_from_workload()
      kiln.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @kernel(%a: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
        // expected-note @below {{the op}}
        %mm = linalg.matmul ins(%a, %a : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
        return %mm : tensor<64x64xf32>
      }
    }
  }
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{sets a lowering config that code generation cannot honor on 'linalg.matmul': pipeline 'cpu-convolution' needs a convolution or pooling, and 'linalg.matmul' is none}}
    transform.kiln.set_lowering_config %mm (#kiln.lowering_config<pipeline = "cpu-convolution", workgroup = [8, 32, 0], register = [8, 32, 1]>) : !transform.any_op
    transform.yield
  }
}

// -----

// A convolution's register tile must be a 1-D convolution: one output row
// and one filter row (or one column of each).
kiln.executable private @ex {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "x86-64"}>) {
    kiln.executable.export public @kernel workgroups() -> (index, index, index) {
      %x, %y, %z = kiln.workgroup_count_from_workload()
      kiln.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @kernel(%img: tensor<1x10x10x8xf32>, %f: tensor<3x3x8x16xf32>, %c: tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32> {
        // expected-note @below {{the op}}
        %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
            ins(%img, %f : tensor<1x10x10x8xf32>, tensor<3x3x8x16xf32>) outs(%c : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
        return %conv : tensor<1x8x8x16xf32>
      }
    }
  }
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %conv = transform.structured.match ops{["linalg.conv_2d_nhwc_hwcf"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{sets a lowering config that code generation cannot honor on 'linalg.conv_2d_nhwc_hwcf': its register tile [1, 2, 4, 16, 1, 1, 1] must be 1 along an output image loop and the filter loop beside it (loops 1 and 4, or 2 and 5): a tile of one output row is what vectorizes}}
    transform.kiln.set_lowering_config %conv (#kiln.lowering_config<pipeline = "cpu-convolution", workgroup = [1, 4, 8, 16, 0, 0, 0], register = [1, 2, 4, 16, 1, 1, 1]>) : !transform.any_op
    transform.yield
  }
}

// -----

// A workgroup of a grouped convolution (a generic with a group loop, 3,
// beside its input and output channels) takes one group.
kiln.executable private @ex {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "x86-64"}>) {
    kiln.executable.export public @kernel workgroups() -> (index, index, index) {
      %x, %y, %z = kiln.workgroup_count_from_workload()
      kiln.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @kernel(%img: tensor<1x10x10x4x8xf32>, %f: tensor<3x3x4x8x16xf32>, %c: tensor<1x8x8x4x16xf32>) -> tensor<1x8x8x4x16xf32> {
        // expected-note @below {{the op}}
        %conv = linalg.generic {indexing_maps = [affine_map<(n, oh, ow, g, f, kh, kw, c) -> (n, oh + kh, ow + kw, g, c)>, affine_map<(n, oh, ow, g, f, kh, kw, c) -> (kh, kw, g, c, f)>, affine_map<(n, oh, ow, g, f, kh, kw, c) -> (n, oh, ow, g, f)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
            ins(%img, %f : tensor<1x10x10x4x8xf32>, tensor<3x3x4x8x16xf32>) outs(%c : tensor<1x8x8x4x16xf32>) {
        ^bb0(%a: f32, %b: f32, %o: f32):
          %m = arith.mulf %a, %b : f32
          %s = arith.addf %o, %m : f32
          linalg.yield %s : f32
        } -> tensor<1x8x8x4x16xf32>
        return %conv : tensor<1x8x8x4x16xf32>
      }
    }
  }
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %conv = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{sets a lowering config that code generation cannot honor on 'linalg.generic': its workgroup tile [1, 1, 8, 2, 16, 0, 0, 0] must be 1 along the group loop 3: a workgroup takes one group}}
    transform.kiln.set_lowering_config %conv (#kiln.lowering_config<pipeline = "cpu-convolution", workgroup = [1, 1, 8, 2, 16, 0, 0, 0], register = [1, 1, 8, 1, 16, 1, 1, 1]>) : !transform.any_op
    transform.yield
  }
}

// -----

// A workgroup of a convolution whose filter is packed in panels (a generic
// whose output channels are the panel loop 3 and the channel within it, 4)
// takes one panel.
kiln.executable private @ex {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "x86-64"}>) {
    kiln.executable.export public @kernel workgroups() -> (index, index, index) {
      %x, %y, %z = kiln.workgroup_count_from_workload()
      kiln.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @kernel(%img: tensor<1x10x10x8xf32>, %f: tensor<4x3x3x8x16xf32>, %c: tensor<1x8x8x4x16xf32>) -> tensor<1x8x8x4x16xf32> {
        // expected-note @below {{the op}}
        %conv = linalg.generic {indexing_maps = [affine_map<(n, oh, ow, g, f, kh, kw, c) -> (n, oh + kh, ow + kw, c)>, affine_map<(n, oh, ow, g, f, kh, kw, c) -> (g, kh, kw, c, f)>, affine_map<(n, oh, ow, g, f, kh, kw, c) -> (n, oh, ow, g, f)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
            ins(%img, %f : tensor<1x10x10x8xf32>, tensor<4x3x3x8x16xf32>) outs(%c : tensor<1x8x8x4x16xf32>) {
        ^bb0(%a: f32, %b: f32, %o: f32):
          %m = arith.mulf %a, %b : f32
          %s = arith.addf %o, %m : f32
          linalg.yield %s : f32
        } -> tensor<1x8x8x4x16xf32>
        return %conv : tensor<1x8x8x4x16xf32>
      }
    }
  }
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %conv = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{sets a lowering config that code generation cannot honor on 'linalg.generic': its workgroup tile [1, 1, 8, 2, 16, 0, 0, 0] must be 1 along the filter panel loop 3: a workgroup takes one filter panel}}
    transform.kiln.set_lowering_config %conv (#kiln.lowering_config<pipeline = "cpu-convolution", workgroup = [1, 1, 8, 2, 16, 0, 0, 0], register = [1, 1, 8, 1, 16, 1, 1, 1]>) : !transform.any_op
    transform.yield
  }
}

// -----

// A register tile of several groups (loop 3) needs workgroups of as many.
kiln.executable private @ex {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "x86-64"}>) {
    kiln.executable.export public @kernel workgroups() -> (index, index, index) {
      %x, %y, %z = kiln.workgroup_count_from_workload()
      kiln.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @kernel(%img: tensor<1x10x10x8x4xf32>, %f: tensor<3x3x8x4x8xf32>, %c: tensor<1x8x8x8x8xf32>) -> tensor<1x8x8x8x8xf32> {
        // expected-note @below {{the op}}
        %conv = linalg.generic {indexing_maps = [affine_map<(n, oh, ow, g, f, kh, kw, c) -> (n, oh + kh, ow + kw, g, c)>, affine_map<(n, oh, ow, g, f, kh, kw, c) -> (kh, kw, g, c, f)>, affine_map<(n, oh, ow, g, f, kh, kw, c) -> (n, oh, ow, g, f)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
            ins(%img, %f : tensor<1x10x10x8x4xf32>, tensor<3x3x8x4x8xf32>) outs(%c : tensor<1x8x8x8x8xf32>) {
        ^bb0(%a: f32, %b: f32, %o: f32):
          %m = arith.mulf %a, %b : f32
          %s = arith.addf %o, %m : f32
          linalg.yield %s : f32
        } -> tensor<1x8x8x8x8xf32>
        return %conv : tensor<1x8x8x8x8xf32>
      }
    }
  }
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %conv = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{sets a lowering config that code generation cannot honor on 'linalg.generic': its register tile takes 2 groups (loop 3): its workgroup and cache tiles must take as many, a divisor of the 8 groups}}
    transform.kiln.set_lowering_config %conv (#kiln.lowering_config<pipeline = "cpu-convolution", workgroup = [1, 1, 8, 1, 8, 0, 0, 0], register = [1, 1, 8, 2, 8, 0, 0, 0]>) : !transform.any_op
    transform.yield
  }
}

// -----

// ... and groups that divide the convolution's.
kiln.executable private @ex {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "x86-64"}>) {
    kiln.executable.export public @kernel workgroups() -> (index, index, index) {
      %x, %y, %z = kiln.workgroup_count_from_workload()
      kiln.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @kernel(%img: tensor<1x10x10x8x4xf32>, %f: tensor<3x3x8x4x8xf32>, %c: tensor<1x8x8x8x8xf32>) -> tensor<1x8x8x8x8xf32> {
        // expected-note @below {{the op}}
        %conv = linalg.generic {indexing_maps = [affine_map<(n, oh, ow, g, f, kh, kw, c) -> (n, oh + kh, ow + kw, g, c)>, affine_map<(n, oh, ow, g, f, kh, kw, c) -> (kh, kw, g, c, f)>, affine_map<(n, oh, ow, g, f, kh, kw, c) -> (n, oh, ow, g, f)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
            ins(%img, %f : tensor<1x10x10x8x4xf32>, tensor<3x3x8x4x8xf32>) outs(%c : tensor<1x8x8x8x8xf32>) {
        ^bb0(%a: f32, %b: f32, %o: f32):
          %m = arith.mulf %a, %b : f32
          %s = arith.addf %o, %m : f32
          linalg.yield %s : f32
        } -> tensor<1x8x8x8x8xf32>
        return %conv : tensor<1x8x8x8x8xf32>
      }
    }
  }
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %conv = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{sets a lowering config that code generation cannot honor on 'linalg.generic': its register tile takes 3 groups (loop 3): its workgroup and cache tiles must take as many, a divisor of the 8 groups}}
    transform.kiln.set_lowering_config %conv (#kiln.lowering_config<pipeline = "cpu-convolution", workgroup = [1, 1, 8, 3, 8, 0, 0, 0], register = [1, 1, 8, 3, 8, 0, 0, 0]>) : !transform.any_op
    transform.yield
  }
}

// -----

// ... and every output channel of its groups (loop 4), the lanes being (group, channel).
kiln.executable private @ex {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "x86-64"}>) {
    kiln.executable.export public @kernel workgroups() -> (index, index, index) {
      %x, %y, %z = kiln.workgroup_count_from_workload()
      kiln.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @kernel(%img: tensor<1x10x10x8x4xf32>, %f: tensor<3x3x8x4x8xf32>, %c: tensor<1x8x8x8x8xf32>) -> tensor<1x8x8x8x8xf32> {
        // expected-note @below {{the op}}
        %conv = linalg.generic {indexing_maps = [affine_map<(n, oh, ow, g, f, kh, kw, c) -> (n, oh + kh, ow + kw, g, c)>, affine_map<(n, oh, ow, g, f, kh, kw, c) -> (kh, kw, g, c, f)>, affine_map<(n, oh, ow, g, f, kh, kw, c) -> (n, oh, ow, g, f)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
            ins(%img, %f : tensor<1x10x10x8x4xf32>, tensor<3x3x8x4x8xf32>) outs(%c : tensor<1x8x8x8x8xf32>) {
        ^bb0(%a: f32, %b: f32, %o: f32):
          %m = arith.mulf %a, %b : f32
          %s = arith.addf %o, %m : f32
          linalg.yield %s : f32
        } -> tensor<1x8x8x8x8xf32>
        return %conv : tensor<1x8x8x8x8xf32>
      }
    }
  }
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %conv = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{sets a lowering config that code generation cannot honor on 'linalg.generic': its register tile takes several groups: its workgroup, cache and register tiles must take every output channel of a group (loop 4)}}
    transform.kiln.set_lowering_config %conv (#kiln.lowering_config<pipeline = "cpu-convolution", workgroup = [1, 1, 8, 2, 4, 0, 0, 0], cache = [1, 1, 8, 2, 4, 0, 0, 0], register = [1, 1, 8, 2, 4, 0, 0, 0]>) : !transform.any_op
    transform.yield
  }
}

// -----

// ... one output row (loop 1).
kiln.executable private @ex {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "x86-64"}>) {
    kiln.executable.export public @kernel workgroups() -> (index, index, index) {
      %x, %y, %z = kiln.workgroup_count_from_workload()
      kiln.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @kernel(%img: tensor<1x10x10x8x4xf32>, %f: tensor<3x3x8x4x8xf32>, %c: tensor<1x8x8x8x8xf32>) -> tensor<1x8x8x8x8xf32> {
        // expected-note @below {{the op}}
        %conv = linalg.generic {indexing_maps = [affine_map<(n, oh, ow, g, f, kh, kw, c) -> (n, oh + kh, ow + kw, g, c)>, affine_map<(n, oh, ow, g, f, kh, kw, c) -> (kh, kw, g, c, f)>, affine_map<(n, oh, ow, g, f, kh, kw, c) -> (n, oh, ow, g, f)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
            ins(%img, %f : tensor<1x10x10x8x4xf32>, tensor<3x3x8x4x8xf32>) outs(%c : tensor<1x8x8x8x8xf32>) {
        ^bb0(%a: f32, %b: f32, %o: f32):
          %m = arith.mulf %a, %b : f32
          %s = arith.addf %o, %m : f32
          linalg.yield %s : f32
        } -> tensor<1x8x8x8x8xf32>
        return %conv : tensor<1x8x8x8x8xf32>
      }
    }
  }
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %conv = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{sets a lowering config that code generation cannot honor on 'linalg.generic': its register tile takes several groups: it must be 1 along loop 1 (a batch or output row loop)}}
    transform.kiln.set_lowering_config %conv (#kiln.lowering_config<pipeline = "cpu-convolution", workgroup = [1, 2, 8, 2, 8, 0, 0, 0], register = [1, 2, 8, 2, 8, 0, 0, 0]>) : !transform.any_op
    transform.yield
  }
}

// -----

// ... and the filter window and input channels whole: its own loops run over them.
kiln.executable private @ex {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "x86-64"}>) {
    kiln.executable.export public @kernel workgroups() -> (index, index, index) {
      %x, %y, %z = kiln.workgroup_count_from_workload()
      kiln.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @kernel(%img: tensor<1x10x10x8x4xf32>, %f: tensor<3x3x8x4x8xf32>, %c: tensor<1x8x8x8x8xf32>) -> tensor<1x8x8x8x8xf32> {
        // expected-note @below {{the op}}
        %conv = linalg.generic {indexing_maps = [affine_map<(n, oh, ow, g, f, kh, kw, c) -> (n, oh + kh, ow + kw, g, c)>, affine_map<(n, oh, ow, g, f, kh, kw, c) -> (kh, kw, g, c, f)>, affine_map<(n, oh, ow, g, f, kh, kw, c) -> (n, oh, ow, g, f)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
            ins(%img, %f : tensor<1x10x10x8x4xf32>, tensor<3x3x8x4x8xf32>) outs(%c : tensor<1x8x8x8x8xf32>) {
        ^bb0(%a: f32, %b: f32, %o: f32):
          %m = arith.mulf %a, %b : f32
          %s = arith.addf %o, %m : f32
          linalg.yield %s : f32
        } -> tensor<1x8x8x8x8xf32>
        return %conv : tensor<1x8x8x8x8xf32>
      }
    }
  }
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %conv = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{sets a lowering config that code generation cannot honor on 'linalg.generic': its register tile takes several groups: it must take all of loop 5 (0), a filter or input-channel loop}}
    transform.kiln.set_lowering_config %conv (#kiln.lowering_config<pipeline = "cpu-convolution", workgroup = [1, 1, 8, 2, 8, 0, 0, 0], register = [1, 1, 8, 2, 8, 1, 1, 1]>) : !transform.any_op
    transform.yield
  }
}

// -----

// ... and static loops but for the batch (a register tile's shape is).
kiln.executable private @ex {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "x86-64"}>) {
    kiln.executable.export public @kernel workgroups() -> (index, index, index) {
      %x, %y, %z = kiln.workgroup_count_from_workload()
      kiln.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @kernel(%img: tensor<1x10x?x8x4xf32>, %f: tensor<3x3x8x4x8xf32>, %c: tensor<1x8x?x8x8xf32>) -> tensor<1x8x?x8x8xf32> {
        // expected-note @below {{the op}}
        %conv = linalg.generic {indexing_maps = [affine_map<(n, oh, ow, g, f, kh, kw, c) -> (n, oh + kh, ow + kw, g, c)>, affine_map<(n, oh, ow, g, f, kh, kw, c) -> (kh, kw, g, c, f)>, affine_map<(n, oh, ow, g, f, kh, kw, c) -> (n, oh, ow, g, f)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
            ins(%img, %f : tensor<1x10x?x8x4xf32>, tensor<3x3x8x4x8xf32>) outs(%c : tensor<1x8x?x8x8xf32>) {
        ^bb0(%a: f32, %b: f32, %o: f32):
          %m = arith.mulf %a, %b : f32
          %s = arith.addf %o, %m : f32
          linalg.yield %s : f32
        } -> tensor<1x8x?x8x8xf32>
        return %conv : tensor<1x8x?x8x8xf32>
      }
    }
  }
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %conv = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{sets a lowering config that code generation cannot honor on 'linalg.generic': its register tile takes several groups: loop 2 must be static (only a batch may be dynamic)}}
    transform.kiln.set_lowering_config %conv (#kiln.lowering_config<pipeline = "cpu-convolution", workgroup = [1, 1, 8, 2, 8, 0, 0, 0], register = [1, 1, 8, 2, 8, 0, 0, 0]>) : !transform.any_op
    transform.yield
  }
}
