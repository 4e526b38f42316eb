"""Checks a Chrome trace kiln-run or kiln-benchmark wrote and summarizes it.

Every event must be a complete ("X") or metadata ("M") event of process 1
on a thread the trace names; each dispatch must lie inside a call on the
calling thread, and its threads' shares of workgroups inside it and adding
up to its workgroup count. Prints what FileCheck looks at.
"""
import json
import sys

trace = json.load(open(sys.argv[1]))
events = trace["traceEvents"]
names = {e["tid"]: e["args"]["name"] for e in events
         if e["ph"] == "M" and e["name"] == "thread_name"}
spans = [e for e in events if e["ph"] == "X"]
assert all(e["ph"] in ("X", "M") and e["pid"] == 1 for e in events)
assert all(e["tid"] in names for e in spans), "an event on an unnamed thread"
assert all(e["dur"] >= 0 and e["ts"] >= 0 for e in spans)
calls = [e for e in spans if e["cat"] == "call"]
dispatches = [e for e in spans if e["cat"] == "dispatch"]
shares = [e for e in spans if e["cat"] == "workgroups"]


def inside(inner, outer, slack=0.002):
    return (outer["ts"] - slack <= inner["ts"] and
            inner["ts"] + inner["dur"] <= outer["ts"] + outer["dur"] + slack)


for d in dispatches:
    assert d["tid"] == 0
    assert any(inside(d, c) for c in calls), "a dispatch outside every call"
    mine = [s for s in shares if s["name"] == d["name"] and inside(s, d)]
    total = sum(s["args"]["workgroups"] for s in mine)
    assert total == d["args"]["workgroups"], (d, mine)
print("threads:", len(names), "named:", ", ".join(names[t] for t in sorted(names)))
print("calls:", len(calls), "names:", sorted(set(c["name"] for c in calls)))
print("dispatch events:", len(dispatches))
for name in sorted(set(d["name"] for d in dispatches)):
    runs = [d for d in dispatches if d["name"] == name]
    print("dispatch", name, "runs", len(runs), "root", runs[0]["args"]["root"])
print("workgroup shares add up; dropped:",
      trace["otherData"]["dropped_events"])
