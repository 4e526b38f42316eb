"""Summarizes a tuning database for dask.test: how many records of each
kind, whether all ran, and whether a Dask worker timed each."""
import json
import sys

records = [json.loads(line) for line in open(sys.argv[1])]
baselines = [r for r in records if r["baseline"]]
candidates = [r for r in records if not r["baseline"]]
ok = all(r["compile"] == "ok" and r["run"] == "ok" for r in records)
remote = all(r.get("worker", "").startswith("tcp://127.0.0.1:")
             for r in records)
print("%d records: %d baselines, %d candidates of %d configs; %s; %s" % (
    len(records), len(baselines), len(candidates),
    len({r["config"] for r in candidates}),
    "all ok" if ok else "not all ok",
    "each timed by a Dask worker" if remote else "not all timed by Dask"))
