// Kiln's default tuning spec for AMD Zen 5 (AVX-512, 32 zmm registers).
//
// Chosen when the target CPU is 'znver5'. Verified at build time
// and embedded in the compiler as bytecode (CMakeLists.txt beside it);
// docs/tuning.md says how to write one. Every entry says what measured it.

module attributes {transform.with_named_sequence, kiln.tuning_spec_version = 1 : i64} {
  // f32 matmuls of at least 512 in every dimension: 256-row workgroups
  // over 128-column blocks of B, K blocks of 512 (B packed into 32-wide
  // panels by the cpu-contraction pipeline), 8x32 register tiles (16 zmm
  // accumulators). Chosen from 26 configurations (workgroup rows 64-256,
  // B blocks 128-512, K blocks 256-512, register tiles 8x32, 6x64, 12x32,
  // 14x32, 8x48) timed at 1024^3 and 2048^3 on one thread on the 2-core
  // Zen 5 development VM (AMD EPYC, znver5), then against the previous
  // entry (64-row workgroups, 256x256 blocks) side by side with OpenBLAS
  // (OPENBLAS_CORETYPE=SkylakeX), three alternating rounds, 2026-11-23:
  // GFLOP/s this / previous / OpenBLAS, 1 thread: 512^3 199 / 175 / 195,
  // 768^3 193 / 172 / 193, 1000^3 171 / 142 / 188, 1024^3 183 / 164 / 193,
  // 2048^3 181 / 135 / 194; 2 threads: 512^3 342 / 287 / 309, 1024^3
  // 341 / 290 / 343, 2048^3 347 / 280 / 371. Reproduce with
  // bench/matmul.py --sizes 512,768,1000,1024,2048 --threads 1,2. The
  // cpu-contraction heuristic now makes the same choice where L2 is at
  // least 1 MiB; this entry keeps it for Zen 5 whatever the heuristic does.
  transform.named_sequence @match_f32_matmul_large(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.kiln.match.contraction %op {m = [512], n = [512], k = [512], element_types = [f32, f32, f32], batch_dims = 0, unconfigured} : !transform.any_op
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @set_f32_matmul_large(%op: !transform.any_op {transform.readonly}) {
    transform.kiln.set_lowering_config %op (#kiln.lowering_config<pipeline = "cpu-contraction", workgroup = [256, 128, 0], cache = [256, 128, 512], register = [8, 32, 1]>) : !transform.any_op
    transform.yield
  }

  // f32 matmuls of at least 256 in every dimension (below 512 in one):
  // 64-row workgroups over 256x256 blocks of B (more workgroups for two
  // threads), 8x32 register tiles. Same VM and rounds, 256^3: 196 GFLOP/s
  // on 1 thread and 386 on 2, against 207 and 285 with the 512 entry's
  // configuration and OpenBLAS's 203 and 277.
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
        @match_f32_matmul_large -> @set_f32_matmul_large,
        @match_f32_matmul -> @set_f32_matmul
        : (!transform.any_op) -> !transform.any_op
    transform.yield %r : !transform.any_op
  }
}
