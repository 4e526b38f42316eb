// A spec that matches with an upstream matcher first, then Kiln's.
module attributes {transform.with_named_sequence, kiln.tuning_spec_version = 1 : i64} {
  transform.named_sequence @match(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.operation_name %op ["linalg.matmul"] : !transform.any_op
    transform.kiln.match.contraction %op {m = 512} : !transform.any_op
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @set(%op: !transform.any_op {transform.readonly}) {
    transform.kiln.set_lowering_config %op (#kiln.lowering_config<pipeline = "cpu-contraction", workgroup = [16, 512, 0], register = [8, 32, 1]>) : !transform.any_op
    transform.yield
  }
  transform.named_sequence @tune_upstream(%root: !transform.any_op {transform.consumed}) -> !transform.any_op attributes {kiln.tuning_spec_entrypoint} {
    %r = transform.foreach_match in %root @match -> @set : (!transform.any_op) -> !transform.any_op
    transform.yield %r : !transform.any_op
  }
}
