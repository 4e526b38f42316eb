"""Runs a command against a Dask cluster on 127.0.0.1 and kills a worker
during it.

  dask_cluster.py --work DIR --kill-when-busy w1 -- COMMAND...

Starts a scheduler and two workers (w1, w2; one thread each, no nanny, so
that a killed worker stays dead) with every file in DIR, replaces
{scheduler} in COMMAND by the scheduler file, and runs it. With
--kill-when-busy NAME, it kills that worker with SIGKILL as soon as a file
appears in DIR/busy/ naming it (the candidates' compiles make one while
they run there, see dask.test) and says so. Prints the command's output,
then exits with its status; the cluster is stopped whatever happens.
"""

import argparse
import os
import signal
import subprocess
import sys
import time


def wait_until(condition, seconds, what):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    sys.exit("dask_cluster.py: %s within %d s" % (what, seconds))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--work", required=True)
    parser.add_argument("--kill-when-busy")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    work = os.path.abspath(args.work)
    busy = os.path.join(work, "busy")
    os.makedirs(busy, exist_ok=True)
    scheduler_file = os.path.join(work, "scheduler.json")
    env = dict(os.environ, TMPDIR=work, DASK_TEMPORARY_DIRECTORY=work,
               # A killed worker's benchmark lease comes back in seconds.
               DASK_DISTRIBUTED__SCHEDULER__LOCKS__LEASE_TIMEOUT="3s",
               DASK_DISTRIBUTED__SCHEDULER__LOCKS__LEASE_VALIDATION_INTERVAL="1s")
    python = "/usr/bin/python3"
    processes = {}
    logs = []

    def start(name, argv):
        log = open(os.path.join(work, name + ".log"), "w")
        logs.append(log)
        processes[name] = subprocess.Popen(argv, env=env, cwd=work,
                                           stdout=log, stderr=log,
                                           start_new_session=True)

    try:
        start("scheduler", [python, "-m", "distributed.cli.dask_scheduler",
                            "--host", "127.0.0.1", "--port", "0",
                            "--no-dashboard",
                            "--scheduler-file", scheduler_file])
        wait_until(lambda: os.path.exists(scheduler_file), 60,
                   "the scheduler did not start")
        for name in ("w1", "w2"):
            start(name, [python, "-m", "distributed.cli.dask_worker",
                         "--scheduler-file", scheduler_file,
                         "--host", "127.0.0.1", "--nthreads", "1",
                         "--no-nanny", "--no-dashboard", "--name", name,
                         "--local-directory", os.path.join(work, name)])
        for name in ("w1", "w2"):
            wait_until(lambda: "Registered to" in open(
                os.path.join(work, name + ".log")).read(), 60,
                "worker %s did not join" % name)

        argv = [a.replace("{scheduler}", scheduler_file) for a in command]
        output = open(os.path.join(work, "command.out"), "w+")
        run = subprocess.Popen(argv, env=env, stdout=output,
                               stderr=subprocess.STDOUT)
        killed = False
        deadline = time.monotonic() + 900
        while run.poll() is None and time.monotonic() < deadline:
            if (args.kill_when_busy and not killed and
                    any(f.startswith(args.kill_when_busy + ".")
                        for f in os.listdir(busy))):
                processes[args.kill_when_busy].send_signal(signal.SIGKILL)
                processes[args.kill_when_busy].wait()
                killed = True
            time.sleep(0.05)
        if run.poll() is None:
            run.kill()
            run.wait()
            print("dask_cluster.py: the command did not finish in 900 s")
        output.seek(0)
        sys.stdout.write(output.read())
        if args.kill_when_busy:
            print("dask_cluster.py: %s %s" % (
                args.kill_when_busy,
                "was killed while busy" if killed else "was never busy"))
        sys.exit(run.returncode)
    finally:
        for process in processes.values():
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        for log in logs:
            log.close()


if __name__ == "__main__":
    main()
