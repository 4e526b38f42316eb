// Kiln's default tuning spec for CPUs with AVX2 and no AVX-512 (16 ymm registers).
//
// Chosen when the target CPU is 'haswell', an AVX2 CPU of its
// family (Skylake, Alder Lake, Zen 1-3, ...), or any CPU with AVX2 and no
// spec of its own. Verified at build time
// and embedded in the compiler as bytecode (CMakeLists.txt beside it);
// docs/tuning.md says how to write one. Every entry says what measured it.

module attributes {transform.with_named_sequence, kiln.tuning_spec_version = 1 : i64} {
  // f32 matmuls of at least 256 in every dimension: 512-row workgroups
  // over 128-column panels of B, K blocks of 512, 6x16 register tiles (12
  // ymm accumulators). Measured as AVX2 code (--kiln-target-cpu=haswell) on
  // a Sapphire Rapids VM, single thread, 1024^3: 57.7 GFLOP/s against 32.3
  // with the heuristic (2026-11-22); not measured on a Haswell.
  transform.named_sequence @match_f32_matmul(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.kiln.match.contraction %op {m = [256], n = [256], k = [256], element_types = [f32, f32, f32], batch_dims = 0, unconfigured} : !transform.any_op
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @set_f32_matmul(%op: !transform.any_op {transform.readonly}) {
    transform.kiln.set_lowering_config %op (#kiln.lowering_config<pipeline = "cpu-contraction", workgroup = [512, 128, 0], cache = [512, 128, 512], register = [6, 16, 1]>) : !transform.any_op
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
