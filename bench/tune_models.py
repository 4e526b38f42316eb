#!/usr/bin/python3
"""kiln-tune search on a BERT-base encoder layer and a ResNet-18-style CNN.

    /usr/bin/python3 bench/tune_models.py [--build build] [--models bert,resnet]
        [--rounds 7] [--calls 20] [-- SEARCH FLAGS...]

The programs are bench/linalg_models.py's (bert_program(), resnet_program();
that script needs PyTorch, so this one does too). For each: kiln-tune
search with its defaults (or the flags after --) writes a spec, printing
its course and how long it took; then the program compiled without and
with the spec is timed by kiln-benchmark in alternating rounds, and the
medians over rounds give the speedup. The issue's bar: 1.15x, or the
search's table showing the default within noise of the best it found.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import linalg_models  # noqa: E402

PROGRAMS = {"bert": linalg_models.bert_program,
            "resnet": linalg_models.resnet_program}


def run(argv):
    done = subprocess.run(argv, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(argv), done.stderr))
    return done.stdout


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(root, "build"))
    parser.add_argument("--models", default="bert,resnet")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--calls", type=int, default=20)
    parser.add_argument("search_flags", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    flags = args.search_flags[1:] if args.search_flags[:1] == ["--"] \
        else args.search_flags
    tools = os.path.join(args.build, "bin")
    rows = []
    with tempfile.TemporaryDirectory() as work:
        for name in args.models.split(","):
            if name not in PROGRAMS:
                sys.exit("unknown model '%s' (known: %s)" %
                         (name, ", ".join(PROGRAMS)))
            program = os.path.join(work, name + ".mlir")
            with open(program, "w") as f:
                f.write(PROGRAMS[name]())
            spec = os.path.join(work, name + ".spec.mlir")
            start = time.monotonic()
            out = run([os.path.join(tools, "kiln-tune"), "search", program,
                       "-o", spec, "--db=" + os.path.join(work, "db.jsonl"),
                       "--work-dir=" + os.path.join(work, name)] + flags)
            search_s = time.monotonic() - start
            print("== kiln-tune search %s (%.0f s)\n%s" % (name, search_s, out))
            modules = {}
            for way, extra in (("default", []),
                               ("tuned", ["--kiln-tuning-spec=" + spec])):
                modules[way] = os.path.join(work, "%s.%s.so" % (name, way))
                run([os.path.join(tools, "kiln-compile"), program, "-o",
                     modules[way]] + extra)
            times = {way: [] for way in modules}
            for _ in range(args.rounds):
                for way, module in modules.items():
                    report = run([os.path.join(tools, "kiln-benchmark"),
                                  module, "--json",
                                  "--repetitions=%d" % args.calls])
                    times[way].append(
                        json.loads(report.strip().splitlines()[-1])
                        ["median_ms"])
            medians = {way: statistics.median(t) for way, t in times.items()}
            rows.append((name, search_s, medians))
    print("| program | search | default | tuned | speedup |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, search_s, m in rows:
        print("| %s | %.0f s | %.3f ms | %.3f ms | %.2fx |" % (
            name, search_s, m["default"], m["tuned"],
            m["default"] / m["tuned"]))
    print("medians of %d alternating rounds of kiln-benchmark "
          "--repetitions=%d" % (args.rounds, args.calls))


if __name__ == "__main__":
    main()
