#!/usr/bin/python3
"""Kiln's convolutions and pooling against oneDNN, side by side in one run.

    /usr/bin/python3 bench/conv.py [--build build] [--batches 1,8]
                                   [--threads 1,2] [--rounds 3]
                                   [--cases NAME,...] [--filter-arguments]

The suite is the convolutions of ResNet-50 (7x7 stride 2, 1x1, 3x3,
stride-2 3x3 and 1x1), MobileNetV2 (depthwise 3x3 at stride 1 and 2,
pointwise) and ResNeXt-50 (32x4d: grouped 3x3), and their pooling, each
at every batch size asked for. Kiln
compiles each as a program would give it: NHWC, a tensor.pad in front,
bias and ReLU after (pooling: the pad only); a grouped convolution as a
linalg.generic over NHWGC with its filter KH x KW x G x C x F, the form
global optimization gives a model's grouped convolution. Filters are
constants of random weights, as a model's are, which Kiln may lay out at
compile time as oneDNN reorders its filter untimed (--filter-arguments:
arguments in the program's layout instead). oneDNN (onednn-conv, built
against Debian's libdnnl-dev) runs the same convolution with bias and a
fused ReLU, in the layout and with the algorithm it picks for itself,
reorders untimed. In rounds, each case is timed with kiln-benchmark and
onednn-conv for each thread count, alternating, so both see the same
machine state; a configuration's figure is the median over rounds of the
median call time of a round. Prints a Markdown table and the geometric
mean of Kiln / oneDNN per thread count.
"""

import argparse
import math
import os
import statistics
import subprocess
import sys
import tempfile

from benchutil import cpu_name, run_json

# Untimed calls first. Kiln's first calls run slower while glibc's malloc
# settles on reusing memory instead of mapping fresh pages for every call's
# buffers (ten calls here); both sides get the same warm-up.
WARMUP = 10

# ResNeXt-50 (32x4d) splits its 3x3 convolutions into 32 groups.
RESNEXT_GROUPS = 32

# name, op, H, W, C, K, window, stride, pad. Depthwise: K == C, groups C.
# Grouped: RESNEXT_GROUPS groups.
CASES = [
    ("resnet conv1 7x7/2", "conv", 224, 224, 3, 64, 7, 2, 3),
    ("resnet pool1 max 3x3/2", "maxpool", 112, 112, 64, 64, 3, 2, 1),
    ("resnet res2 1x1 64>64", "conv", 56, 56, 64, 64, 1, 1, 0),
    ("resnet res2 3x3 64", "conv", 56, 56, 64, 64, 3, 1, 1),
    ("resnet res2 1x1 64>256", "conv", 56, 56, 64, 256, 1, 1, 0),
    ("resnet res2 1x1 256>64", "conv", 56, 56, 256, 64, 1, 1, 0),
    ("resnet res3 3x3/2 128", "conv", 56, 56, 128, 128, 3, 2, 1),
    ("resnet res3 1x1/2 256>512", "conv", 56, 56, 256, 512, 1, 2, 0),
    ("resnet res3 1x1 128>512", "conv", 28, 28, 128, 512, 1, 1, 0),
    ("resnet res4 3x3 256", "conv", 14, 14, 256, 256, 3, 1, 1),
    ("resnet res4 1x1 1024>256", "conv", 14, 14, 1024, 256, 1, 1, 0),
    ("resnet res5 3x3 512", "conv", 7, 7, 512, 512, 3, 1, 1),
    ("resnet res5 1x1 512>2048", "conv", 7, 7, 512, 2048, 1, 1, 0),
    ("resnet pool5 avg 7x7", "avgpool", 7, 7, 2048, 2048, 7, 1, 0),
    ("mobilenetv2 dw 3x3 32", "depthwise", 112, 112, 32, 32, 3, 1, 1),
    ("mobilenetv2 dw 3x3/2 96", "depthwise", 112, 112, 96, 96, 3, 2, 1),
    ("mobilenetv2 dw 3x3 576", "depthwise", 14, 14, 576, 576, 3, 1, 1),
    ("mobilenetv2 pw 1x1 32>16", "conv", 112, 112, 32, 16, 1, 1, 0),
    ("mobilenetv2 pw 1x1 24>144", "conv", 56, 56, 24, 144, 1, 1, 0),
    ("mobilenetv2 pw 1x1 960>320", "conv", 7, 7, 960, 320, 1, 1, 0),
    ("resnext res2 3x3 128 g32", "grouped", 56, 56, 128, 128, 3, 1, 1),
    ("resnext res3 3x3 256 g32", "grouped", 28, 28, 256, 256, 3, 1, 1),
    ("resnext res4 3x3/2 512 g32", "grouped", 28, 28, 512, 512, 3, 2, 1),
    ("resnext res5 3x3 1024 g32", "grouped", 7, 7, 1024, 1024, 3, 1, 1),
]

