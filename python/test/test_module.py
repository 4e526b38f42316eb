"""kiln.Module: loading, signatures, calls on numpy arrays, and benchmark."""

import os

import numpy as np
import pytest

import kiln


@pytest.fixture(scope="module")
def module():
    samples = os.environ["KILN_TEST_SAMPLES"]
    return kiln.Module.load(
        kiln.compile(os.path.join(samples, "matmul_bias_relu.mlir")),
        threads=2)


def reference(a, b, bias):
    return np.maximum(a.astype(np.float64) @ b + bias, 0)


def test_functions_and_signature(module):
    assert list(module.functions) == ["matmul_bias_relu"]
    f = module.matmul_bias_relu
    assert f.inputs == [("f32", (-1, 256)), ("f32", (256, 512)), ("f32", (512,))]
    assert f.outputs == [("f32", (-1, 512))]
    assert "tensor<?x256xf32>" in repr(f)
    assert module.threads == 2


def test_call_matches_numpy(module):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((64, 256), dtype=np.float32)
    b = rng.standard_normal((256, 512), dtype=np.float32)
    bias = rng.standard_normal(512, dtype=np.float32)
    y = module.matmul_bias_relu(a, b, bias)
    assert y.shape == (64, 512) and y.dtype == np.float32
    np.testing.assert_allclose(y, reference(a, b, bias), rtol=1e-4, atol=1e-4)


def test_unaligned_and_strided_inputs_are_copied(module):
    rng = np.random.default_rng(1)
    a = rng.standard_normal((3, 512), dtype=np.float32)[:, ::2]  # strided
    raw = np.zeros(256 * 512 + 1, np.float32)
    b = raw[1:].reshape(256, 512)  # 4 bytes off any 64-byte boundary
    b[:] = rng.standard_normal((256, 512), dtype=np.float32)
    bias = np.arange(512, dtype=np.float32)
    y = module.matmul_bias_relu(a, b, bias)
    np.testing.assert_allclose(y, reference(a, b, bias), rtol=1e-4, atol=1e-4)


def test_outputs_outlive_the_module():
    samples = os.environ["KILN_TEST_SAMPLES"]
    m = kiln.Module.load(kiln.compile(os.path.join(samples, "matmul_bias_relu.mlir")))
    y = m.matmul_bias_relu(np.ones((2, 256), np.float32),
                           np.ones((256, 512), np.float32),
                           np.zeros(512, np.float32))
    del m
    assert float(y[1, 7]) == 256.0


def test_bad_calls_say_what(module):
    ok = [np.ones((2, 256), np.float32), np.ones((256, 512), np.float32),
          np.ones(512, np.float32)]
    with pytest.raises(TypeError, match="takes 3 inputs, got 2"):
        module.matmul_bias_relu(*ok[:2])
    with pytest.raises(TypeError, match=r"input 1 must be f32 \(numpy float32\), got numpy float64"):
        module.matmul_bias_relu(ok[0], ok[1].astype(np.float64), ok[2])
    with pytest.raises(ValueError, match=r"input 0 must have shape \(\?, 256\), got \(2, 255\)"):
        module.matmul_bias_relu(np.ones((2, 255), np.float32), ok[1], ok[2])
    with pytest.raises(AttributeError, match="no function 'nope'; it has matmul_bias_relu"):
        module.nope
    with pytest.raises(KeyError):
        module["nope"]


def test_load_errors(tmp_path):
    with pytest.raises(kiln.KilnError):
        kiln.Module.load(tmp_path / "missing.so")
    with pytest.raises(kiln.KilnError):
        kiln.Module.load(b"not a module")
    with pytest.raises(ValueError):
        kiln.Module.load(b"", threads=-1)


def test_benchmark(module):
    a = np.ones((128, 256), np.float32)
    b = np.ones((256, 512), np.float32)
    bias = np.zeros(512, np.float32)
    figures = kiln.benchmark(module, "matmul_bias_relu", a, b, bias,
                             warmup=1, repetitions=5)
    assert len(figures["times_ms"]) == 5
    assert 0 < figures["min_ms"] <= figures["median_ms"] <= figures["max_ms"]
    assert figures["threads"] == 2
    with pytest.raises(ValueError):
        kiln.benchmark(module, "matmul_bias_relu", a, b, bias, repetitions=0)
    # Counts that would run for days, or are not counts, are refused before
    # a call is made.
    with pytest.raises(ValueError, match="warmup must be from 0 to 1000000"):
        kiln.benchmark(module, "matmul_bias_relu", a, b, bias,
                       warmup=2**31 - 1)
    with pytest.raises(ValueError, match="repetitions must be from 1"):
        kiln.benchmark(module, "matmul_bias_relu", a, b, bias,
                       repetitions=10**12)
    with pytest.raises(TypeError, match="repetitions must be an int"):
        kiln.benchmark(module, "matmul_bias_relu", a, b, bias,
                       repetitions=2.5)
    with pytest.raises(ValueError, match="warmup must be from 0"):
        module._native.time("matmul_bias_relu", [a, b, bias], -1, 1)
