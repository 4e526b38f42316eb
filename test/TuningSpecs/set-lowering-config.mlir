// RUN: kiln-opt %s --transform-interpreter | FileCheck %s

// transform.kiln.set_lowering_config sets the config and records what set
// it; the first config wins, later ones are recorded as overridden; a
// config given in the input program stays.

// CHECK-LABEL: func.func @kernel
// CHECK:         linalg.matmul
// CHECK-SAME:      kiln.configured_by = {location = "{{.*}}set-lowering-config.mlir:{{[0-9]+}}:{{[0-9]+}}", overridden = ["{{.*}}set-lowering-config.mlir @set_small ({{.*}})"], sequence = "set_big", spec = "{{.*}}set-lowering-config.mlir"}
// CHECK-SAME:      kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-contraction", workgroup = [64, 128, 0], cache = [64, 128, 128], register = [8, 32, 1]>
// CHECK:         linalg.reduce
// CHECK-SAME:      kiln.configured_by = {input, overridden = ["{{.*}} @set_reduction ({{.*}})"]}
// CHECK-SAME:      kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-reduction", workgroup = [8, 0]>
kiln.executable private @ex {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "x86-64"}>) {
    kiln.executable.export public @kernel workgroups() -> (index, index, index) {
      %x, %y, %z = kiln.workgroup_count_from_workload()
      kiln.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @kernel(%a: tensor<512x128xf32>, %b: tensor<128x256xf32>, %c: tensor<512x256xf32>, %r: tensor<64x1000xf32>, %acc: tensor<64xf32>) -> (tensor<512x256xf32>, tensor<64xf32>) {
        %mm = linalg.matmul ins(%a, %b : tensor<512x128xf32>, tensor<128x256xf32>) outs(%c : tensor<512x256xf32>) -> tensor<512x256xf32>
        %sum = linalg.reduce ins(%r : tensor<64x1000xf32>) outs(%acc : tensor<64xf32>) dimensions = [1] {kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-reduction", workgroup = [8, 0]>}
          (%x: f32, %y: f32) {
            %s = arith.addf %x, %y : f32
            linalg.yield %s : f32
          }
        return %mm, %sum : tensor<512x256xf32>, tensor<64xf32>
      }
    }
  }
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @big(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.kiln.match.contraction %op {m = [256]} : !transform.any_op
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @any_reduction(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.kiln.match.reduction %op : !transform.any_op
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @set_big(%op: !transform.any_op {transform.readonly}) {
    transform.kiln.set_lowering_config %op (#kiln.lowering_config<pipeline = "cpu-contraction", workgroup = [64, 128, 0], cache = [64, 128, 128], register = [8, 32, 1]>) : !transform.any_op
    transform.yield
  }
  transform.named_sequence @set_small(%op: !transform.any_op {transform.readonly}) {
    transform.kiln.set_lowering_config %op (#kiln.lowering_config<pipeline = "cpu-contraction", workgroup = [8, 32, 0], register = [8, 32, 1]>) : !transform.any_op
    transform.yield
  }
  transform.named_sequence @set_reduction(%op: !transform.any_op {transform.readonly}) {
    transform.kiln.set_lowering_config %op (#kiln.lowering_config<pipeline = "cpu-reduction", workgroup = [16, 0]>) : !transform.any_op
    transform.yield
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    %0 = transform.foreach_match in %root @big -> @set_big, @any_reduction -> @set_reduction : (!transform.any_op) -> !transform.any_op
    %1 = transform.foreach_match in %0 @big -> @set_small : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
