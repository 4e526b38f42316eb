"""What the benchmark drivers share: running a tool, naming the CPU."""

import json
import platform
import subprocess
import sys


def openblas_coretype():
    """The OpenBLAS kernel to force: SkylakeX's AVX-512 one where the CPU
    has AVX-512 (OpenBLAS 0.3.21 picks Haswell's on CPUs newer than it
    knows, such as Zen 4 and 5), Haswell's AVX2 one elsewhere (SkylakeX's
    would stop at its first AVX-512 instruction there)."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    flags = line.split(":", 1)[1].split()
                    return "SkylakeX" if "avx512f" in flags else "Haswell"
    except OSError:
        pass
    return "Haswell"


def run(command, env=None):
    """Runs `command` and returns its completed process; exits with its
    error output when it fails."""
    result = subprocess.run(command, capture_output=True, text=True, env=env)
    if result.returncode != 0:
        sys.exit(f"failed: {' '.join(command)}\n{result.stderr}")
    return result


def run_json(command, env=None):
    """Runs `command` and returns the JSON object on its last output line;
    exits with its error output when it fails."""
    return json.loads(run(command, env).stdout.strip().splitlines()[-1])


def cpu_name():
    """The CPU's model name, for the header of a table of figures."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"
