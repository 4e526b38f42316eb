"""Damages the entries of an object cache the ways a disk or a person can:
the first (by name) cut in half, the second's content overwritten with the
same length, the third replaced by a folder. Prints how many it damaged."""
import os
import shutil
import sys

folder = sys.argv[1]
entries = sorted(name for name in os.listdir(folder) if name.endswith(".obj"))
if len(entries) < 3:
    sys.exit(f"damage_cache.py: {len(entries)} entries in {folder}, need 3")
first, second, third = (os.path.join(folder, name) for name in entries[:3])
with open(first, "r+b") as f:
    f.truncate(os.path.getsize(first) // 2)
with open(second, "r+b") as f:
    data = bytearray(f.read())
    middle = len(data) // 2
    data[middle:middle + 16] = b"\0" * 16
    f.seek(0)
    f.write(data)
os.remove(third)
os.mkdir(third)
print(3)
