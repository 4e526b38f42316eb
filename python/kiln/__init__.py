"""Kiln from Python: compile programs and models, load modules, call them.

    import kiln, numpy as np
    module_bytes = kiln.compile("model.mlir")            # or "model.onnx"
    module = kiln.Module.load(module_bytes)
    (y,) = module.main(np.ones((4, 8), np.float32))
    print(kiln.benchmark(module, "main", x))

Compiles run in sessions of their own: Python threads may compile at once,
each with its own flags and plugins. See docs/python.md.
"""

import dataclasses
import os
import re
import statistics

from . import _kiln

__all__ = ["compile", "Module", "Function", "benchmark", "CompileError",
           "Diagnostic", "KilnError", "version", "build_id"]

version = _kiln.version
build_id = _kiln.build_id

KilnError = _kiln.RuntimeFailure


@dataclasses.dataclass
class Diagnostic:
    """One diagnostic of a failed compile: where, how bad, what."""
    file: str
    line: int
    column: int
    severity: str
    message: str


_DIAGNOSTIC = re.compile(
    r"^(?P<file>[^\n:]+):(?P<line>\d+):(?P<column>\d+): "
    r"(?P<severity>error|warning|note|remark): (?P<message>.*)$", re.M)


class CompileError(Exception):
    """A compile that failed: `message` is what Kiln said, `diagnostics` the
    located ones among it (file, line, column, severity, message)."""

    def __init__(self, message):
        super().__init__(message)
        self.message = message
        self.diagnostics = [
            Diagnostic(m["file"], int(m["line"]), int(m["column"]),
                       m["severity"], m["message"])
            for m in _DIAGNOSTIC.finditer(message)]


def compile(source_or_path, target_cpu="host", flags=(), plugins=(),
            compile_to=None):
    """Compiles a program and returns the result as bytes.

    `source_or_path`: a path (str or os.PathLike) to MLIR text or bytecode
    or a model a plugin imports (ONNX), or the program itself as bytes, or
    MLIR text as a str (one with a newline or a brace). `target_cpu`: "host"
    or an LLVM CPU name, or a list of them for one module that runs the
    most specific variant the CPU it loads on can run. `flags`: more of kiln-compile's flags
    ("--kiln-tuning-spec=spec.mlir", a plugin's "--<id>-<name>=..."),
    `plugins`: plugin ids to activate ("-id" turns a default-on one off).
    `compile_to`: stop after this phase and return its IR ("input",
    "global-optimization", ...); by default the result is a module that
    Module.load takes. Raises CompileError with the diagnostics.
    """
    if not isinstance(target_cpu, str):
        target_cpu = ",".join(str(cpu) for cpu in target_cpu)
    all_flags = ["--kiln-target-cpu=" + target_cpu] + [str(f) for f in flags]
    path = source = None
    name = "<string>"
    if isinstance(source_or_path, (bytes, bytearray, memoryview)):
        source = bytes(source_or_path)
        name = "<bytes>"
    elif isinstance(source_or_path, str) and (
            "\n" in source_or_path or "{" in source_or_path):
        # MLIR text: a program has a body in braces; a path rarely does.
        source = source_or_path.encode()
    elif isinstance(source_or_path, (str, os.PathLike)):
        path = os.fspath(source_or_path)
        if not os.path.exists(path):
            raise FileNotFoundError(f"no such file: '{path}'")
    else:
        raise TypeError("compile takes a path, bytes or MLIR text, not "
                        f"{type(source_or_path).__name__}")
    try:
        return _kiln.compile(path, source, name, all_flags,
                             [str(p) for p in plugins], compile_to)
    except _kiln.CompileFailure as failure:
        raise CompileError(str(failure)) from None


