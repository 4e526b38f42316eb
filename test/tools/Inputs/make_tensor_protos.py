#!/usr/bin/python3
"""Writes the TensorProto (.pb) and .npy files kiln-run-tensorproto.test
reads: good tensors in each of TensorProto's data fields, and bad ones.

    make_tensor_protos.py OUT_DIR
"""

import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper


def save(out, name, tensor):
    with open(os.path.join(out, name), "wb") as f:
        f.write(tensor.SerializeToString())


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    # raw_data, as numpy_helper writes it.
    save(out, "a_raw.pb", numpy_helper.from_array(a, "a"))
    # float_data, the typed field.
    save(out, "a_typed.pb", helper.make_tensor("a", TensorProto.FLOAT,
                                               [2, 3], a.flatten().tolist()))
    # The sum add.mlir's @add computes from a and ones, and one off by 0.01.
    save(out, "sum.pb", numpy_helper.from_array(a + 1, "sum"))
    np.save(os.path.join(out, "sum.npy"), a + 1)
    off = a + 1
    off[1, 2] += 0.01
    save(out, "sum_off.pb", numpy_helper.from_array(off, "sum"))
    # int32_data holding negative values; int64 in raw form.
    save(out, "v_typed.pb", helper.make_tensor("v", TensorProto.INT32, [5],
                                               [1, -2, 3, -4, 5]))
    save(out, "neg.pb", helper.make_tensor("n", TensorProto.INT32, [5],
                                           [-1, 2, -3, 4, -5]))
    # Bad: strings, external data, a count that is not the shape's, raw
    # bytes that are not, a truncated message, a wrong shape.
    save(out, "strings.pb", helper.make_tensor("s", TensorProto.STRING, [1],
                                               [b"x"]))
    external = numpy_helper.from_array(a, "e")
    external.ClearField("raw_data")
    external.data_location = TensorProto.EXTERNAL
    entry = external.external_data.add()
    entry.key, entry.value = "location", "weights.bin"
    save(out, "external.pb", external)
    short = helper.make_tensor("a", TensorProto.FLOAT, [2, 3], [1.0] * 6)
    del short.float_data[5]
    save(out, "short.pb", short)
    raw = numpy_helper.from_array(a, "a")
    raw.raw_data = raw.raw_data[:-4]
    save(out, "short_raw.pb", raw)
    with open(os.path.join(out, "truncated.pb"), "wb") as f:
        f.write(numpy_helper.from_array(a, "a").SerializeToString()[:-7])
    save(out, "wrong_shape.pb", numpy_helper.from_array(a.reshape(3, 2)))
    with open(os.path.join(out, "text.txt"), "w") as f:
        f.write("not a tensor\n")


if __name__ == "__main__":
    main()
