"""Writes a tuning database for the test of `kiln-tune db`: argv[1] the
output of `kiln-tune dispatches`, argv[2] the database to write, argv[3]
the CPU to record. Records of cnn_dispatch_2's workload: the baseline
(2.0 ms), a faster candidate (1.5 ms), a slower one, one that failed to
compile, one that timed out; then a damaged line and a record of another
CPU."""
import json
import re
import sys

listing = open(sys.argv[1]).read()
match = re.search(r"cnn_dispatch_2: (.*)\n  key: (\S+)\n  config: (#kiln\.lowering_config<.*>) \(", listing)
workload, key, baseline_config = match.groups()
faster = ('#kiln.lowering_config<pipeline = "cpu-convolution", '
          'workgroup = [1, 7, 14, 32, 0, 0, 0], cache = [1, 1, 14, 16, 0, 0, 0], '
          'register = [1, 1, 4, 16, 1, 1, 1], vector = [1, 1, 4, 16, 1, 1, 1]>')


def record(config, ms, cpu=sys.argv[3], baseline=False, compile="ok", run="ok"):
    return json.dumps({
        "format": 1, "key": key, "workload": workload, "cpu": cpu,
        "features": "+avx2,+fma", "config": config, "baseline": baseline,
        "compile": compile, "run": run, "compile_s": 0.5,
        "times_ms": [ms] * 3 if ms else [], "median_ms": ms,
        "kiln_build": "test", "machine": "test machine",
        "date": "2026-11-27T00:00:00Z"})


with open(sys.argv[2], "w") as f:
    f.write(record(baseline_config, 2.0, baseline=True) + "\n")
    f.write(record(faster, 1.5) + "\n")
    f.write(record(faster.replace("[1, 7,", "[1, 14,"), 2.5) + "\n")
    f.write(record(faster, 0, compile="failed", run="skipped") + "\n")
    f.write(record(faster, 0, run="timeout") + "\n")
    f.write('{"format": 1, "key": "kw1-\n')
    f.write(record(faster, 1.0, cpu="znver5") + "\n")
