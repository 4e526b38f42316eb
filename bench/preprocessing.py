#!/usr/bin/python3
"""What executable preprocessing costs.

    /usr/bin/python3 bench/preprocessing.py [--build build] [--runs 5]
                                            [--executables 200]

On a generated program with N distinct executables (one matmul each),
compiled up to the executable-sources phase, whole-process wall times,
medians of --runs:

1. Tool mode over a bare spawn: `cat` as the tool with one job; the extra
   time per executable over the compile without preprocessing, against the
   time per run of spawning the same `cat` on an executable the cheapest
   way (kiln-spawn-probe: posix_spawn, pipes, waitpid, in a loop).
   Target: at most 1.3x.
2. Parallelism: a Python tool (Debian's python3 echoing the executable)
   with 1 job and with 2. Target: 2 jobs at least 1.7x as fast. On some
   virtual machines process creation itself does not scale, so the same
   bare spawns of the Python tool also run as one stream and as two
   streams side by side (two kiln-spawn-probe processes, half the spawns
   each): Kiln's 2-job speedup over that 2-stream speedup is the part of
   the scaling Kiln controls.
3. A cache hit: the cat compile again with a warm
   --kiln-preprocess-executables-cache, per executable over no
   preprocessing.

Prints Markdown.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def program(count):
    lines = []
    for i in range(count):
        k = i + 1
        lines.append(
            f"func.func @f{i}(%a: tensor<4x{k}xf32>, %b: tensor<{k}x8xf32>) "
            f"-> tensor<4x8xf32> {{\n"
            f"  %z = arith.constant 0.0 : f32\n"
            f"  %e = tensor.empty() : tensor<4x8xf32>\n"
            f"  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x8xf32>) "
            f"-> tensor<4x8xf32>\n"
            f"  %r = linalg.matmul ins(%a, %b : tensor<4x{k}xf32>, "
            f"tensor<{k}x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>\n"
            f"  return %r : tensor<4x8xf32>\n}}\n")
    return "".join(lines)


def timed(command, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--executables", type=int, default=200)
    args = parser.parse_args()
    compile_tool = os.path.join(args.build, "bin", "kiln-compile")
    if not os.path.exists(compile_tool):
        sys.exit(f"preprocessing.py: {compile_tool} is missing; build first")
    n = args.executables

    with tempfile.TemporaryDirectory() as tmp:
        source = os.path.join(tmp, "many.mlir")
        with open(source, "w") as f:
            f.write(program(n))
        base = [compile_tool, source, "--compile-to=executable-sources",
                "-o", os.path.join(tmp, "out.mlir")]
        # One executable, as a tool sees it, for the bare spawns.
        dump = os.path.join(tmp, "dump")
        subprocess.run(base + [f"--kiln-dump-executables-to={dump}"],
                       check=True)
        sample = os.path.join(dump, "f0_dispatch_0.sources.mlir")
        with open(os.path.join(tmp, "count.txt"), "w") as f:
            f.write(str(sum(1 for name in os.listdir(dump)
                            if name.endswith(".sources.mlir"))))

        tool = os.path.join(tmp, "echo.py")
        with open(tool, "w") as f:
            f.write("import sys\nsys.stdout.write(sys.stdin.read())\n")

        plain = timed(base, args.runs)
        cat1 = timed(base + ["--kiln-preprocess-executables-with=cat",
                             "--kiln-preprocess-executables-jobs=1"],
                     args.runs)
        probe = os.path.join(args.build, "bin", "kiln-spawn-probe")
        cat = shutil.which("cat")
        spawns = []
        for _ in range(args.runs):
            result = subprocess.run([probe, str(n), sample, cat], check=True,
                                    capture_output=True, text=True)
            spawns.append(float(result.stdout) / 1000)
        spawn = statistics.median(spawns)
        py1 = timed(base + [f"--kiln-preprocess-executables-with="
                            f"/usr/bin/python3 {tool}",
                            "--kiln-preprocess-executables-jobs=1"],
                    args.runs)
        py2 = timed(base + [f"--kiln-preprocess-executables-with="
                            f"/usr/bin/python3 {tool}",
                            "--kiln-preprocess-executables-jobs=2"],
                    args.runs)
        python_tool = [probe, str(n), sample, "/usr/bin/python3", tool]
        one_stream = timed(python_tool, args.runs)
        half = [probe, str(n // 2), sample, "/usr/bin/python3", tool]
        two_streams = []
        for _ in range(args.runs):
            start = time.perf_counter()
            streams = [subprocess.Popen(half, stdout=subprocess.DEVNULL)
                       for _ in range(2)]
            for stream in streams:
                if stream.wait() != 0:
                    sys.exit("preprocessing.py: kiln-spawn-probe failed")
            two_streams.append(time.perf_counter() - start)
        two_streams = statistics.median(two_streams)
        cache = os.path.join(tmp, "cache")
        cached = base + ["--kiln-preprocess-executables-with=cat",
                         "--kiln-preprocess-executables-jobs=1",
                         f"--kiln-preprocess-executables-cache={cache}"]
        subprocess.run(cached, check=True)  # warm
        hit = timed(cached, args.runs)

    per_tool = (cat1 - plain) / n
    print(f"{n} executables (one matmul each), compiled to "
          f"executable-sources; medians of {args.runs} runs.\n")
    print("| measure | value |")
    print("| --- | --- |")
    print(f"| compile, no preprocessing | {plain * 1000:.0f} ms |")
    print(f"| compile, `cat` as the tool, 1 job | {cat1 * 1000:.0f} ms |")
    print(f"| tool mode, per executable | {per_tool * 1000:.2f} ms |")
    print(f"| bare spawn of `cat` on one executable (kiln-spawn-probe) | "
          f"{spawn * 1000:.2f} ms |")
    print(f"| tool mode / bare spawn (target <= 1.3) | "
          f"{per_tool / spawn:.2f}x |")
    print(f"| compile, python3 tool, 1 job | {py1 * 1000:.0f} ms |")
    print(f"| compile, python3 tool, 2 jobs | {py2 * 1000:.0f} ms |")
    print(f"| 2 jobs speedup (target >= 1.7) | {py1 / py2:.2f}x |")
    print(f"| bare spawns of the python3 tool, 1 stream | "
          f"{one_stream * 1000:.0f} ms |")
    print(f"| the same, 2 streams side by side | "
          f"{two_streams * 1000:.0f} ms |")
    spawn_scaling = one_stream / two_streams
    print(f"| 2 streams speedup of bare spawns | {spawn_scaling:.2f}x |")
    print(f"| 2 jobs speedup / 2 streams speedup | "
          f"{py1 / py2 / spawn_scaling:.2f} |")
    print(f"| compile, cache hits | {hit * 1000:.0f} ms |")
    print(f"| cache hit, per executable | "
          f"{(hit - plain) / n * 1000:.2f} ms |")


if __name__ == "__main__":
    main()
