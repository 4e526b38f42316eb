// Kiln's default tuning spec for AMD Zen 5 (AVX-512, 32 zmm registers).
//
// Chosen when the target CPU is 'znver5'. Verified at build time
// and embedded in the compiler as bytecode (CMakeLists.txt beside it);
// docs/tuning.md says how to write one. Every entry says what measured it.

module attributes {transform.with_named_sequence, kiln.tuning_spec_version = 1 : i64} {
  // f32 matmuls of at least 256 in every dimension: cache blocks of 256
  // columns of B by 256 of K (packed into 32-wide panels by the
  // cpu-contraction pipeline) and 8x32 register tiles (16 zmm
  // accumulators). ../shared/notes/cpu-matmul-codegen.md measured this
  // schedule on a 2-core Zen 5 at 186-204 GFLOP/s at 2048^3 against
  // OpenBLAS's 202. 
  transform.named_sequence @match_f32_matmul(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.kiln.match.contraction %op {m = [256], n = [256], k = [256], element_types = [f32, f32, f32], batch_dims = 0, unconfigured} : !transform.any_op
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @set_f32_matmul(%op: !transform.any_op {transform.readonly}) {
    transform.kiln.set_lowering_config %op (#kiln.lowering_config<pipeline = "cpu-contraction", workgroup = [64, 256, 0], cache = [64, 256, 256], register = [8, 32, 1]>) : !transform.any_op
    transform.yield
  }

  // Matchers are tried in order; an op takes the first that matches.
  transform.named_sequence @tune(%root: !transform.any_op {transform.consumed}) -> !transform.any_op attributes {kiln.tuning_spec_entrypoint} {
    %r = transform.foreach_match in %root
        @match_f32_matmul -> @set_f32_matmul
        : (!transform.any_op) -> !transform.any_op
    transform.yield %r : !transform.any_op
  }
}
