"""What the benchmark drivers share: running a tool, naming the CPU."""

import json
import platform
import subprocess
import sys


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
