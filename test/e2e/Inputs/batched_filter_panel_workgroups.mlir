// Workgroups of 2 images by 7 output rows by 16 pixels by one panel of 32
// output channels, 8-pixel register strips, on every conv_2d_nhwc_hwcf:
// workgroups that span images of a batch, each copying its panel of the
// filter once for all of them (test/e2e/conv_filter_panels_batch.mlir).
module attributes {transform.with_named_sequence, kiln.tuning_spec_version = 1 : i64} {
  transform.named_sequence @match(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.operation_name %op ["linalg.conv_2d_nhwc_hwcf"] : !transform.any_op
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @set(%op: !transform.any_op {transform.readonly}) {
    transform.kiln.set_lowering_config %op (#kiln.lowering_config<pipeline = "cpu-convolution", workgroup = [2, 7, 16, 32, 0, 0, 0], cache = [1, 1, 8, 32, 0, 0, 0], register = [1, 1, 8, 32, 1, 1, 1]>) : !transform.any_op
    transform.yield
  }
  transform.named_sequence @tune(%root: !transform.any_op {transform.consumed}) -> !transform.any_op attributes {kiln.tuning_spec_entrypoint} {
    %r = transform.foreach_match in %root @match -> @set : (!transform.any_op) -> !transform.any_op
    transform.yield %r : !transform.any_op
  }
}
