#!/usr/bin/python3
"""compare.py ACTUAL.npy EXPECTED.npy [--rtol=R] [--atol=A]: exit 1,
naming the first differing element, unless the two match (floats within
rtol and atol, numpy.isclose's, by default 1e-5 and 1e-6; integers bit for
bit, as Kiln's signless buffers hold unsigned ones). Prints the element
count and, for floats, the largest absolute difference."""

import argparse
import sys

import numpy as np

parser = argparse.ArgumentParser()
parser.add_argument("actual")
parser.add_argument("expected")
parser.add_argument("--rtol", type=float, default=1e-5)
parser.add_argument("--atol", type=float, default=1e-6)
args = parser.parse_args()
actual, expected = np.load(args.actual), np.load(args.expected)
if actual.shape != expected.shape:
    sys.exit("shape %s, expected %s" % (actual.shape, expected.shape))
difference = ""
if expected.dtype.kind in "ui":
    actual = actual.view(expected.dtype)
    bad = actual != expected
else:
    bad = ~np.isclose(actual, expected, rtol=args.rtol, atol=args.atol)
    if expected.size:
        difference = ", largest difference %.3g" % float(
            np.nanmax(np.abs(actual.astype(np.float64) - expected)))
if bad.any():
    index = tuple(int(i) for i in np.argwhere(bad)[0])
    sys.exit("element %s is %s, expected %s%s" % (index, actual[index],
                                                    expected[index],
                                                    difference))
print("match: %d elements%s" % (expected.size, difference))
