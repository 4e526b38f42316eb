#!/usr/bin/python3
"""Writes ONNX models whose outputs the tests compare with ONNX Runtime's,
built with onnx.helper from random weights (nothing downloaded), and
inputs for them at several sizes.

    make_ort_models.py NAME OUT_DIR

writes OUT_DIR/NAME.onnx and OUT_DIR/NAME.SIZE.npy for each input size
SIZE (such as 1x3x17x23) the model is run at: one model compiled once,
run at every size.
"""

import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(0)


def weights(name, shape):
    return numpy_helper.from_array(
        rng.standard_normal(shape).astype(np.float32) * 0.5, name)


def model(nodes, inputs, outputs, initializers, opset=17):
    graph = helper.make_graph(nodes, "test", inputs, outputs, initializers)
    m = helper.make_model(graph,
                          opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    return m


def windows_2d():
    """Convolutions, pools, a transposed convolution and Resize over an
    image of any batch, height and width: pads, strides, groups, SAME
    padding, ceil_mode, count_include_pad, nearest and linear Resize from
    scales, and Resize to sizes computed in the graph from the input's
    shape."""
    f = TensorProto.FLOAT
    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 2, 1, 0],
                         strides=[2, 1]),
        helper.make_node("Relu", ["c1"], ["r1"]),
        helper.make_node("Conv", ["r1", "w2"], ["c2"], group=8,
                         kernel_shape=[3, 3], auto_pad="SAME_UPPER",
                         strides=[2, 2]),
        helper.make_node("Conv", ["c2", "w3"], ["c3"], group=2,
                         dilations=[2, 1], pads=[2, 1, 2, 1]),
        helper.make_node("MaxPool", ["c3"], ["p1"], kernel_shape=[3, 3],
                         strides=[2, 2], pads=[1, 1, 1, 1], ceil_mode=1),
        helper.make_node("AveragePool", ["p1"], ["p2"], kernel_shape=[3, 2],
                         pads=[1, 0, 1, 1], count_include_pad=0),
        helper.make_node("AveragePool", ["p2"], ["p3"], kernel_shape=[2, 2],
                         pads=[1, 1, 0, 0], count_include_pad=1,
                         strides=[1, 1]),
        helper.make_node("ConvTranspose", ["p3", "wt", "bt"], ["t1"],
                         strides=[2, 2], kernel_shape=[2, 2]),
        helper.make_node("ConvTranspose", ["t1", "wt2"], ["t2"],
                         strides=[2, 2], kernel_shape=[3, 3],
                         auto_pad="SAME_UPPER"),
        helper.make_node("Resize", ["t2", "", "scales"], ["u1"],
                         mode="nearest",
                         coordinate_transformation_mode="asymmetric",
                         nearest_mode="floor"),
        helper.make_node("Resize", ["u1", "", "half"], ["u2"], mode="linear",
                         coordinate_transformation_mode="half_pixel"),
        # To the input's height and width: sizes from Shape.
        helper.make_node("Shape", ["x"], ["xs"]),
        helper.make_node("Slice", ["xs", "two", "four"], ["hw"]),
        helper.make_node("Shape", ["u2"], ["us"]),
        helper.make_node("Slice", ["us", "zero", "two"], ["nc"]),
        helper.make_node("Concat", ["nc", "hw"], ["size"], axis=0),
        helper.make_node("Resize", ["u2", "", "", "size"], ["y"],
                         mode="linear",
                         coordinate_transformation_mode="align_corners"),
    ]
    ints = lambda name, values: numpy_helper.from_array(
        np.array(values, np.int64), name)
    initializers = [
        weights("w1", (8, 3, 3, 3)), weights("b1", (8,)),
        weights("w2", (8, 1, 3, 3)), weights("w3", (6, 4, 3, 2)),
        weights("wt", (6, 4, 2, 2)), weights("bt", (4,)),
        weights("wt2", (4, 2, 3, 3)),
        numpy_helper.from_array(np.array([1, 1, 2, 2], np.float32), "scales"),
        numpy_helper.from_array(np.array([1, 1, 0.5, 0.5], np.float32),
                                "half"),
        ints("zero", [0]), ints("two", [2]), ints("four", [4]),
    ]
    m = model(nodes,
              [helper.make_tensor_value_info("x", f, ["n", 3, "h", "w"])],
              [helper.make_tensor_value_info("y", f, ["n", 2, "h", "w"])],
              initializers)
    return m, {"x": ["1x3x32x32", "2x3x17x23", "1x3x40x9"]}


