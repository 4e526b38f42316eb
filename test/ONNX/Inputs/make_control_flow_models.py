#!/usr/bin/python3
"""Writes ONNX models with If, Loop and Scan, which the tests compile and
compare with ONNX Runtime, and their inputs (random, seeded).

    make_control_flow_models.py NAME OUT_DIR

writes OUT_DIR/NAME.onnx and OUT_DIR/NAME.CASE.INPUT.npy for each case
CASE the test runs and each input INPUT of the model.
"""

import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(0)
F, I64, B = TensorProto.FLOAT, TensorProto.INT64, TensorProto.BOOL


def weights(name, shape):
    return numpy_helper.from_array(
        rng.standard_normal(shape).astype(np.float32), name)


def const(name, value, dtype=np.float32):
    return helper.make_node("Constant", [], [name],
                            value=numpy_helper.from_array(
                                np.array(value, dtype=dtype), name + ".value"))


def model(nodes, inputs, outputs, initializers=(), opset=17, check=True):
    graph = helper.make_graph(nodes, "test", inputs, outputs,
                              list(initializers))
    m = helper.make_model(graph,
                          opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    if check:  # ONNX 1.12's checker wants every graph output's shape
        onnx.checker.check_model(m)
    return m


def value(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


def branches():
    """An If on a condition computed from the input, its branches reading
    values of the graph around it (an initializer, the input, a node's
    output), one output whose width differs between the branches."""
    then_branch = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["t0"]),
         helper.make_node("Concat", ["x", "doubled"], ["t1"], axis=1)],
        "then", [], [value("t0", F, None), value("t1", F, None)])
    else_branch = helper.make_graph(
        [helper.make_node("Sub", ["x", "doubled"], ["e0"]),
         helper.make_node("Tanh", ["x"], ["e1"])],
        "else", [], [value("e0", F, None), value("e1", F, None)])
    nodes = [
        helper.make_node("Add", ["x", "x"], ["doubled"]),
        helper.make_node("ReduceSum", ["x"], ["sum"], keepdims=0),
        const("zero", 0.0),
        helper.make_node("Greater", ["sum", "zero"], ["positive"]),
        helper.make_node("If", ["positive"], ["y0", "y1"],
                         then_branch=then_branch, else_branch=else_branch),
    ]
    m = model(nodes, [value("x", F, ["n", 4])],
              [value("y0", F, ["n", 4]), value("y1", F, ["n", None])],
              [weights("w", [4, 4])])
    x = rng.standard_normal([3, 4]).astype(np.float32)
    return m, {"positive": {"x": np.abs(x)}, "negative": {"x": -np.abs(x)},
               "rows5": {"x": rng.standard_normal([5, 4]).astype(np.float32)}}


def nested_loop():
    """A Loop whose trip count is an input and whose condition the body
    computes (it stops when the running sum passes a limit), with a scan
    output, an If inside the body that reads the loop's carried value and
    an outer initializer, and an outer value read two levels down."""
    inner_then = helper.make_graph(
        [helper.make_node("Mul", ["acc_in", "scale"], ["it"])], "inner_then",
        [], [value("it", F, None)])
    inner_else = helper.make_graph(
        [helper.make_node("Add", ["acc_in", "shift"], ["ie"])], "inner_else",
        [], [value("ie", F, None)])
    body = helper.make_graph(
        [
            helper.make_node("Cast", ["i"], ["i_float"], to=F),
            const("two", 2.0),
            helper.make_node("Mod", ["i_float", "two"], ["parity"], fmod=1),
            const("zero", 0.0),
            helper.make_node("Equal", ["parity", "zero"], ["even"]),
            helper.make_node("If", ["even"], ["stepped"],
                             then_branch=inner_then, else_branch=inner_else),
            helper.make_node("Add", ["stepped", "x"], ["acc_out"]),
            helper.make_node("ReduceSum", ["acc_out"], ["total"], keepdims=0),
            helper.make_node("Less", ["total", "limit"], ["cond_out"]),
            helper.make_node("ReduceMax", ["acc_out"], ["row"], axes=[0],
                             keepdims=0),
        ],
        "body",
        [value("i", I64, []), value("cond_in", B, []),
         value("acc_in", F, ["n", 3])],
        [value("cond_out", B, []), value("acc_out", F, ["n", 3]),
         value("row", F, [3])])
    nodes = [
        const("start", np.ones([1, 3]) * 0.5),
        helper.make_node("Mul", ["x", "start"], ["acc0"]),
        const("go", True, np.bool_),
        helper.make_node("Loop", ["m", "go", "acc0"], ["acc", "rows"],
                         body=body),
    ]
    m = model(nodes, [value("m", I64, []), value("x", F, ["n", 3]),
                      value("limit", F, [])],
              [value("acc", F, ["n", 3]), value("rows", F, [None, 3])],
              [numpy_helper.from_array(np.array([1.5, 0.5, -1.0], np.float32),
                                       "scale"),
               numpy_helper.from_array(np.array([0.25], np.float32),
                                       "shift")])
    x = np.abs(rng.standard_normal([2, 3]).astype(np.float32))
    return m, {
        # All M iterations.
        "full": {"m": np.array(6, np.int64), "x": x,
                 "limit": np.array(1e9, np.float32)},
        # The condition stops it early.
        "stops": {"m": np.array(50, np.int64), "x": x,
                  "limit": np.array(20.0, np.float32)},
        "none": {"m": np.array(0, np.int64), "x": x,
                 "limit": np.array(1e9, np.float32)},
        # A while-loop as exporters write it (M = INT64_MAX): the scan
        # output's rows grow as it runs, not to M.
        "huge": {"m": np.array(2**63 - 1, np.int64), "x": x,
                 "limit": np.array(20.0, np.float32)},
    }


