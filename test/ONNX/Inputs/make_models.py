#!/usr/bin/python3
"""Writes the ONNX models the ONNX tests read, built with onnx.helper from
random weights (nothing downloaded).

    make_models.py NAME OUT_DIR

writes OUT_DIR/NAME.onnx and, for the models that run, their inputs and
expected outputs (NAME.input_K.npy, NAME.output_K.npy computed with numpy).
"""

import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(0)


def model(nodes, inputs, outputs, initializers=(), opset=17, domains=()):
    graph = helper.make_graph(nodes, "test", inputs, outputs,
                              list(initializers))
    opsets = [helper.make_opsetid("", opset)]
    opsets += [helper.make_opsetid(d, 1) for d in domains]
    return helper.make_model(graph, opset_imports=opsets)


def mlp():
    """MatMul, Relu, Gemm (B transposed, alpha), Sigmoid; a batch of N."""
    w1 = rng.standard_normal((8, 16)).astype(np.float32)
    w2 = rng.standard_normal((24, 16)).astype(np.float32)  # 1.5 KiB: a blob
    b2 = rng.standard_normal((24,)).astype(np.float32)
    m = model(
        [helper.make_node("MatMul", ["x", "w1"], ["h"], name="mm"),
         helper.make_node("Relu", ["h"], ["r"], name="relu"),
         helper.make_node("Gemm", ["r", "w2", "b2"], ["y"], name="fc",
                          transB=1, alpha=0.5),
         helper.make_node("Sigmoid", ["y"], ["z"], name="sigmoid")],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 8])],
        [helper.make_tensor_value_info("z", TensorProto.FLOAT, ["N", 24])],
        [numpy_helper.from_array(w1, "w1"), numpy_helper.from_array(w2, "w2"),
         numpy_helper.from_array(b2, "b2")])
    x = rng.standard_normal((3, 8)).astype(np.float32)
    y = 0.5 * (np.maximum(x @ w1, 0) @ w2.T) + b2
    return m, [x], [1 / (1 + np.exp(-y))]


def broadcast():
    """Integer and unsigned elementwise ops with numpy broadcasting."""
    m = model(
        [helper.make_node("Div", ["a", "b"], ["q"], name="div"),
         helper.make_node("Mod", ["a", "c"], ["r"], name="mod"),
         helper.make_node("Greater", ["a", "b"], ["g"], name="greater"),
         helper.make_node("Where", ["g", "q", "r"], ["y"], name="where")],
        [helper.make_tensor_value_info("a", TensorProto.UINT8, [2, 3]),
         helper.make_tensor_value_info("b", TensorProto.UINT8, [3]),
         helper.make_tensor_value_info("c", TensorProto.UINT8, [2, 1])],
        [helper.make_tensor_value_info("y", TensorProto.UINT8, [2, 3])])
    a = np.array([[200, 7, 255], [9, 100, 3]], np.uint8)
    b = np.array([3, 250, 2], np.uint8)
    c = np.array([[7], [4]], np.uint8)
    return m, [a, b, c], [np.where(a > b, a // b, a % c).astype(np.uint8)]


def legacy():
    """Opset 6: Add's old broadcast along an axis and Gemm's broadcast
    attribute, which ONNX's version converter rewrites for opset 17."""
    w = rng.standard_normal((4, 3)).astype(np.float32)
    c = rng.standard_normal((3,)).astype(np.float32)
    m = model(
        [helper.make_node("Add", ["x", "b"], ["s"], name="add", broadcast=1,
                          axis=1),
         helper.make_node("Gemm", ["s", "w", "c"], ["y"], name="gemm",
                          broadcast=1)],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4]),
         helper.make_tensor_value_info("b", TensorProto.FLOAT, [4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])],
        [numpy_helper.from_array(w, "w"), numpy_helper.from_array(c, "c")],
        opset=6)
    x = rng.standard_normal((2, 4)).astype(np.float32)
    b = rng.standard_normal((4,)).astype(np.float32)
    return m, [x, b], [(x + b) @ w + c]


def reshape_v1():
    """Opset 1's Reshape, whose shape is an attribute (ONNX's converter
    made it a Constant Kiln could not read), then a graph output that is
    its input (a graph Kiln once imported with its names left on)."""
    m = model(
        [helper.make_node("Reshape", ["x"], ["y"], name="reshape",
                          shape=[3, 2])],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, 2]),
         helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        opset=1)
    x = rng.standard_normal((2, 3)).astype(np.float32)
    return m, [x], [x.reshape(3, 2), x]