def windows_1d():
    """A 1-D convolution, max pool and transposed convolution over a
    signal of any length (an audio model's front end)."""
    f = TensorProto.FLOAT
    nodes = [
        helper.make_node("Conv", ["x", "w1"], ["c1"], pads=[2, 2],
                         strides=[3]),
        helper.make_node("MaxPool", ["c1"], ["p1"], kernel_shape=[2],
                         strides=[2]),
        helper.make_node("ConvTranspose", ["p1", "wt"], ["y"], strides=[2],
                         kernel_shape=[3], pads=[1, 0]),
    ]
    m = model(nodes,
              [helper.make_tensor_value_info("x", f, [1, 2, "t"])],
              [helper.make_tensor_value_info("y", f, [1, 3, "u"])],
              [weights("w1", (4, 2, 5)), weights("wt", (4, 3, 3))])
    return m, {"x": ["1x2x100", "1x2x31", "1x2x257"]}


def resize_declared_wrong():
    """Resize to sizes read at run time, its output declared with 4
    channels where the sizes keep the input's 2: ONNX's shape inference
    cannot see the contradiction, the call must."""
    f = TensorProto.FLOAT
    nodes = [helper.make_node("Shape", ["x"], ["size"]),
             helper.make_node("Resize", ["x", "", "", "size"], ["y"])]
    m = model(nodes,
              [helper.make_tensor_value_info("x", f, [1, 2, "h", "w"])],
              [helper.make_tensor_value_info("y", f, [1, 4, "h", "w"])], [])
    return m, {"x": ["1x2x3x3"]}


def softmax_opset9():
    """Opset 9's Softmax and LogSoftmax, which flatten their input at
    `axis` (LogSoftmax at 1 normalizes over the last two dims), after a
    Reshape whose result's rank ONNX's shape inference cannot tell before
    the upgrade (its shape goes through a Cast): ONNX's version converter
    asserts on that; Kiln makes the flattening explicit first."""
    f = TensorProto.FLOAT
    nodes = [
        helper.make_node("Shape", ["x"], ["s"]),
        helper.make_node("Slice", ["s"], ["n"], starts=[0], ends=[1],
                         axes=[0]),
        helper.make_node("Constant", [], ["c"], value=numpy_helper.from_array(
            np.array([2, 12], np.int32))),
        helper.make_node("Cast", ["c"], ["rest"], to=TensorProto.INT64),
        helper.make_node("Concat", ["n", "rest"], ["shape"], axis=0),
        helper.make_node("Reshape", ["x", "shape"], ["r"]),
        helper.make_node("Softmax", ["r"], ["y"], axis=2),
        helper.make_node("LogSoftmax", ["r"], ["z"], axis=1),
        helper.make_node("Add", ["y", "z"], ["sum"]),
    ]
    m = model(nodes,
              [helper.make_tensor_value_info("x", f, ["n", 6, 4])],
              [helper.make_tensor_value_info("sum", f, ["n", 2, 12])], [],
              opset=9)
    return m, {"x": ["1x6x4", "3x6x4"]}


