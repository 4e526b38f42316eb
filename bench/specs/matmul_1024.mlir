// A user spec for one shape (bench/tuning.py): the 1024^3 f32 matmul gets
// the heuristic's configuration of issue 3 (8x32 register tiles, 64x256
// workgroups) instead of the default spec's; nothing else matches.
module attributes {transform.with_named_sequence, kiln.tuning_spec_version = 1 : i64} {
  transform.named_sequence @match_1024(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.kiln.match.contraction %op {m = 1024, n = 1024, k = 1024, element_types = [f32, f32, f32]} : !transform.any_op
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @set_1024(%op: !transform.any_op {transform.readonly}) {
    transform.kiln.set_lowering_config %op (#kiln.lowering_config<pipeline = "cpu-contraction", workgroup = [64, 256, 0], cache = [64, 256, 256], register = [8, 32, 1]>) : !transform.any_op
    transform.yield
  }
  transform.named_sequence @tune(%root: !transform.any_op {transform.consumed}) -> !transform.any_op attributes {kiln.tuning_spec_entrypoint} {
    %r = transform.foreach_match in %root @match_1024 -> @set_1024 : (!transform.any_op) -> !transform.any_op
    transform.yield %r : !transform.any_op
  }
}
