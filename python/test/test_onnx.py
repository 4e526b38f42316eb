"""kiln.compile on an ONNX model (the onnx plugin), run from Python."""

import numpy as np
import pytest

import kiln

onnx = pytest.importorskip("onnx")


WEIGHT = np.arange(12, dtype=np.float32).reshape(4, 3) / 10


def save_small_model(tmp_path, relu):
    """x[N, 4] @ WEIGHT (then Relu), saved as small.onnx: its path."""
    from onnx import TensorProto, helper, numpy_helper
    nodes = [helper.make_node("MatMul", ["x", "w"], ["y0" if relu else "y"])]
    if relu:
        nodes.append(helper.make_node("Relu", ["y0"], ["y"]))
    graph = helper.make_graph(
        nodes, "small",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 3])],
        [numpy_helper.from_array(WEIGHT, "w")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    path = tmp_path / "small.onnx"
    onnx.save(model, str(path))
    return path


def test_onnx_model_compiles_and_runs(tmp_path):
    weight = WEIGHT
    path = save_small_model(tmp_path, relu=True)
    module = kiln.Module.load(kiln.compile(path))
    x = np.linspace(-1, 1, 20, dtype=np.float32).reshape(5, 4)
    (name,) = module.functions
    y = module[name](x)
    np.testing.assert_allclose(y, np.maximum(x @ weight, 0), rtol=1e-6,
                               atol=1e-6)
    # The same model from memory.
    again = kiln.Module.load(kiln.compile(path.read_bytes()))
    np.testing.assert_array_equal(again[name](x), y)


def test_onnx_symbolic_sizes_given_at_compile_time(tmp_path):
    weight = WEIGHT
    path = save_small_model(tmp_path, relu=False)
    x = np.linspace(-1, 1, 20, dtype=np.float32).reshape(5, 4)
    for flag in ["--kiln-dim=N=5", "--kiln-input-shape=x:5x4",
                 "--kiln-input-shape=0:5x4"]:
        module = kiln.Module.load(kiln.compile(path, flags=[flag]))
        np.testing.assert_allclose(module["main"](x), x @ weight, rtol=1e-6,
                                   atol=1e-6)
    with pytest.raises(kiln.CompileError, match="--kiln-dim names 'batch', "
                       "which no input or output of the model has"):
        kiln.compile(path, flags=["--kiln-dim=batch=5"])