def passthrough():
    """No nodes: the output is the input (compiled with a warning for each
    of their ONNX names)."""
    m = model([], [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                                 [4])],
              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4])])
    x = rng.standard_normal((4,)).astype(np.float32)
    return m, [x], [x]


def shadowed():
    """A graph input with an initializer of the same name (IR version 8):
    the initializer is its default, which Kiln compiles as a constant."""
    w = rng.standard_normal((4,)).astype(np.float32)
    m = model(
        [helper.make_node("Add", ["x", "w"], ["y"], name="add")],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4]),
         helper.make_tensor_value_info("w", TensorProto.FLOAT, [4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4])],
        [numpy_helper.from_array(w, "w")])
    x = rng.standard_normal((4,)).astype(np.float32)
    return m, [x], [x + w]


def many_outputs():
    """400 outputs (and the input itself as one more): Mul by a vector and
    Add of a splat in turn, in whole numbers so that kiln-run prints them
    exactly (expected text in many_outputs.expected.txt)."""
    count = 400
    nodes, outputs, initializers, expected = [], [], [], []
    x = np.arange(1, 5, dtype=np.float32)
    for i in range(count):
        if i % 2 == 0:
            c = np.arange(4, dtype=np.float32) * (i + 1)
            nodes.append(helper.make_node("Mul", ["x", "c%d" % i],
                                          ["y%d" % i], name="mul%d" % i))
            expected.append(x * c)
        else:
            c = np.full(4, i, np.float32)
            nodes.append(helper.make_node("Add", ["x", "c%d" % i],
                                          ["y%d" % i], name="add%d" % i))
            expected.append(x + c)
        initializers.append(numpy_helper.from_array(c, "c%d" % i))
        outputs.append(helper.make_tensor_value_info("y%d" % i,
                                                     TensorProto.FLOAT, [4]))
    outputs.append(helper.make_tensor_value_info("x", TensorProto.FLOAT, [4]))
    expected.append(x)
    m = model(nodes, [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                                    [4])],
              outputs, initializers)
    return m, [x], expected


def shape_arithmetic():
    """The first half of x's columns, the bound computed in the graph
    (Shape, Gather, Div, Unsqueeze) as exporters write it: the importer
    folds it, so the Slice has a static shape."""
    m = model(
        [helper.make_node("Shape", ["x"], ["shape"], name="shape"),
         helper.make_node("Gather", ["shape", "one"], ["columns"],
                          name="gather"),
         helper.make_node("Div", ["columns", "two"], ["half"], name="div"),
         helper.make_node("Unsqueeze", ["half", "zero1d"], ["end"],
                          name="unsqueeze"),
         helper.make_node("Slice", ["x", "zero1d", "end", "one1d"],
                          ["sliced"], name="slice"),
         helper.make_node("Identity", ["sliced"], ["y"], name="identity")],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 6])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["R", "C"])],
        [numpy_helper.from_array(np.array(1, np.int64), "one"),
         numpy_helper.from_array(np.array(2, np.int64), "two"),
         numpy_helper.from_array(np.array([0], np.int64), "zero1d"),
         numpy_helper.from_array(np.array([1], np.int64), "one1d")])
    x = rng.standard_normal((2, 6)).astype(np.float32)
    return m, [x], [x[:, :3]]


def det():
    """Det of four 5x5 matrices, numpy.linalg.det's (LU with partial
    pivoting too) as reference: random, one with zeros on the diagonal
    (every column needs a row swap), one singular (two equal rows), one
    scaled to need pivoting for accuracy."""
    x = rng.standard_normal((4, 5, 5)).astype(np.float32)
    x[1] = x[1] - np.diag(np.diag(x[1]))
    x[2, 3] = x[2, 1]
    x[3, 0] *= 1e-4
    m = model(
        [helper.make_node("Det", ["x"], ["y"], name="det")],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4, 5, 5])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4])])
    y = np.linalg.det(x.astype(np.float64)).astype(np.float32)
    return m, [x], [y]


def relu_only(**kwargs):
    return model([helper.make_node("Relu", ["x"], ["y"], name="relu")],
                 [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4])],
                 [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4])],
                 **kwargs)