PAD = """  %p = tensor.pad %x low[0, {pad}, {pad}, 0] high[0, {pad}, {pad}, 0] {{
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %padding : f32
  }} : tensor<{n}x{h}x{w}x{c}xf32> to tensor<{n}x{ph}x{pw}x{c}xf32>
"""

BIAS_RELU = """  %r = linalg.generic {{indexing_maps = [affine_map<({dims}) -> ({dims})>, affine_map<({dims}) -> ({bias_dims})>, affine_map<({dims}) -> ({dims})>], iterator_types = [{iterators}]}}
      ins(%y, %b : {out}, {bias}) outs(%e : {out}) {{
  ^bb0(%v: f32, %bias: f32, %o: f32):
    %s = arith.addf %v, %bias : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  }} -> {out}
  return %r : {out}
}}
"""


def bias_relu(out, dims, bias_dims, bias):
    """Bias (indexed by `bias_dims` of the result's `dims`) and ReLU on %y,
    returned."""
    iterators = ", ".join(['"parallel"'] * len(dims.split(",")))
    return BIAS_RELU.format(out=out, dims=dims, bias_dims=bias_dims,
                            iterators=iterators, bias=bias)


GROUPED = """  %y = linalg.generic {{indexing_maps = [affine_map<(n, oh, ow, g, f, kh, kw, c) -> (n, oh * {stride} + kh, ow * {stride} + kw, g, c)>, affine_map<(n, oh, ow, g, f, kh, kw, c) -> (kh, kw, g, c, f)>, affine_map<(n, oh, ow, g, f, kh, kw, c) -> (n, oh, ow, g, f)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}}
      ins(%p, %f : {padded}, {filter}) outs(%init : {out}) {{
  ^bb0(%xi: f32, %fi: f32, %o: f32):
    %m = arith.mulf %xi, %fi : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }} -> {out}
"""


def constant_filter(shape):
    """An arith.constant %f of `shape` holding reproducible random weights:
    a model's weights, which Kiln may lay out at compile time as oneDNN
    reorders its filter untimed."""
    import numpy as np
    values = np.random.default_rng(len(shape) * 1000 + sum(shape)).uniform(
        -0.1, 0.1, size=shape).astype("<f4")
    type_ = "tensor<" + "x".join(map(str, shape)) + "xf32>"
    return (f'  %f = arith.constant dense<"0x{values.tobytes().hex().upper()}">'
            f" : {type_}\n")


def with_constant_filter(text, shape):
    """`text` (a case's program) with its filter argument %f made a
    constant of `shape`."""
    type_ = "tensor<" + "x".join(map(str, shape)) + "xf32>"
    text = text.replace(f"%f: {type_}, ", "", 1)
    return text.replace("  %zero = arith.constant 0.0 : f32\n",
                        "  %zero = arith.constant 0.0 : f32\n" +
                        constant_filter(shape), 1)