def while_loop():
    """A Loop without a trip count, which runs until its condition fails:
    the scan output's rows grow past their first allocation; a carried
    value grows by a row each iteration (its shape changes)."""
    body = helper.make_graph(
        [
            const("one", 1.0),
            helper.make_node("Add", ["v_in", "one"], ["v_out"]),
            helper.make_node("Less", ["v_out", "stop"], ["cond_out"]),
            helper.make_node("Mul", ["v_out", "x"], ["row"]),
            helper.make_node("Unsqueeze", ["row", "zero_axis"], ["row2"]),
            helper.make_node("Concat", ["grown_in", "row2"], ["grown_out"],
                             axis=0),
        ],
        "body",
        [value("i", I64, []), value("cond_in", B, []),
         value("v_in", F, []), value("grown_in", F, [None, 4])],
        [value("cond_out", B, []), value("v_out", F, []),
         value("grown_out", F, [None, 4]), value("row", F, [4])])
    nodes = [
        const("v0", 0.0),
        const("go", True, np.bool_),
        helper.make_node("Unsqueeze", ["x", "zero_axis"], ["g0"]),
        helper.make_node("Loop", ["", "go", "v0", "g0"],
                         ["v", "grown", "rows"], body=body),
    ]
    m = model(nodes, [value("x", F, [4]), value("stop", F, [])],
              [value("v", F, []), value("grown", F, [None, 4]),
               value("rows", F, [None, 4])],
              [numpy_helper.from_array(np.array([0], np.int64),
                                       "zero_axis")])
    x = rng.standard_normal([4]).astype(np.float32)
    return m, {"ten": {"x": x, "stop": np.array(10.0, np.float32)},
               "one": {"x": x, "stop": np.array(0.5, np.float32)}}


def scans():
    """A Scan over two inputs of any length, one read in reverse and one
    along axis 1, with a state, a scan output stacked along axis 1 and one
    written in reverse; the body reads an outer initializer."""
    body = helper.make_graph(
        [
            helper.make_node("Add", ["state_in", "a"], ["s1"]),
            helper.make_node("Mul", ["s1", "b"], ["s2"]),
            helper.make_node("Add", ["s2", "bias"], ["state_out"]),
            helper.make_node("Tanh", ["state_out"], ["out0"]),
            helper.make_node("Sub", ["a", "b"], ["out1"]),
        ],
        "body",
        [value("state_in", F, [2]), value("a", F, [2]),
         value("b", F, [2])],
        [value("state_out", F, [2]), value("out0", F, [2]),
         value("out1", F, [2])])
    nodes = [helper.make_node("Scan", ["s0", "xa", "xb"],
                              ["state", "y0", "y1"], body=body,
                              num_scan_inputs=2,
                              scan_input_directions=[1, 0],
                              scan_input_axes=[0, 1],
                              scan_output_axes=[1, 0],
                              scan_output_directions=[0, 1])]
    m = model(nodes, [value("s0", F, [2]), value("xa", F, ["t", 2]),
                      value("xb", F, [2, "t"])],
              [value("state", F, [2]), value("y0", F, [2, "t"]),
               value("y1", F, ["t", 2])],
              [numpy_helper.from_array(np.array([0.1, -0.2], np.float32),
                                       "bias")])
    cases = {}
    for steps in (1, 7):
        cases["t%d" % steps] = {
            "s0": rng.standard_normal([2]).astype(np.float32),
            "xa": rng.standard_normal([steps, 2]).astype(np.float32),
            "xb": rng.standard_normal([2, steps]).astype(np.float32) * 0.5,
        }
    return m, cases


