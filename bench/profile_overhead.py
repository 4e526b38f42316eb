#!/usr/bin/python3
"""What the runtime's profiling costs: off, counting dispatches, tracing.

    /usr/bin/python3 bench/profile_overhead.py [--build build]
                                               [--dispatches 200]
                                               [--rounds 7]
                                               [--repetitions 200]

Compiles compile_time.py's chain of N small dispatches (8 rows each, a
matmul and a tanh: a few microseconds each, where a per-dispatch cost
shows) and times it with kiln-benchmark on 1 and 2 threads, three ways,
alternating within each round: no profiling, --profile (two clock reads and
two counters per dispatch) and --trace (events for the call, each dispatch
and each thread's share). Reports medians over the rounds of each way's
median call, and the cost per dispatch over no profiling.

Prints Markdown.
"""

import argparse
import datetime
import os
import statistics
import sys
import tempfile

from benchutil import cpu_name, run, run_json
from compile_time import chain

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--dispatches", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--repetitions", type=int, default=200)
    args = parser.parse_args()
    compile_tool = os.path.join(args.build, "bin", "kiln-compile")
    benchmark = os.path.join(args.build, "bin", "kiln-benchmark")
    ways = {"off": [], "--profile": ["--profile"], "--trace": None}

    print(f"CPU: {cpu_name()}, {datetime.date.today()}, "
          f"{args.dispatches} dispatches, {args.rounds} rounds of "
          f"{args.repetitions} calls\n")
    print("| threads | way | median call | per dispatch | cost per dispatch |")
    print("| ---: | --- | ---: | ---: | ---: |")
    with tempfile.TemporaryDirectory() as folder:
        source = os.path.join(folder, "chain.mlir")
        module = os.path.join(folder, "chain.so")
        trace = os.path.join(folder, "trace.json")
        with open(source, "w") as f:
            f.write(chain(args.dispatches))
        run([compile_tool, source, "-o", module])
        ways["--trace"] = [f"--trace={trace}"]
        for threads in (1, 2):
            times = {way: [] for way in ways}
            for _ in range(args.rounds):
                for way, flags in ways.items():
                    result = run_json([benchmark, module, "--json",
                                       f"--threads={threads}",
                                       f"--repetitions={args.repetitions}",
                                       "--warmup=20"] + flags)
                    times[way].append(result["median_ms"])
            base = statistics.median(times["off"])
            for way in ways:
                median = statistics.median(times[way])
                cost = (median - base) / args.dispatches * 1e3
                print(f"| {threads} | {way} | {median:.3f} ms | "
                      f"{median / args.dispatches * 1e3:.2f} us | "
                      f"{'' if way == 'off' else f'{cost:+.3f} us'} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
