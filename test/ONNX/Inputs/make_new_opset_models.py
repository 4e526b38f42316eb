#!/usr/bin/python3
"""Writes models at opsets 18 to 21, which Debian's ONNX 1.12 does not
know (so nothing here calls its checker), and their inputs (random,
seeded), for tests that compare Kiln's outputs with ONNX Runtime's.

    make_new_opset_models.py NAME OUT_DIR

writes OUT_DIR/NAME.onnx and OUT_DIR/NAME.INPUT.npy for each input.
"""

import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(0)
F = TensorProto.FLOAT


def ints(name, values):
    return numpy_helper.from_array(np.array(values, np.int64), name)


def floats(name, shape):
    return numpy_helper.from_array(
        rng.standard_normal(shape).astype(np.float32), name)


def value(name, shape, elem=F):
    return helper.make_tensor_value_info(name, elem, shape)


def model(nodes, inputs, outputs, initializers, opset):
    graph = helper.make_graph(nodes, "test", inputs, outputs, initializers)
    m = helper.make_model(graph,
                          opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 10 if opset >= 21 else 9 if opset >= 19 else 8
    return m


def opset18():
    """Reductions with axes as an input (and an empty one with
    noop_with_empty_axes), Split into 3 parts of 7 (the last smaller),
    Pad over some axes, Mish, GroupNormalization with per-group scale,
    ScatterElements with reduction max, Resize with the new attributes at
    their defaults."""
    nodes = [
        helper.make_node("ReduceMean", ["x", "axes_1"], ["mean"], keepdims=1),
        helper.make_node("ReduceMax", ["x", "axes_23"], ["max"], keepdims=0),
        helper.make_node("ReduceL2", ["x", "no_axes"], ["same"],
                         noop_with_empty_axes=1),
        helper.make_node("ReduceSumSquare", ["x"], ["squares"],
                         noop_with_empty_axes=1),
        helper.make_node("Abs", ["w"], ["abs_w"]),
        helper.make_node("ReduceLogSum", ["abs_w"], ["logs"],
                         noop_with_empty_axes=1),
        helper.make_node("Split", ["w"], ["s0", "s1", "s2"], axis=1,
                         num_outputs=3),
        helper.make_node("Pad", ["x", "pads", "", "pad_axes"], ["padded"],
                         mode="constant"),
        helper.make_node("Mish", ["x"], ["mish"]),
        helper.make_node("GroupNormalization", ["x", "gscale", "gbias"],
                         ["grouped"], num_groups=2, epsilon=1e-3),
        helper.make_node("ScatterElements", ["w", "indices", "updates"],
                         ["scattered"], axis=1, reduction="max"),
        helper.make_node("Resize", ["x", "", "scales"], ["resized"],
                         mode="nearest", antialias=0,
                         keep_aspect_ratio_policy="stretch"),
    ]
    m = model(nodes, [value("x", [2, 4, 3, 5]), value("w", [2, 7])],
              [value("mean", [2, 1, 3, 5]), value("max", [2, 4]),
               value("same", [2, 4, 3, 5]), value("s0", [2, 3]),
               value("s1", [2, 3]), value("s2", [2, 1]),
               value("padded", [2, 4, 6, 6]), value("mish", [2, 4, 3, 5]),
               value("grouped", [2, 4, 3, 5]), value("scattered", [2, 7]),
               value("resized", [2, 4, 6, 10]),
               value("squares", [2, 4, 3, 5]), value("logs", [2, 7])],
              [ints("axes_1", [1]), ints("axes_23", [2, 3]),
               ints("no_axes", []), ints("pads", [1, 0, 2, 1]),
               ints("pad_axes", [2, -1]), floats("gscale", [2]),
               floats("gbias", [2]),
               ints("indices", [[0, 6, 0], [3, 3, 1]]),
               floats("updates", [2, 3]),
               numpy_helper.from_array(np.array([1, 1, 2, 2], np.float32),
                                       "scales")],
              18)
    return m, {"x": rng.standard_normal([2, 4, 3, 5]).astype(np.float32),
               "w": rng.standard_normal([2, 7]).astype(np.float32)}


def opset20():
    """Gelu (exact and tanh), GridSample's new mode names, Cast with
    saturate, Resize with half_pixel_symmetric (19)."""
    nodes = [
        helper.make_node("Gelu", ["x"], ["exact"]),
        helper.make_node("Gelu", ["x"], ["tanh"], approximate="tanh"),
        helper.make_node("GridSample", ["x", "grid"], ["sampled"],
                         mode="linear", align_corners=0),
        helper.make_node("Cast", ["x"], ["doubled"], to=TensorProto.DOUBLE,
                         saturate=1),
        helper.make_node("Cast", ["doubled"], ["back"], to=F),
        helper.make_node("Resize", ["x", "", "scales"], ["symmetric"],
                         mode="linear",
                         coordinate_transformation_mode="half_pixel_symmetric"),
    ]
    m = model(nodes, [value("x", [1, 2, 4, 5]), value("grid", [1, 3, 3, 2])],
              [value("exact", [1, 2, 4, 5]), value("tanh", [1, 2, 4, 5]),
               value("sampled", [1, 2, 3, 3]), value("back", [1, 2, 4, 5]),
               value("symmetric", [1, 2, 6, 3])],
              [numpy_helper.from_array(
                  np.array([1, 1, 1.7, 0.6], np.float32), "scales")], 20)
    return m, {"x": rng.standard_normal([1, 2, 4, 5]).astype(np.float32),
               "grid": rng.uniform(-1, 1, [1, 3, 3, 2]).astype(np.float32)}


def opset21():
    """GroupNormalization with per-channel scale and bias (21), over any
    batch and size; ReduceSumSquare with axes as an input."""
    nodes = [
        helper.make_node("GroupNormalization", ["x", "cscale", "cbias"],
                         ["grouped"], num_groups=3),
        helper.make_node("ReduceSumSquare", ["grouped", "axes"], ["sums"],
                         keepdims=0),
    ]
    m = model(nodes, [value("x", ["n", 6, "h", "w"])],
              [value("grouped", ["n", 6, "h", "w"]), value("sums", ["n", 6])],
              [floats("cscale", [6]), floats("cbias", [6]),
               ints("axes", [-2, -1])], 21)
    return m, {"x": rng.standard_normal([2, 6, 3, 7]).astype(np.float32)}


def bitwise():
    """The Bitwise ops of opset 18, which Kiln types itself, broadcasting,
    with ops after them that ONNX's inference types from there."""
    i64 = TensorProto.INT64
    nodes = [
        helper.make_node("BitwiseAnd", ["a", "b"], ["and"]),
        helper.make_node("BitwiseOr", ["and", "b"], ["or"]),
        helper.make_node("BitwiseXor", ["a", "or"], ["xor"]),
        helper.make_node("BitwiseNot", ["xor"], ["not"]),
        helper.make_node("Add", ["not", "a"], ["sum"]),
    ]
    m = model(nodes, [value("a", ["n", 3], i64), value("b", [3], i64)],
              [value("and", ["n", 3], i64), value("sum", ["n", 3], i64)],
              [], 18)
    return m, {"a": rng.integers(-1000, 1000, [4, 3]).astype(np.int64),
               "b": np.array([0x0F0F, -1, 12345], np.int64)}


def center_crop_pad():
    """An op of opset 18 Kiln has no form of."""
    nodes = [helper.make_node("CenterCropPad", ["x", "shape"], ["y"])]
    return model(nodes, [value("x", [4, 5])], [value("y", [3, 6])],
                 [ints("shape", [3, 6])], 18), {}


def malformed():
    """A Mish without its input, before ONNX's checker could say so."""
    nodes = [helper.make_node("Mish", [], ["y"])]
    return model(nodes, [value("x", [4])], [value("y", [4])], [], 18), {}


def opset22():
    """Newer than Kiln reads."""
    nodes = [helper.make_node("Relu", ["x"], ["y"])]
    return model(nodes, [value("x", [4])], [value("y", [4])], [], 22), {}


MODELS = {"opset18": opset18, "opset20": opset20, "opset21": opset21,
          "bitwise": bitwise, "center_crop_pad": center_crop_pad,
          "malformed": malformed,
          "opset22": opset22}


def main():
    name, out = sys.argv[1], sys.argv[2]
    m, inputs = MODELS[name]()
    onnx.save(m, os.path.join(out, name + ".onnx"))
    for input_name, array in inputs.items():
        np.save(os.path.join(out, "%s.%s.npy" % (name, input_name)), array)


if __name__ == "__main__":
    main()
