#!/usr/bin/python3
"""How compile time scales: with the program, with jobs, with the object cache.

    /usr/bin/python3 bench/compile_time.py [--build build] [--runs 3]
                                           [--sizes 25,100,400,1600]
                                           [--outputs 250,1000,3000]

Programs: a generated chain of N distinct dispatches (8 rows; each a matmul
by a weight argument to a width one wider than the last, from 32 and back
to 32 after 95, then a tanh of the product plus a number of its own), and
two sample
models (samples/models/transformer_encoder.mlir, cnn_tosa.mlir). Each is
compiled to a module (kiln-compile, whole-process wall time, median of
--runs) with 1 and with 2 jobs (alternating) and no cache; then with 2 jobs and an
object cache: cold (empty cache), warm (the same program again) and after
changing one dispatch (one constant of the chain).

Then ONNX graphs with many outputs (--outputs; 0 for none), compiled with
2 jobs: output i is x * c_i for a vector c_i of its own (one executable
for all, after deduplication: the host function's size is what grows), or
x + s_i for a number s_i of its own (a dispatch of its own each).

Targets (2 cores): time per dispatch at N = 400 within 1.3x of N = 25;
2 jobs at least 1.7x faster than 1 at N = 400; a warm-cache recompile after
changing one dispatch under 15% of the cold compile; time per output at the
largest --outputs within 1.5x of the smallest.

Prints Markdown.
"""

import argparse
import datetime
import os
import statistics
import subprocess
import sys
import tempfile
import time

from benchutil import cpu_name

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


WIDTHS = 64  # widths run 32, 33, ..., 95, then from 32 again


def width(i):
    return 32 + i % WIDTHS


def chain(count, changed=None):
    """The chain program with `count` dispatches. Dispatch i multiplies by
    a weight argument (constants would be materialized, and cost LLVM time
    that grows with their size) to the next width and adds i / 1000 before
    its tanh, so that no two dispatches are the same while their sizes
    stay bounded: time per dispatch measures how the compiler scales, not
    bigger dispatches. Dispatch `changed` (if any) adds another number."""
    weights = ", ".join(f"%w{i}: tensor<{width(i)}x{width(i + 1)}xf32>"
                        for i in range(count))
    lines = [f"func.func @main(%x: tensor<8x32xf32>, {weights}) "
             f"-> tensor<8x{width(count)}xf32> {{",
             "  %zero = arith.constant 0.0 : f32"]
    value = "%x"
    for i in range(count):
        k, n = width(i), width(i + 1)
        shift = (i + 0.5 if i == changed else i) / 1000
        lines += [
            f"  %e{i} = tensor.empty() : tensor<8x{n}xf32>",
            f"  %f{i} = linalg.fill ins(%zero : f32) outs(%e{i} : "
            f"tensor<8x{n}xf32>) -> tensor<8x{n}xf32>",
            f"  %m{i} = linalg.matmul ins({value}, %w{i} : tensor<8x{k}xf32>, "
            f"tensor<{k}x{n}xf32>) outs(%f{i} : tensor<8x{n}xf32>) "
            f"-> tensor<8x{n}xf32>",
            f"  %t{i} = linalg.generic {{indexing_maps = "
            f"[affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], "
            f"iterator_types = [\"parallel\", \"parallel\"]}} "
            f"ins(%m{i} : tensor<8x{n}xf32>) outs(%e{i} : tensor<8x{n}xf32>) "
            f"{{\n  ^bb0(%a: f32, %b: f32):\n"
            f"    %c = arith.constant {shift:.6e} : f32\n"
            f"    %s = arith.addf %a, %c : f32\n"
            f"    %r = math.tanh %s : f32\n"
            f"    linalg.yield %r : f32\n  }} -> tensor<8x{n}xf32>"]
        value = f"%t{i}"
    lines += [f"  return {value} : tensor<8x{width(count)}xf32>", "}", ""]
    return "\n".join(lines)


def many_outputs(count, splat):
    """An ONNX graph (opset 17) with `count` outputs of x[4]: x * c_i for a
    vector c_i, or x + s_i for a splat s_i."""
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    op = "Add" if splat else "Mul"
    nodes = [helper.make_node(op, ["x", f"c{i}"], [f"y{i}"], name=f"n{i}")
             for i in range(count)]
    constants = [numpy_helper.from_array(
        np.full(4, i, np.float32) if splat
        else np.arange(4, dtype=np.float32) * (i + 1), f"c{i}")
        for i in range(count)]
    graph = helper.make_graph(
        nodes, "many_outputs",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4])],
        [helper.make_tensor_value_info(f"y{i}", TensorProto.FLOAT, [4])
         for i in range(count)], constants)
    model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 17)])
    return model.SerializeToString()


