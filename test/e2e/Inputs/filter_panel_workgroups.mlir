// Workgroups of 8 output rows by one panel of 32 output channels, 8-pixel
// register strips, on every conv_2d_nhwc_hwcf: the cpu-convolution
// pipeline copies each workgroup's part of a filter with rows 512 bytes or
// more apart into a contiguous panel (test/e2e/conv_filter_panels.mlir).
module attributes {transform.with_named_sequence, kiln.tuning_spec_version = 1 : i64} {
  transform.named_sequence @match(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.operation_name %op ["linalg.conv_2d_nhwc_hwcf"] : !transform.any_op
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @set(%op: !transform.any_op {transform.readonly}) {
    transform.kiln.set_lowering_config %op (#kiln.lowering_config<pipeline = "cpu-convolution", workgroup = [1, 8, 8, 32, 0, 0, 0], cache = [1, 1, 8, 32, 0, 0, 0], register = [1, 1, 8, 32, 1, 1, 1]>) : !transform.any_op
    transform.yield
  }
  transform.named_sequence @tune(%root: !transform.any_op {transform.consumed}) -> !transform.any_op attributes {kiln.tuning_spec_entrypoint} {
    %r = transform.foreach_match in %root @match -> @set : (!transform.any_op) -> !transform.any_op
    transform.yield %r : !transform.any_op
  }
}
