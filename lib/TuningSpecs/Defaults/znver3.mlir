// Kiln's default tuning spec for AMD Zen 3 (AVX2, 16 ymm registers), made
// by the autotuner.
//
// Chosen when the target CPU is 'znver3'; it extends 'haswell' (the spec
// Zen 3 used before), whose entries apply to what these do not match.
// Verified at build time and embedded in the compiler as bytecode
// (CMakeLists.txt beside it).
//
// Made on the 2-core Zen 3 development VM (vm, AMD EPYC, znver3) on
// 2026-11-27 by
//
//   kiln-tune search bench/tuner/default_suite.mlir -o spec.mlir \
//       --coverage=1 --max-dispatches=16 --max-candidates=64 \
//       --time-budget=1500 --db=suite.jsonl
//
// over the 13 workloads of bench/tuner/default_suite.mlir (BERT-base's and
// square f32 matmuls, BERT's attention batch matmuls, ResNet-18's
// convolutions), in 464 s. The search kept a config only where it beat the
// compiler's (the heuristic and 'haswell') by more than 3% and more than
// twice the baseline's noise in a confirmation of 3 alternating runs; the
// other 11 workloads kept the compiler's config. Each entry's comment is
// the search's: the confirmation's medians, the machine, the date and the
// command. The search's own paths were made relative to the source tree.

module attributes {transform.with_named_sequence, kiln.tuning_spec_version = 1 : i64, kiln.tuning_spec_extends = "haswell"} {
  // linalg.matmul 512x512x512 f32: 2.4598 ms against 2.8982 ms (1.18x) on vm (AMD EPYC, 2 cores), 2026-11-27T16:53:39Z, by kiln-tune search bench/tuner/default_suite.mlir -o spec.mlir --coverage=1 --max-dispatches=16 --max-candidates=64 --time-budget=1500 --db=suite.jsonl
  transform.named_sequence @match_0(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.operation_name %op ["linalg.matmul"] : !transform.any_op
    transform.kiln.match.workload %op {key = "kw1-3f695aa13e096c1b"} : !transform.any_op
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @set_0(%op: !transform.any_op {transform.readonly}) {
    transform.kiln.set_lowering_config %op (#kiln.lowering_config<pipeline = "cpu-contraction", workgroup = [30, 512, 0], cache = [30, 512, 64], register = [5, 16, 1], vector = [5, 16, 1]>) : !transform.any_op
    transform.yield
  }
  // linalg.batch_matmul 12x128x64x128 f32: 0.2137 ms against 0.3762 ms (1.76x) on vm (AMD EPYC, 2 cores), 2026-11-27T16:57:04Z, by kiln-tune search bench/tuner/default_suite.mlir -o spec.mlir --coverage=1 --max-dispatches=16 --max-candidates=64 --time-budget=1500 --db=suite.jsonl
  transform.named_sequence @match_1(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.operation_name %op ["linalg.batch_matmul"] : !transform.any_op
    transform.kiln.match.workload %op {key = "kw1-b2d8f0e3083fde9b"} : !transform.any_op
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @set_1(%op: !transform.any_op {transform.readonly}) {
    transform.kiln.set_lowering_config %op (#kiln.lowering_config<pipeline = "cpu-contraction", workgroup = [1, 20, 64, 0], cache = [1, 20, 64, 64], register = [1, 5, 16, 1], vector = [1, 5, 16, 1]>) : !transform.any_op
    transform.yield
  }
  transform.named_sequence @tune(%root: !transform.any_op {transform.consumed}) -> !transform.any_op attributes {kiln.tuning_spec_entrypoint} {
    %r = transform.foreach_match in %root
        @match_0 -> @set_0,
        @match_1 -> @set_1
        : (!transform.any_op) -> !transform.any_op
    transform.yield %r : !transform.any_op
  }
}
