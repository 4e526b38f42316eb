#!/usr/bin/python3
"""Compiles and checks every program of the conformance corpus.

    run_conformance.py --corpus DIR [--build build] [--jobs N]
                       [--expected FILE] [--compile-flags FILE]
                       [--markdown FILE] [FILE.mlir...]

Each program (../shared/conformance/*/*.mlir: IREE's end-to-end tests) is
compiled with kiln-compile and its test functions run with
`kiln-run --check`. A program passes when it compiles and every check of
every function passes.

--expected names a file listing the programs known not to pass, one per
line as `path: reason` (path relative to the corpus); the run fails when a
program outside the list does not pass, or one on the list passes (take it
off). --compile-flags names a file of `path: flags` lines, the kiln-compile
flags a program needs (a reason in a comment above each). --markdown writes
the table docs/conformance.md holds.
"""

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile
import time


def first_error(text):
    """The first line that says what went wrong, trimmed."""
    for line in text.splitlines():
        if "error:" in line:
            line = re.sub(r"^\S*?:\d+:\d+: ", "", line.strip())
            return line[:300]
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[0][:300] if lines else "(no output)"


def run(command, timeout):
    try:
        result = subprocess.run(command, capture_output=True, text=True,
                                timeout=timeout)
        return result.returncode, result.stdout, result.stderr
    except subprocess.TimeoutExpired:
        return None, "", f"timed out after {timeout} s"


def check_program(args, work, relative):
    path = os.path.join(args.corpus, relative)
    module = os.path.join(work, relative.replace("/", "_") + ".so")
    start = time.monotonic()
    code, out, err = run([args.kiln_compile, path, "-o", module] +
                         args.flags.get(relative, []), args.timeout)
    if code != 0:
        reason = err if code is None else first_error(err)
        return relative, "compile error", reason, time.monotonic() - start
    code, out, err = run([args.kiln_run, "--check", module], args.timeout)
    elapsed = time.monotonic() - start
    if code is None:
        return relative, "run error", err, elapsed
    summary = out.strip().splitlines()[-1] if out.strip() else ""
    if code == 0:
        return relative, "pass", summary, elapsed
    failures = [line.strip() for line in out.splitlines()
                if line.startswith("FAIL") or line.startswith("  ")]
    if failures:
        return relative, "check failed", " / ".join(failures[:3])[:400], elapsed
    return relative, "run error", first_error(err), elapsed


def read_entries(path):
    """The `path: value` lines of the file at `path` (comments, starting
    with #, and blank lines skipped), as a dict."""
    entries = {}
    if not path:
        return entries
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            name, _, value = line.partition(":")
            entries[name.strip()] = value.strip()
    return entries


def report(results, expected):
    """Prints a line per result, marking those that contradict `expected`
    (a failure not listed, a listed one that passes); returns their
    count."""
    unexpected = 0
    for name, outcome, detail, seconds in results:
        passed = outcome == "pass"
        note = ""
        if passed and name in expected:
            note = "  (unexpected pass: take it off the expected failures)"
            unexpected += 1
        elif not passed and name not in expected:
            note = "  (unexpected failure)"
            unexpected += 1
        print(f"{'PASS' if passed else 'FAIL'} {name} [{seconds:.1f} s]: "
              f"{outcome}: {detail}{note}")
    return unexpected


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--build", default="build")
    parser.add_argument("--kiln-compile")
    parser.add_argument("--kiln-run")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--timeout", type=int, default=600)
    parser.add_argument("--expected")
    parser.add_argument("--compile-flags")
    parser.add_argument("--markdown")
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()
    args.kiln_compile = args.kiln_compile or os.path.join(
        args.build, "bin", "kiln-compile")
    args.kiln_run = args.kiln_run or os.path.join(args.build, "bin",
                                                  "kiln-run")
    if not os.path.isdir(args.corpus):
        sys.exit(f"no conformance corpus at {args.corpus}")

    files = args.files or sorted(
        os.path.relpath(os.path.join(root, name), args.corpus)
        for root, _, names in os.walk(args.corpus)
        for name in names if name.endswith(".mlir"))
    expected = read_entries(args.expected)
    args.flags = {name: value.split() for name, value
                  in read_entries(args.compile_flags).items()}
    work = tempfile.mkdtemp(prefix="kiln-conformance-")
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda f: check_program(args, work, f),
                                files))

    unexpected = report(results, expected)
    passed = sum(1 for r in results if r[1] == "pass")
    print(f"{passed} of {len(results)} programs passed")

    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("| program | result | detail |\n| --- | --- | --- |\n")
            for name, outcome, detail, _ in results:
                detail = detail.replace("|", "\\|")
                f.write(f"| `{name}` | {outcome} | {detail} |\n")
    if unexpected:
        print(f"{unexpected} unexpected results", file=sys.stderr)
    sys.exit(1 if unexpected else 0)


if __name__ == "__main__":
    main()
