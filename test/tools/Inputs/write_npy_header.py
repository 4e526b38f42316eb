"""Writes a .npy file whose header is the given text, verbatim: headers
numpy itself would not write (keys twice, double quotes, extra keys).

usage: write_npy_header.py OUT.npy HEADER VALUES   (VALUES: int32, a,b,c)"""
import struct
import sys

out, header, values = sys.argv[1], sys.argv[2].encode(), sys.argv[3]
data = b"".join(struct.pack("<i", int(v)) for v in values.split(","))
with open(out, "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header +
            data)
