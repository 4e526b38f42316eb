module attributes {transform.with_named_sequence, kiln.tuning_spec_version = 1 : i64} {
  transform.named_sequence @e(%root: !transform.any_op {transform.consumed}) -> !transform.any_op attributes {kiln.tuning_spec_entrypoint} {
    transform.yield %root : !transform.any_op
  }
}
