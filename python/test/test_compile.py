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
