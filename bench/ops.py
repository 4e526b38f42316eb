#!/usr/bin/python3
"""Kiln against numpy and PyTorch on memory- and math-bound op families.

    /usr/bin/python3 bench/ops.py [--build build] [--threads 1,2] [--rounds 3]

Each case is a small MLIR program and the numpy and PyTorch expressions
computing the same thing. Kiln's module is timed with kiln-benchmark on the
same inputs (median call time of a round), numpy's and PyTorch's
expressions in this process, into preallocated results where their API
takes one (out=), as Kiln's runtime reuses its buffers (median of as many calls, PyTorch on one
thread under torch.inference_mode); the three alternate within a round, and
the figure of a configuration is the median over rounds. Kiln runs on each
thread count asked for. PyTorch is optional (Debian's python3-torch): its
column is left out without it. Prints a Markdown table.

Target (issue 13): reductions, softmax and layer norm at least as fast as
numpy and PyTorch on one thread.
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

from benchutil import cpu_name, run_json

try:
    import torch
    torch.set_num_threads(1)
except ImportError:
    torch = None

LAYER_NORM = """func.func @f(%x: tensor<2048x768xf32>, %g: tensor<768xf32>, %b: tensor<768xf32>) -> tensor<2048x768xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 768.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e = tensor.empty() : tensor<2048xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2048xf32>) -> tensor<2048xf32>
  %sum = linalg.reduce ins(%x : tensor<2048x768xf32>) outs(%f : tensor<2048xf32>) dimensions = [1]
    (%a: f32, %acc: f32) {
      %s = arith.addf %a, %acc : f32
      linalg.yield %s : f32
    }
  %mean = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%sum : tensor<2048xf32>) outs(%e : tensor<2048xf32>) {
  ^bb0(%s: f32, %o: f32):
    %m = arith.divf %s, %n : f32
    linalg.yield %m : f32
  } -> tensor<2048xf32>
  %squares = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x, %mean : tensor<2048x768xf32>, tensor<2048xf32>) outs(%f : tensor<2048xf32>) {
  ^bb0(%a: f32, %m: f32, %acc: f32):
    %d = arith.subf %a, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %s = arith.addf %d2, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2048xf32>
  %ey = tensor.empty() : tensor<2048x768xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean, %squares, %g, %b : tensor<2048x768xf32>, tensor<2048xf32>, tensor<2048xf32>, tensor<768xf32>, tensor<768xf32>) outs(%ey : tensor<2048x768xf32>) {
  ^bb0(%a: f32, %m: f32, %ss: f32, %gamma: f32, %beta: f32, %o: f32):
    %var = arith.divf %ss, %n : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    %d = arith.subf %a, %m : f32
    %nd = arith.mulf %d, %r : f32
    %sc = arith.mulf %nd, %gamma : f32
    %sh = arith.addf %sc, %beta : f32
    linalg.yield %sh : f32
  } -> tensor<2048x768xf32>
  return %y : tensor<2048x768xf32>
}
"""


def np_out(*shape, dtype=np.float32):
    """A result buffer for numpy's out=: the peers write into memory they
    already have, as Kiln's runtime reuses its buffers, instead of paying
    fresh pages on every call."""
    return np.empty(shape, dtype=dtype)


def torch_out(*shape, dtype="float32"):
    """As np_out, for PyTorch (None without it)."""
    return torch.empty(shape, dtype=getattr(torch, dtype)) if torch else None


def numpy_layer_norm(x, g, b):
    d = x - x.mean(axis=1, keepdims=True)
    return d / np.sqrt((d * d).mean(axis=1, keepdims=True) + 1e-5) * g + b


def reduction(name, shape, dimension, element, combiner, init):
    """A case reducing a tensor of `shape` along `dimension` with
    `combiner` (an arith op on two scalars) from `init`."""
    result = [size for i, size in enumerate(shape) if i != dimension]
    source = f"tensor<{'x'.join(map(str, shape))}x{element}>"
    target = f"tensor<{'x'.join(map(str, result))}x{element}>"
    return {
        "name": name,
        "mlir": f"""func.func @f(%a: {source}) -> {target} {{
  %init = arith.constant {init} : {element}
  %e = tensor.empty() : {target}
  %f = linalg.fill ins(%init : {element}) outs(%e : {target}) -> {target}
  %r = linalg.reduce ins(%a : {source}) outs(%f : {target}) dimensions = [{dimension}]
    (%x: {element}, %acc: {element}) {{
      %s = {combiner} %x, %acc : {element}
      linalg.yield %s : {element}
    }}
  return %r : {target}
}}
""",
    }

CASES = [
    dict(reduction("row sum 1024x4096", [1024, 4096], 1, "f32", "arith.addf",
                   "0.0"),
         inputs=lambda rng: [rng.random((1024, 4096), dtype=np.float32)],
         numpy=lambda a, o=np_out(1024): np.sum(a, axis=1, out=o),
         torch=lambda a, o=torch_out(1024): torch.sum(a, 1, out=o)),
    dict(reduction("column max 4096x1024", [4096, 1024], 0, "f32",
                   "arith.maximumf", "0xFF800000"),
         inputs=lambda rng: [rng.random((4096, 1024), dtype=np.float32)],
         numpy=lambda a, o=np_out(1024): np.max(a, axis=0, out=o),
         torch=lambda a, o=torch_out(1024): torch.amax(a, 0, out=o)),
    dict(reduction("row sum f16 1024x4096", [1024, 4096], 1, "f16",
                   "arith.addf", "0.0"),
         inputs=lambda rng: [rng.random((1024, 4096)).astype(np.float16)],
         numpy=lambda a, o=np_out(1024, dtype=np.float16): np.sum(
             a, axis=1, out=o),
         torch=lambda a, o=torch_out(1024, dtype="float16"): torch.sum(
             a, 1, out=o)),
    dict(reduction("column sum 65536x64", [65536, 64], 0, "f32",
                   "arith.addf", "0.0"),
         inputs=lambda rng: [rng.random((65536, 64), dtype=np.float32)],
         numpy=lambda a, o=np_out(64): np.sum(a, axis=0, out=o),
         torch=lambda a, o=torch_out(64): torch.sum(a, 0, out=o)),
    {
        "name": "layer norm 2048x768",
        "mlir": LAYER_NORM,
        "inputs": lambda rng: [rng.random((2048, 768), dtype=np.float32),
                               rng.random(768, dtype=np.float32),
                               rng.random(768, dtype=np.float32)],
        "numpy": numpy_layer_norm,
        "torch": lambda x, g, b: torch.nn.functional.layer_norm(
            x, (768,), g, b, 1e-5),
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
        "torch": lambda x: torch.softmax(x, 1),
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
        "numpy": lambda x, o=np_out(4096, 1024): np.exp(x, out=o),
        "torch": lambda x, o=torch_out(4096, 1024): torch.exp(x, out=o),
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
        "numpy": lambda x, y, o=np_out(4096, 1024): np.maximum(
            np.add(x, y, out=o), 0, out=o),
        "torch": lambda x, y, o=torch_out(4096, 1024): torch.relu_(
            torch.add(x, y, out=o)),
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
        "numpy": lambda x, o=np_out(2048, 2048): np.copyto(o, x.T),
        "torch": lambda x, o=torch_out(2048, 2048): o.copy_(x.t()),
    },
]


def time_calls(function, inputs, repetitions):
    function(*inputs)
    times = []
    for _ in range(repetitions):
        start = time.perf_counter()
        function(*inputs)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def time_torch(function, inputs, repetitions):
    tensors = [torch.from_numpy(a) for a in inputs]
    with torch.inference_mode():
        return time_calls(function, tensors, repetitions)


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
        case["input_args"] = []
        for number, array in enumerate(case["arrays"]):
            path = os.path.join(work, f"case{index}.in{number}.npy")
            np.save(path, array)
            case["input_args"].append(f"--input=@{path}")

    results = {}
    for round_index in range(args.rounds):
        for index, case in enumerate(CASES):
            for t in threads:
                kiln = run_json([kiln_benchmark, case["module"],
                                 f"--threads={t}",
                                 f"--repetitions={args.repetitions}",
                                 "--json"] + case["input_args"])
                results.setdefault((index, t), []).append(kiln["median_ms"])
            results.setdefault((index, "numpy"), []).append(
                time_calls(case["numpy"], case["arrays"], args.repetitions))
            if torch is not None:
                results.setdefault((index, "torch"), []).append(
                    time_torch(case["torch"], case["arrays"],
                               args.repetitions))
        print(f"round {round_index + 1} of {args.rounds} done",
              file=sys.stderr)

    print(f"{cpu_name()}, {os.cpu_count()} cores; {args.rounds} rounds of "
          f"{args.repetitions} calls; medians in ms; numpy and PyTorch on "
          f"one thread")
    print()
    peers = ["numpy"] + (["torch"] if torch is not None else [])
    names = {"numpy": "numpy", "torch": "PyTorch"}
    header = "| case | " + " | ".join(names[p] for p in peers) + " | " + \
        " | ".join(f"Kiln {t} thread{'s' if t > 1 else ''}"
                   for t in threads) + " | " + \
        " | ".join(f"Kiln 1 thread vs {names[p]}" for p in peers) + " |"
    print(header)
    print("|" + " --- |" * (1 + 2 * len(peers) + len(threads)))
    for index, case in enumerate(CASES):
        peer_ms = [statistics.median(results[(index, p)]) for p in peers]
        kiln = [statistics.median(results[(index, t)]) for t in threads]
        one = statistics.median(results[(index, threads[0])])
        cells = [f"{ms:.2f}" for ms in peer_ms + kiln]
        cells += [f"{ms / one:.2f}x as fast" for ms in peer_ms]
        print(f"| {case['name']} | " + " | ".join(cells) + " |")

if __name__ == "__main__":
    main()
