"""Makes object cache entries that are whole but wrong, as a copied folder
or a person can:

    craft_cache.py swap FOLDER_A FOLDER_B   the one entry of each folder gets
                                            the other's file, names kept
    craft_cache.py forge FOLDER WHAT        the first entry's content
                                            replaced by WHAT (exports: exports
                                            that do not parse; object: an
                                            object that is not one), with a
                                            header that matches its key and
                                            the new content
"""
import hashlib
import os
import sys


def entries(folder):
    return sorted(os.path.join(folder, name) for name in os.listdir(folder)
                  if name.endswith(".obj"))


def content(path):
    with open(path, "rb") as f:
        return f.read().split(b"\n", 1)[1]


def write_entry(path, body):
    key = os.path.basename(path)[:-len(".obj")]
    header = b"kiln-cache-entry %s %s\n" % (
        key.encode(), hashlib.sha256(body).hexdigest().encode())
    with open(path, "wb") as f:
        f.write(header + body)


if sys.argv[1] == "swap":
    a, b = entries(sys.argv[2])[0], entries(sys.argv[3])[0]
    with open(a, "rb") as f:
        data_a = f.read()
    with open(b, "rb") as f:
        data_b = f.read()
    with open(a, "wb") as f:
        f.write(data_b)
    with open(b, "wb") as f:
        f.write(data_a)
elif sys.argv[1] == "forge":
    path = entries(sys.argv[2])[0]
    body = content(path)
    if sys.argv[3] == "exports":
        bad = b"kiln.executable.export @nothing ((("
        body = b"kiln-object 2\nexports %d\n%sobject 4\n\x7fELF" % (len(bad),
                                                                     bad)
    else:
        head, _, _ = body.rpartition(b"\nobject ")
        bad = b"\x7fELF" + b"\x02\x01\x01" + b"\0" * 57
        body = head + b"\nobject %d\n" % len(bad) + bad
    write_entry(path, body)
else:
    sys.exit("craft_cache.py: unknown mode " + sys.argv[1])
