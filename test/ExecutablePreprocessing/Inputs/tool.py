#!/usr/bin/python3
"""A preprocessing tool for Kiln's tests, good or faulty on demand.

    tool.py MODE [ARG]

Reads an executable on stdin and, by MODE:
  echo            prints it back unchanged
  add-to-sub      prints it with every arith.addf turned into arith.subf
  exit N          says why on stderr and exits with status N
  signal          kills itself with SIGSEGV
  hang PIDFILE    starts a child that sleeps, writes its pid to PIDFILE,
                  and sleeps itself (to be killed with its group)
  empty           prints nothing
  garbage         prints text that is not MLIR
  huge            prints 4 MiB of comments
  func            prints a func.func instead of the executable
  rename          prints it with the executable renamed
  invalid         prints an executable that fails verification
  count DIR       records how many copies run at once in DIR/log, then
                  echoes
  c-kernel DIR [archive]
                  replaces every scalar arith.addf in a kernel by a call to
                  kiln_test_op(a, b) = 100 * a + b, written in C, compiled
                  (for executables with an addf only)
                  with cc into DIR/<executable>.o (or put in an archive,
                  DIR/<executable>.a) and attached to the variant
  call-undefined  calls kiln_test_op as c-kernel does, attaching nothing
  attach FILE     attaches FILE as an object file, changing nothing else
  alive PIDFILE   (no stdin) exits 0 when the process PIDFILE names still
                  runs (exists and is no zombie), 1 otherwise
"""

import os
import re
import signal
import subprocess
import sys
import time


def main():
    mode = sys.argv[1]
    if mode == "alive":
        pid = open(sys.argv[2]).read().strip()
        try:
            state = open("/proc/%s/stat" % pid).read().rsplit(")", 1)[1].split()[0]
        except OSError:
            sys.exit(1)
        sys.exit(1 if state in ("Z", "X") else 0)
    text = sys.stdin.read()
    if mode == "echo":
        sys.stdout.write(text)
    elif mode == "add-to-sub":
        sys.stdout.write(text.replace("arith.addf", "arith.subf"))
    elif mode == "exit":
        sys.stderr.write("tool.py: failing on purpose\nsecond line of stderr\n")
        sys.exit(int(sys.argv[2]))
    elif mode == "signal":
        os.kill(os.getpid(), signal.SIGSEGV)
    elif mode in ("detach", "hang-detached"):
        # A child in a session of its own (setsid) that holds stdout open.
        child = subprocess.Popen(["sleep", "60"], start_new_session=True)
        with open(sys.argv[2], "w") as f:
            f.write(str(child.pid))
        sys.stdout.write(text)
        sys.stdout.flush()
        if mode == "hang-detached":
            time.sleep(60)
    elif mode == "hang":
        child = subprocess.Popen(["sleep", "60"])
        with open(sys.argv[2], "w") as f:
            f.write(str(child.pid))
        time.sleep(60)
    elif mode == "empty":
        pass
    elif mode == "garbage":
        sys.stdout.write("this is not MLIR {{{\n")
    elif mode == "deep":
        sys.stdout.write("module {\n" * 20000 + "}\n" * 20000)
    elif mode == "huge":
        line = "// " + "x" * 1020 + "\n"
        sys.stdout.write(line * 4096)
    elif mode == "func":
        sys.stdout.write("func.func @f() {\n  return\n}\n")
    elif mode == "rename":
        sys.stdout.write(re.sub(r"kiln.executable (\w+ )?@(\w+)",
                                r"kiln.executable \1@\2_renamed", text, 1))
    elif mode == "invalid":
        # A kernel interface binding outside an executable's kernel fails
        # the dialect's verifier.
        name = re.search(r"kiln.executable (?:\w+ )?@(\w+)", text).group(1)
        sys.stdout.write(
            "kiln.executable private @%s {\n"
            "  kiln.executable.variant public @v target(#kiln.target<\"llvm-cpu\">) {\n"
            "    kiln.executable.export public @e workgroups() -> (index, index, index) {\n"
            "      %%c1 = arith.constant 1 : index\n"
            "      kiln.return %%c1, %%c1 : index, index\n"
            "    }\n"
            "  }\n"
            "}\n" % name)
    elif mode == "count":
        directory = sys.argv[2]
        mine = os.path.join(directory, "running.%d" % os.getpid())
        open(mine, "w").close()
        running = len([f for f in os.listdir(directory)
                       if f.startswith("running.")])
        with open(os.path.join(directory, "log"), "a") as log:
            log.write("%d\n" % running)
        time.sleep(0.3)
        os.remove(mine)
        sys.stdout.write(text)
    elif mode == "c-kernel":
        if "arith.addf" not in text:
            sys.stdout.write(text)
            return
        directory = sys.argv[2]
        archive = len(sys.argv) > 3 and sys.argv[3] == "archive"
        name = executable_name(text)
        source = os.path.join(directory, name + ".c")
        with open(source, "w") as f:
            f.write("float kiln_test_op(float a, float b) {\n"
                    "  return 100.0f * a + b;\n}\n")
        obj = os.path.join(directory, name + ".o")
        subprocess.run(["cc", "-O2", "-fPIC", "-c", source, "-o", obj],
                       check=True)
        if archive:
            library = os.path.join(directory, name + ".a")
            subprocess.run(["ar", "rcs", library, obj], check=True)
            os.remove(obj)
            obj = library
        sys.stdout.write(attach(call_kernel(text), obj))
    elif mode == "call-undefined":
        sys.stdout.write(call_kernel(text))
    elif mode == "attach":
        sys.stdout.write(attach(text, sys.argv[2]))
    else:
        sys.exit("tool.py: unknown mode " + mode)


def executable_name(text):
    return re.search(r"kiln.executable (?:\w+ )?@(\w+)", text).group(1)


def call_kernel(text):
    """Turns each scalar `%r = arith.addf %a, %b : f32` into a call of
    kiln_test_op, declared in the kernel module."""
    text, count = re.subn(
        r"(%\w+) = arith.addf (%\w+), (%\w+) : f32",
        r"\1 = func.call @kiln_test_op(\2, \3) : (f32, f32) -> f32", text)
    if count:
        text = re.sub(r"(builtin.module \{\n)",
                      r"\1func.func private @kiln_test_op(f32, f32) -> f32\n",
                      text, 1)
    return text


def attach(text, path):
    """Lists `path` in the objects of the (first) variant."""
    if "attributes {objects = [" in text:
        return text.replace("attributes {objects = [",
                            'attributes {objects = [#kiln.object<"%s">, '
                            % path, 1)
    return re.sub(r"(kiln.executable.variant [^\n]*) \{\n",
                  r'\1 attributes {objects = [#kiln.object<"%s">]} {\n' % path,
                  text, 1)


if __name__ == "__main__":
    main()
