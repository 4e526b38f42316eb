#!/usr/bin/python3
"""What Kiln's run-time checks cost on whole models.

    /usr/bin/python3 bench/runtime_checks.py [--build build] [--threads 2]
        [--rounds 7] [--calls 20] [--models resnet18,mobilenetv2,bert,mlp]
        [--work DIR] [--instructions]

The models of bench/models.py (PyTorch, random weights, opset 17), each
exported twice: with static shapes, and with a dynamic batch, where
sizes, broadcasts and reshapes are checked at run time (the embedding
lookup's token ids are checked in both). Each .onnx file is compiled
with the checks (the default) and with --kiln-runtime-checks=false, and
the two modules timed by kiln-benchmark on the same input, alternating
within each round. A figure is the median over rounds of each round's
median call. The cost is paired: in each round, the checked module's time
over the unchecked one's, minus one; the table gives the median of these
ratios and their range over the rounds. Each round also times the
unchecked module a second time (A/A): the same ratio between two runs of
one module is the noise a cost must stand out from. The table also counts
the checks each module holds (kiln.assert at the end of dispatch
formation) and the dispatches of each module.

With --instructions (needs valgrind: apt install valgrind), each module
is also compiled for x86-64-v3 (AVX2: valgrind 3.19 runs no AVX-512) and
run under valgrind's callgrind for one call and for three, one thread:
instructions per call are half the
difference, and the cost is the checked module's count over the
unchecked one's, minus one. Counts do not drift as times do, so this
figure can show a cost far below the noise of the timed one.

Prints Markdown.
"""

import argparse
import datetime
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

from benchutil import openblas_coretype  # noqa: E402

os.environ["OPENBLAS_CORETYPE"] = openblas_coretype()

import numpy as np  # noqa: E402

from benchutil import cpu_name, run, run_json  # noqa: E402
from models import MODELS, build_model  # noqa: E402


def export(name, work, dynamic):
    """Writes NAME[.dynamic].onnx and its input under `work`; returns the
    path without extension."""
    import torch
    model, example = build_model(name)
    path = os.path.join(work, name + (".dynamic" if dynamic else ""))
    axes = {"x": {0: "batch"}, "y": {0: "batch"}} if dynamic else None
    with torch.no_grad():
        torch.onnx.export(model, (example,), path + ".onnx",
                          opset_version=17, input_names=["x"],
                          output_names=["y"], dynamic_axes=axes)
    np.save(path + ".input.npy", example.numpy())
    return path


def count(text, word):
    return sum(line.count(word) for line in text.splitlines())


