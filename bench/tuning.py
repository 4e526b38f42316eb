#!/usr/bin/python3
"""What tuning specs do to a program, and what loading one costs.

    /usr/bin/python3 bench/tuning.py [--build build] [--rounds 5]
                                     [--loads 20]

1. A user spec for one shape: a program with a 1024^3 and a 512^3 f32
   matmul (two functions) is compiled as a user gets it (Kiln's default
   spec for this CPU) and with a user spec that matches only m = n = k =
   1024 and sets another configuration (bench/specs/matmul_1024.mlir).
   Both functions of both modules are timed single-threaded with
   kiln-benchmark, alternating within each round; the explanation
   (--kiln-explain-tuning) of each compile is printed. The 1024^3 time
   changes, the 512^3 one does not.
2. Loading the embedded default spec: the time kiln-compile reports for
   parsing and verifying it (--kiln-explain-tuning), median of --loads
   compiles.

Prints Markdown.
"""

import argparse
import json
import os
import re
import statistics
import sys
import tempfile

from benchutil import run

PROGRAM = """
func.func @big(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x1024xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%f : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %r : tensor<1024x1024xf32>
}
func.func @small(%a: tensor<512x512xf32>, %b: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512x512xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<512x512xf32>) -> tensor<512x512xf32>
  %r = linalg.matmul ins(%a, %b : tensor<512x512xf32>, tensor<512x512xf32>) outs(%f : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %r : tensor<512x512xf32>
}
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--loads", type=int, default=20)
    args = parser.parse_args()
    bin_dir = os.path.join(args.build, "bin")
    compile_tool = os.path.join(bin_dir, "kiln-compile")
    benchmark = os.path.join(bin_dir, "kiln-benchmark")
    for tool in (compile_tool, benchmark):
        if not os.access(tool, os.X_OK):
            sys.exit(f"missing {tool}; build Kiln first")
    spec = os.path.join(os.path.dirname(os.path.abspath(__file__)), "specs",
                        "matmul_1024.mlir")

    with tempfile.TemporaryDirectory() as work:
        source = os.path.join(work, "program.mlir")
        with open(source, "w") as f:
            f.write(PROGRAM)
        modules = {}
        explanations = {}
        for who, extra in (("default", []),
                           ("user spec", [f"--kiln-tuning-spec={spec}"])):
            modules[who] = os.path.join(work, f"{who.replace(' ', '_')}.so")
            result = run([compile_tool, source, "-o", modules[who],
                          "--kiln-explain-tuning"] + extra)
            explanations[who] = [line for line in result.stderr.splitlines()
                                 if "linalg.matmul" in line or
                                 "#kiln.lowering_config" in line]

        times = {}
        for _ in range(args.rounds):
            for who in modules:
                for function, repetitions in (("big", 10), ("small", 40)):
                    out = run([benchmark, modules[who], f"--function={function}",
                               "--threads=1", f"--repetitions={repetitions}",
                               "--json"]).stdout
                    times.setdefault((who, function), []).append(
                        json.loads(out.strip().splitlines()[-1])["median_ms"])

        loads = []
        for _ in range(args.loads):
            stderr = run([compile_tool, source, "-o", os.devnull,
                          "--compile-to=executable-configurations",
                          "--kiln-explain-tuning"]).stderr
            match = re.search(r"loaded in ([0-9.]+) ms", stderr)
            if match:
                loads.append(float(match.group(1)))

    print(f"Medians of {args.rounds} rounds, single thread.\n")
    print("| function | default spec | with the user spec | user / default |")
    print("| --- | --- | --- | --- |")
    for function, size in (("big", 1024), ("small", 512)):
        default = statistics.median(times[("default", function)])
        user = statistics.median(times[("user spec", function)])
        print(f"| {function} ({size}³ matmul) | {default:.2f} ms | "
              f"{user:.2f} ms | {user / default:.2f}x |")
    for who, lines in explanations.items():
        print(f"\n`--kiln-explain-tuning`, {who}:\n\n```")
        for line in lines:
            print(line)
        print("```")
    if loads:
        print(f"\nLoading the embedded default spec (parse and verify its "
              f"bytecode): median {statistics.median(loads):.3f} ms, max "
              f"{max(loads):.3f} ms over {len(loads)} compiles.")


if __name__ == "__main__":
    main()
