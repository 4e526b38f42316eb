#!/usr/bin/python3
"""compare.py ACTUAL.npy EXPECTED.npy: exit 1, naming the first differing
element, unless the two match (floats within rtol 1e-5 and atol 1e-6;
integers bit for bit, as Kiln's signless buffers hold unsigned ones)."""

import sys

import numpy as np

actual, expected = np.load(sys.argv[1]), np.load(sys.argv[2])
if actual.shape != expected.shape:
    sys.exit("shape %s, expected %s" % (actual.shape, expected.shape))
if expected.dtype.kind in "ui":
    actual = actual.view(expected.dtype)
    bad = actual != expected
else:
    bad = ~np.isclose(actual, expected, rtol=1e-5, atol=1e-6)
if bad.any():
    index = tuple(int(i) for i in np.argwhere(bad)[0])
    sys.exit("element %s is %s, expected %s" % (index, actual[index],
                                                  expected[index]))
print("match: %d elements" % expected.size)
