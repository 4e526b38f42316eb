#!/usr/bin/python3
"""What issue 18's extension points cost at run time.

    /usr/bin/python3 bench/extension_points.py [--build build] [--rounds 7]

1. One module for several CPUs: each model compiled for the host CPU alone,
   and with --kiln-target-cpu=OTHER,host (two variants; the host's runs),
   for OTHER a CPU with the host's register width (weights still laid out
   in panels) and one without (x86-64-v3: AVX2, so the module keeps its
   weights as stored). Target: the same-width module within the noise of
   the host-only one.
2. The ukernels plugin's micro-kernel compiled into the module (inline)
   or called from its runtime extension (import), on a 1024^3 f32 matmul.
   Target: the same speed (the same blocking; the call is one per tile).

kiln-benchmark --json medians, the variants of a comparison timed in
alternating rounds; prints Markdown with the CPU and the date.
"""

import argparse
import datetime
import os
import statistics
import subprocess
import sys
import tempfile

from benchutil import cpu_name, run_json

MATMUL = """
func.func @matmul(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>)
    -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1024x1024xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1024x1024xf32>)
      -> tensor<1024x1024xf32>
  %c = linalg.matmul ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32>)
      outs(%acc : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %c : tensor<1024x1024xf32>
}
"""


def compile_module(kiln_compile, source, output, flags):
    subprocess.run([kiln_compile, source, "-o", output] + flags, check=True)


def time_alternating(kiln_benchmark, modules, rounds, repetitions):
    """{name: median ms over rounds} for (name, path, extra args) modules."""
    times = {name: [] for name, _, _ in modules}
    for _ in range(rounds):
        for name, path, extra in modules:
            result = run_json([kiln_benchmark, path, "--json",
                               f"--repetitions={repetitions}"] + extra)
            times[name].append(result["median_ms"])
    return {name: statistics.median(values) for name, values in times.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--repetitions", type=int, default=20)
    parser.add_argument("--same-width-cpu", default="znver4",
                        help="a CPU with the host's vector width")
    args = parser.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    bin_dir = os.path.join(args.build, "bin")
    kiln_compile = os.path.join(bin_dir, "kiln-compile")
    kiln_benchmark = os.path.join(bin_dir, "kiln-benchmark")
    extension = os.path.join(args.build, "lib",
                             "libkiln_ukernels_extension.so")
    for path in (kiln_compile, kiln_benchmark, extension):
        if not os.path.exists(path):
            sys.exit(f"extension_points.py: {path} is missing; build first")

    print(f"CPU: {cpu_name()}, {datetime.date.today()}, "
          f"{args.rounds} alternating rounds of kiln-benchmark "
          f"--repetitions={args.repetitions}, medians\n")
    with tempfile.TemporaryDirectory(prefix="kiln-bench-") as work:
        print("| model | host only | "
              f"{args.same_width_cpu},host | x86-64-v3,host |")
        print("| --- | ---: | ---: | ---: |")
        for model in ("transformer_encoder", "cnn_tosa"):
            source = os.path.join(root, "samples", "models", model + ".mlir")
            modules = []
            for name, cpus in (("host", "host"),
                               ("same", f"{args.same_width_cpu},host"),
                               ("avx2", "x86-64-v3,host")):
                path = os.path.join(work, f"{model}-{name}.so")
                compile_module(kiln_compile, source, path,
                               [f"--kiln-target-cpu={cpus}"])
                modules.append((name, path, []))
            times = time_alternating(kiln_benchmark, modules, args.rounds,
                                     args.repetitions)
            base = times["host"]
            print(f"| {model} | {base:.3f} ms | {times['same']:.3f} ms "
                  f"({base / times['same']:.2f}x) | {times['avx2']:.3f} ms "
                  f"({base / times['avx2']:.2f}x) |")

        source = os.path.join(work, "matmul.mlir")
        with open(source, "w") as f:
            f.write(MATMUL)
        modules = []
        for name, flags, extra in (
                ("default", [], []),
                ("inline", ["--kiln-plugin=ukernels"], []),
                ("import", ["--kiln-plugin=ukernels", "--ukernels-mode=import"],
                 [f"--runtime-extension={extension}"])):
            path = os.path.join(work, f"matmul-{name}.so")
            compile_module(kiln_compile, source, path, flags)
            modules.append((name, path, extra))
        times = time_alternating(kiln_benchmark, modules, args.rounds,
                                 args.repetitions)
        flops = 2 * 1024 ** 3
        print("\n| 1024^3 f32 matmul | ms | GFLOP/s |")
        print("| --- | ---: | ---: |")
        for name in ("default", "inline", "import"):
            print(f"| {name} | {times[name]:.3f} | "
                  f"{flops / times[name] / 1e6:.1f} |")


if __name__ == "__main__":
    main()
