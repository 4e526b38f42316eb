#!/usr/bin/python3
"""Writes MLIR text nested DEPTH levels deep, of KIND, to PATH.

Usage: deep.py KIND DEPTH PATH
  regions  nested scf.execute_region ops in a function
  dense    a dense<[[[...]]]> literal
  types    a tuple<tuple<...>> type
  modules  nested modules (the shape of a tuning spec)
"""

import sys


def regions(depth):
    lines = ["func.func @f(%a: tensor<f32>) -> tensor<f32> {"]
    for i in range(depth):
        lines.append(f"%v{i} = scf.execute_region -> tensor<f32> {{")
    lines.append("scf.yield %a : tensor<f32>")
    for i in reversed(range(depth)):
        lines.append("}")
        if i:
            lines.append(f"scf.yield %v{i} : tensor<f32>")
    lines += ["return %v0 : tensor<f32>", "}"]
    return "\n".join(lines) + "\n"


def dense(depth):
    return ("func.func @f() -> tensor<1xf32> {\n"
            f"  %c = arith.constant dense<{'[' * depth}1.0{']' * depth}>"
            " : tensor<1xf32>\n  return %c : tensor<1xf32>\n}\n")


def types(depth):
    return ("func.func private @g(" + "tuple<" * depth + "f32" + ">" * depth +
            ")\n")


def modules(depth):
    return "module {\n" * depth + "}\n" * depth


kind, depth, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with open(path, "w") as f:
    f.write({"regions": regions, "dense": dense, "types": types,
             "modules": modules}[kind](depth))
