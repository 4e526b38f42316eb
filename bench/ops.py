#!/usr/bin/python3
"""Kiln against numpy on memory- and math-bound op families, side by side.

    /usr/bin/python3 bench/ops.py [--build build] [--threads 1,2] [--rounds 3]

Each case is a small MLIR program and the numpy expression computing the
same thing. Kiln's module is timed with kiln-benchmark (median call time of
a round), numpy's expression in this process (median of as many calls); the
two alternate within a round, and the figure of a configuration is the
median over rounds. numpy runs on one thread; Kiln on each thread count
asked for. Prints a Markdown table. There is no target here yet: the table
shows where Kiln stands on what is not a matmul.
"""

import argparse
import atexit
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

from benchutil import run_json

CASES = [
    {
        "name": "row sum 1024x4096",
        "mlir": """func.func @f(%a: tensor<1024x4096xf32>) -> tensor<1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
  %r = linalg.reduce ins(%a : tensor<1024x4096xf32>) outs(%f : tensor<1024xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<1024xf32>
}
""",
        "inputs": lambda rng: [rng.random((1024, 4096), dtype=np.float32)],
        "numpy": lambda a: a.sum(axis=1),
    },
    {
        "name": "column max 4096x1024",
        "mlir": """func.func @f(%a: tensor<4096x1024xf32>) -> tensor<1024xf32> {
  %low = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<1024xf32>
  %f = linalg.fill ins(%low : f32) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
  %r = linalg.reduce ins(%a : tensor<4096x1024xf32>) outs(%f : tensor<1024xf32>) dimensions = [0]
    (%x: f32, %acc: f32) {
      %m = arith.maximumf %x, %acc : f32
      linalg.yield %m : f32
    }
  return %r : tensor<1024xf32>
}
""",
        "inputs": lambda rng: [rng.random((4096, 1024), dtype=np.float32)],
        "numpy": lambda a: a.max(axis=0),
    },
    {
        "name": "softmax 1024x1024",
        "mlir": """func.func @f(%x: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %e = tensor.empty() : tensor<1024x1024xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<1024x1024xf32>) outs(%e : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %r : tensor<1024x1024xf32>
}
""",
        "inputs": lambda rng: [rng.random((1024, 1024), dtype=np.float32)],
        "numpy": lambda x: (lambda e: e / e.sum(axis=1, keepdims=True))(
            np.exp(x - x.max(axis=1, keepdims=True))),
    },
    {
        "name": "exp 4096x1024",
        "mlir": """func.func @f(%x: tensor<4096x1024xf32>) -> tensor<4096x1024xf32> {
  %e = tensor.empty() : tensor<4096x1024xf32>
  %r = linalg.exp ins(%x : tensor<4096x1024xf32>) outs(%e : tensor<4096x1024xf32>) -> tensor<4096x1024xf32>
  return %r : tensor<4096x1024xf32>
}
""",
        "inputs": lambda rng: [rng.random((4096, 1024), dtype=np.float32)],
        "numpy": np.exp,
    },
    {
        "name": "add + relu 4096x1024",
        "mlir": """func.func @f(%x: tensor<4096x1024xf32>, %y: tensor<4096x1024xf32>) -> tensor<4096x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4096x1024xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<4096x1024xf32>, tensor<4096x1024xf32>) outs(%e : tensor<4096x1024xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<4096x1024xf32>
  return %r : tensor<4096x1024xf32>
}
""",
        "inputs": lambda rng: [rng.random((4096, 1024), dtype=np.float32),
                               rng.random((4096, 1024), dtype=np.float32)],
        "numpy": lambda x, y: np.maximum(x + y, 0),
    },
    {
        "name": "transpose 2048x2048",
        "mlir": """func.func @f(%x: tensor<2048x2048xf32>) -> tensor<2048x2048xf32> {
  %e = tensor.empty() : tensor<2048x2048xf32>
  %r = linalg.transpose ins(%x : tensor<2048x2048xf32>) outs(%e : tensor<2048x2048xf32>) permutation = [1, 0]
  return %r : tensor<2048x2048xf32>
}
""",
        "inputs": lambda rng: [rng.random((2048, 2048), dtype=np.float32)],
        "numpy": lambda x: np.ascontiguousarray(x.T),
    },
]


def time_numpy(function, inputs, repetitions):
    function(*inputs)
    times = []
    for _ in range(repetitions):
        start = time.perf_counter()
        function(*inputs)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--threads", default=f"1,{os.cpu_count()}")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repetitions", type=int, default=20)
    args = parser.parse_args()

    bin_dir = os.path.join(args.build, "bin")
    kiln_compile = os.path.join(bin_dir, "kiln-compile")
    kiln_benchmark = os.path.join(bin_dir, "kiln-benchmark")
    for tool in (kiln_compile, kiln_benchmark):
        if not os.access(tool, os.X_OK):
            sys.exit(f"missing {tool}; build Kiln first (build_tools/build.sh)")
    threads = sorted({int(t) for t in args.threads.split(",")})

    work = tempfile.mkdtemp(prefix="kiln-bench-ops-")
    atexit.register(shutil.rmtree, work, ignore_errors=True)
    rng = np.random.default_rng(0)
    for index, case in enumerate(CASES):
        source = os.path.join(work, f"case{index}.mlir")
        with open(source, "w") as f:
            f.write(case["mlir"])
        case["module"] = os.path.join(work, f"case{index}.so")
        subprocess.run([kiln_compile, source, "-o", case["module"]],
                       check=True)
        case["arrays"] = case["inputs"](rng)

    results = {}
    for round_index in range(args.rounds):
        for index, case in enumerate(CASES):
            for t in threads:
                kiln = run_json([kiln_benchmark, case["module"],
                                 f"--threads={t}",
                                 f"--repetitions={args.repetitions}",
                                 "--json"])
                results.setdefault((index, t), []).append(kiln["median_ms"])
            results.setdefault((index, "numpy"), []).append(
                time_numpy(case["numpy"], case["arrays"], args.repetitions))
        print(f"round {round_index + 1} of {args.rounds} done",
              file=sys.stderr)

    print(f"{os.cpu_count()} cores; {args.rounds} rounds of "
          f"{args.repetitions} calls; medians in ms")
    print()
    header = "| case | numpy (1 thread) | " + " | ".join(
        f"Kiln {t} thread{'s' if t > 1 else ''}" for t in threads) + \
        " | Kiln 1 thread / numpy |"
    print(header)
    print("|" + " --- |" * (len(threads) + 3))
    for index, case in enumerate(CASES):
        numpy_ms = statistics.median(results[(index, "numpy")])
        kiln = [statistics.median(results[(index, t)]) for t in threads]
        cells = " | ".join(f"{ms:.2f}" for ms in kiln)
        ratio = numpy_ms / statistics.median(results[(index, threads[0])])
        print(f"| {case['name']} | {numpy_ms:.2f} | {cells} | "
              f"{ratio:.2f}x as fast |")


if __name__ == "__main__":
    main()
