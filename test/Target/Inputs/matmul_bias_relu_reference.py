"""Inputs of samples/matmul_bias_relu.mlir and its result by numpy, in
float64 then rounded, as .npy files in the folder given."""
import sys

import numpy as np

folder = sys.argv[1]
rng = np.random.default_rng(7)
a = rng.standard_normal((37, 256)).astype(np.float32)
b = rng.standard_normal((256, 512)).astype(np.float32)
bias = rng.standard_normal(512).astype(np.float32)
expected = np.maximum(a.astype(np.float64) @ b.astype(np.float64) + bias, 0)
for name, value in [("a", a), ("b", b), ("bias", bias),
                    ("expected", expected.astype(np.float32))]:
    np.save(f"{folder}/{name}.npy", value)
