#!/usr/bin/python3
"""Whole models: Kiln against PyTorch, side by side in one run.

    /usr/bin/python3 bench/linalg_models.py [--build build] [--threads 1,2]
                                     [--rounds 5] [--models bert,resnet]

Two models, written here as linalg programs (weights are arguments) and
as PyTorch modules with the same weights:

- bert: one BERT-base encoder layer (sequence 128, width 768, 12 heads of
  64, feed-forward 3072, GELU in its tanh form, post-layer-norm).
- resnet: a ResNet-18-style CNN on one 224x224 RGB image, NHWC in Kiln: a
  7x7 stride-2 stem, 3x3 stride-2 max pooling, two basic blocks of 64
  channels at 56x56, a downsampling block to 128 channels at 28x28 (3x3
  stride 2 and a 1x1 projection), global average pooling, a 1000-way
  classifier. Bias, ReLU and residual additions after each convolution.

Kiln compiles each for this machine and is timed by kiln-benchmark;
PyTorch (Debian's python3-torch, under torch.inference_mode) is timed in
this process with its best settings for the thread count: OpenBLAS (its
matmuls) on that many threads with the AVX-512 kernel, its own ops on that
many or on one (torch.set_num_threads), and its best variant counted: for bert the functional layer and
nn.TransformerEncoderLayer's fused inference path (exact GELU), for
resnet NCHW and channels_last. Rounds alternate the two; a figure is the
median over rounds of the median call time of a round. Before timing,
Kiln's output on the PyTorch model's weights and input is compared with
PyTorch's (the largest absolute difference is printed).
"""

import argparse
import ctypes
import math
import os
import shutil
import statistics
import sys
import tempfile
import time

# Debian's PyTorch does its matmuls with OpenBLAS (pthreads), which runs
# a kernel without AVX-512 on Zen 5 unless told (1 thread, BERT layer:
# 22.4 ms with the Haswell kernel, 13.7 ms with SkylakeX's), whatever the
# environment says; set before OpenBLAS loads (numpy loads it too).
from benchutil import openblas_coretype  # noqa: E402

os.environ["OPENBLAS_CORETYPE"] = openblas_coretype()

import numpy as np  # noqa: E402

from benchutil import cpu_name, run, run_json

try:
    import torch
    import torch.nn.functional as F
except ImportError:
    sys.exit("linalg_models.py needs PyTorch: apt-get install python3-torch")
# OpenBLAS's own thread count, which torch.set_num_threads leaves alone:
# by default one per core even when PyTorch is told to use one thread.
OPENBLAS = ctypes.CDLL("libopenblas.so.0")


class Emitter:
    """MLIR text, one SSA value per call, named in order."""

    def __init__(self):
        self.lines = []
        self.count = 0

    def value(self, text):
        self.count += 1
        name = f"%v{self.count}"
        self.lines.append(f"  {name} = {text}")
        return name

    @staticmethod
    def t(shape):
        return "tensor<" + "x".join(str(d) for d in shape) + "xf32>"

    def filled(self, shape, constant="%zero"):
        empty = self.value(f"tensor.empty() : {self.t(shape)}")
        return self.value(f"linalg.fill ins({constant} : f32) outs({empty} : "
                          f"{self.t(shape)}) -> {self.t(shape)}")

    def elementwise(self, shape, operands, body):
        """A parallel linalg.generic over `shape`; operands are (value,
        shape, dims) with dims the iteration dims they are indexed by."""
        rank = len(shape)
        dims = ", ".join(f"d{i}" for i in range(rank))
        maps = []
        for _, _, used in operands:
            maps.append(f"affine_map<({dims}) -> ("
                        + ", ".join(f"d{i}" for i in used) + ")>")
        maps.append(f"affine_map<({dims}) -> ({dims})>")
        empty = self.value(f"tensor.empty() : {self.t(shape)}")
        ins = ", ".join(v for v, _, _ in operands)
        types = ", ".join(self.t(s) for _, s, _ in operands)
        args = ", ".join(f"%a{i}: f32" for i in range(len(operands)))
        iterators = ", ".join(['"parallel"'] * rank)
        text = (f"linalg.generic {{indexing_maps = [{', '.join(maps)}], "
                f"iterator_types = [{iterators}]}} ins({ins} : {types}) "
                f"outs({empty} : {self.t(shape)}) {{\n"
                f"  ^bb0({args}, %out: f32):\n{body}\n"
                f"  }} -> {self.t(shape)}")
        return self.value(text)


