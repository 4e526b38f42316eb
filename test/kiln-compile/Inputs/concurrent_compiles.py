"""Runs COUNT kiln-compile processes at once on one program, sharing one
object cache, and checks that each succeeds and writes the same bytes as
REFERENCE.

    concurrent_compiles.py KILN_COMPILE PROGRAM REFERENCE CACHE OUTDIR COUNT
"""
import filecmp
import os
import subprocess
import sys

compiler, program, reference, cache, outdir, count = sys.argv[1:]
processes = []
for i in range(int(count)):
    output = os.path.join(outdir, f"concurrent{i}.so")
    processes.append((output, subprocess.Popen(
        [compiler, program, "-o", output, f"--kiln-object-cache={cache}",
         "--kiln-jobs=1"], stderr=subprocess.PIPE, text=True)))
failed = False
for output, process in processes:
    _, errors = process.communicate()
    if process.returncode != 0:
        print(f"{output}: exit {process.returncode}\n{errors}")
        failed = True
    elif not filecmp.cmp(output, reference, shallow=False):
        print(f"{output} differs from {reference}")
        failed = True
print("concurrent compiles: " + ("FAILED" if failed else "all the same"))
sys.exit(1 if failed else 0)