def bad_models():
    """Models that must be refused, each with a clear error."""
    out = {}
    out["opset22"] = relu_only(opset=22)
    out["opset0"] = relu_only(opset=0)
    # An experimental op of opset 6 that opset 17 no longer has.
    old = relu_only(opset=6)
    old.graph.node[0].op_type = "ImageScaler"
    out["no_upgrade"] = old
    custom = relu_only(domains=["com.example"])
    custom.graph.node[0].domain = "com.example"
    custom.graph.node[0].op_type = "FancyRelu"
    out["custom_domain"] = custom
    # A default-domain node in a model that imports only the training
    # domain, and the training domain at an opset ONNX 1.12 does not have.
    undeclared = relu_only(domains=["ai.onnx.preview.training"])
    del undeclared.opset_import[0]
    out["undeclared_domain"] = undeclared
    training2 = relu_only()
    training2.opset_import.append(
        helper.make_opsetid("ai.onnx.preview.training", 2))
    out["training_opset2"] = training2
    undefined = relu_only()
    undefined.graph.node[0].input[0] = "nowhere"
    out["undefined_input"] = undefined
    # Two nodes feeding each other: a cycle.
    out["cycle"] = model(
        [helper.make_node("Add", ["x", "b"], ["a"], name="first"),
         helper.make_node("Relu", ["a"], ["b"], name="second")],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4])],
        [helper.make_tensor_value_info("b", TensorProto.FLOAT, [4])])
    out["inconsistent_shapes"] = model(
        [helper.make_node("Add", ["x", "z"], ["y"], name="add")],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4]),
         helper.make_tensor_value_info("z", TensorProto.FLOAT, [3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4])])
    # NonZero: an output whose size depends on the data.
    out["unsupported_op"] = model(
        [helper.make_node("NonZero", ["x"], ["y"], name="nonzero")],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4])],
        [helper.make_tensor_value_info("y", TensorProto.INT64, [2, None])])
    external = relu_only()
    weight = numpy_helper.from_array(np.ones(4, np.float32), "w")
    weight.data_location = TensorProto.EXTERNAL
    entry = weight.external_data.add()
    entry.key, entry.value = "location", "weights.bin"
    weight.ClearField("raw_data")
    external.graph.initializer.append(weight)
    external.graph.node[0].input[0] = "x"
    add = helper.make_node("Add", ["y0", "w"], ["y"], name="add_weight")
    external.graph.node[0].output[0] = "y0"
    external.graph.node.append(add)
    out["missing_external_data"] = external
    # The same initializer with its data where a file should not be: a
    # FIFO, a link to /dev/zero, a link out of the folder (the test makes
    # them).
    for place in ["fifo", "zero", "outside"]:
        moved = onnx.ModelProto()
        moved.CopyFrom(external)
        moved.graph.initializer[0].external_data[0].value = place + ".bin"
        out["external_" + place] = moved
    # What ONNX's library crashed on: an old model whose graph output no
    # node produces (its graph conversion), Conv strides of 0 and a
    # DepthToSpace blocksize of 0 (its shape inference divides by them).
    orphan = relu_only(opset=9)
    orphan.graph.output[0].name = "nobody"
    out["orphan_output"] = orphan
    out["zero_strides"] = model(
        [helper.make_node("Conv", ["x", "w"], ["y"], name="conv",
                          strides=[0, 0])],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 4, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT,
                                       [1, 1, 2, 2])],
        [numpy_helper.from_array(np.ones((1, 1, 3, 3), np.float32), "w")])
    out["zero_blocksize"] = model(
        [helper.make_node("DepthToSpace", ["x"], ["y"], name="d2s",
                          blocksize=0)],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4, 2, 2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT,
                                       [1, 1, 4, 4])])
    # A DFT of 2^40 points: work no compile should start.
    out["huge_dft"] = model(
        [helper.make_node("DFT", ["x", "n"], ["y"], name="dft")],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 8, 1])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT,
                                       [1, 2**40, 2])],
        [numpy_helper.from_array(np.array(2**40, np.int64), "n")])
    # Two imports of the default domain: which one the model means is
    # unknown.
    twice = relu_only()
    twice.opset_import.append(helper.make_opsetid("", 11))
    out["two_default_opsets"] = twice
    # Elements that do not add up, in opset 1's Reshape (its error named no
    # node); a Squeeze axis out of range that a declared output shape let
    # through ONNX's shape inference (Kiln ignored it).
    out["reshape_elements"] = model(
        [helper.make_node("Reshape", ["x"], ["y"], name="reshape",
                          shape=[4, 4])],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4, 4])],
        opset=1)
    out["squeeze_axis_range"] = model(
        [helper.make_node("Squeeze", ["x"], ["y"], name="squeeze", axes=[5])],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 3])],
        opset=11)
    # A Gemm of a vector at opset 6: ONNX's shape inference for Gemm before
    # opset 9 reads the dims it lacks (SIGSEGV; the onnx_model fuzzer's).
    out["gemm_vector"] = model(
        [helper.make_node("Gemm", ["x", "w", "c"], ["y"], name="gemm")],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])],
        [numpy_helper.from_array(np.ones(5, np.float32), "w"),
         numpy_helper.from_array(np.ones(3, np.float32), "c")],
        opset=6)
    # Slice starts of rank 0 (the converter read a size they do not have;
    # the onnx_model fuzzer's).
    out["slice_scalar_starts"] = model(
        [helper.make_node("Slice", ["x", "starts", "ends"], ["y"],
                          name="slice")],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [10]),
         helper.make_tensor_value_info("starts", TensorProto.INT64, []),
         helper.make_tensor_value_info("ends", TensorProto.INT64, [1])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [None])])
    # An output without a shape after a Slice of bounds read at run time:
    # ONNX's shape inference finds not even its rank.
    out["shapeless_output"] = model(
        [helper.make_node("Slice", ["x", "starts", "ends"], ["y"],
                          name="slice")],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [10]),
         helper.make_tensor_value_info("starts", TensorProto.INT64, [1]),
         helper.make_tensor_value_info("ends", TensorProto.INT64, [1])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    # Shape of the output of an op no schema knows, then Gather, in a model
    # whose output declares no shape (so shape inference runs before the
    # checker): ONNX 1.12's data propagation read past that Shape's data
    # (SIGSEGV, found by the onnx_model fuzzer).
    out["shape_of_unknown_op"] = model(
        [helper.make_node("Relux", ["x"], ["r"], name="relux"),
         helper.make_node("Shape", ["r"], ["s"], name="shape"),
         helper.make_node("Gather", ["s", "index"], ["y"], name="gather")],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4])],
        [helper.make_tensor_value_info("y", TensorProto.INT64, None)],
        [numpy_helper.from_array(np.array([0], np.int64), "index")])
    # Ranges of constant bounds: 10^60 elements (ONNX's shape inference
    # counted 0 of them and Kiln returned an empty tensor), a step of 0.
    for name, bounds, dtype in (("huge_range", (0, 1e30, 1e-30), np.float32),
                                ("zero_step_range", (0, 10, 0), np.int64)):
        out[name] = model(
            [helper.make_node("Range", ["s", "l", "d"], ["y"], name="range")],
            [],
            [helper.make_tensor_value_info(
                "y", TensorProto.FLOAT if dtype == np.float32
                else TensorProto.INT64, ["n"])],
            [numpy_helper.from_array(np.array(v, dtype), n)
             for v, n in zip(bounds, "sld")])
    return out


