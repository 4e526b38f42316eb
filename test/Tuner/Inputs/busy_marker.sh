#!/bin/sh
# A preprocessing tool for dask.test: passes the executable through as it
# is, after leaving a file in $1 that names the worker compiling it
# (TMPDIR is the job's folder, under the worker's own) and taking two
# seconds, so that the test can kill a worker in the middle of a compile.
case "$TMPDIR" in
  */w1/*) : > "$1/w1.$$" ;;
  */w2/*) : > "$1/w2.$$" ;;
esac
sleep 2
exec cat
