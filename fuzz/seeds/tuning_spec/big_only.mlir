// A user spec for the 1024^3 matmul only.
module attributes {transform.with_named_sequence, kiln.tuning_spec_version = 1 : i64} {
  transform.named_sequence @match(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.kiln.match.contraction %op {m = 1024, n = 1024, k = 1024} : !transform.any_op
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @set(%op: !transform.any_op {transform.readonly}) {
    transform.kiln.set_lowering_config %op (#kiln.lowering_config<pipeline = "cpu-contraction", workgroup = [32, 512, 0], cache = [32, 512, 128], register = [8, 32, 1]>) : !transform.any_op
    transform.yield
  }
  transform.named_sequence @tune_big(%root: !transform.any_op {transform.consumed}) -> !transform.any_op attributes {kiln.tuning_spec_entrypoint} {
    %r = transform.foreach_match in %root @match -> @set : (!transform.any_op) -> !transform.any_op
    transform.yield %r : !transform.any_op
  }
}
