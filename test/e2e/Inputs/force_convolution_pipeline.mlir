// Forces the cpu-convolution pipeline, with one-pixel register tiles of 8
// channels, on every conv_2d_nhwc_hwcf: for shapes the heuristic sends to
// cpu-default (test/e2e/conv_huge_stride.mlir).
module attributes {transform.with_named_sequence, kiln.tuning_spec_version = 1 : i64} {
  transform.named_sequence @match(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.operation_name %op ["linalg.conv_2d_nhwc_hwcf"] : !transform.any_op
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @set(%op: !transform.any_op {transform.readonly}) {
    transform.kiln.set_lowering_config %op (#kiln.lowering_config<pipeline = "cpu-convolution", workgroup = [1, 1, 1, 8, 0, 0, 0], cache = [1, 1, 1, 8, 0, 0, 0], register = [1, 1, 1, 8, 1, 1, 1], vector = [1, 1, 1, 8, 1, 1, 1]>) : !transform.any_op
    transform.yield
  }
  transform.named_sequence @tune(%root: !transform.any_op {transform.consumed}) -> !transform.any_op attributes {kiln.tuning_spec_entrypoint} {
    %r = transform.foreach_match in %root @match -> @set : (!transform.any_op) -> !transform.any_op
    transform.yield %r : !transform.any_op
  }
}