def compile_seconds(tool, source, output, flags, runs, before=None):
    """Median wall time of `runs` compiles; `before` runs ahead of each
    (untimed), such as emptying the cache."""
    times = []
    for _ in range(runs):
        if before:
            before()
        start = time.perf_counter()
        result = subprocess.run([tool, source, "-o", output, "--quiet"]
                                + flags, capture_output=True, text=True)
        times.append(time.perf_counter() - start)
        if result.returncode != 0:
            sys.exit(f"compile_time.py: compiling {source} failed:\n"
                     f"{result.stderr}")
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sizes", default="25,100,400,1600")
    parser.add_argument("--outputs", default="250,1000,3000")
    args = parser.parse_args()
    tool = os.path.join(args.build, "bin", "kiln-compile")
    if not os.path.exists(tool):
        sys.exit(f"compile_time.py: {tool} is missing; build first")
    sizes = [int(size) for size in args.sizes.split(",")]
    output_counts = [int(count) for count in args.outputs.split(",")
                     if int(count) > 0]

    rows = []
    output_rows = []
    with tempfile.TemporaryDirectory() as tmp:
        output = os.path.join(tmp, "out.so")
        cache = os.path.join(tmp, "cache")

        def empty_cache():
            subprocess.run(["rm", "-rf", cache], check=True)

        programs = []
        for size in sizes:
            source = os.path.join(tmp, f"chain{size}.mlir")
            changed = os.path.join(tmp, f"chain{size}-changed.mlir")
            with open(source, "w") as f:
                f.write(chain(size))
            with open(changed, "w") as f:
                f.write(chain(size, changed=size // 2))
            programs.append((f"chain, N = {size}", size, source, changed))
        for name in ["transformer_encoder", "cnn_tosa"]:
            programs.append((name, None,
                             os.path.join(ROOT, "samples", "models",
                                          name + ".mlir"), None))

        for name, size, source, changed in programs:
            # 1 and 2 jobs alternate, so that drift hits both alike.
            ones, twos = [], []
            for _ in range(args.runs):
                ones.append(compile_seconds(tool, source, output,
                                            ["--kiln-jobs=1"], 1))
                twos.append(compile_seconds(tool, source, output,
                                            ["--kiln-jobs=2"], 1))
            one, two = statistics.median(ones), statistics.median(twos)
            cached = ["--kiln-jobs=2", f"--kiln-object-cache={cache}"]
            cold = compile_seconds(tool, source, output, cached, args.runs,
                                   before=empty_cache)
            warm = compile_seconds(tool, source, output, cached, args.runs)
            edit = None
            if changed:
                # Each run starts from the cache of the unchanged program.
                def warm_unchanged():
                    empty_cache()
                    compile_seconds(tool, source, output, cached, 1)
                edit = compile_seconds(tool, changed, output, cached,
                                       args.runs, before=warm_unchanged)
            rows.append((name, size, one, two, cold, warm, edit))

        for splat in [False, True]:
            for count in output_counts:
                source = os.path.join(tmp, f"outputs{count}.onnx")
                with open(source, "wb") as f:
                    f.write(many_outputs(count, splat))
                seconds = compile_seconds(tool, source, output,
                                          ["--kiln-jobs=2"], args.runs)
                output_rows.append((splat, count, seconds))

    print(f"Compile times on {cpu_name()}, {os.cpu_count()} cores, "
          f"{datetime.date.today()}; `kiln-compile FILE -o OUT`, medians "
          f"of {args.runs} runs.\n")
    print("| program | 1 job | 2 jobs | speedup | per dispatch, 2 jobs | "
          "cache cold | warm | one dispatch changed | changed / cold |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, size, one, two, cold, warm, edit in rows:
        per = f"{two / size * 1000:.1f} ms" if size else ""
        edited = f"{edit:.2f} s" if edit is not None else ""
        ratio = f"{edit / cold:.0%}" if edit is not None else ""
        print(f"| {name} | {one:.2f} s | {two:.2f} s | {one / two:.2f}x | "
              f"{per} | {cold:.2f} s | {warm:.2f} s | {edited} | {ratio} |")
    chains = {size: (one, two, edit, cold)
              for _, size, one, two, cold, _, edit in rows if size}
    if 25 in chains and 400 in chains:
        growth = (chains[400][1] / 400) / (chains[25][1] / 25)
        print(f"\nPer dispatch at N = 400 over N = 25, 2 jobs: "
              f"{growth:.2f}x (target <= 1.3)")
    if 400 in chains:
        one, two, edit, cold = chains[400]
        print(f"2 jobs over 1 at N = 400: {one / two:.2f}x (target >= 1.7)")
        print(f"One dispatch changed over cold at N = 400: "
              f"{edit / cold:.0%} (target < 15%)")
    if output_rows:
        print("\n| ONNX graph, 2 jobs | outputs | compile | per output |")
        print("| --- | ---: | ---: | ---: |")
        for splat, count, seconds in output_rows:
            kind = "x + s_i (a dispatch each)" if splat else "x * c_i"
            print(f"| {kind} | {count} | {seconds:.2f} s | "
                  f"{seconds / count * 1000:.1f} ms |")
        for splat in [False, True]:
            runs = [(count, seconds) for s, count, seconds in output_rows
                    if s == splat]
            if len(runs) > 1:
                (low, low_s), (high, high_s) = runs[0], runs[-1]
                print(f"\n{'x + s_i' if splat else 'x * c_i'}: per output at "
                      f"{high} over {low}: "
                      f"{(high_s / high) / (low_s / low):.2f}x "
                      f"(target <= 1.5)")


if __name__ == "__main__":
    main()
