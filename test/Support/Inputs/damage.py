#!/usr/bin/python3
"""Writes damaged copies of a shared object: damage.py FILE OUTDIR.

OUTDIR/truncated-N.so  the first N bytes, for N across the file
OUTDIR/flipped-N.so    byte N inverted, for N across the file
OUTDIR/unsealed.so     the file without its last 24 bytes
"""

import os
import sys

path, out = sys.argv[1], sys.argv[2]
data = open(path, "rb").read()
size = len(data)
offsets = sorted({0, 3, 4, 63, 64, 100, 1000, 4096, size // 3, size // 2,
                  size - 25, size - 24, size - 1})
for n in offsets:
    with open(os.path.join(out, f"truncated-{n}.so"), "wb") as f:
        f.write(data[:n])
for n in sorted({0, 5, 18, 40, 200, 3000, size // 2, size - 30, size - 10}):
    flipped = bytearray(data)
    flipped[n] ^= 0xFF
    with open(os.path.join(out, f"flipped-{n}.so"), "wb") as f:
        f.write(flipped)
with open(os.path.join(out, "unsealed.so"), "wb") as f:
    f.write(data[:-24])
