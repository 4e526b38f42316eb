// Configs for every root op of fuzz/programs/dispatches.mlir: the matmul,
// the row sum and the integer multiplication.
module attributes {transform.with_named_sequence, kiln.tuning_spec_version = 1 : i64} {
  transform.named_sequence @match_matmul(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.kiln.match.contraction %op {n = 32, k = 64, element_types = [f32, f32, f32]} : !transform.any_op
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @set_matmul(%op: !transform.any_op {transform.readonly}) {
    transform.kiln.set_lowering_config %op (#kiln.lowering_config<pipeline = "cpu-contraction", workgroup = [16, 32, 0], cache = [16, 32, 64], register = [4, 16, 1], vector = [4, 16, 1]>) : !transform.any_op
    transform.yield
  }
  transform.named_sequence @match_sum(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.kiln.match.reduction %op : !transform.any_op
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @set_sum(%op: !transform.any_op {transform.readonly}) {
    transform.kiln.set_lowering_config %op (#kiln.lowering_config<pipeline = "cpu-reduction", workgroup = [8, 0], register = [1, 32], vector = [1, 32]>) : !transform.any_op
    transform.yield
  }
  transform.named_sequence @match_mul(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.operation_name %op ["linalg.generic"] : !transform.any_op
    %m = transform.match.structured failures(propagate) %op : (!transform.any_op) -> !transform.any_op {
    ^bb0(%s: !transform.any_op):
      %rank = transform.match.structured.rank %s : (!transform.any_op) -> !transform.param<i64>
      %one = transform.param.constant 1 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %rank, %one : !transform.param<i64>
      transform.match.structured.yield %s : !transform.any_op
    }
    transform.yield %m : !transform.any_op
  }
  transform.named_sequence @set_mul(%op: !transform.any_op {transform.readonly}) {
    transform.kiln.set_lowering_config %op (#kiln.lowering_config<pipeline = "cpu-elementwise", workgroup = [8], register = [8], vector = [8]>) : !transform.any_op
    transform.yield
  }
  transform.named_sequence @entry(%root: !transform.any_op {transform.consumed}) -> !transform.any_op attributes {kiln.tuning_spec_entrypoint} {
    %r = transform.foreach_match in %root @match_matmul -> @set_matmul, @match_sum -> @set_sum, @match_mul -> @set_mul : (!transform.any_op) -> !transform.any_op
    transform.yield %r : !transform.any_op
  }
}