def constant_if():
    """Ifs on Constants: folded at import, so that their other branches,
    which hold an op Kiln does not convert, are never compiled; the two
    branches taken use the same names inside (each is its own scope)."""
    def branches(op):
        then_branch = helper.make_graph(
            [helper.make_node(op, ["x"], ["t"]),
             helper.make_node("Neg", ["t"], ["u"])], "then", [],
            [value("u", F, None)])
        else_branch = helper.make_graph(
            [helper.make_node("Bernoulli", ["x"], ["e"])], "else", [],
            [value("e", F, None)])
        return {"then_branch": then_branch, "else_branch": else_branch}
    nodes = [const("always", True, np.bool_),
             helper.make_node("If", ["always"], ["y1"], **branches("Relu")),
             helper.make_node("If", ["always"], ["y2"], **branches("Abs")),
             helper.make_node("Add", ["y1", "y2"], ["y"])]
    m = model(nodes, [value("x", F, [5])], [value("y", F, [5])])
    return m, {"x": {"x": np.linspace(-1, 1, 5).astype(np.float32)}}


def if_opset11():
    """An If at opset 11 whose branch holds a Softmax over a value of
    unknown rank (the version converter needs the rank)."""
    then_branch = helper.make_graph(
        [helper.make_node("Softmax", ["x"], ["t"], axis=1)], "then", [],
        [value("t", F, None)])
    else_branch = helper.make_graph(
        [helper.make_node("Neg", ["x"], ["e"])], "else", [],
        [value("e", F, None)])
    nodes = [helper.make_node("If", ["p"], ["y"], then_branch=then_branch,
                              else_branch=else_branch)]
    m = model(nodes, [value("p", B, []), value("x", F, [2, 3, 4])],
              [value("y", F, [2, 3, 4])], opset=11)
    x = rng.standard_normal([2, 3, 4]).astype(np.float32)
    return m, {"then": {"p": np.array(True), "x": x},
               "else": {"p": np.array(False), "x": x}}


def if_ranks():
    """An If whose branches give outputs of different ranks."""
    then_branch = helper.make_graph(
        [helper.make_node("Identity", ["x"], ["t"])], "then", [],
        [value("t", F, None)])
    else_branch = helper.make_graph(
        [helper.make_node("Unsqueeze", ["x", "axis"], ["e"])], "else", [],
        [value("e", F, None)])
    nodes = [helper.make_node("If", ["p"], ["y"], then_branch=then_branch,
                              else_branch=else_branch),
             helper.make_node("Size", ["y"], ["size"])]
    m = model(nodes, [value("p", B, []), value("x", F, [3])],
              [value("size", I64, [])],
              [numpy_helper.from_array(np.array([0], np.int64), "axis")])
    return m, {}


MODELS = {
    "branches": branches,
    "nested_loop": nested_loop,
    "while_loop": while_loop,
    "scans": scans,
    "constant_if": constant_if,
    "if_opset11": if_opset11,
    "if_ranks": if_ranks,
}


def main():
    name, out = sys.argv[1], sys.argv[2]
    m, cases = MODELS[name]()
    onnx.save(m, os.path.join(out, name + ".onnx"))
    for case, inputs in cases.items():
        for input_name, array in inputs.items():
            np.save(os.path.join(out, "%s.%s.%s.npy" % (name, case,
                                                         input_name)),
                    array)


if __name__ == "__main__":
    main()