def grouped_program(n, h, w, c, k, window, stride, pad):
    """A grouped case as a Kiln program: NHWGC, pad, the convolution as a
    generic, bias and ReLU."""
    g = RESNEXT_GROUPS
    gc, gk = c // g, k // g
    oh = (h + 2 * pad - window) // stride + 1
    ow = (w + 2 * pad - window) // stride + 1
    image = f"tensor<{n}x{h}x{w}x{g}x{gc}xf32>"
    padded = f"tensor<{n}x{h + 2 * pad}x{w + 2 * pad}x{g}x{gc}xf32>"
    filter_type = f"tensor<{window}x{window}x{g}x{gc}x{gk}xf32>"
    out = f"tensor<{n}x{oh}x{ow}x{g}x{gk}xf32>"
    text = (f"func.func @f(%x: {image}, %f: {filter_type}, "
            f"%b: tensor<{g}x{gk}xf32>) -> {out} {{\n")
    text += "  %zero = arith.constant 0.0 : f32\n"
    text += (f"  %p = tensor.pad %x low[0, {pad}, {pad}, 0, 0] "
             f"high[0, {pad}, {pad}, 0, 0] {{\n"
             f"  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index, "
             f"%i4: index):\n    tensor.yield %zero : f32\n"
             f"  }} : {image} to {padded}\n")
    text += f"  %e = tensor.empty() : {out}\n"
    text += (f"  %init = linalg.fill ins(%zero : f32) outs(%e : {out}) "
             f"-> {out}\n")
    text += GROUPED.format(stride=stride, padded=padded, filter=filter_type,
                           out=out)
    return text + bias_relu(out, "n, h, w, g, f", "g, f",
                            f"tensor<{g}x{gk}xf32>")


