// Kiln's default tuning spec for Intel CPUs with AVX-512 (Sapphire Rapids and its family).
//
// Chosen when the target CPU is 'sapphirerapids', or an Intel CPU of its family (Ice Lake, Cascade Lake, Granite Rapids, ...), or any CPU with AVX-512 and no spec of its own. Verified at build time and
// embedded in the compiler as bytecode (see CMakeLists.txt beside it);
// docs/tuning.md says how to write one. Measured configurations only: each
// entry names the benchmark that chose it.

module attributes {transform.with_named_sequence, kiln.tuning_spec_version = 1 : i64} {
  // f32 matmuls of at least 256 in every dimension, not configured yet.
  transform.named_sequence @match_large_f32_matmul(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.kiln.match.contraction %op {m = [256], n = [256], k = [256], batch_dims = 0, element_types = [f32, f32, f32], unconfigured} : !transform.any_op
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @set_large_f32_matmul(%op: !transform.any_op {transform.readonly}) {
    transform.kiln.set_lowering_config %op (#kiln.lowering_config<pipeline = "cpu-contraction", workgroup = [64, 256, 0], cache = [64, 256, 256], register = [8, 32, 1]>) : !transform.any_op
    transform.yield
  }

  transform.named_sequence @tune(%root: !transform.any_op {transform.consumed}) -> !transform.any_op attributes {kiln.tuning_spec_entrypoint} {
    %r = transform.foreach_match in %root
        @match_large_f32_matmul -> @set_large_f32_matmul
        : (!transform.any_op) -> !transform.any_op
    transform.yield %r : !transform.any_op
  }
}
