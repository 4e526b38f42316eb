#!/usr/bin/python3
"""Kiln's f32 matmul against OpenBLAS, side by side in one run.

    /usr/bin/python3 bench/matmul.py [--build build] [--sizes 256,...]
                                     [--threads 1,2] [--rounds 3]

For every size, compiles C = A * B (row-major, f32, fill + linalg.matmul)
with kiln-compile for this machine twice: as a user gets it (Kiln's default
tuning spec for the CPU first, heuristics for the rest) and with
--kiln-no-default-tuning-specs (heuristics only). Then, in rounds, times
both with kiln-benchmark and OpenBLAS's cblas_sgemm (openblas-sgemm, with
its AVX-512 kernel forced by OPENBLAS_CORETYPE=SkylakeX) for each thread
count; the three alternate within a round, so they see the same machine
state. The figure of a configuration is the median over rounds of the
median call time of a round. Prints Markdown tables.
"""

import argparse
import atexit
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

from benchutil import cpu_name, run_json

MATMUL = """func.func @matmul(%a: tensor<{m}x{k}xf32>, %b: tensor<{k}x{n}xf32>) -> tensor<{m}x{n}xf32> {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{m}x{n}xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  %r = linalg.matmul ins(%a, %b : tensor<{m}x{k}xf32>, tensor<{k}x{n}xf32>) outs(%f : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  return %r : tensor<{m}x{n}xf32>
}}
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--sizes", default="256,512,1000,1023,1024,2048")
    parser.add_argument("--threads", default=f"1,{os.cpu_count()}")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--compile-arg", action="append", default=[])
    args = parser.parse_args()

    bin_dir = os.path.join(args.build, "bin")
    kiln_compile = os.path.join(bin_dir, "kiln-compile")
    kiln_benchmark = os.path.join(bin_dir, "kiln-benchmark")
    openblas = os.path.join(bin_dir, "openblas-sgemm")
    for tool in (kiln_compile, kiln_benchmark, openblas):
        if not os.access(tool, os.X_OK):
            sys.exit(f"missing {tool}; build Kiln first (build_tools/build.sh)")
    sizes = [int(s) for s in args.sizes.split(",")]
    threads = sorted({int(t) for t in args.threads.split(",")})

    work = tempfile.mkdtemp(prefix="kiln-bench-")
    atexit.register(shutil.rmtree, work, ignore_errors=True)
    # modules[(size, "kiln"|"heuristic")]
    modules = {}
    for n in sizes:
        source = os.path.join(work, f"matmul{n}.mlir")
        with open(source, "w") as f:
            f.write(MATMUL.format(m=n, n=n, k=n))
        for who, extra in (("kiln", []),
                           ("heuristic", ["--kiln-no-default-tuning-specs"])):
            modules[(n, who)] = os.path.join(work, f"matmul{n}-{who}.so")
            subprocess.run([kiln_compile, source, "-o", modules[(n, who)]] +
                           extra + args.compile_arg, check=True)

    # results[(size, threads, "kiln"|"openblas")] = [round medians in ms]
    results = {}
    for round_index in range(args.rounds):
        for n in sizes:
            flops = 2.0 * n ** 3
            repetitions = str(max(3, min(50, int(4e9 / flops))))
            for t in threads:
                for who in ("kiln", "heuristic"):
                    kiln = run_json([kiln_benchmark, modules[(n, who)],
                                     f"--threads={t}",
                                     f"--repetitions={repetitions}", "--json"])
                    results.setdefault((n, t, who), []).append(
                        kiln["median_ms"])
                env = dict(os.environ, OPENBLAS_NUM_THREADS=str(t),
                           OPENBLAS_CORETYPE="SkylakeX")
                blas = run_json([openblas, str(n), str(n), str(n),
                                 repetitions], env=env)
                results.setdefault((n, t, "openblas"), []).append(
                    blas["median_ms"])
        print(f"round {round_index + 1} of {args.rounds} done",
              file=sys.stderr)

    def gflops(n, t, who):
        return 2.0 * n ** 3 / (statistics.median(results[(n, t, who)]) * 1e6)

    print(f"CPU: {cpu_name()}, {os.cpu_count()} cores; {args.rounds} rounds")
    print()
    print("| size | threads | Kiln GFLOP/s | heuristics only | OpenBLAS GFLOP/s "
          "| Kiln / OpenBLAS | heuristics only / OpenBLAS |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for n in sizes:
        for t in threads:
            kiln, heuristic = gflops(n, t, "kiln"), gflops(n, t, "heuristic")
            blas = gflops(n, t, "openblas")
            print(f"| {n}³ | {t} | {kiln:.1f} | {heuristic:.1f} | {blas:.1f} | "
                  f"{kiln / blas * 100:.0f}% | {heuristic / blas * 100:.0f}% |")
    if len(threads) > 1:
        low, high = threads[0], threads[-1]
        print()
        print(f"| size | Kiln {high} threads / {low} | "
              f"OpenBLAS {high} threads / {low} |")
        print("| --- | --- | --- |")
        for n in sizes:
            print(f"| {n}³ | {gflops(n, high, 'kiln') / gflops(n, low, 'kiln'):.2f}x | "
                  f"{gflops(n, high, 'openblas') / gflops(n, low, 'openblas'):.2f}x |")


if __name__ == "__main__":
    main()
