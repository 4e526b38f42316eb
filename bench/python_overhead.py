#!/usr/bin/python3
"""What a call from Python costs over the C runtime, on small inputs.

    PYTHONPATH=build/python /usr/bin/python3 bench/python_overhead.py
        [--build build] [--rounds 5] [--calls 2000]

Compiles a few functions of small inputs (an add of two 4-element
vectors, a 64x64 matmul, a function of four inputs and two outputs) and
times each, in rounds that alternate the two ways, as the median over
rounds of each round's median call:

- C: the runtime calling the function in a C++ loop (kiln.benchmark, which
  times each call as kiln-benchmark does), inputs made once;
- Python: `module.f(*arrays)` from a Python loop, each call timed with
  time.perf_counter_ns: checking and wrapping the numpy inputs, the call,
  and numpy arrays over the outputs.

Prints a Markdown table: both times and their difference, the overhead.
The target (issue 15): under 20 us.
"""

import argparse
import os
import statistics
import sys
import time

import numpy as np

from benchutil import cpu_name

PROGRAMS = {
    "add4": ("""
func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.add ins(%a, %b : tensor<4xf32>, tensor<4xf32>)
      outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}""", lambda: [np.ones(4, np.float32), np.ones(4, np.float32)]),
    "matmul64": ("""
func.func @f(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %i = linalg.fill ins(%z : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>)
      outs(%i : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}""", lambda: [np.ones((64, 64), np.float32), np.ones((64, 64), np.float32)]),
    "four_in_two_out": ("""
func.func @f(%a: tensor<16xf32>, %b: tensor<16xf32>, %c: tensor<16xf32>,
             %d: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %e = tensor.empty() : tensor<16xf32>
  %x = linalg.add ins(%a, %b : tensor<16xf32>, tensor<16xf32>)
      outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %y = linalg.mul ins(%c, %d : tensor<16xf32>, tensor<16xf32>)
      outs(%e : tensor<16xf32>) -> tensor<16xf32>
  return %x, %y : tensor<16xf32>, tensor<16xf32>
}""", lambda: [np.ones(16, np.float32) for _ in range(4)]),
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default="build")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--calls", type=int, default=2000)
    args = parser.parse_args()
    sys.path.insert(0, os.path.join(args.build, "python"))
    import kiln

    cases = {}
    for name, (source, make_inputs) in PROGRAMS.items():
        module = kiln.Module.load(kiln.compile(source.strip() + "\n"),
                                  threads=1)
        cases[name] = (module, make_inputs())
    c_times = {name: [] for name in cases}
    py_times = {name: [] for name in cases}
    for _ in range(args.rounds):
        for name, (module, inputs) in cases.items():
            c = kiln.benchmark(module, "f", *inputs, warmup=100,
                               repetitions=args.calls)
            c_times[name].append(c["median_ms"] * 1e3)
            f = module.f
            for _ in range(100):
                f(*inputs)
            samples = []
            for _ in range(args.calls):
                start = time.perf_counter_ns()
                f(*inputs)
                samples.append((time.perf_counter_ns() - start) / 1e3)
            py_times[name].append(statistics.median(samples))
    print(f"\n{cpu_name()}, one thread; median of {args.rounds} rounds of "
          f"{args.calls} calls\n")
    print("| function | C runtime us | from Python us | overhead us |")
    print("| --- | ---: | ---: | ---: |")
    for name in cases:
        c = statistics.median(c_times[name])
        py = statistics.median(py_times[name])
        print(f"| {name} | {c:.2f} | {py:.2f} | {py - c:.2f} |")


if __name__ == "__main__":
    main()
