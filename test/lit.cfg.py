# Lit configuration of Kiln's IR and tool tests.
import os

import lit.formats
from lit.llvm import llvm_config

config.name = "Kiln"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.kiln_obj_root, "test")
config.excludes = ["Unit", "Inputs", "lit.cfg.py", "lit.site.cfg.py",
                   "CMakeLists.txt"]

llvm_config.use_default_substitutions()
config.substitutions.append(
    ("%samples", os.path.join(config.kiln_source_dir, "samples")))
# Helper scripts of tests run with Debian's python3.
config.substitutions.append(("%python", "/usr/bin/python3"))

# End-to-end tests: compile, run, compare with numpy (Debian's python3).
config.substitutions.append(
    ("%e2e", "/usr/bin/python3 {} --kiln-compile {} --kiln-run {}".format(
        os.path.join(config.kiln_source_dir, "test", "e2e", "e2e.py"),
        os.path.join(config.kiln_tools_dir, "kiln-compile"),
        os.path.join(config.kiln_tools_dir, "kiln-run"))))
config.substitutions.append(
    ("%kiln-run", os.path.join(config.kiln_tools_dir, "kiln-run")))

llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.add_tool_substitutions(
    ["kiln-compile", "kiln-opt", "kiln-run", "kiln-benchmark", "kiln-tune",
     "kiln-import-onnx"],
    [config.kiln_tools_dir])

# The conformance corpus (IREE's end-to-end tests), beside the source tree
# (../shared/conformance) or where KILN_CONFORMANCE_DIR says.
conformance = os.environ.get(
    "KILN_CONFORMANCE_DIR",
    os.path.join(os.path.dirname(config.kiln_source_dir), "shared",
                 "conformance"))
if os.path.isdir(conformance):
    config.available_features.add("conformance-corpus")
config.substitutions.append(("%conformance_corpus", conformance))
config.substitutions.append(
    ("%run_conformance",
     "/usr/bin/python3 {} --kiln-compile {} --kiln-run {}".format(
         os.path.join(config.kiln_source_dir, "test", "conformance",
                      "run_conformance.py"),
         os.path.join(config.kiln_tools_dir, "kiln-compile"),
         os.path.join(config.kiln_tools_dir, "kiln-run"))))

# ONNX's backend tests (Debian's libonnx-testdata); the instrumented build
# runs every 8th.
onnx_testdata = "/usr/share/libonnx-testdata/data"
if os.path.isdir(onnx_testdata):
    config.available_features.add("onnx-testdata")
config.substitutions.append(
    ("%run_onnx_backend",
     "/usr/bin/python3 {} --data {} --kiln-compile {} --kiln-run {}{}".format(
         os.path.join(config.kiln_source_dir, "test", "conformance",
                      "run_onnx_backend.py"),
         onnx_testdata,
         os.path.join(config.kiln_tools_dir, "kiln-compile"),
         os.path.join(config.kiln_tools_dir, "kiln-run"),
         " --every 8" if config.kiln_sanitized else "")))

# ONNX Runtime (npm's onnxruntime-node) and the real models that
# build_tools/fetch-test-models.sh puts in its cache, for the tests that
# compare Kiln's outputs with ONNX Runtime's.
test_cache = os.environ.get(
    "KILN_TEST_CACHE", os.path.join(os.path.expanduser("~"), ".cache",
                                    "kiln-test"))
onnxruntime_modules = os.path.join(test_cache, "onnxruntime")
if os.path.isfile(os.path.join(onnxruntime_modules, "node_modules",
                               "onnxruntime-node", "package.json")):
    config.available_features.add("onnxruntime")
# %onnxruntime MODEL.onnx THREADS WARMUP CALLS OUTPUT.npy NAME=INPUT.npy...
# (bench/ort_runner.js): the model's first output in ONNX Runtime, and a
# line of timings on stdout.
config.substitutions.append(
    ("%onnxruntime", "node {} {}".format(
        os.path.join(config.kiln_source_dir, "bench", "ort_runner.js"),
        onnxruntime_modules)))