class Function:
    """A function of a loaded module: call it with numpy arrays, in order
    (`f(a, b)`) or by the names of its inputs (`f(x=a, y=b)`, an ONNX
    graph's input names)."""

    def __init__(self, module, name):
        self._module = module
        self.name = name
        inputs, outputs = module._native.signature(name)
        self.inputs = [(t, tuple(d)) for t, d, _ in inputs]
        self.outputs = [(t, tuple(d)) for t, d, _ in outputs]
        # None where the module gives a value no name.
        self.input_names = [n for _, _, n in inputs]
        self.output_names = [n for _, _, n in outputs]

    def _order(self, named):
        """The arrays of `named` (input name -> array) in input order."""
        positions = {n: i for i, n in enumerate(self.input_names)
                     if n is not None}
        if not named and not self.input_names:
            return []
        if not positions:
            raise TypeError(f"{self!r}: its inputs have no names; give "
                            "them in order")
        unknown = [n for n in named if n not in positions]
        if unknown:
            raise TypeError(
                f"{self!r} has no input called '{unknown[0]}' (its inputs: "
                + ", ".join(n for n in self.input_names if n) + ")")
        missing = [n or str(i) for i, n in enumerate(self.input_names)
                   if n not in named]
        if missing:
            raise TypeError(f"{self!r}: input '{missing[0]}' is not given")
        arrays = [None] * len(self.input_names)
        for n, array in named.items():
            arrays[positions[n]] = array
        return arrays

    def __call__(self, *arrays, **named):
        if named and arrays:
            raise TypeError(f"{self!r}: give every input by name or every "
                            "one in order, not both")
        if named:
            arrays = self._order(named)
        results = self._module._native.call(self.name, list(arrays))
        return results[0] if len(results) == 1 else tuple(results)

    def __repr__(self):
        def show(types, names):
            return ", ".join(
                (f"{n}: " if n else "")
                + f"tensor<{'x'.join('?' if d < 0 else str(d) for d in dims)}"
                f"{'x' if dims else ''}{t}>"
                for (t, dims), n in zip(types, names))
        return (f"{self.name}({show(self.inputs, self.input_names)}) -> "
                f"({show(self.outputs, self.output_names)})")


class Module:
    """A module Kiln compiled, loaded into a runtime of its own."""

    def __init__(self, native):
        self._native = native
        self.functions = {name: Function(self, name)
                          for name in native.functions()}

    @classmethod
    def load(cls, bytes_or_path, threads=None, extensions=(), variant=None):
        """Loads a module from a file or from the bytes kiln.compile gave.
        `threads`: threads that run its dispatches (default: all cores).
        `extensions`: paths of runtime extensions (kiln_extension.h) whose
        functions the module calls. `variant`: the CPU (or BACKEND:CPU) of
        the variant to run, in a module compiled for several, instead of
        the most specific one this CPU can run."""
        threads = 0 if threads is None else int(threads)
        if threads < 0:
            raise ValueError("threads must be positive, or None for all cores")
        if isinstance(extensions, (str, bytes, os.PathLike)):
            extensions = [extensions]
        extensions = [os.fspath(path) for path in extensions]
        if isinstance(bytes_or_path, (bytes, bytearray, memoryview)):
            return cls(_kiln.Module(None, bytes(bytes_or_path), threads,
                                    extensions, variant))
        return cls(_kiln.Module(os.fspath(bytes_or_path), None, threads,
                                extensions, variant))

    @property
    def variants(self):
        """The module's variants, one per CPU it was compiled for: dicts of
        backend, cpu, features (a list), missing (the features this CPU
        lacks) and chosen (whether it is the one that runs)."""
        return self._native.variants()

    @property
    def threads(self):
        return self._native.threads()

    def run(self, inputs, function=None):
        """Calls `function` (default: the module's only function, else
        "main") with `inputs`, a dict from input names to arrays; returns a
        dict from output names (an output's position where it has none) to
        arrays."""
        if function is None:
            function = (next(iter(self.functions))
                        if len(self.functions) == 1 else "main")
        f = self[function]
        if not isinstance(inputs, dict):
            raise TypeError(f"run takes a dict of input names to arrays, not "
                            f"{type(inputs).__name__}")
        results = self._native.call(f.name, f._order(inputs))
        return {(n if n is not None else i): r
                for i, (n, r) in enumerate(zip(f.output_names, results))}

    def __getattr__(self, name):
        functions = self.__dict__.get("functions", {})
        if name in functions:
            return functions[name]
        raise AttributeError(
            f"the module has no function '{name}'; it has "
            + ", ".join(functions))

    def __getitem__(self, name):
        if name not in self.functions:
            raise KeyError(f"the module has no function '{name}'; it has "
                           + ", ".join(self.functions))
        return self.functions[name]


def benchmark(module, function, *arrays, warmup=3, repetitions=20):
    """Times `function` of `module` on `arrays` as kiln-benchmark does:
    `warmup` untimed calls, then `repetitions` timed ones. Returns a dict
    with median_ms, min_ms, max_ms, times_ms, gflops (of the median; None
    where the FLOPs are unknown) and threads."""
    for name, value, least in (("warmup", warmup, 0),
                               ("repetitions", repetitions, 1)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"{name} must be an int, not "
                            f"{type(value).__name__}")
        if not least <= value <= 1_000_000:
            raise ValueError(f"{name} must be from {least} to 1000000, "
                             f"not {value}")
    times = module._native.time(function, list(arrays), warmup, repetitions)
    median = statistics.median(times)
    flops = module._native.flops(function)
    return {
        "median_ms": median,
        "min_ms": min(times),
        "max_ms": max(times),
        "times_ms": times,
        "gflops": flops / median / 1e6 if flops and median > 0 else None,
        "threads": module.threads,
    }
