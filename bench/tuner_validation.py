#!/usr/bin/python3
"""Does kiln-tune search find what an exhaustive sweep finds?

    /usr/bin/python3 bench/tuner_validation.py [--build build]
        [--repetitions 100] [--rounds 7] [--programs bench/tuner/*.mlir]

For each program (one dispatch with a small config space), kiln-tune sweep
measures every config of the space and kiln-tune search tunes the program
on its own (a database of its own, so it reuses nothing). A sweep times
each config once, so its fastest is partly luck; the comparison is made
afresh instead: the program is compiled three ways (the compiler's own
config, the sweep's fastest config exported with kiln-tune db export
--margin=0, and the search's spec), plus the default once more to show how far two
identical modules lie apart, and the four are timed by
kiln-benchmark in alternating rounds. A figure is the median over rounds.
The issue's bar: the search's within 5% of the sweep's.
"""

import argparse
import glob
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time


def run(argv):
    done = subprocess.run(argv, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(argv), done.stderr))
    return done.stdout


def benchmark(tools, module, repetitions):
    out = run([os.path.join(tools, "kiln-benchmark"), module, "--json",
               "--repetitions=%d" % repetitions])
    return json.loads(out.strip().splitlines()[-1])["median_ms"]


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(root, "build"))
    parser.add_argument("--repetitions", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--programs", nargs="*",
                        default=sorted(glob.glob(os.path.join(
                            root, "bench", "tuner", "small_*.mlir"))))
    args = parser.parse_args()
    tools = os.path.join(args.build, "bin")
    tune = os.path.join(tools, "kiln-tune")
    rows = []
    with tempfile.TemporaryDirectory() as work:
        for program in args.programs:
            name = os.path.splitext(os.path.basename(program))[0]
            path = lambda suffix: os.path.join(work, name + suffix)
            start = time.monotonic()
            sweep = run([tune, "sweep", program, "--dispatch=main_dispatch_0",
                         "--limit=100000", "--db=" + path(".sweep.jsonl"),
                         "--repetitions=%d" % args.repetitions])
            sweep_s = time.monotonic() - start
            configs = int(re.search(r"(\d+) candidates of", sweep).group(1))
            start = time.monotonic()
            search = run([tune, "search", program, "-o", path(".search.mlir"),
                          "--db=" + path(".search.jsonl"),
                          "--repetitions=%d" % args.repetitions])
            search_s = time.monotonic() - start
            measured = int(re.search(r"(\d+) measured", search).group(1))
            run([tune, "db", "export", path(".sweep.jsonl"), "--margin=0",
                 "-o", path(".sweep.mlir")])
            modules = {}
            # "again" is the default compiled a second time: how far two
            # identical modules' medians lie apart here (the noise floor).
            for way, spec in (("default", None), ("again", None),
                              ("sweep", ".sweep.mlir"),
                              ("search", ".search.mlir")):
                modules[way] = path("." + way + ".so")
                run([os.path.join(tools, "kiln-compile"), program, "-o",
                     modules[way]] +
                    (["--kiln-tuning-spec=" + path(spec)] if spec else []))
            times = {way: [] for way in modules}
            for _ in range(args.rounds):
                for way, module in modules.items():
                    times[way].append(benchmark(tools, module,
                                                args.repetitions))
            medians = {way: statistics.median(t) for way, t in times.items()}
            rows.append((name, configs, sweep_s, measured, search_s,
                         "    tuned: " in search, medians))
    print("| program | configs | sweep | search measured | search | "
          "default | default again | sweep's best | search's | "
          "search / sweep |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
          "| ---: |")
    worst = 0
    for name, configs, sweep_s, measured, search_s, tuned, m in rows:
        ratio = m["search"] / m["sweep"]
        worst = max(worst, ratio)
        print("| %s | %d | %.0f s | %d | %.0f s | %.4f ms | %.4f ms | "
              "%.4f ms | %.4f ms (%s) | %.3f |" % (
                  name, configs, sweep_s, measured, search_s, m["default"],
                  m["again"], m["sweep"], m["search"],
                  "tuned" if tuned else "kept", ratio))
    print("worst search / sweep: %.3f (the bar: 1.05); medians of %d "
          "alternating rounds of kiln-benchmark --repetitions=%d" % (
              worst, args.rounds, args.repetitions))


if __name__ == "__main__":
    main()
