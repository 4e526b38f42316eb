"""Checks of what Kiln's tools do to the paths around their output.

  fifo DIR -- CMD...   runs CMD with {fifo} replaced by a FIFO in DIR, reads
                       the FIFO while CMD runs, and prints what came through
  kill DIR OUTDIR -- CMD...
                       starts CMD again and again, killing it with SIGTERM
                       or SIGKILL after a growing delay, then runs it once to
                       the end; fails when anything but CMD's output is left
                       in OUTDIR, or anything at all in DIR (CMD's TMPDIR)
"""
import os
import signal
import subprocess
import sys
import threading
import time


def fifo(folder, command):
    path = os.path.join(folder, "fifo")
    os.mkfifo(path)
    chunks = []

    def read():
        with open(path, "rb") as reader:
            chunks.append(reader.read())

    reader = threading.Thread(target=read)
    reader.start()
    result = subprocess.run([arg.replace("{fifo}", path) for arg in command],
                            timeout=120)
    reader.join(timeout=60)
    if reader.is_alive():
        sys.exit("the FIFO's reader never got an end of file")
    if not os.path.exists(path) or not os.path.stat.S_ISFIFO(
            os.stat(path).st_mode):
        sys.exit("the FIFO was replaced")
    sys.stdout.write(b"".join(chunks).decode(errors="replace"))
    print("exit:", result.returncode)


def kill(tmpdir, outdir, command):
    env = dict(os.environ, TMPDIR=tmpdir)
    killed = 0
    for attempt in range(16):
        process = subprocess.Popen(command, env=env,
                                   stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        time.sleep(0.05 + 0.1 * attempt)
        if process.poll() is None:
            process.send_signal(signal.SIGTERM if attempt % 2 else
                                signal.SIGKILL)
            killed += 1
        process.wait()
    # The last run sweeps the scratch folders the killed ones left.
    subprocess.run(command, env=env, check=True)
    left = sorted(os.listdir(tmpdir))
    if left:
        sys.exit("left in TMPDIR: %s" % left)
    print("killed:", "some" if killed else "none")
    print("in the output folder:", sorted(os.listdir(outdir)))


def main():
    mode = sys.argv[1]
    split = sys.argv.index("--")
    args, command = sys.argv[2:split], sys.argv[split + 1:]
    if mode == "fifo":
        fifo(args[0], command)
    elif mode == "kill":
        kill(args[0], args[1], command)
    else:
        sys.exit("unknown mode " + mode)


if __name__ == "__main__":
    main()
