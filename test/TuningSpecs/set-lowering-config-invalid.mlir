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
