#!/usr/bin/python3
"""End-to-end check of a Kiln program against a numpy reference.

Usage: e2e.py [--threads N,...] [--keep DIR] [--compile-arg ARG]...
              [--run-arg ARG]...
              [--program PROGRAM.mlir] FILE.mlir

FILE.mlir holds the program and, in comments, one or more cases:

    // CASE: function_name
    // INPUT: a = rand(4, 8)                  (Python, with numpy as np)
    // INPUT: b = np.arange(8, dtype=np.int32)
    // REFERENCE: np.maximum(a @ b, 0)         (one line per output)
    // TOLERANCE: 1e-5                         (optional; floats only)

or, instead of REFERENCE lines, `// REFERENCE-FUNCTION: other` to take the
expected outputs from calling the module's function `other` without
inputs (say, the same computation on constants, folded by the compiler),
or `// ERROR: text`: the call must fail (kiln-run exits with 1, writing
no output file) with an error that contains the text (a run-time check).

`// SETUP: <Python line>` lines (anywhere, indentation after "SETUP: "
kept) form a program that runs once before the cases: references can call
the functions it defines.

The program is compiled once with kiln-compile; each case runs with kiln-run
(once per thread count) on .npy inputs, and every output is compared with
its reference. A mismatch prints the first differing index with the
expected and actual values; any failure exits nonzero.
"""

import argparse
import atexit
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np


def rand(*shape, dtype=np.float32, low=-1.0, high=1.0, seed=None):
    """Reproducible uniform values in [low, high)."""
    state = rand.generator if seed is None else np.random.default_rng(seed)
    return state.uniform(low, high, size=shape).astype(dtype)


def randint(low, high, *shape, dtype=np.int32):
    """Reproducible integers in [low, high)."""
    return rand.generator.integers(low, high, size=shape).astype(dtype)


def parse_setup(path):
    """The Python program of the file's SETUP lines."""
    lines = []
    with open(path) as f:
        for line in f:
            match = re.match(r"\s*//\s*SETUP:( ?)(.*)$", line.rstrip("\n"))
            if match:
                lines.append(match.group(2))
    return "\n".join(lines)


def parse_cases(path):
    cases = []
    with open(path) as f:
        for line in f:
            match = re.match(r"\s*//\s*(CASE|INPUT|REFERENCE-FUNCTION|REFERENCE|TOLERANCE|ERROR):\s*(.*)",
                             line)
            if not match:
                continue
            key, value = match.group(1), match.group(2).strip()
            if key == "CASE":
                cases.append({"function": value, "inputs": [],
                              "references": [], "reference_function": None,
                              "tolerance": None, "error": None})
            elif not cases:
                sys.exit(f"{path}: {key} before the first CASE")
            elif key == "INPUT":
                name, _, expression = value.partition("=")
                cases[-1]["inputs"].append((name.strip(), expression.strip()))
            elif key == "REFERENCE":
                cases[-1]["references"].append(value)
            elif key == "REFERENCE-FUNCTION":
                cases[-1]["reference_function"] = value
            elif key == "ERROR":
                cases[-1]["error"] = value
            else:
                cases[-1]["tolerance"] = float(value)
    if not cases:
        sys.exit(f"{path}: no CASE")
    return cases


def run(command):
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.stderr.write(f"command failed ({result.returncode}): "
                         f"{' '.join(command)}\n{result.stdout}{result.stderr}")
        sys.exit(1)
    return result


def compare(name, expected, actual, tolerance):
    """Returns an error message, or None when `actual` matches."""
    expected = np.asarray(expected)
    if expected.shape != actual.shape:
        return (f"{name}: shape {actual.shape} differs from the reference's "
                f"{expected.shape}")
    if np.issubdtype(actual.dtype, np.floating):
        expected = expected.astype(np.float64)
        got = actual.astype(np.float64)
        rtol = tolerance if tolerance is not None else 1e-4
        if tolerance == 0:
            # Bit for bit, but any NaN matches any NaN.
            nans = np.isnan(got) & np.isnan(expected)
            same = (got == expected) & (np.signbit(got) == np.signbit(expected))
            bad = ~(same | nans)
            return describe(name, bad, expected, got) if bad.any() else None
        atol = rtol
        bad = ~np.isclose(got, expected, rtol=rtol, atol=atol, equal_nan=True)
    else:
        got = actual
        bad = got != expected.astype(actual.dtype)
    if not bad.any():
        return None
    return describe(name, bad, expected, got)


