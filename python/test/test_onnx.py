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


def save_two_input_model(tmp_path):
    """out = a - b.1 (names an identifier cannot hold): its path."""
    from onnx import TensorProto, helper
    graph = helper.make_graph(
        [helper.make_node("Sub", ["a", "b.1"], ["out:0"])], "two",
        [helper.make_tensor_value_info("a", TensorProto.FLOAT, [3]),
         helper.make_tensor_value_info("b.1", TensorProto.FLOAT, [3])],
        [helper.make_tensor_value_info("out:0", TensorProto.FLOAT, [3])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    path = tmp_path / "two.onnx"
    onnx.save(model, str(path))
    return path


def test_onnx_inputs_by_name(tmp_path):
    module = kiln.Module.load(kiln.compile(save_small_model(tmp_path, False)))
    f = module.main
    assert f.input_names == ["x"] and f.output_names == ["y"]
    assert repr(f) == "main(x: tensor<?x4xf32>) -> (y: tensor<?x3xf32>)"
    x = np.ones((2, 4), np.float32)
    np.testing.assert_array_equal(module.main(x=x), module.main(x))
    (result,) = module.run({"x": x}).items()
    assert result[0] == "y"
    np.testing.assert_array_equal(result[1], module.main(x))

    module = kiln.Module.load(kiln.compile(save_two_input_model(tmp_path)))
    a = np.array([1, 2, 3], np.float32)
    b = np.array([10, 20, 30], np.float32)
    # In either order, by name; names Python keywords cannot spell go
    # through a dict.
    out = module.run({"b.1": b, "a": a})
    assert list(out) == ["out:0"]
    np.testing.assert_array_equal(out["out:0"], a - b)
    np.testing.assert_array_equal(module.main(**{"b.1": b, "a": a}), a - b)
    with pytest.raises(TypeError, match=r"has no input called 'c' \(its "
                       r"inputs: a, b.1\)"):
        module.run({"a": a, "c": b})
    with pytest.raises(TypeError, match="input 'b.1' is not given"):
        module.main(a=a)
    with pytest.raises(TypeError, match="give every input by name or every "
                       "one in order"):
        module.main(a, **{"b.1": b})
    with pytest.raises(TypeError, match="run takes a dict"):
        module.run([a, b])