def main():
    name, out_dir = sys.argv[1], sys.argv[2]
    os.makedirs(out_dir, exist_ok=True)
    if name == "bad":
        for bad_name, m in bad_models().items():
            with open(os.path.join(out_dir, bad_name + ".onnx"), "wb") as f:
                f.write(m.SerializeToString())
        return
    m, inputs, outputs = {"mlp": mlp, "broadcast": broadcast,
                          "legacy": legacy, "reshape_v1": reshape_v1,
                          "passthrough": passthrough, "shadowed": shadowed,
                          "shape_arithmetic": shape_arithmetic,
                          "det": det, "many_outputs": many_outputs}[name]()
    onnx.save(m, os.path.join(out_dir, name + ".onnx"))
    for k, value in enumerate(inputs):
        np.save(os.path.join(out_dir, "%s.input_%d.npy" % (name, k)), value)
    if name == "many_outputs":
        # As kiln-run prints them: 4xf32=[0, 2, 6, 12], one per line.
        with open(os.path.join(out_dir, name + ".expected.txt"), "w") as f:
            for value in outputs:
                f.write("%dxf32=[%s]\n" % (value.size, ", ".join(
                    str(int(v)) for v in value)))
        return
    for k, value in enumerate(outputs):
        np.save(os.path.join(out_dir, "%s.output_%d.npy" % (name, k)), value)


if __name__ == "__main__":
    main()
