#!/usr/bin/python3
"""Compiles and runs ONNX's own backend tests.

    run_onnx_backend.py --data DIR --work DIR [--build build] [--jobs N]
                        [--expected FILE] [--markdown FILE] [--every N]
                        [TEST...]

ONNX's backend test data (Debian's libonnx-testdata, under
/usr/share/libonnx-testdata/data) holds folders of tests (node,
pytorch-converted, pytorch-operator, simple), each a `model.onnx` with
`test_data_set_K/input_I.pb` and `output_I.pb`. A test passes when
kiln-compile compiles the model and, for every data set, kiln-run's outputs
match the expected ones within ONNX's default tolerances (rtol 1e-3, atol
1e-7).

--expected names a file listing the tests known not to pass, one per line
as `folder/test: reason`; the run fails when a test outside the list does
not pass, or one on the list passes (take it off). --markdown writes the
table docs/onnx.md holds: per folder, and per op type of the node tests.
--every N runs every Nth test only (the instrumented build's sample).
--write-expected writes the run's failures, each with its reason, as an
expected-failures file. Modules are written under --work and removed once
run. ONNX 1.12 stores its bfloat16 test tensors as UINT16; the runner
relabels them (same bits) where the model declares BFLOAT16.
"""

import argparse
import collections
import concurrent.futures
import os
import re
import sys
import time

# Tests write only under their own folders: no __pycache__ beside the
# runner in the source tree.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run_conformance import first_error, read_entries, report, run  # noqa: E402

FOLDERS = ["node", "pytorch-converted", "pytorch-operator", "simple"]


def numbered(folder, prefix):
    """The files `prefix_K.pb` of `folder`, in the order of K."""
    found = []
    for name in os.listdir(folder):
        match = re.fullmatch(prefix + r"_(\d+)\.pb", name)
        if match:
            found.append((int(match.group(1)), os.path.join(folder, name)))
    return [path for _, path in sorted(found)]


def clean(args, text):
    """`text` without the paths of this run, on one line."""
    text = text.replace(args.work + "/", "").replace(args.data + "/", "")
    text = re.sub(r"^(kiln-(compile|run): )?error: ", "", text)
    return " ".join(text.split())


def bfloat16_relabeled(args, model_path, files, outputs, module):
    """`files` with ONNX 1.12's bfloat16 test data fixed: those data sets
    store bfloat16 tensors as UINT16 (the same bits); where the model's
    input or output (by position) is BFLOAT16, a copy labeled BFLOAT16 is
    written under --work next to `module` and used instead."""
    try:
        import onnx
    except ImportError:
        return files
    graph = onnx.load(model_path, load_external_data=False).graph
    initializers = {i.name for i in graph.initializer}
    declared = ([o for o in graph.output] if outputs else
                [i for i in graph.input if i.name not in initializers])
    fixed = []
    for position, path in enumerate(files):
        wanted = (declared[position].type.tensor_type.elem_type
                  if position < len(declared) else 0)
        if wanted != onnx.TensorProto.BFLOAT16:
            fixed.append(path)
            continue
        tensor = onnx.TensorProto()
        with open(path, "rb") as f:
            tensor.ParseFromString(f.read())
        if tensor.data_type != onnx.TensorProto.UINT16:
            fixed.append(path)
            continue
        tensor.data_type = onnx.TensorProto.BFLOAT16
        copy = f"{module}.{'output' if outputs else 'input'}_{position}.pb"
        with open(copy, "wb") as f:
            f.write(tensor.SerializeToString())
        fixed.append(copy)
    return fixed


def check_test(args, relative):
    path = os.path.join(args.data, relative)
    module = os.path.join(args.work, relative.replace("/", "_") + ".so")
    start = time.monotonic()
    try:
        code, _, err = run([args.kiln_compile, os.path.join(path, "model.onnx"),
                            "-o", module], args.timeout)
        if code != 0:
            reason = err if code is None else first_error(err)
            return (relative, "compile error", clean(args, reason),
                    time.monotonic() - start)
        sets = sorted(name for name in os.listdir(path)
                      if name.startswith("test_data_set_"))
        for data_set in sets:
            folder = os.path.join(path, data_set)
            model = os.path.join(path, "model.onnx")
            inputs = bfloat16_relabeled(args, model,
                                        numbered(folder, "input"), False,
                                        module)
            outputs = bfloat16_relabeled(args, model,
                                         numbered(folder, "output"), True,
                                         module)
            command = [args.kiln_run, module]
            command += ["--input=@" + f for f in inputs]
            command += ["--expected-output=@" + f for f in outputs]
            code, _, err = run(command, args.timeout)
            if code is None:
                return relative, "run error", err, time.monotonic() - start
            if code != 0:
                outcome = ("mismatch" if "differs from" in err
                           else "run error")
                detail = re.sub(r"'@[^']*/", "'", clean(args, first_error(err)))
                return (relative, outcome, f"{data_set}: {detail}",
                        time.monotonic() - start)
        return (relative, "pass", f"{len(sets)} data sets",
                time.monotonic() - start)
    finally:
        for leftover in [module] + [
                os.path.join(args.work, name) for name in os.listdir(args.work)
                if name.startswith(os.path.basename(module) + ".")]:
            if os.path.exists(leftover):
                os.remove(leftover)