def pad_opset7():
    """Pad before opset 11 (pads an attribute) without its optional
    `value` (0), on which ONNX's version converter asserts."""
    f = TensorProto.FLOAT
    nodes = [helper.make_node("Pad", ["x"], ["y"], pads=[0, 1, 0, 2])]
    m = model(nodes, [helper.make_tensor_value_info("x", f, ["n", 3])],
              [helper.make_tensor_value_info("y", f, ["n", 6])], [], opset=7)
    return m, {"x": ["2x3"]}


def shared_symbol():
    """Two inputs that share the symbolic batch N (and a third dim of its
    own, M): a call whose inputs disagree on N fails at its start, naming
    both."""
    f = TensorProto.FLOAT
    nodes = [helper.make_node("Concat", ["a", "b"], ["y"], axis=1)]
    m = model(nodes,
              [helper.make_tensor_value_info("a", f, ["N", 4]),
               helper.make_tensor_value_info("b", f, ["N", "M"])],
              [helper.make_tensor_value_info("y", f, ["N", "K"])], [])
    return m, {"a": ["2x4"], "b": ["2x3", "3x3"]}


def shapeless_output():
    """A graph output declared with an element type and no shape, which
    ONNX Runtime takes (ONNX's checker alone refuses it): the shape is
    inferred."""
    f = TensorProto.FLOAT
    nodes = [helper.make_node("Relu", ["x"], ["r"]),
             helper.make_node("Transpose", ["r"], ["y"], perm=[1, 0])]
    m = model(nodes, [helper.make_tensor_value_info("x", f, ["n", 3])],
              [helper.make_tensor_value_info("y", f, None)], [])
    return m, {"x": ["2x3"]}


def spectral():
    """An audio front end over a signal of any length: STFT (Hann window,
    onesided) into a power spectrum, and a onesided DFT of the whole
    signal; both untyped by ONNX 1.12's inference over a dynamic length."""
    f = TensorProto.FLOAT
    nodes = [
        helper.make_node("STFT", ["x", "step", "window"], ["frames"]),
        helper.make_node("Mul", ["frames", "frames"], ["squares"]),
        helper.make_node("ReduceSum", ["squares", "last"], ["power"],
                         keepdims=0),
        helper.make_node("Unsqueeze", ["x", "last"], ["x3"]),
        helper.make_node("DFT", ["x3"], ["spectrum"], axis=1, onesided=1),
    ]
    window = numpy_helper.from_array(
        np.hanning(16).astype(np.float32), "window")
    m = model(nodes, [helper.make_tensor_value_info("x", f, ["n", "t"])],
              [helper.make_tensor_value_info("power", f, None),
               helper.make_tensor_value_info("spectrum", f, None)],
              [numpy_helper.from_array(np.array(4, np.int64), "step"),
               window,
               numpy_helper.from_array(np.array([-1], np.int64), "last")])
    return m, {"x": ["1x100", "2x37", "3x64"]}


def recurrent():
    """LSTM, GRU and RNN over a sequence of any length, which run as a loop
    over time: a bidirectional LSTM with sequence_lens (shorter than every
    length run), initial states and peepholes; a reverse GRU; an RNN with
    Relu and clip."""
    f = TensorProto.FLOAT
    nodes = [
        helper.make_node("LSTM", ["x", "W", "R", "B", "lens", "h0", "c0",
                                  "P"], ["lstm_y", "lstm_h", "lstm_c"],
                         hidden_size=4, direction="bidirectional"),
        helper.make_node("GRU", ["x", "Wg", "Rg", "Bg"], ["", "gru_h"],
                         hidden_size=3, direction="reverse"),
        helper.make_node("RNN", ["x", "Wr", "Rr"], ["rnn_y"], hidden_size=5,
                         activations=["Relu"], clip=2.0),
    ]
    lens = numpy_helper.from_array(np.array([3, 5], np.int32), "lens")
    m = model(nodes, [helper.make_tensor_value_info("x", f, ["t", 2, 3])],
              [helper.make_tensor_value_info(name, f, None)
               for name in ("lstm_y", "lstm_h", "lstm_c", "gru_h", "rnn_y")],
              [weights("W", (2, 16, 3)), weights("R", (2, 16, 4)),
               weights("B", (2, 32)), lens, weights("h0", (2, 2, 4)),
               weights("c0", (2, 2, 4)), weights("P", (2, 12)),
               weights("Wg", (1, 9, 3)), weights("Rg", (1, 9, 3)),
               weights("Bg", (1, 18)), weights("Wr", (1, 5, 3)),
               weights("Rr", (1, 5, 5))], opset=14)
    return m, {"x": ["5x2x3", "9x2x3", "16x2x3"]}