def describe(name, bad, expected, got):
    index = tuple(int(i) for i in np.argwhere(bad)[0])
    return (f"{name}: {int(bad.sum())} of {bad.size} elements differ; first "
            f"at index {index}: expected {expected[index]}, got {got[index]}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("file")
    parser.add_argument("--kiln-compile", default="kiln-compile")
    parser.add_argument("--kiln-run", default="kiln-run")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--compile-arg", action="append", default=[])
    parser.add_argument("--run-arg", action="append", default=[],
                        help="passed to every kiln-run (a runtime "
                             "extension, say)")
    parser.add_argument("--keep", help="directory to keep files in")
    parser.add_argument("--program",
                        help="compile this file instead of the one holding "
                             "the cases (a transformed copy of it, say)")
    args = parser.parse_args()

    cases = parse_cases(args.file)
    work = args.keep
    if not work:
        work = tempfile.mkdtemp(prefix="kiln-e2e-")
        atexit.register(shutil.rmtree, work, ignore_errors=True)
    os.makedirs(work, exist_ok=True)
    module = os.path.join(work, "module.so")
    run([args.kiln_compile, args.program or args.file, "-o", module] +
        args.compile_arg)

    setup = {"np": np, "rand": rand, "randint": randint}
    exec(compile(parse_setup(args.file), args.file, "exec"), setup)

    failures = 0
    for case in cases:
        case_failures = failures
        rand.generator = np.random.default_rng(12345)
        scope = dict(setup)
        input_args = []
        for index, (name, expression) in enumerate(case["inputs"]):
            # (np.ascontiguousarray would turn a 0-d array into a 1-d one.)
            value = np.asarray(eval(expression, scope), order="C")
            scope[name] = value
            path = os.path.join(work, f"{case['function']}.in{index}.npy")
            np.save(path, value)
            input_args.append(f"--input=@{path}")
        if case["error"]:
            for threads in args.threads.split(","):
                path = os.path.join(work, f"{case['function']}.out.npy")
                result = subprocess.run(
                    [args.kiln_run, module, f"--function={case['function']}",
                     f"--threads={threads}", f"--output=@{path}"] +
                    input_args + args.run_arg, capture_output=True, text=True)
                if (result.returncode != 1 or case["error"] not in
                        result.stderr or os.path.exists(path)):
                    print(f"FAIL {case['function']} (--threads={threads}): "
                          f"expected exit 1, no output and an error with "
                          f"'{case['error']}'; got exit "
                          f"{result.returncode}:\n{result.stderr}")
                    failures += 1
            if failures == case_failures:
                print(f"ok {case['function']}")
            continue
        expected = [eval(reference, scope) for reference in case["references"]]
        if case["reference_function"]:
            listing = run([args.kiln_run, module, "--list"] +
                          args.run_arg).stdout
            signature = next(
                (line.strip() for line in listing.splitlines()
                 if line.strip().startswith(case["reference_function"] + "(")),
                None)
            if signature is None:
                sys.exit(f"no function {case['reference_function']} in the "
                         f"module")
            count = signature.split("->", 1)[1].count("tensor<")
            paths = [os.path.join(work, f"{case['reference_function']}.out{i}.npy")
                     for i in range(count)]
            run([args.kiln_run, module,
                 f"--function={case['reference_function']}"] +
                [f"--output=@{path}" for path in paths] + args.run_arg)
            expected += [np.load(path) for path in paths]
        for threads in args.threads.split(","):
            output_args, paths = [], []
            for index in range(len(expected)):
                path = os.path.join(work,
                                    f"{case['function']}.out{index}.npy")
                paths.append(path)
                output_args.append(f"--output=@{path}")
            run([args.kiln_run, module, f"--function={case['function']}",
                 f"--threads={threads}"] + input_args + output_args +
                args.run_arg)
            for index, (path, reference) in enumerate(zip(paths, expected)):
                error = compare(f"{case['function']} output {index} "
                                f"(--threads={threads})",
                                reference, np.load(path), case["tolerance"])
                if error:
                    print(f"FAIL {error}")
                    failures += 1
        if failures == case_failures:
            print(f"ok {case['function']}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