ocr_models = os.path.join(test_cache, "ocr-models")
if os.path.isfile(os.path.join(ocr_models, "ch_PP-OCRv4_det_infer.onnx")):
    config.available_features.add("ocr-models")
config.substitutions.append(("%ocr_models", ocr_models))

import subprocess


def debian_python_has(module):
    """Whether Debian's python3 can import `module`."""
    return subprocess.run(
        ["/usr/bin/python3", "-c",
         "import importlib.util, sys; "
         "sys.exit(importlib.util.find_spec(%r) is None)" % module],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0


# PyTorch (Debian's python3-torch, which build_tools/run-tests.sh installs)
# for the tests that export models with torch.onnx.
if debian_python_has("torch"):
    config.available_features.add("torch")

# Dask distributed (Debian's python3-distributed, which
# build_tools/install-deps.sh installs) for kiln-tune --scheduler.
if debian_python_has("distributed"):
    config.available_features.add("dask")

# Runtime extensions: the test ones (test/Extensions/Inputs) and Kiln's
# own (the ukernels plugin's micro-kernel, in lib).
config.substitutions.append(
    ("%test_extensions",
     os.path.join(config.kiln_obj_root, "test", "extensions")))
config.substitutions.append(
    ("%kiln_lib", os.path.join(config.kiln_obj_root, "lib")))
# Shared-object plugins: the test ones (test/Plugin/Inputs) and Kiln's own.
config.substitutions.append(
    ("%test_plugins", os.path.join(config.kiln_obj_root, "test", "plugins")))
config.substitutions.append(
    ("%kiln_plugins", os.path.join(config.kiln_obj_root, "lib", "plugins")))
config.substitutions.append(
    ("%kiln-capi-threads",
     os.path.join(config.kiln_obj_root, "test", "bin", "kiln-capi-threads")))
config.substitutions.append(
    ("%kiln-capi-test",
     os.path.join(config.kiln_obj_root, "test", "bin", "kiln-capi-test")))
config.substitutions.append(("%kiln_obj_root", config.kiln_obj_root))
config.substitutions.append(("%kiln_source_dir", config.kiln_source_dir))

# Temporary files of every tool a test runs go to a folder of the build, not
# /tmp: a test writes nothing outside its own folders.
test_tmpdir = os.path.join(config.kiln_obj_root, "test", "tmp")
os.makedirs(test_tmpdir, exist_ok=True)
config.environment["TMPDIR"] = test_tmpdir
# Nor does Python: no __pycache__ beside the scripts tests run.
config.environment["PYTHONDONTWRITEBYTECODE"] = "1"

# An instrumented build (KILN_SANITIZE): every program runs with the
# sanitizer options and suppressions of build_tools/sanitizers.
# The Python package is built outside the instrumented build.
if not config.kiln_sanitized:
    config.available_features.add("python-package")

if config.kiln_sanitized:
    import sys
    sys.dont_write_bytecode = True
    sys.path.insert(0, os.path.join(config.kiln_source_dir, "build_tools",
                                    "sanitizers"))
    from environment import sanitizer_environment
    config.environment.update(sanitizer_environment())
    config.available_features.add("sanitized")

# The regular build links each fuzz target with a driver that replays
# inputs (fuzz/ReplayMain.cpp); the instrumented build's libFuzzer targets
# run their seeds in build_tools/fuzz.sh instead.
if not config.kiln_fuzz:
    config.available_features.add("fuzz-replay")

# Tests of modules this CPU cannot run need to know what it lacks.
try:
    with open("/proc/cpuinfo") as cpuinfo:
        cpu_flags = next((line.split(":", 1)[1].split() for line in cpuinfo
                          if line.startswith("flags")), [])
except OSError:
    cpu_flags = []
if cpu_flags and "fma4" not in cpu_flags and "xop" not in cpu_flags:
    config.available_features.add("cpu-lacks-fma4-xop")

# Tests that need to make device nodes (mknod) run as root only.
if os.geteuid() == 0:
    config.available_features.add("root")
