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


def bitwise_loop():
    """Bitwise ops inside a Loop body, which Kiln types in the body too: a
    running xor of the carried value with each row of an outer input."""
    i64 = TensorProto.INT64
    body = helper.make_graph(
        [helper.make_node("Gather", ["rows", "i"], ["row"], axis=0),
         helper.make_node("BitwiseXor", ["acc", "row"], ["mixed"]),
         helper.make_node("BitwiseAnd", ["mixed", "mask"], ["acc_out"]),
         helper.make_node("Identity", ["cond"], ["cond_out"])],
        "body",
        [value("i", [], i64), value("cond", [], TensorProto.BOOL),
         value("acc", [3], i64)],
        [value("cond_out", [], TensorProto.BOOL), value("acc_out", [3], i64)])
    nodes = [helper.make_node("Loop", ["trips", "", "start"], ["final"],
                              body=body)]
    m = model(nodes, [value("rows", [4, 3], i64), value("start", [3], i64)],
              [value("final", [3], i64)],
              [ints("trips", 4), ints("mask", [0xFF, 0xF0F0, -1])], 18)
    return m, {"rows": rng.integers(-5000, 5000, [4, 3]).astype(np.int64),
               "start": np.array([7, -7, 123456], np.int64)}


def new_ops18():
    """Opset 18's new ops: CenterCropPad cropping one axis and padding
    another by odd differences (over a graph input, every axis; over an
    intermediate value of unknown rank, some axes), Col2Im with strides,
    dilations and pads; Pad with axes over an intermediate value."""
    nodes = [
        helper.make_node("CenterCropPad", ["x", "crop_all"], ["cropped"]),
        helper.make_node("Relu", ["x"], ["relu"]),
        helper.make_node("CenterCropPad", ["relu", "crop_some"], ["some"],
                         axes=[-1, 1]),
        helper.make_node("Pad", ["relu", "pads", "", "pad_axes"],
                         ["padded"]),
        helper.make_node("Col2Im", ["cols", "image", "block"], ["image_out"],
                         strides=[2, 1], dilations=[1, 2],
                         pads=[1, 0, 0, 1]),
    ]
    # Col2Im: image 7x6, block 3x2, extent (3, 3), padded image 8x7:
    # (8 - 3) // 2 + 1 = 3 rows, (7 - 3) + 1 = 5 columns of blocks.
    m = model(nodes, [value("x", ["n", 4, 5, 8]), value("cols", [2, 18, 15])],
              [value("cropped", None), value("some", None),
               value("padded", None), value("image_out", None)],
              [ints("crop_all", [3, 3, 8, 5]), ints("crop_some", [3, 7]),
               ints("pads", [1, 2, 0, 1]), ints("pad_axes", [-1, 1]),
               ints("image", [7, 6]), ints("block", [3, 2])], 18)
    return m, {"x": rng.standard_normal([3, 4, 5, 8]).astype(np.float32),
               "cols": rng.standard_normal([2, 18, 15]).astype(np.float32)}


def deform_conv():
    """DeformConv (19): 2 groups and 2 offset groups, strides, pads and
    dilations, bias and mask, offsets that reach outside the image; and
    the plain form (no bias, no mask, kernel from W)."""
    nodes = [
        helper.make_node("DeformConv", ["x", "w", "offset", "b", "mask"],
                         ["y"], kernel_shape=[3, 3], group=2, offset_group=2,
                         strides=[2, 1], pads=[1, 1, 1, 0],
                         dilations=[1, 2]),
        helper.make_node("DeformConv", ["x", "w2", "offset2"], ["plain"]),
    ]
    # x 1x4x7x8; y: rows (7 + 2 - 3) // 2 + 1 = 4, columns
    # (8 + 1 - 5) + 1 = 5. plain: 2x2 kernel, 6x7.
    m = model(nodes, [value("x", ["n", 4, "h", "w"]),
                      value("offset", ["n", 36, 4, 5]),
                      value("mask", ["n", 18, 4, 5]),
                      value("offset2", ["n", 8, 6, 7])],
              [value("y", None), value("plain", None)],
              [floats("w", [6, 2, 3, 3]), floats("b", [6]),
               floats("w2", [3, 4, 2, 2])], 19)
    return m, {"x": rng.standard_normal([1, 4, 7, 8]).astype(np.float32),
               "offset": (2 * rng.standard_normal([1, 36, 4, 5])).astype(
                   np.float32),
               "mask": rng.uniform(0, 1, [1, 18, 4, 5]).astype(np.float32),
               "offset2": rng.standard_normal([1, 8, 6, 7]).astype(
                   np.float32)}


def affine_grid():
    """AffineGrid (20): 2-D with align_corners, 3-D without it (and a
    spatial size of 1)."""
    nodes = [
        helper.make_node("AffineGrid", ["theta2", "size2"], ["grid2"],
                         align_corners=1),
        helper.make_node("AffineGrid", ["theta3", "size3"], ["grid3"]),
    ]
    m = model(nodes, [value("theta2", [2, 2, 3]), value("theta3", [2, 3, 4])],
              [value("grid2", None), value("grid3", None)],
              [ints("size2", [2, 3, 5, 7]), ints("size3", [2, 1, 3, 1, 4])],
              20)
    return m, {"theta2": rng.standard_normal([2, 2, 3]).astype(np.float32),
               "theta3": rng.standard_normal([2, 3, 4]).astype(np.float32)}


