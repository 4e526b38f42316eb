#!/usr/bin/env bash
# Builds Kiln's libFuzzer targets and runs each for a given time.
#
#   build_tools/fuzz.sh [--time SECONDS] [--keep-going] [TARGET...]
#
# Targets (default: all): npy, inline_values, nesting, module_file,
# module_info (parsers and checks), compile, tuning_spec,
# preprocessed_executable (the compiler up to the host phase). They are
# built in the instrumented build (build_tools/build-sanitized.sh:
# AddressSanitizer, UndefinedBehaviorSanitizer), start from their seeds in
# fuzz/seeds/TARGET plus build-sanitize/fuzz/corpus/TARGET (kept between
# runs), and run for SECONDS each (default 60). Crashes, hangs and leaks go
# to build-sanitize/fuzz/artifacts/TARGET/. Prints one line per target:
# executions, corpus size, crashes. Exits nonzero when a target failed.
# With --keep-going, a target runs in libFuzzer's fork mode and goes on
# after a crash, hang or out-of-memory, keeping each input that caused one
# (to sort bugs of libMLIR from Kiln's in a long run).
#
# Needs clang-22, libfuzzer-22-dev and libclang-rt-22-dev (install-deps.sh).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
seconds=60
keep_going=()
targets=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --time) seconds="$2"; shift 2 ;;
    --time=*) seconds="${1#--time=}"; shift ;;
    --keep-going)
      keep_going=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
      shift ;;
    -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
    *) targets+=("$1"); shift ;;
  esac
done
all=(npy inline_values nesting module_file module_info
     compile tuning_spec preprocessed_executable onnx_model tuning_database)
[[ ${#targets[@]} -gt 0 ]] || targets=("${all[@]}")
for target in "${targets[@]}"; do
  [[ " ${all[*]} " == *" $target "* ]] || {
    echo "fuzz.sh: unknown target '$target' (known: ${all[*]})" >&2; exit 2; }
done
[[ "$seconds" =~ ^[0-9]+$ ]] || { echo "fuzz.sh: --time takes seconds" >&2; exit 2; }

"$root/build_tools/build-sanitized.sh" "${targets[@]/%/_fuzzer}"
eval "$(/usr/bin/python3 "$root/build_tools/sanitizers/environment.py")"
out="$root/build-sanitize/fuzz"

failed=0
for target in "${targets[@]}"; do
  case "$target" in
    # A compile of a small program that takes 30 s or 4 GB is a bug.
    compile|tuning_spec|preprocessed_executable|onnx_model)
      limits=(-timeout=30 -rss_limit_mb=4096) ;;
    *) limits=(-timeout=10 -rss_limit_mb=2048) ;;
  esac
  corpus="$out/corpus/$target"
  artifacts="$out/artifacts/$target"
  rm -rf "$artifacts"
  mkdir -p "$corpus" "$artifacts"
  log="$out/$target.log"
  status=0
  # libFuzzer merges the seeds into the corpus as it starts. Temporary
  # files of what the targets run stay in the build folder.
  TMPDIR="$out" "$root/build-sanitize/bin/${target}_fuzzer" \
    "$corpus" "$root/fuzz/seeds/$target" \
    -max_total_time="$seconds" "${limits[@]}" ${keep_going[@]+"${keep_going[@]}"} \
    -artifact_prefix="$artifacts/" -print_final_stats=1 >"$log" 2>&1 ||
    status=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  # Fork mode reports "#RUNS: cov: ..." lines instead.
  [[ -n "$runs" ]] || runs=$(sed -n 's/^#\([0-9]*\): cov:.*/\1/p' "$log" | tail -1)
  crashes=$(find "$artifacts" -type f | wc -l)
  echo "fuzz.sh: $target: ${runs:-?} executions in ${seconds} s," \
       "corpus $(find "$corpus" -type f | wc -l) files, $crashes crash files" \
       "(exit $status; log $log)"
  if [[ $status -ne 0 || $crashes -ne 0 ]]; then
    failed=1
    tail -40 "$log" >&2
  fi
done
exit $failed
