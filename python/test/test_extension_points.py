"""Modules for several CPUs and modules that call runtime extensions."""

import os

import numpy as np
import pytest

import kiln


def test_a_module_for_several_cpus_runs_the_variant_it_is_told(samples):
    program = os.path.join(samples, "matmul_bias_relu.mlir")
    module_bytes = kiln.compile(program, target_cpu=["x86-64", "x86-64-v2"])
    a = np.linspace(-1, 1, 8 * 256, dtype=np.float32).reshape(8, 256)
    b = np.linspace(-1, 1, 256 * 512, dtype=np.float32).reshape(256, 512)
    bias = np.linspace(-1, 1, 512, dtype=np.float32)
    expected = np.maximum(a.astype(np.float64) @ b + bias, 0)
    for variant in (None, "x86-64", "x86-64-v2"):
        module = kiln.Module.load(module_bytes, threads=2, variant=variant)
        variants = module.variants
        assert [v["cpu"] for v in variants] == ["x86-64", "x86-64-v2"]
        assert sum(v["chosen"] for v in variants) == 1
        if variant:
            assert [v["cpu"] for v in variants if v["chosen"]] == [variant]
        assert all(v["backend"] == "llvm-cpu" for v in variants)
        assert "sse2" in variants[0]["features"]
        np.testing.assert_allclose(module.matmul_bias_relu(a, b, bias),
                                   expected, rtol=1e-4, atol=1e-4)
    with pytest.raises(kiln.KilnError, match="no variant for CPU 'znver4'"):
        kiln.Module.load(module_bytes, variant="znver4")


def test_runtime_extensions(samples):
    extensions = os.environ["KILN_TEST_EXTENSIONS"]
    demo = os.path.join(extensions, "libdemo_extension.so")
    module_bytes = kiln.compile(
        os.path.join(samples, "runtime_extension", "scaled_cumsum.mlir"))
    module = kiln.Module.load(module_bytes, threads=2, extensions=[demo])
    x = np.arange(1, 6, dtype=np.float32)
    np.testing.assert_allclose(module.main(x, np.array(0.5, np.float32)),
                               np.cumsum(x * x) * 0.5 + x)
    with pytest.raises(kiln.KilnError,
                       match="which no runtime extension provides"):
        kiln.Module.load(module_bytes)
    with pytest.raises(kiln.KilnError, match="is not a runtime extension"):
        kiln.Module.load(module_bytes, extensions=[program_text(samples)])


def program_text(samples):
    return os.path.join(samples, "runtime_extension", "scaled_cumsum.mlir")
