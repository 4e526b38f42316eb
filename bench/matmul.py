#!/usr/bin/python3
"""Kiln's f32 matmuls against OpenBLAS, side by side in one run.

    /usr/bin/python3 bench/matmul.py [--build build] [--suite | --sizes 256,...]
                                     [--threads 1,2] [--rounds 3]

The suite (the default) has 37 shapes: squares of every multiple of 64
from 64 to 512 and 768, 1024, 2048; odd and prime sizes; LLM decode (M =
1, 4, 16 against a 4096 x 4096 weight); BERT-base projections (sequence
128); ResNet-50 convolutions as GEMMs (im2col shapes); tall-skinny ones;
B transposed (A * B^T, attention's Q * K^T) and batched (12 heads).
--sizes replaces it by squares.

For every shape, compiles C = A * B (fill + linalg.matmul, or
linalg.batch_matmul; B^T through indexing_maps) with kiln-compile for this
machine twice: as a user gets it (Kiln's default tuning spec for the CPU
first, heuristics for the rest) and with --kiln-no-default-tuning-specs
(heuristics only). Then, in rounds, times both with kiln-benchmark and
OpenBLAS's cblas_sgemm (openblas-sgemm, with its AVX-512 kernel forced by
OPENBLAS_CORETYPE=SkylakeX; a batch is one cblas_sgemm per product) for
each thread count; the three alternate within a round, so they see the
same machine state, each after the same warm-up calls (at least 10;
more for small shapes, see warmup_calls). The figure of a
configuration is the median over rounds of the median call time of a
round. Prints Markdown tables and the geometric means.
"""

import argparse
import atexit
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

from benchutil import cpu_name, openblas_coretype, run_json

MAPS_NT = ("indexing_maps = [affine_map<(m, n, k) -> (m, k)>, "
           "affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ")
BATCH_MAPS_NT = ("indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, "
                 "affine_map<(b, m, n, k) -> (b, n, k)>, "
                 "affine_map<(b, m, n, k) -> (b, m, n)>] ")


def warmup_calls(flops):
    """Untimed calls before timing: at least 10, and about 0.05 s of work at
    200 GFLOP/s, so that caches, the runtime's block cache and the
    branch predictors are warm."""
    return max(10, min(200, int(1e10 / flops)))


class Shape:
    """C[batch] (m x n) = A[batch] (m x k) * B[batch] (k x n, or n x k
    when `transpose_b`)."""

    def __init__(self, group, m, n, k, transpose_b=False, batch=0):
        self.group, self.m, self.n, self.k = group, m, n, k
        self.transpose_b, self.batch = transpose_b, batch

    @property
    def name(self):
        text = f"{self.m}x{self.n}x{self.k}"
        if self.batch:
            text = f"{self.batch}x" + text
        return text + (" Bᵀ" if self.transpose_b else "")

    @property
    def flops(self):
        return 2.0 * self.m * self.n * self.k * max(1, self.batch)

    def source(self):
        m, n, k = self.m, self.n, self.k
        b = f"{self.batch}x" if self.batch else ""
        a_type, c_type = f"tensor<{b}{m}x{k}xf32>", f"tensor<{b}{m}x{n}xf32>"
        b_type = (f"tensor<{b}{n}x{k}xf32>" if self.transpose_b
                  else f"tensor<{b}{k}x{n}xf32>")
        op = "linalg.batch_matmul" if self.batch else "linalg.matmul"
        maps = ""
        if self.transpose_b:
            maps = BATCH_MAPS_NT if self.batch else MAPS_NT
        return (f"func.func @matmul(%a: {a_type}, %b: {b_type}) -> {c_type} {{\n"
                f"  %zero = arith.constant 0.0 : f32\n"
                f"  %e = tensor.empty() : {c_type}\n"
                f"  %f = linalg.fill ins(%zero : f32) outs(%e : {c_type}) -> {c_type}\n"
                f"  %r = {op} {maps}ins(%a, %b : {a_type}, {b_type}) "
                f"outs(%f : {c_type}) -> {c_type}\n"
                f"  return %r : {c_type}\n}}\n")

    def openblas_args(self):
        return [str(self.m), str(self.n), str(self.k)], [
            "nt" if self.transpose_b else "nn", str(max(1, self.batch))]