def op_types(path):
    """The op types of the model at `path`, read with onnx when available
    (for the table only)."""
    try:
        import onnx
    except ImportError:
        return []
    model = onnx.load(path, load_external_data=False)
    return sorted({node.op_type for node in model.graph.node})


def write_markdown(args, results):
    by_folder = collections.defaultdict(lambda: [0, 0])
    for name, outcome, _, _ in results:
        counts = by_folder[name.split("/")[0]]
        counts[0] += outcome == "pass"
        counts[1] += 1
    with open(args.markdown, "w") as f:
        f.write("| folder | passed | tests | share |\n"
                "| --- | ---: | ---: | ---: |\n")
        for folder in FOLDERS:
            if folder in by_folder:
                passed, total = by_folder[folder]
                f.write(f"| {folder} | {passed} | {total} | "
                        f"{100 * passed / total:.1f}% |\n")
        # Per op type of the node tests: a test is counted under the op it
        # is named after (the longest op type its name starts with).
        ops = collections.defaultdict(list)
        for name, outcome, detail, _ in results:
            folder, test = name.split("/", 1)
            if folder != "node":
                continue
            types = op_types(os.path.join(args.data, name, "model.onnx"))
            snake = {re.sub(r"(?<!^)(?=[A-Z])", "_", t).lower(): t
                     for t in types}
            key = max((s for s in snake if test.startswith("test_" + s)),
                      key=len, default=None)
            op = snake[key] if key else (types[-1] if types else "?")
            reason = args.expected.get(name, f"{outcome}: {detail}")
            # Short: without the node's name and the data set.
            reason = re.sub(r"node '[^']*' \([^)]*\): ", "", reason)
            reason = re.sub(r"test_data_set_\d+: ", "", reason)
            reason = re.sub(r"'[^']*\.so'", "the module", reason)
            ops[op].append((test, outcome == "pass", reason[:140]))
        f.write("\n| op type | passed | tests | why the others fail |\n"
                "| --- | ---: | ---: | --- |\n")
        for op in sorted(ops):
            entries = ops[op]
            passed = sum(1 for _, ok, _ in entries if ok)
            reasons = sorted({reason for _, ok, reason in entries if not ok})
            why = "; ".join(reasons).replace("|", "\\|")
            f.write(f"| {op} | {passed} | {len(entries)} | {why} |\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--build", default="build")
    parser.add_argument("--kiln-compile")
    parser.add_argument("--kiln-run")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--timeout", type=int, default=300)
    parser.add_argument("--every", type=int, default=1)
    parser.add_argument("--expected")
    parser.add_argument("--markdown")
    parser.add_argument("--write-expected")
    parser.add_argument("tests", nargs="*")
    args = parser.parse_args()
    args.kiln_compile = args.kiln_compile or os.path.join(
        args.build, "bin", "kiln-compile")
    args.kiln_run = args.kiln_run or os.path.join(args.build, "bin",
                                                  "kiln-run")
    if not os.path.isdir(args.data):
        sys.exit(f"no ONNX backend test data at {args.data}")
    os.makedirs(args.work, exist_ok=True)

    tests = args.tests or [
        f"{folder}/{name}" for folder in FOLDERS
        if os.path.isdir(os.path.join(args.data, folder))
        for name in sorted(os.listdir(os.path.join(args.data, folder)))]
    tests = tests[::args.every]
    args.expected = read_entries(args.expected)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda t: check_test(args, t), tests))

    unexpected = report(results, args.expected)
    for folder in FOLDERS:
        mine = [r for r in results if r[0].startswith(folder + "/")]
        if mine:
            passed = sum(1 for r in mine if r[1] == "pass")
            print(f"{folder}: {passed} of {len(mine)} tests passed")
    passed = sum(1 for r in results if r[1] == "pass")
    print(f"{passed} of {len(results)} tests passed")
    if args.markdown:
        write_markdown(args, results)
    if args.write_expected:
        with open(args.write_expected, "w") as f:
            f.write("# ONNX backend tests Kiln does not pass, each with why "
                    "(written by\n# run_onnx_backend.py --write-expected).\n")
            for name, outcome, detail, _ in results:
                if outcome != "pass":
                    f.write(f"{name}: {outcome}: {detail}\n")
    if unexpected:
        print(f"{unexpected} unexpected results", file=sys.stderr)
    sys.exit(1 if unexpected else 0)


if __name__ == "__main__":
    main()