# --- BERT-base encoder layer ------------------------------------------------

BERT = dict(S=128, D=768, H=12, F=3072)
BERT_WEIGHTS = [("wq", "DD"), ("bq", "D"), ("wk", "DD"), ("bk", "D"),
                ("wv", "DD"), ("bv", "D"), ("wo", "DD"), ("bo", "D"),
                ("g1", "D"), ("be1", "D"), ("w1", "DF"), ("b1", "F"),
                ("w2", "FD"), ("b2", "D"), ("g2", "D"), ("be2", "D")]


def bert_shapes():
    shapes = [("x", (BERT["S"], BERT["D"]))]
    for name, dims in BERT_WEIGHTS:
        shapes.append((name, tuple(BERT[d] for d in dims)))
    return shapes


def bert_program():
    S, D, H, Fw = BERT["S"], BERT["D"], BERT["H"], BERT["F"]
    Dh = D // H
    e = Emitter()
    t = e.t

    def dense(x, k, n, w, b):
        init = e.filled((S, n))
        m = e.value(f"linalg.matmul ins({x}, %{w} : {t((S, k))}, {t((k, n))}) "
                    f"outs({init} : {t((S, n))}) -> {t((S, n))}")
        return e.elementwise((S, n), [(m, (S, n), (0, 1)), (f"%{b}", (n,), (1,))],
                             "    %s = arith.addf %a0, %a1 : f32\n"
                             "    linalg.yield %s : f32")

    def layer_norm(x, g, b):
        rows = e.filled((S,))
        red = ('linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, '
               'affine_map<(i, j) -> (i)>], iterator_types = ["parallel", '
               '"reduction"]} ')
        total = e.value(red + f"ins({x} : {t((S, D))}) outs({rows} : {t((S,))}) {{\n"
                        "  ^bb0(%v: f32, %acc: f32):\n"
                        "    %s = arith.addf %v, %acc : f32\n"
                        "    linalg.yield %s : f32\n"
                        f"  }} -> {t((S,))}")
        red2 = ('linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, '
                'affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>], '
                'iterator_types = ["parallel", "reduction"]} ')
        squares = e.value(
            red2 + f"ins({x}, {total} : {t((S, D))}, {t((S,))}) "
            f"outs({rows} : {t((S,))}) {{\n"
            "  ^bb0(%v: f32, %sum: f32, %acc: f32):\n"
            "    %m = arith.divf %sum, %width : f32\n"
            "    %d = arith.subf %v, %m : f32\n"
            "    %d2 = arith.mulf %d, %d : f32\n"
            "    %s = arith.addf %d2, %acc : f32\n"
            "    linalg.yield %s : f32\n"
            f"  }} -> {t((S,))}")
        return e.elementwise(
            (S, D),
            [(x, (S, D), (0, 1)), (total, (S,), (0,)), (squares, (S,), (0,)),
             (f"%{g}", (D,), (1,)), (f"%{b}", (D,), (1,))],
            "    %m = arith.divf %a1, %width : f32\n"
            "    %var = arith.divf %a2, %width : f32\n"
            "    %ve = arith.addf %var, %eps : f32\n"
            "    %inv = math.rsqrt %ve : f32\n"
            "    %d = arith.subf %a0, %m : f32\n"
            "    %n = arith.mulf %d, %inv : f32\n"
            "    %sc = arith.mulf %n, %a3 : f32\n"
            "    %r = arith.addf %sc, %a4 : f32\n"
            "    linalg.yield %r : f32")

    def heads(x):
        expanded = e.value(f"tensor.expand_shape {x} [[0], [1, 2]] output_shape "
                           f"[{S}, {H}, {Dh}] : {t((S, D))} into {t((S, H, Dh))}")
        empty = e.value(f"tensor.empty() : {t((H, S, Dh))}")
        return e.value(f"linalg.transpose ins({expanded} : {t((S, H, Dh))}) "
                       f"outs({empty} : {t((H, S, Dh))}) permutation = [1, 0, 2]")

    q = heads(dense("%x", D, D, "wq", "bq"))
    k = heads(dense("%x", D, D, "wk", "bk"))
    v = heads(dense("%x", D, D, "wv", "bv"))
    scores_init = e.filled((H, S, S))
    scores = e.value(
        "linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, "
        "affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>] "
        f"ins({q}, {k} : {t((H, S, Dh))}, {t((H, S, Dh))}) "
        f"outs({scores_init} : {t((H, S, S))}) -> {t((H, S, S))}")
    scaled = e.elementwise((H, S, S), [(scores, (H, S, S), (0, 1, 2))],
                           "    %s = arith.mulf %a0, %scale : f32\n"
                           "    linalg.yield %s : f32")
    probs_init = e.value(f"tensor.empty() : {t((H, S, S))}")
    probs = e.value(f"linalg.softmax dimension(2) ins({scaled} : {t((H, S, S))}) "
                    f"outs({probs_init} : {t((H, S, S))}) -> {t((H, S, S))}")
    ctx_init = e.filled((H, S, Dh))
    ctx = e.value(f"linalg.batch_matmul ins({probs}, {v} : {t((H, S, S))}, "
                  f"{t((H, S, Dh))}) outs({ctx_init} : {t((H, S, Dh))}) -> "
                  f"{t((H, S, Dh))}")
    back_init = e.value(f"tensor.empty() : {t((S, H, Dh))}")
    back = e.value(f"linalg.transpose ins({ctx} : {t((H, S, Dh))}) outs("
                   f"{back_init} : {t((S, H, Dh))}) permutation = [1, 0, 2]")
    merged = e.value(f"tensor.collapse_shape {back} [[0], [1, 2]] : "
                     f"{t((S, H, Dh))} into {t((S, D))}")
    attn = dense(merged, D, D, "wo", "bo")
    residual = e.elementwise((S, D), [("%x", (S, D), (0, 1)), (attn, (S, D), (0, 1))],
                             "    %s = arith.addf %a0, %a1 : f32\n"
                             "    linalg.yield %s : f32")
    y = layer_norm(residual, "g1", "be1")
    up = dense(y, D, Fw, "w1", "b1")
    gelu = e.elementwise((S, Fw), [(up, (S, Fw), (0, 1))],
                         "    %u2 = arith.mulf %a0, %a0 : f32\n"
                         "    %u3 = arith.mulf %u2, %a0 : f32\n"
                         "    %au3 = arith.mulf %gelu_a, %u3 : f32\n"
                         "    %inner = arith.addf %a0, %au3 : f32\n"
                         "    %arg = arith.mulf %gelu_c, %inner : f32\n"
                         "    %th = math.tanh %arg : f32\n"
                         "    %onet = arith.addf %one, %th : f32\n"
                         "    %hu = arith.mulf %half, %a0 : f32\n"
                         "    %r = arith.mulf %hu, %onet : f32\n"
                         "    linalg.yield %r : f32")
    down = dense(gelu, Fw, D, "w2", "b2")
    residual2 = e.elementwise((S, D), [(y, (S, D), (0, 1)), (down, (S, D), (0, 1))],
                              "    %s = arith.addf %a0, %a1 : f32\n"
                              "    linalg.yield %s : f32")
    out = layer_norm(residual2, "g2", "be2")

    args = ", ".join(f"%{name}: {t(shape)}" for name, shape in bert_shapes())
    header = [f"func.func @bert({args}) -> {t((S, D))} {{",
              "  %zero = arith.constant 0.0 : f32",
              "  %one = arith.constant 1.0 : f32",
              "  %half = arith.constant 0.5 : f32",
              f"  %width = arith.constant {float(D)!r} : f32",
              "  %eps = arith.constant 1.0e-5 : f32",
              f"  %scale = arith.constant {1.0 / math.sqrt(Dh)!r} : f32",
              "  %gelu_a = arith.constant 0.044715 : f32",
              "  %gelu_c = arith.constant 0.7978845608 : f32"]
    return "\n".join(header + e.lines + [f"  return {out} : {t((S, D))}", "}", ""])


