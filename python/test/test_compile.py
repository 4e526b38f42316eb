"""kiln.compile: from files, bytes and text, to modules and IR, and its errors."""

import os
import subprocess
import threading

import pytest

import kiln


def test_compile_file_to_module_and_ir(samples):
    path = os.path.join(samples, "matmul_bias_relu.mlir")
    module = kiln.compile(path)
    assert isinstance(module, bytes) and module[:4] == b"\x7fELF"
    ir = kiln.compile(path, compile_to="input").decode()
    assert "func.func @matmul_bias_relu" in ir


def test_compile_text_and_bytes_agree(samples):
    with open(os.path.join(samples, "matmul_bias_relu.mlir"), "rb") as f:
        source = f.read()
    from_bytes = kiln.compile(source, compile_to="global-optimization")
    from_text = kiln.compile(source.decode(), compile_to="global-optimization")
    assert from_bytes == from_text


def test_compile_error_carries_diagnostics(tmp_path):
    broken = tmp_path / "broken.mlir"
    broken.write_text("func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
                      "  %b = arith.addf %a, %c : tensor<4xf32>\n"
                      "  return %b : tensor<4xf32>\n}\n")
    with pytest.raises(kiln.CompileError) as caught:
        kiln.compile(broken)
    diagnostics = caught.value.diagnostics
    assert diagnostics, caught.value.message
    first = diagnostics[0]
    assert first.file.endswith("broken.mlir")
    assert (first.line, first.column, first.severity) == (2, 23, "error")
    assert first.message == "use of undeclared SSA value name"
    # Nothing written beside the input.
    assert sorted(os.listdir(tmp_path)) == ["broken.mlir"]


def test_bad_flags_and_plugins_name_the_problem(samples):
    path = os.path.join(samples, "matmul_bias_relu.mlir")
    with pytest.raises(kiln.CompileError, match="--kiln-pack-weights-min-bytes='x': expected an integer"):
        kiln.compile(path, flags=["--kiln-pack-weights-min-bytes=x"])
    with pytest.raises(kiln.CompileError, match="unknown plugin 'nothere'"):
        kiln.compile(path, plugins=["nothere"])
    with pytest.raises(kiln.CompileError, match="unknown CPU"):
        kiln.compile(path, target_cpu="nosuchcpu")
    with pytest.raises(kiln.CompileError, match="unknown phase 'nowhere'"):
        kiln.compile(path, compile_to="nowhere")
    with pytest.raises(FileNotFoundError):
        kiln.compile("no/such/file.mlir")
    with pytest.raises(TypeError):
        kiln.compile(42)


def test_threads_compile_at_once_as_kiln_compile_does(samples, tools, tmp_path):
    """Two threads, two programs, two sets of plugins and flags, at once:
    each gives the bytes a kiln-compile of its own gives."""
    jobs = {
        "note": (os.path.join(samples, "mlp_tosa.mlir"),
                 dict(plugins=["example"], flags=["--example-note=py"],
                      compile_to="input"),
                 ["--kiln-plugin=example", "--example-note=py",
                  "--compile-to=input"]),
        "haswell": (os.path.join(samples, "matmul_bias_relu.mlir"),
                    dict(target_cpu="haswell",
                         flags=["--kiln-pack-weights-min-bytes=-1"]),
                    ["--kiln-target-cpu=haswell",
                     "--kiln-pack-weights-min-bytes=-1"]),
    }
    results, errors = {}, []

    def run(name):
        path, arguments, _ = jobs[name]
        try:
            for _ in range(2):
                results.setdefault(name, []).append(
                    kiln.compile(path, **arguments))
        except Exception as error:  # reported below
            errors.append(error)

    threads = [threading.Thread(target=run, args=(n,)) for n in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for name, (path, arguments, command) in jobs.items():
        out = tmp_path / name
        subprocess.run([os.path.join(tools, "kiln-compile"), path, "-o",
                        str(out)] + command, check=True)
        assert results[name][0] == results[name][1] == out.read_bytes(), name
    assert b'example.note = "py"' in results["note"][0]


def test_binary_and_nul_sources_are_refused_with_a_message(tmp_path):
    # Bytes that are neither MLIR text nor bytecode: an error whose message
    # Python can hold, however the bytes are quoted.
    with pytest.raises(kiln.CompileError) as caught:
        kiln.compile(b"\xff" * 100)
    assert caught.value.message
    str(caught.value)
    with pytest.raises(kiln.CompileError, match="NUL byte"):
        kiln.compile(b"\x00")
    with pytest.raises(kiln.CompileError, match=r"NUL byte \(at byte 11\)"):
        kiln.compile(b"func.func @\x00f() { return }")
    binary = tmp_path / "binary.mlir"
    binary.write_bytes(b"module {}\n\x00\x01\x02")
    with pytest.raises(kiln.CompileError, match="is this a binary file"):
        kiln.compile(binary)
    assert sorted(os.listdir(tmp_path)) == ["binary.mlir"]


def _many_matmuls(count):
    """A program whose compile takes seconds: `count` matmuls of distinct
    sizes, each its own executable."""
    functions = []
    for i in range(count):
        m, k, n = 16 + 8 * i, 24 + 8 * i, 32 + 8 * i
        functions.append(
            f"func.func @f{i}(%a: tensor<{m}x{k}xf32>, "
            f"%b: tensor<{k}x{n}xf32>) -> tensor<{m}x{n}xf32> {{\n"
            f"  %z = arith.constant 0.0 : f32\n"
            f"  %e = tensor.empty() : tensor<{m}x{n}xf32>\n"
            f"  %f = linalg.fill ins(%z : f32) outs(%e : tensor<{m}x{n}xf32>)"
            f" -> tensor<{m}x{n}xf32>\n"
            f"  %r = linalg.matmul ins(%a, %b : tensor<{m}x{k}xf32>, "
            f"tensor<{k}x{n}xf32>) outs(%f : tensor<{m}x{n}xf32>)"
            f" -> tensor<{m}x{n}xf32>\n"
            f"  return %r : tensor<{m}x{n}xf32>\n}}\n")
    return "".join(functions)


def test_ctrl_c_stops_a_compile(tmp_path):
    # SIGINT half a second into a compile of many seconds: KeyboardInterrupt
    # comes out of kiln.compile itself (not after it returned), and nothing
    # is written. A later compile in the same interpreter works.
    import signal
    import traceback
    program = tmp_path / "many.mlir"
    program.write_text(_many_matmuls(60))
    main = threading.get_ident()
    timer = threading.Timer(0.5, signal.pthread_kill, (main, signal.SIGINT))
    # Python turns SIGINT into KeyboardInterrupt only when it started with
    # the signal's default action; a test runner may have started it with
    # the signal ignored.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt) as caught:
            kiln.compile(program)
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    innermost = traceback.extract_tb(caught.value.__traceback__)[-1]
    assert innermost.filename.endswith(os.path.join("kiln", "__init__.py"))
    assert innermost.name == "compile"
    assert sorted(os.listdir(tmp_path)) == ["many.mlir"]
    assert kiln.compile(_many_matmuls(1))[:4] == b"\x7fELF"
