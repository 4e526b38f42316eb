// Kiln's default tuning spec for Intel CPUs with AVX-512 (Sapphire Rapids and its family).
//
// Chosen when the target CPU is 'sapphirerapids', an Intel CPU of
// its family (Ice Lake, Cascade Lake, Granite Rapids, ...), or any CPU with
// AVX-512 and no spec of its own. Verified at build time
// and embedded in the compiler as bytecode (CMakeLists.txt beside it);
// docs/tuning.md says how to write one. Every entry says what measured it.

module attributes {transform.with_named_sequence, kiln.tuning_spec_version = 1 : i64} {
  // f32 matmuls of at least 1024 in every dimension: 512-row workgroups
  // over 256-column blocks of B, K blocks of 512, and 6x64 register tiles
  // (24 zmm accumulators). Chosen from 20 configurations timed single
  // thread on a Sapphire Rapids VM, side by side with OpenBLAS
  // (OPENBLAS_CORETYPE=SkylakeX), 5-7 rounds each: 91-95% of OpenBLAS at
  // 2048^3 and 95% at 1024^3, against 53-62% and 82-84% with the heuristic
  // (2026-11-22; figures of record: bench/matmul.py, docs/performance.md).
  transform.named_sequence @match_large_f32_matmul(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.kiln.match.contraction %op {m = [1024], n = [1024], k = [1024], element_types = [f32, f32, f32], batch_dims = 0, unconfigured} : !transform.any_op
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @set_large_f32_matmul(%op: !transform.any_op {transform.readonly}) {
    transform.kiln.set_lowering_config %op (#kiln.lowering_config<pipeline = "cpu-contraction", workgroup = [512, 256, 0], cache = [512, 256, 512], register = [6, 64, 1]>) : !transform.any_op
    transform.yield
  }

  // f32 matmuls of at least 256 in every dimension: 256-row workgroups,
  // K blocks of 512, 6x64 register tiles. Same measurement: 104% of OpenBLAS
  // at 512^3 (heuristic 81%), 77% at 1000^3 (56%), 82% at 1023^3 (66%).
  transform.named_sequence @match_f32_matmul(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.kiln.match.contraction %op {m = [256], n = [256], k = [256], element_types = [f32, f32, f32], batch_dims = 0, unconfigured} : !transform.any_op
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @set_f32_matmul(%op: !transform.any_op {transform.readonly}) {
    transform.kiln.set_lowering_config %op (#kiln.lowering_config<pipeline = "cpu-contraction", workgroup = [256, 128, 0], cache = [256, 128, 512], register = [6, 64, 1]>) : !transform.any_op
    transform.yield
  }

  // Matchers are tried in order; an op takes the first that matches.
  transform.named_sequence @tune(%root: !transform.any_op {transform.consumed}) -> !transform.any_op attributes {kiln.tuning_spec_entrypoint} {
    %r = transform.foreach_match in %root
        @match_large_f32_matmul -> @set_large_f32_matmul,
        @match_f32_matmul -> @set_f32_matmul
        : (!transform.any_op) -> !transform.any_op
    transform.yield %r : !transform.any_op
  }
}