def callgrind_instructions(benchmark, module, inputs, calls):
    """Instructions valgrind's callgrind counts in a kiln-benchmark run of
    `calls` calls (no warm-up, one thread)."""
    with tempfile.TemporaryDirectory() as tmp:
        result = subprocess.run(
            ["valgrind", "--tool=callgrind",
             f"--callgrind-out-file={os.path.join(tmp, 'callgrind.out')}",
             benchmark, module, f"--input=@{inputs}", "--threads=1",
             "--warmup=0", f"--repetitions={calls}"],
            capture_output=True, text=True)
    found = re.search(r"Collected : (\d+)", result.stderr)
    if result.returncode != 0 or not found:
        sys.exit(f"runtime_checks.py: callgrind on {module} failed:\n"
                 f"{result.stderr}")
    return int(found.group(1))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--threads", default="2")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--calls", type=int, default=20)
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--work")
    parser.add_argument("--instructions", action="store_true")
    args = parser.parse_args()

    compile_tool = os.path.join(args.build, "bin", "kiln-compile")
    benchmark = os.path.join(args.build, "bin", "kiln-benchmark")
    work = args.work or tempfile.mkdtemp(prefix="kiln-checks-")
    os.makedirs(work, exist_ok=True)
    threads = [int(t) for t in args.threads.split(",")]
    cases = []  # (label, path)
    facts = {}  # label -> (checks, dispatches)
    skipped = {}  # label -> why
    try:
        for name in args.models.split(","):
            for dynamic in (False, True):
                path = export(name, work, dynamic)
                label = name + (" (dynamic)" if dynamic else "")
                # A model Kiln cannot compile yet is reported, not timed.
                result = subprocess.run(
                    [compile_tool, path + ".onnx", "-o", path + ".checked.so"],
                    capture_output=True, text=True)
                if result.returncode != 0:
                    skipped[label] = result.stderr.splitlines()[0]
                    continue
                cases.append((label, path))
                run([compile_tool, path + ".onnx",
                     "--kiln-runtime-checks=false",
                     "-o", path + ".unchecked.so"])
                ir = run([compile_tool, path + ".onnx",
                          "--compile-to=dispatch-formation"]).stdout
                unchecked_ir = run([compile_tool, path + ".onnx",
                                    "--kiln-runtime-checks=false",
                                    "--compile-to=dispatch-formation"]).stdout
                facts[label] = (count(ir, "kiln.assert "),
                                count(ir, "kiln.dispatch @"),
                                count(unchecked_ir, "kiln.dispatch @"))
        times = {}  # (label, threads, checked) -> [round medians]
        for round_index in range(args.rounds):
            for label, path in cases:
                for t in threads:
                    # "again": the unchecked module timed a second time.
                    order = (("checked", "unchecked", "again")
                             if round_index % 2 == 0 else
                             ("unchecked", "again", "checked"))
                    for checked in order:
                        suffix = (".checked" if checked == "checked"
                                  else ".unchecked")
                        result = run_json(
                            [benchmark, path + suffix + ".so",
                             f"--input=@{path}.input.npy", f"--threads={t}",
                             "--warmup=3", f"--repetitions={args.calls}",
                             "--json"])
                        times.setdefault((label, t, checked), []).append(
                            result["median_ms"])
            print(f"round {round_index + 1} of {args.rounds} done",
                  file=sys.stderr)
        instructions = {}  # (label, checked) -> per call
        for label, path in cases if args.instructions else []:
            for checked in ("true", "false"):
                module = f"{path}.v3.{checked}.so"
                run([compile_tool, path + ".onnx", "--kiln-target-cpu=x86-64-v3",
                     f"--kiln-runtime-checks={checked}", "-o", module])
                counts = [callgrind_instructions(
                    benchmark, module, path + ".input.npy", calls)
                    for calls in (1, 3)]
                instructions[(label, checked)] = (counts[1] - counts[0]) / 2
    finally:
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)

    print(f"\n{cpu_name()}, {os.cpu_count()} cores, "
          f"{datetime.date.today().isoformat()}; median of {args.rounds} "
          f"rounds of {args.calls} calls\n")
    print("| model | checks | dispatches (checked / not) | threads "
          "| checked ms | unchecked ms | cost, median of rounds [range] "
          "| A/A noise [range] |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")

    def paired(numerator, denominator):
        ratios = [100 * (a / b - 1) for a, b in zip(numerator, denominator)]
        return (f"{statistics.median(ratios):+.1f}% "
                f"[{min(ratios):+.1f}, {max(ratios):+.1f}]")

    for label, _ in cases:
        checks, dispatches, unchecked_dispatches = facts[label]
        for t in threads:
            on = times[(label, t, "checked")]
            off = times[(label, t, "unchecked")]
            again = times[(label, t, "again")]
            print(f"| {label} | {checks} | {dispatches} / "
                  f"{unchecked_dispatches} | {t} "
                  f"| {statistics.median(on):.3f} "
                  f"| {statistics.median(off):.3f} | {paired(on, off)} "
                  f"| {paired(again, off)} |")
    if instructions:
        print("\nInstructions per call under callgrind (x86-64-v3, 1 "
              "thread):\n")
        print("| model | checked | unchecked | cost |")
        print("| --- | ---: | ---: | ---: |")
        for label, _ in cases:
            on = instructions[(label, "true")]
            off = instructions[(label, "false")]
            print(f"| {label} | {on:,.0f} | {off:,.0f} "
                  f"| {100 * (on / off - 1):+.4f}% |")
    for label, why in skipped.items():
        print(f"\n{label} does not compile: {why}")


if __name__ == "__main__":
    main()
