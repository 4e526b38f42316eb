#!/usr/bin/python3
"""What plugins cost: loading and activating one, and carrying inactive ones.

    /usr/bin/python3 bench/plugins.py [--build build] [--runs 20]

1. Load and activate: kiln-plugin-probe, in a fresh process each run, times
   loading a shared-object plugin (dlopen, handshake, registration of its
   passes and flags) and activating it in a session (with the dependency it
   declares, and its pipeline hooks for every phase). Target: under 5 ms.
2. Inactive plugins: kiln-compile on an example model, with and without
   three shared-object plugins loaded but not activated (Kiln's linked-in
   plugins are registered in both), alternating, whole-process wall time.
   Target: no difference beyond the noise of the runs.

Prints medians (and the spread) as Markdown.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


def median_spread(values):
    return statistics.median(values), min(values), max(values)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--model", default=None,
                        help="program to compile (default: "
                             "samples/models/transformer_encoder.mlir)")
    args = parser.parse_args()

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    bin_dir = os.path.join(args.build, "bin")
    plugin = os.path.join(args.build, "test", "plugins",
                          "kiln_plugin_test_plugins.so")
    for path in (os.path.join(bin_dir, "kiln-plugin-probe"), plugin):
        if not os.path.exists(path):
            sys.exit(f"plugins.py: {path} is missing; build first "
                     "(ninja -C build kiln-plugin-probe check-kiln)")

    # 1. Load and activate (test_second brings test_first along).
    loads, activations, totals = [], [], []
    for _ in range(args.runs):
        out = subprocess.run(
            [os.path.join(bin_dir, "kiln-plugin-probe"), plugin, "test_second"],
            check=True, capture_output=True, text=True).stdout
        figures = json.loads(out)
        loads.append(figures["load_us"] / 1000)
        activations.append(figures["activate_us"] / 1000)
        totals.append(figures["total_us"] / 1000)

    print(f"Load and activate a shared-object plugin ({args.runs} processes):\n")
    print("| step | median ms | min ms | max ms |")
    print("| --- | --- | --- | --- |")
    for name, values in (("load (dlopen, handshake, register)", loads),
                         ("activate (2 plugins, hooks for every phase)",
                          activations),
                         ("total (target < 5 ms)", totals)):
        m, lo, hi = median_spread(values)
        print(f"| {name} | {m:.3f} | {lo:.3f} | {hi:.3f} |")

    # 2. Inactive plugins in a whole compile.
    model = args.model or os.path.join(root, "samples", "models",
                                       "transformer_encoder.mlir")
    compile_tool = os.path.join(bin_dir, "kiln-compile")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "model.so")
        plain = [compile_tool, model, "-o", out]
        loaded = plain + [f"--kiln-load-plugin={plugin}"]
        times = {"without": [], "with": []}
        for _ in range(args.runs):
            for name, command in (("without", plain), ("with", loaded)):
                start = time.perf_counter()
                subprocess.run(command, check=True)
                times[name].append(time.perf_counter() - start)
    without, _, _ = median_spread(times["without"])
    with_, _, _ = median_spread(times["with"])
    noise = statistics.pstdev(times["without"])
    print(f"\nCompile {os.path.relpath(model, root)} ({args.runs} runs "
          "each, alternating):\n")
    print("| plugins loaded, inactive | median s | min s | max s |")
    print("| --- | --- | --- | --- |")
    for name, label in (("without", "none (only the linked-in ones)"),
                        ("with", "+3 from a shared object")):
        m, lo, hi = median_spread(times[name])
        print(f"| {label} | {m:.3f} | {lo:.3f} | {hi:.3f} |")
    print(f"\nDifference of medians: {1000 * (with_ - without):+.1f} ms "
          f"({100 * (with_ / without - 1):+.2f}%); standard deviation of the "
          f"runs without: {1000 * noise:.1f} ms.")


if __name__ == "__main__":
    main()