def suite():
    shapes = [Shape("square", n, n, n) for n in range(64, 513, 64)]
    shapes += [Shape("square", n, n, n) for n in (768, 1024, 2048)]
    shapes += [Shape("odd", n, n, n) for n in (97, 211, 257, 389, 1000, 1023)]
    shapes += [Shape("odd", 131, 259, 67)]
    shapes += [Shape("decode", m, 4096, 4096) for m in (1, 4, 16)]
    # BERT-base, sequence 128: Q/K/V and output projections, the FFN.
    shapes += [Shape("transformer", 128, 768, 768),
               Shape("transformer", 128, 3072, 768),
               Shape("transformer", 128, 768, 3072),
               Shape("transformer", 128, 2304, 768)]
    # ResNet-50 convolutions as GEMMs: pixels x filters x (kh kw ic).
    shapes += [Shape("conv-gemm", 3136, 64, 576),
               Shape("conv-gemm", 784, 128, 1152),
               Shape("conv-gemm", 196, 256, 2304),
               Shape("conv-gemm", 49, 512, 4608),
               Shape("conv-gemm", 3136, 256, 64)]
    shapes += [Shape("tall-skinny", 8192, 64, 64),
               Shape("tall-skinny", 64, 8192, 64),
               Shape("tall-skinny", 64, 64, 8192)]
    # Transposed B: a linear layer's weight as stored (N x K), attention.
    shapes += [Shape("Bᵀ", 128, 768, 768, transpose_b=True),
               Shape("Bᵀ", 256, 256, 256, transpose_b=True),
               Shape("Bᵀ", 128, 128, 64, transpose_b=True, batch=12),
               Shape("batch", 128, 64, 128, batch=12)]
    return shapes


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--sizes", help="squares instead of the suite")
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
    if args.sizes:
        shapes = [Shape("square", n, n, n)
                  for n in (int(s) for s in args.sizes.split(","))]
    else:
        shapes = suite()
    threads = sorted({int(t) for t in args.threads.split(",")})

    work = tempfile.mkdtemp(prefix="kiln-bench-")
    atexit.register(shutil.rmtree, work, ignore_errors=True)
    # modules[(index, "kiln"|"heuristic")]
    modules = {}
    for index, shape in enumerate(shapes):
        source = os.path.join(work, f"matmul{index}.mlir")
        with open(source, "w") as f:
            f.write(shape.source())
        for who, extra in (("kiln", []),
                           ("heuristic", ["--kiln-no-default-tuning-specs"])):
            modules[(index, who)] = os.path.join(work, f"matmul{index}-{who}.so")
            subprocess.run([kiln_compile, source, "-o", modules[(index, who)]] +
                           extra + args.compile_arg, check=True)

    # results[(index, threads, "kiln"|"heuristic"|"openblas")] = [round
    # medians in ms]
    results = {}
    for round_index in range(args.rounds):
        for index, shape in enumerate(shapes):
            repetitions = str(max(5, min(50, int(4e9 / shape.flops))))
            warmup = warmup_calls(shape.flops)
            for t in threads:
                for who in ("kiln", "heuristic"):
                    kiln = run_json([kiln_benchmark, modules[(index, who)],
                                     f"--threads={t}",
                                     f"--repetitions={repetitions}",
                                     f"--warmup={warmup}", "--json"])
                    results.setdefault((index, t, who), []).append(
                        kiln["median_ms"])
                env = dict(os.environ, OPENBLAS_NUM_THREADS=str(t),
                           OPENBLAS_CORETYPE=openblas_coretype())
                sizes, extra = shape.openblas_args()
                blas = run_json([openblas] + sizes +
                                [repetitions, str(warmup)] + extra, env=env)
                results.setdefault((index, t, "openblas"), []).append(
                    blas["median_ms"])
        print(f"round {round_index + 1} of {args.rounds} done",
              file=sys.stderr)

    def gflops(index, t, who):
        return shapes[index].flops / (
            statistics.median(results[(index, t, who)]) * 1e6)

    def geomean(values):
        return math.exp(sum(math.log(v) for v in values) / len(values))

    print(f"CPU: {cpu_name()}, {os.cpu_count()} cores; {args.rounds} rounds")
    print()
    print("| group | M x N x K | threads | Kiln GFLOP/s | heuristics only "
          "| OpenBLAS GFLOP/s | Kiln / OpenBLAS | heuristics only / Kiln |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for index, shape in enumerate(shapes):
        for t in threads:
            kiln = gflops(index, t, "kiln")
            heuristic = gflops(index, t, "heuristic")
            blas = gflops(index, t, "openblas")
            print(f"| {shape.group} | {shape.name} | {t} | {kiln:.1f} | "
                  f"{heuristic:.1f} | {blas:.1f} | {kiln / blas:.2f}x | "
                  f"{heuristic / kiln:.2f}x |")
    print()
    print("| threads | geomean Kiln / OpenBLAS | lowest (shape) "
          "| lowest heuristics only / Kiln (shape) |")
    print("| --- | --- | --- | --- |")
    for t in threads:
        ratios = [gflops(i, t, "kiln") / gflops(i, t, "openblas")
                  for i in range(len(shapes))]
        own = [gflops(i, t, "heuristic") / gflops(i, t, "kiln")
               for i in range(len(shapes))]
        low, low_own = ratios.index(min(ratios)), own.index(min(own))
        print(f"| {t} | {geomean(ratios):.2f}x | {ratios[low]:.2f}x "
              f"({shapes[low].name}) | {own[low_own]:.2f}x "
              f"({shapes[low_own].name}) |")
    if len(threads) > 1:
        low, high = threads[0], threads[-1]
        print()
        print(f"Above 10⁸ FLOPs: {high} threads / {low}")
        print()
        print(f"| M x N x K | Kiln | OpenBLAS |")
        print("| --- | --- | --- |")
        for index, shape in enumerate(shapes):
            if shape.flops < 1e8:
                continue
            print(f"| {shape.name} | "
                  f"{gflops(index, high, 'kiln') / gflops(index, low, 'kiln'):.2f}x | "
                  f"{gflops(index, high, 'openblas') / gflops(index, low, 'openblas'):.2f}x |")


if __name__ == "__main__":
    main()