def bert_weights(rng):
    values = {}
    for name, shape in bert_shapes():
        if name.startswith("g"):
            values[name] = 1.0 + 0.1 * rng.standard_normal(shape)
        elif name == "x":
            values[name] = rng.standard_normal(shape)
        else:
            fan_in = shape[0] if len(shape) == 2 else 1
            values[name] = rng.standard_normal(shape) * (
                1 / math.sqrt(fan_in) if len(shape) == 2 else 0.1)
        values[name] = values[name].astype(np.float32)
    return values


def bert_torch(values):
    """The functional layer, and nn.TransformerEncoderLayer (its fused
    inference path) with the same weights."""
    S, D, H = BERT["S"], BERT["D"], BERT["H"]
    w = {k: torch.from_numpy(v) for k, v in values.items()}

    def functional(x):
        def heads(t):
            return t.view(S, H, D // H).transpose(0, 1)
        q = heads(torch.addmm(w["bq"], x, w["wq"]))
        k = heads(torch.addmm(w["bk"], x, w["wk"]))
        v = heads(torch.addmm(w["bv"], x, w["wv"]))
        p = torch.softmax(torch.bmm(q, k.transpose(1, 2)) / math.sqrt(D // H), -1)
        merged = torch.bmm(p, v).transpose(0, 1).reshape(S, D)
        y = F.layer_norm(x + torch.addmm(w["bo"], merged, w["wo"]), (D,),
                         w["g1"], w["be1"], 1e-5)
        up = F.gelu(torch.addmm(w["b1"], y, w["w1"]), approximate="tanh")
        return F.layer_norm(y + torch.addmm(w["b2"], up, w["w2"]), (D,),
                            w["g2"], w["be2"], 1e-5)

    layer = torch.nn.TransformerEncoderLayer(
        D, H, dim_feedforward=BERT["F"], dropout=0.0, activation="gelu",
        batch_first=True, norm_first=False)
    with torch.no_grad():
        layer.self_attn.in_proj_weight.copy_(
            torch.cat([w["wq"].t(), w["wk"].t(), w["wv"].t()]))
        layer.self_attn.in_proj_bias.copy_(torch.cat([w["bq"], w["bk"], w["bv"]]))
        layer.self_attn.out_proj.weight.copy_(w["wo"].t())
        layer.self_attn.out_proj.bias.copy_(w["bo"])
        layer.linear1.weight.copy_(w["w1"].t())
        layer.linear1.bias.copy_(w["b1"])
        layer.linear2.weight.copy_(w["w2"].t())
        layer.linear2.bias.copy_(w["b2"])
        layer.norm1.weight.copy_(w["g1"])
        layer.norm1.bias.copy_(w["be1"])
        layer.norm2.weight.copy_(w["g2"])
        layer.norm2.bias.copy_(w["be2"])
    layer.eval()
    x = w["x"]
    variants = {"functional": lambda: functional(x),
                "nn.TransformerEncoderLayer": lambda: layer(x.unsqueeze(0))}
    with torch.inference_mode():
        reference = functional(x).numpy()
    return reference, variants


def bert_flops():
    S, D, Fw = BERT["S"], BERT["D"], BERT["F"]
    return 2.0 * S * D * D * 4 + 2.0 * S * S * D * 2 + 2.0 * S * D * Fw * 2


# --- ResNet-style CNN -------------------------------------------------------

# (name, input channels, output channels, window, stride) of each
# convolution, in order; blocks are wired in resnet_program.
RESNET_CONVS = [("stem", 3, 64, 7, 2),
                ("b1c1", 64, 64, 3, 1), ("b1c2", 64, 64, 3, 1),
                ("b2c1", 64, 64, 3, 1), ("b2c2", 64, 64, 3, 1),
                ("b3c1", 64, 128, 3, 2), ("b3c2", 128, 128, 3, 1),
                ("b3p", 64, 128, 1, 2)]
RESNET_CLASSES = 1000


def resnet_shapes():
    shapes = [("x", (1, 224, 224, 3))]
    for name, c, k, window, _ in RESNET_CONVS:
        shapes += [(f"{name}_w", (window, window, c, k)), (f"{name}_b", (k,))]
    shapes += [("fc_w", (128, RESNET_CLASSES)), ("fc_b", (RESNET_CLASSES,))]
    return shapes


def resnet_program():
    e = Emitter()
    t = e.t
    spec = {name: (c, k, window, stride) for name, c, k, window, stride in RESNET_CONVS}

    def pad(x, shape, amount, value="%zero"):
        if amount == 0:
            return x, shape
        n, h, w, c = shape
        padded = (n, h + 2 * amount, w + 2 * amount, c)
        text = (f"tensor.pad {x} low[0, {amount}, {amount}, 0] high[0, {amount}, "
                f"{amount}, 0] {{\n  ^bb0(%i0: index, %i1: index, %i2: index, "
                f"%i3: index):\n    tensor.yield {value} : f32\n  }} : "
                f"{t(shape)} to {t(padded)}")
        return e.value(text), padded

    def conv(x, shape, name, relu=True, residual=None):
        c, k, window, stride = spec[name]
        padded, pshape = pad(x, shape, window // 2)
        n, h, w, _ = shape
        out = (n, (h + 2 * (window // 2) - window) // stride + 1,
               (w + 2 * (window // 2) - window) // stride + 1, k)
        init = e.filled(out)
        y = e.value(
            f"linalg.conv_2d_nhwc_hwcf {{dilations = dense<1> : tensor<2xi64>, "
            f"strides = dense<{stride}> : tensor<2xi64>}} ins({padded}, %{name}_w : "
            f"{t(pshape)}, {t((window, window, c, k))}) outs({init} : {t(out)}) "
            f"-> {t(out)}")
        operands = [(y, out, (0, 1, 2, 3)), (f"%{name}_b", (k,), (3,))]
        body = "    %s = arith.addf %a0, %a1 : f32\n"
        result = "%s"
        if residual is not None:
            operands.append((residual, out, (0, 1, 2, 3)))
            body += "    %s2 = arith.addf %s, %a2 : f32\n"
            result = "%s2"
        if relu:
            body += f"    %m = arith.maximumf {result}, %zero : f32\n"
            result = "%m"
        return e.elementwise(out, operands, body + f"    linalg.yield {result} : f32"), out

    x, shape = conv("%x", (1, 224, 224, 3), "stem")
    # 3x3 stride-2 max pooling, padded with -inf.
    padded, pshape = pad(x, shape, 1, "%lowest")
    pooled_shape = (1, 56, 56, 64)
    init = e.filled(pooled_shape, "%lowest")
    window = e.value("tensor.empty() : tensor<3x3xf32>")
    x = e.value(f"linalg.pooling_nhwc_max {{dilations = dense<1> : tensor<2xi64>, "
                f"strides = dense<2> : tensor<2xi64>}} ins({padded}, {window} : "
                f"{t(pshape)}, tensor<3x3xf32>) outs({init} : {t(pooled_shape)}) "
                f"-> {t(pooled_shape)}")
    shape = pooled_shape
    for block in ("b1", "b2"):
        h, hshape = conv(x, shape, f"{block}c1")
        x, shape = conv(h, hshape, f"{block}c2", residual=x)
    projection, _ = conv(x, shape, "b3p", relu=False)
    h, hshape = conv(x, shape, "b3c1")
    x, shape = conv(h, hshape, "b3c2", residual=projection)
    # Global average pooling and the classifier.
    sums = e.filled((1, 128))
    total = e.value(
        'linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, '
        'affine_map<(n, h, w, c) -> (n, c)>], iterator_types = ["parallel", '
        f'"reduction", "reduction", "parallel"]}} ins({x} : {t(shape)}) '
        f"outs({sums} : {t((1, 128))}) {{\n  ^bb0(%v: f32, %acc: f32):\n"
        "    %s = arith.addf %v, %acc : f32\n    linalg.yield %s : f32\n"
        f"  }} -> {t((1, 128))}")
    mean = e.elementwise((1, 128), [(total, (1, 128), (0, 1))],
                         "    %s = arith.mulf %a0, %inv_area : f32\n"
                         "    linalg.yield %s : f32")
    logits_init = e.filled((1, RESNET_CLASSES))
    logits = e.value(f"linalg.matmul ins({mean}, %fc_w : {t((1, 128))}, "
                     f"{t((128, RESNET_CLASSES))}) outs({logits_init} : "
                     f"{t((1, RESNET_CLASSES))}) -> {t((1, RESNET_CLASSES))}")
    out = e.elementwise((1, RESNET_CLASSES),
                        [(logits, (1, RESNET_CLASSES), (0, 1)),
                         ("%fc_b", (RESNET_CLASSES,), (1,))],
                        "    %s = arith.addf %a0, %a1 : f32\n"
                        "    linalg.yield %s : f32")
    args = ", ".join(f"%{name}: {t(s)}" for name, s in resnet_shapes())
    header = [f"func.func @resnet({args}) -> {t((1, RESNET_CLASSES))} {{",
              "  %zero = arith.constant 0.0 : f32",
              "  %lowest = arith.constant 0xFF800000 : f32",
              f"  %inv_area = arith.constant {1.0 / (shape[1] * shape[2])!r} : f32"]
    return "\n".join(header + e.lines +
                     [f"  return {out} : {t((1, RESNET_CLASSES))}", "}", ""])


def resnet_weights(rng):
    values = {}
    for name, shape in resnet_shapes():
        if name == "x":
            value = rng.standard_normal(shape)
        elif name.endswith("_w"):
            fan_in = math.prod(shape[:-1])
            value = rng.standard_normal(shape) * math.sqrt(2.0 / fan_in)
        else:
            value = 0.1 * rng.standard_normal(shape)
        values[name] = value.astype(np.float32)
    return values


class TorchResNet(torch.nn.Module):
    def __init__(self, values):
        super().__init__()
        self.convs = torch.nn.ModuleDict()
        for name, c, k, window, stride in RESNET_CONVS:
            conv = torch.nn.Conv2d(c, k, window, stride, window // 2)
            with torch.no_grad():
                conv.weight.copy_(torch.from_numpy(values[f"{name}_w"]).permute(3, 2, 0, 1))
                conv.bias.copy_(torch.from_numpy(values[f"{name}_b"]))
            self.convs[name] = conv
        self.fc = torch.nn.Linear(128, RESNET_CLASSES)
        with torch.no_grad():
            self.fc.weight.copy_(torch.from_numpy(values["fc_w"]).t())
            self.fc.bias.copy_(torch.from_numpy(values["fc_b"]))

    def forward(self, x):
        c = self.convs
        x = F.relu(c["stem"](x))
        x = F.max_pool2d(x, 3, 2, 1)
        for block in ("b1", "b2"):
            x = F.relu(c[f"{block}c2"](F.relu(c[f"{block}c1"](x))) + x)
        x = F.relu(c["b3c2"](F.relu(c["b3c1"](x))) + c["b3p"](x))
        return self.fc(x.mean((2, 3)))


def resnet_torch(values):
    """The model in NCHW, and in channels_last (NHWC in memory)."""
    plain = TorchResNet(values).eval()
    x = torch.from_numpy(values["x"]).permute(0, 3, 1, 2).contiguous()
    last = TorchResNet(values).eval().to(memory_format=torch.channels_last)
    x_last = x.to(memory_format=torch.channels_last)
    with torch.inference_mode():
        reference = plain(x).numpy()
    return reference, {"NCHW": lambda: plain(x),
                       "channels_last": lambda: last(x_last)}


def resnet_flops():
    """The convolutions' and the classifier's multiply-adds, twice."""
    sizes = {"stem": 112, "b3c1": 28, "b3c2": 28, "b3p": 28}
    total = 0.0
    for name, c, k, window, _ in RESNET_CONVS:
        out = sizes.get(name, 56)
        total += 2.0 * out * out * k * c * window * window
    return total + 2.0 * 128 * RESNET_CLASSES


# Per model: its program, weights, PyTorch reference, FLOPs and arguments.
MODELS = {
    "bert": (bert_program, bert_weights, bert_torch, bert_flops, bert_shapes),
    "resnet": (resnet_program, resnet_weights, resnet_torch, resnet_flops,
               resnet_shapes),
}


def time_torch(call, calls):
    with torch.inference_mode():
        for _ in range(3):
            call()
        times = []
        for _ in range(calls):
            start = time.perf_counter()
            call()
            times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--threads", default=f"1,{os.cpu_count()}")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--calls", type=int, default=20)
    parser.add_argument("--models", default="bert,resnet")
    args = parser.parse_args()
    threads = [int(t) for t in args.threads.split(",")]
    names = args.models.split(",")
    for name in names:
        if name not in MODELS:
            sys.exit(f"unknown model '{name}' (known: {', '.join(MODELS)})")
    tools = os.path.join(args.build, "bin")
    scratch = tempfile.mkdtemp(prefix="kiln-models-")
    try:
        rng = np.random.default_rng(0)
        prepared = {}
        for name in names:
            program, weights, reference, flops, shapes = MODELS[name]
            source = os.path.join(scratch, f"{name}.mlir")
            with open(source, "w") as f:
                f.write(program())
            module = os.path.join(scratch, f"{name}.so")
            start = time.perf_counter()
            run([os.path.join(tools, "kiln-compile"), source, "-o", module])
            compile_s = time.perf_counter() - start
            values = weights(rng)
            inputs = []
            for arg, _ in shapes():
                path = os.path.join(scratch, f"{name}_{arg}.npy")
                np.save(path, values[arg])
                inputs.append(f"--input=@{path}")
            output = os.path.join(scratch, f"{name}_out.npy")
            run([os.path.join(tools, "kiln-run"), module] + inputs
                + [f"--output=@{output}"])
            expected, variants = reference(values)
            error = float(np.max(np.abs(np.load(output) - expected)))
            scale = float(np.max(np.abs(expected)))
            print(f"{name}: compiled in {compile_s:.1f} s; largest difference "
                  f"from PyTorch {error:.2e} (outputs up to {scale:.2f})",
                  file=sys.stderr)
            prepared[name] = (module, inputs, variants, flops())

        results = {}
        for round_index in range(args.rounds):
            for name in names:
                module, inputs, variants, _ = prepared[name]
                for t in threads:
                    kiln = run_json([os.path.join(tools, "kiln-benchmark"), module,
                                     f"--threads={t}", "--warmup=5",
                                     f"--repetitions={args.calls}", "--json"]
                                    + inputs)
                    entry = results.setdefault((name, t), {"kiln": []})
                    entry["kiln"].append(kiln["median_ms"])
                    # OpenBLAS on t threads; PyTorch's own ops (OpenMP,
                    # oneDNN) on t or on 1, whichever is faster: with both
                    # on 2 threads, OpenMP's spinning workers slow OpenBLAS
                    # down 4x on 2 cores.
                    OPENBLAS.openblas_set_num_threads(t)
                    for intra in sorted({1, t}):
                        torch.set_num_threads(intra)
                        for variant, call in variants.items():
                            label = (variant if t == 1 else
                                     f"{variant}, {intra} intra-op thread"
                                     + ("s" if intra > 1 else ""))
                            entry.setdefault(label, []).append(
                                time_torch(call, args.calls))
            print(f"round {round_index + 1} of {args.rounds} done", file=sys.stderr)

        print(f"CPU: {cpu_name()}, {os.cpu_count()} cores; PyTorch "
              f"{torch.__version__}; {args.rounds} rounds of {args.calls} calls\n")
        print("| model | threads | Kiln ms | PyTorch ms (best variant) | "
              "other PyTorch variants ms | Kiln GFLOP/s | PyTorch / Kiln time |")
        print("| --- | --- | --- | --- | --- | --- | --- |")
        for name in names:
            flops = prepared[name][3]
            for t in threads:
                entry = results[(name, t)]
                kiln = statistics.median(entry["kiln"])
                torch_times = {v: statistics.median(ts) for v, ts in entry.items()
                               if v != "kiln"}
                best = min(torch_times, key=torch_times.get)
                others = ", ".join(f"{v} {ms:.2f}" for v, ms in torch_times.items()
                                   if v != best)
                print(f"| {name} | {t} | {kiln:.2f} | {torch_times[best]:.2f} "
                      f"({best}) | {others} | {flops / kiln / 1e6:.1f} | "
                      f"{torch_times[best] / kiln:.2f}x |")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