def affine_grid_single():
    """AffineGrid with align_corners over a spatial size of 1, where ONNX
    Runtime 1.30 puts the coordinate at 1 and ONNX's definition (its
    reference, like PyTorch's affine_grid) at -1: compared with the
    definition, written here as affine_grid_single.expected.0.npy."""
    nodes = [helper.make_node("AffineGrid", ["theta", "size"], ["grid"],
                              align_corners=1)]
    m = model(nodes, [value("theta", [1, 2, 3])], [value("grid", None)],
              [ints("size", [1, 1, 1, 3])], 20)
    theta = rng.standard_normal([1, 2, 3]).astype(np.float32)
    # Positions (x, y, 1): x over 3 columns from -1 to 1, y = -1.
    base = np.array([[[-1, -1, 1], [0, -1, 1], [1, -1, 1]]], np.float32)
    expected = np.einsum("hwk,nik->nhwi", base, theta).astype(np.float32)
    return m, {"theta": theta, "expected.0": expected}


def antialias():
    """Resize with antialias (18), over an input of dynamic sizes: linear
    and cubic, downscaling by scales and by sizes, upscaling, with
    exclude_outside, several coordinate transformation modes, axes, and
    scales over an axis that is not last (channels last)."""
    def resize(inputs, output, **attributes):
        return helper.make_node("Resize", inputs, [output], antialias=1,
                                **attributes)
    nodes = [
        resize(["x", "", "half"], "a", mode="linear"),
        resize(["x", "", "", "sizes"], "b", mode="cubic",
               coordinate_transformation_mode="pytorch_half_pixel"),
        resize(["x", "", "third"], "c", mode="linear", exclude_outside=1,
               coordinate_transformation_mode="asymmetric"),
        resize(["x", "", "up"], "d", mode="cubic", cubic_coeff_a=-0.5,
               coordinate_transformation_mode="align_corners"),
        resize(["x", "", "", "sizes_hw"], "e", mode="linear", axes=[2, 3],
               coordinate_transformation_mode="half_pixel_symmetric"),
        helper.make_node("Transpose", ["x"], ["nhwc"], perm=[0, 2, 3, 1]),
        resize(["nhwc", "", "half_hw"], "f", mode="linear"),
    ]
    scales = lambda name, values: numpy_helper.from_array(
        np.array(values, np.float32), name)
    m = model(nodes, [value("x", ["n", 2, "h", "w"])],
              [value(name, None) for name in "abcdef"],
              [scales("half", [1, 1, 0.5, 0.4]), ints("sizes", [2, 2, 5, 3]),
               scales("third", [1, 1, 0.3, 0.6]),
               scales("up", [1, 1, 1.5, 2]), ints("sizes_hw", [4, 4]),
               scales("half_hw", [1, 0.5, 0.5, 1])], 18)
    return m, {"x": rng.standard_normal([2, 2, 11, 9]).astype(np.float32)}


def col2im_malformed():
    """A Col2Im whose block does not fit its image."""
    nodes = [helper.make_node("Col2Im", ["cols", "image", "block"], ["y"])]
    return model(nodes, [value("cols", [1, 9, 4])], [value("y", None)],
                 [ints("image", [2, 2]), ints("block", [3, 3])], 18), {}


def affine_grid_huge():
    """An AffineGrid whose constant size asks for 2^40 columns (found by
    the onnx_model fuzzer: Kiln wrote the coordinates out of memory)."""
    nodes = [helper.make_node("AffineGrid", ["theta", "size"], ["y"])]
    return model(nodes, [value("theta", [1, 2, 3])], [value("y", None)],
                 [ints("size", [1, 1, 2, 2 ** 40])], 20), {}


def affine_grid_dynamic():
    """An AffineGrid whose size is an input."""
    nodes = [helper.make_node("AffineGrid", ["theta", "size"], ["y"])]
    return model(nodes, [value("theta", [1, 2, 3]),
                         value("size", [4], TensorProto.INT64)],
                 [value("y", None)], [], 20), {}


def malformed():
    """A Mish without its input, before ONNX's checker could say so."""
    nodes = [helper.make_node("Mish", [], ["y"])]
    return model(nodes, [value("x", [4])], [value("y", [4])], [], 18), {}


def opset22():
    """Newer than Kiln reads."""
    nodes = [helper.make_node("Relu", ["x"], ["y"])]
    return model(nodes, [value("x", [4])], [value("y", [4])], [], 22), {}


MODELS = {"opset18": opset18, "opset20": opset20, "opset21": opset21,
          "bitwise": bitwise, "bitwise_loop": bitwise_loop,
          "new_ops18": new_ops18,
          "deform_conv": deform_conv, "affine_grid": affine_grid,
          "affine_grid_single": affine_grid_single, "antialias": antialias,
          "col2im_malformed": col2im_malformed,
          "affine_grid_dynamic": affine_grid_dynamic,
          "affine_grid_huge": affine_grid_huge,
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