def recurrent_batch_first(reference=False):
    """Batch-first layout (14) with a dynamic batch and length: a forward
    LSTM and a bidirectional GRU with linear_before_reset. ONNX Runtime
    refuses layout 1; its reference (recurrent_batch_first_reference) is
    the same layers in layout 0 between Transposes."""
    f = TensorProto.FLOAT
    if reference:
        nodes = [
            helper.make_node("Transpose", ["x"], ["xt"], perm=[1, 0, 2]),
            helper.make_node("LSTM", ["xt", "W", "R", "B"], ["ly", "lh"],
                             hidden_size=4),
            helper.make_node("GRU", ["xt", "Wg", "Rg", "Bg"], ["gy", "gh"],
                             hidden_size=3, direction="bidirectional",
                             linear_before_reset=1),
        ] + [helper.make_node("Transpose", [a], [b], perm=perm)
             for a, b, perm in (("ly", "lstm_y", [2, 0, 1, 3]),
                                ("lh", "lstm_h", [1, 0, 2]),
                                ("gy", "gru_y", [2, 0, 1, 3]),
                                ("gh", "gru_h", [1, 0, 2]))]
    else:
        nodes = [
            helper.make_node("LSTM", ["x", "W", "R", "B"],
                             ["lstm_y", "lstm_h"], hidden_size=4, layout=1),
            helper.make_node("GRU", ["x", "Wg", "Rg", "Bg"],
                             ["gru_y", "gru_h"], hidden_size=3, layout=1,
                             direction="bidirectional",
                             linear_before_reset=1),
        ]
    m = model(nodes, [helper.make_tensor_value_info("x", f, ["b", "t", 3])],
              [helper.make_tensor_value_info(name, f, None)
               for name in ("lstm_y", "lstm_h", "gru_y", "gru_h")],
              [weights("W", (1, 16, 3)), weights("R", (1, 16, 4)),
               weights("B", (1, 32)), weights("Wg", (2, 9, 3)),
               weights("Rg", (2, 9, 3)), weights("Bg", (2, 18))], opset=14)
    return m, {"x": ["1x7x3", "3x2x3", "2x11x3"]}


MODELS = {"windows_2d": windows_2d, "windows_1d": windows_1d,
          "recurrent": recurrent, "spectral": spectral,
          "recurrent_batch_first": recurrent_batch_first,
          "recurrent_batch_first_reference":
              lambda: recurrent_batch_first(reference=True),
          "resize_declared_wrong": resize_declared_wrong,
          "softmax_opset9": softmax_opset9, "pad_opset7": pad_opset7,
          "shared_symbol": shared_symbol, "shapeless_output": shapeless_output}


def main():
    name, out_dir = sys.argv[1], sys.argv[2]
    os.makedirs(out_dir, exist_ok=True)
    m, sizes = MODELS[name]()
    onnx.save(m, os.path.join(out_dir, name + ".onnx"))
    for input_name, input_sizes in sizes.items():
        for size in input_sizes:
            shape = [int(s) for s in size.split("x")]
            np.save(os.path.join(out_dir, "%s.%s.npy" % (name, size)),
                    rng.standard_normal(shape).astype(np.float32))


if __name__ == "__main__":
    main()