def filter_shape(op, c, k, window):
    """The shape of the filter the case's program takes, or None."""
    if op == "conv":
        return (window, window, c, k)
    if op == "depthwise":
        return (window, window, c)
    if op == "grouped":
        g = RESNEXT_GROUPS
        return (window, window, g, c // g, k // g)
    return None


def program(op, n, h, w, c, k, window, stride, pad, constant_filters=False):
    """The case as a Kiln program: NHWC, pad, the op, bias and ReLU; with
    `constant_filters`, the filter a constant of random weights instead of
    an argument."""
    text = program_with_filter_argument(op, n, h, w, c, k, window, stride, pad)
    shape = filter_shape(op, c, k, window)
    if constant_filters and shape:
        text = with_constant_filter(text, shape)
    return text


def program_with_filter_argument(op, n, h, w, c, k, window, stride, pad):
    if op == "grouped":
        return grouped_program(n, h, w, c, k, window, stride, pad)
    oh = (h + 2 * pad - window) // stride + 1
    ow = (w + 2 * pad - window) // stride + 1
    ph, pw = h + 2 * pad, w + 2 * pad
    out = f"tensor<{n}x{oh}x{ow}x{k}xf32>"
    padded = f"tensor<{n}x{ph}x{pw}x{c}xf32>"
    attrs = (f"{{dilations = dense<1> : tensor<2xi64>, "
             f"strides = dense<{stride}> : tensor<2xi64>}}")
    fmt = dict(n=n, h=h, w=w, c=c, k=k, pad=pad, ph=ph, pw=pw, out=out)
    if op == "conv":
        args = (f"%x: tensor<{n}x{h}x{w}x{c}xf32>, "
                f"%f: tensor<{window}x{window}x{c}x{k}xf32>, %b: tensor<{k}xf32>")
        body = (f"  %y = linalg.conv_2d_nhwc_hwcf {attrs}\n"
                f"      ins(%p, %f : {padded}, tensor<{window}x{window}x{c}x{k}xf32>) "
                f"outs(%init : {out}) -> {out}\n")
    elif op == "depthwise":
        args = (f"%x: tensor<{n}x{h}x{w}x{c}xf32>, "
                f"%f: tensor<{window}x{window}x{c}xf32>, %b: tensor<{k}xf32>")
        body = (f"  %y = linalg.depthwise_conv_2d_nhwc_hwc {attrs}\n"
                f"      ins(%p, %f : {padded}, tensor<{window}x{window}x{c}xf32>) "
                f"outs(%init : {out}) -> {out}\n")
    else:
        named = "pooling_nhwc_max" if op == "maxpool" else "pooling_nhwc_sum"
        args = f"%x: tensor<{n}x{h}x{w}x{c}xf32>"
        body = (f"  %window = tensor.empty() : tensor<{window}x{window}xf32>\n"
                f"  %y = linalg.{named} {attrs}\n"
                f"      ins(%p, %window : {padded}, tensor<{window}x{window}xf32>) "
                f"outs(%init : {out}) -> {out}\n")
    lowest = "0xFF800000" if op == "maxpool" else "0.0"
    text = f"func.func @f({args}) -> {out} {{\n"
    text += "  %zero = arith.constant 0.0 : f32\n"
    text += f"  %padding = arith.constant {lowest} : f32\n"
    text += PAD.format(**fmt) if pad else f"  %p = tensor.cast %x : tensor<{n}x{h}x{w}x{c}xf32> to {padded}\n"
    text += f"  %e = tensor.empty() : {out}\n"
    text += (f"  %init = linalg.fill ins(%padding : f32) outs(%e : {out}) "
             f"-> {out}\n")
    text += body
    if op in ("conv", "depthwise"):
        text += bias_relu(out, "n, h, w, c", "c", f"tensor<{k}xf32>")
    elif op == "avgpool":
        scale = 1.0 / (window * window)
        text += (f"  %r = linalg.generic {{indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = [\"parallel\", \"parallel\", \"parallel\", \"parallel\"]}}\n"
                 f"      ins(%y : {out}) outs(%e : {out}) {{\n"
                 f"  ^bb0(%v: f32, %o: f32):\n"
                 f"    %s = arith.mulf %v, %scale : f32\n"
                 f"    linalg.yield %s : f32\n"
                 f"  }} -> {out}\n  return %r : {out}\n}}\n")
        text = text.replace("  %zero = arith.constant 0.0 : f32\n",
                            f"  %zero = arith.constant 0.0 : f32\n"
                            f"  %scale = arith.constant {scale!r} : f32\n")
    else:
        text += f"  return %y : {out}\n}}\n"
    return text


def flops(op, n, h, w, c, k, window, stride, pad):
    oh = (h + 2 * pad - window) // stride + 1
    ow = (w + 2 * pad - window) // stride + 1
    if op == "conv":
        return 2.0 * n * oh * ow * k * c * window * window
    if op == "grouped":
        return 2.0 * n * oh * ow * k * (c // RESNEXT_GROUPS) * window * window
    if op == "depthwise":
        return 2.0 * n * oh * ow * c * window * window
    return 1.0 * n * oh * ow * c * window * window


def onednn_args(op, n, h, w, c, k, window, stride, pad):
    args = [f"n={n}", f"h={h}", f"w={w}", f"c={c}", f"k={k}", f"r={window}",
            f"s={window}", f"stride={stride}", f"pad={pad}"]
    if op in ("conv", "depthwise", "grouped"):
        args = ["op=conv"] + args + ["relu=1"]
        if op == "depthwise":
            args.append(f"groups={c}")
        if op == "grouped":
            args.append(f"groups={RESNEXT_GROUPS}")
    else:
        args = [f"op={op}"] + args
    return args


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--batches", default="1,8")
    parser.add_argument("--threads", default=f"1,{os.cpu_count()}")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cases", default="",
                        help="comma-separated substrings of case names to run")
    parser.add_argument("--compile-arg", action="append", default=[])
    parser.add_argument("--filter-arguments", action="store_true",
                        help="pass filters as arguments, in the program's "
                             "layout, instead of as constants")
    args = parser.parse_args()

    bin_dir = os.path.join(args.build, "bin")
    kiln_compile = os.path.join(bin_dir, "kiln-compile")
    kiln_benchmark = os.path.join(bin_dir, "kiln-benchmark")
    onednn = os.path.join(bin_dir, "onednn-conv")
    for tool in (kiln_compile, kiln_benchmark, onednn):
        if not os.access(tool, os.X_OK):
            sys.exit(f"missing {tool}; build Kiln first (build_tools/build.sh; "
                     f"onednn-conv needs libdnnl-dev)")
    batches = [int(b) for b in args.batches.split(",")]
    threads = sorted({int(t) for t in args.threads.split(",")})
    wanted = [w for w in args.cases.split(",") if w]
    cases = [case for case in CASES
             if not wanted or any(w in case[0] for w in wanted)]
    if not cases:
        sys.exit(f"no case matches {args.cases!r}")

    results = {}
    with tempfile.TemporaryDirectory(prefix="kiln-bench-conv-") as work:
        modules = {}
        for index, (name, op, h, w, c, k, window, stride, pad) in enumerate(cases):
            for n in batches:
                source = os.path.join(work, f"case{index}-n{n}.mlir")
                with open(source, "w") as f:
                    f.write(program(op, n, h, w, c, k, window, stride, pad,
                                    not args.filter_arguments))
                modules[(name, n)] = os.path.join(work, f"case{index}-n{n}.so")
                subprocess.run([kiln_compile, source, "-o", modules[(name, n)]] +
                               args.compile_arg, check=True)

        for round_index in range(args.rounds):
            for name, op, h, w, c, k, window, stride, pad in cases:
                for n in batches:
                    work_flops = flops(op, n, h, w, c, k, window, stride, pad)
                    repetitions = str(max(20, min(200, int(4e9 / work_flops))))
                    for t in threads:
                        kiln = run_json([kiln_benchmark, modules[(name, n)],
                                         f"--threads={t}",
                                         f"--repetitions={repetitions}",
                                         f"--warmup={WARMUP}", "--json"])
                        results.setdefault((name, n, t, "kiln"), []).append(
                            kiln["median_ms"])
                        env = dict(os.environ, OMP_NUM_THREADS=str(t))
                        dnnl = run_json([onednn] + onednn_args(
                            op, n, h, w, c, k, window, stride, pad) +
                            [f"repetitions={repetitions}",
                             f"warmup={WARMUP}"], env=env)
                        results.setdefault((name, n, t, "onednn"), []).append(
                            dnnl["median_ms"])
                        results[(name, n, t, "impl")] = dnnl["implementation"]
            print(f"round {round_index + 1} of {args.rounds} done",
                  file=sys.stderr)

    print(f"CPU: {cpu_name()}, {os.cpu_count()} cores; {args.rounds} rounds; "
          f"filters as {'arguments' if args.filter_arguments else 'constants'}")
    print()
    print("| case | batch | threads | Kiln ms | oneDNN ms | oneDNN kernel "
          "| Kiln GFLOP/s | Kiln speed / oneDNN |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    ratios = {t: [] for t in threads}
    for name, op, h, w, c, k, window, stride, pad in cases:
        for n in batches:
            for t in threads:
                kiln = statistics.median(results[(name, n, t, "kiln")])
                dnnl = statistics.median(results[(name, n, t, "onednn")])
                ratio = dnnl / kiln
                ratios[t].append(ratio)
                gf = flops(op, n, h, w, c, k, window, stride, pad) / (kiln * 1e6)
                print(f"| {name} | {n} | {t} | {kiln:.3f} | {dnnl:.3f} | "
                      f"{results[(name, n, t, 'impl')]} | {gf:.1f} | "
                      f"{ratio:.2f}x |")
    print()
    for t in threads:
        geomean = math.exp(sum(math.log(r) for r in ratios[t]) / len(ratios[t]))
        print(f"{t} thread(s): geometric mean of Kiln speed / oneDNN "
              f"{geomean:.2f}x, lowest {min(ratios[t]):.2f}x")


if __name__ == "__main__":
    main()
