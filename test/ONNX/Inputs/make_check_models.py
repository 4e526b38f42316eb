#!/usr/bin/python3
"""Writes the ONNX models of test/ONNX/runtime-checks.test: each takes a
size, an index or a parameter at run time that a call can get wrong.

    make_check_models.py OUT_DIR

writes OUT_DIR/NAME.onnx for every model below, and the inputs the test
passes as .npy files (OUT_DIR/NAME.CASE.K.npy).
"""

import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F, I32, I64 = TensorProto.FLOAT, TensorProto.INT32, TensorProto.INT64


def info(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


def model(nodes, inputs, outputs, initializers=()):
    graph = helper.make_graph(nodes, "checks", inputs, outputs,
                              list(initializers))
    return helper.make_model(graph,
                             opset_imports=[helper.make_opsetid("", 17)])


MODELS = {
    "add": model([helper.make_node("Add", ["x", "y"], ["z"], name="add")],
                 [info("x", F, ["N"]), info("y", F, ["M"])],
                 [info("z", F, ["N"])]),
    "matmul": model(
        [helper.make_node("MatMul", ["a", "b"], ["c"], name="mm")],
        [info("a", F, ["P", "K"]), info("b", F, ["L", "Q"])],
        [info("c", F, ["P", "Q"])]),
    "gather": model(
        [helper.make_node("Gather", ["data", "i"], ["g"], name="gather",
                          axis=0)],
        [info("data", F, [5, 3]), info("i", I64, ["N"])],
        [info("g", F, ["N", 3])]),
    "gather_constant": model(
        [helper.make_node("Gather", ["data", "i"], ["g"], name="gather",
                          axis=0)],
        [info("data", F, [2, 3])], [info("g", F, [1, 3])],
        [numpy_helper.from_array(np.array([100], np.int64), "i")]),
    "gather_elements": model(
        [helper.make_node("GatherElements", ["data", "i"], ["g"],
                          name="gather_elements", axis=1)],
        [info("data", F, [3, 4]), info("i", I64, ["R", "C"])],
        [info("g", F, ["R", "C"])]),
    "gather_nd": model(
        [helper.make_node("GatherND", ["data", "i"], ["g"], name="gather_nd")],
        [info("data", F, [3, 4]), info("i", I64, ["N", 2])],
        [info("g", F, ["N"])]),
    "scatter_elements": model(
        [helper.make_node("ScatterElements", ["data", "i", "u"], ["s"],
                          name="scatter", axis=0)],
        [info("data", F, [5]), info("i", I64, ["N"]), info("u", F, ["N"])],
        [info("s", F, [5])]),
    "scatter_nd": model(
        [helper.make_node("ScatterND", ["data", "i", "u"], ["s"],
                          name="scatter_nd")],
        [info("data", F, [4, 3]), info("i", I64, ["N", 1]),
         info("u", F, ["N", 3])],
        [info("s", F, [4, 3])]),
    "slice": model(
        [helper.make_node("Slice", ["x", "starts", "ends", "axes", "steps"],
                          ["y"], name="slice")],
        [info("x", F, [10]), info("starts", I64, [1]),
         info("ends", I64, [1]), info("axes", I64, [1]),
         info("steps", I64, [1])],
        [info("y", F, ["K"])]),
    "split": model(
        [helper.make_node("Split", ["x", "split"], ["a", "b"], name="split",
                          axis=0)],
        [info("x", F, ["N"]), info("split", I64, [2])],
        [info("a", F, ["A"]), info("b", F, ["B"])]),
    "reshape": model(
        [helper.make_node("Reshape", ["x", "shape"], ["y"], name="reshape")],
        [info("x", F, [6]), info("shape", I64, [2])],
        [info("y", F, ["P", "Q"])]),
    "reduce_sum": model(
        [helper.make_node("ReduceSum", ["x", "axes"], ["y"],
                          name="reduce_sum", keepdims=1)],
        [info("x", F, [2, 3]), info("axes", I64, [1])],
        [info("y", F, ["P", "Q"])]),
    "cumsum": model(
        [helper.make_node("CumSum", ["x", "axis"], ["y"], name="cumsum")],
        [info("x", F, [2, 3]), info("axis", I64, [])],
        [info("y", F, [2, 3])]),
    "div_mod": model(
        [helper.make_node("Div", ["a", "b"], ["q"], name="div"),
         helper.make_node("Mod", ["a", "b"], ["r"], name="mod")],
        [info("a", I32, ["N"]), info("b", I32, ["N"])],
        [info("q", I32, ["N"]), info("r", I32, ["N"])]),
    "range": model(
        [helper.make_node("Range", ["s", "l", "d"], ["y"], name="range")],
        [info("s", F, []), info("l", F, []), info("d", F, [])],
        [info("y", F, ["N"])]),
}

# Inputs of the cases that run: NAME.CASE -> arrays.
INPUTS = {
    "gather.good": [np.arange(15, dtype=np.float32).reshape(5, 3),
                    np.array([4, -5, 0, -1], np.int64)],
    "gather.bad": [np.zeros((5, 3), np.float32),
                   np.array([0, 5, -6, 2, 7], np.int64)],
    "gather_elements.bad": [np.zeros((3, 4), np.float32),
                            np.array([[0, 4], [1, 1]], np.int64)],
    "gather_elements.large": [np.zeros((3, 4), np.float32),
                              np.zeros((5, 2), np.int64)],
    "gather_nd.bad": [np.zeros((3, 4), np.float32),
                      np.array([[2, 3], [3, 0]], np.int64)],
    "scatter_elements.bad": [np.zeros(5, np.float32),
                             np.array([1, 9], np.int64),
                             np.ones(2, np.float32)],
    "scatter_nd.bad": [np.zeros((4, 3), np.float32),
                       np.array([[1], [-5]], np.int64),
                       np.ones((2, 3), np.float32)],
    "slice.good": [np.arange(10, dtype=np.float32), np.array([8], np.int64),
                   np.array([1], np.int64), np.array([0], np.int64),
                   np.array([-3], np.int64)],
    "slice.step0": [np.arange(10, dtype=np.float32), np.array([0], np.int64),
                    np.array([5], np.int64), np.array([0], np.int64),
                    np.array([0], np.int64)],
    "slice.axis": [np.arange(10, dtype=np.float32), np.array([0], np.int64),
                   np.array([5], np.int64), np.array([3], np.int64),
                   np.array([1], np.int64)],
    "split.good": [np.arange(4, dtype=np.float32), np.array([1, 3], np.int64)],
    "split.sum": [np.arange(4, dtype=np.float32), np.array([3, 3], np.int64)],
    "split.negative": [np.arange(4, dtype=np.float32),
                       np.array([100000000, -99999996], np.int64)],
    "reshape.good": [np.arange(6, dtype=np.float32),
                     np.array([-1, 2], np.int64)],
    "reshape.count": [np.arange(6, dtype=np.float32),
                      np.array([4, 4], np.int64)],
    "reshape.two": [np.arange(6, dtype=np.float32),
                    np.array([-1, -1], np.int64)],
    "reduce_sum.bad": [np.ones((2, 3), np.float32), np.array([5], np.int64)],
    "cumsum.bad": [np.ones((2, 3), np.float32), np.array(5, np.int64)],
    "div_mod.good": [np.array([7, -7, 9], np.int32),
                     np.array([2, 2, -4], np.int32)],
    "div_mod.zero": [np.array([7, -7, 9], np.int32),
                     np.array([2, 0, -4], np.int32)],
    "div_mod.overflow": [np.array([-2**31, 1], np.int32),
                         np.array([-1, 1], np.int32)],
    "range.huge": [np.array(0, np.float32), np.array(1e30, np.float32),
                   np.array(1e-30, np.float32)],
    "range.zero": [np.array(0, np.float32), np.array(1, np.float32),
                   np.array(0, np.float32)],
}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, m in MODELS.items():
        onnx.save(m, os.path.join(out, name + ".onnx"))
    for case, arrays in INPUTS.items():
        for k, array in enumerate(arrays):
            np.save(os.path.join(out, f"{case}.{k}.npy"), array)


if __name__ == "__main__":
    main()
