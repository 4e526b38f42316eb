#!/usr/bin/env bash
# Builds Kiln's libFuzzer targets and runs each for a given time.
#
#   build_tools/fuzz.sh [--time SECONDS] [--jobs N] [TARGET...]
#
# Targets (default: all): npy, inline_values, nesting, module_file,
# module_info. Each is built with clang-22, AddressSanitizer and
# UndefinedBehaviorSanitizer into build-fuzz/ (sources compiled directly:
# these targets need neither LLVM nor MLIR), starts from its seeds in
# fuzz/seeds/TARGET plus build-fuzz/corpus/TARGET (kept between runs), and
# runs for SECONDS (default 60). Crashes go to build-fuzz/artifacts/TARGET/.
# Prints one line per target: executions, corpus size, crashes. Exits
# nonzero when a target crashed.
#
# Needs clang-22, libfuzzer-22-dev and libclang-rt-22-dev (install-deps.sh).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/build-fuzz"
seconds=60
targets=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --time) seconds="$2"; shift 2 ;;
    --time=*) seconds="${1#--time=}"; shift ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) targets+=("$1"); shift ;;
  esac
done
all=(npy inline_values nesting module_file module_info)
[[ ${#targets[@]} -gt 0 ]] || targets=("${all[@]}")
for target in "${targets[@]}"; do
  [[ " ${all[*]} " == *" $target "* ]] || {
    echo "fuzz.sh: unknown target '$target' (known: ${all[*]})" >&2; exit 2; }
done
[[ "$seconds" =~ ^[0-9]+$ ]] || { echo "fuzz.sh: --time takes seconds" >&2; exit 2; }
command -v clang++-22 >/dev/null || {
  echo "fuzz.sh: clang++-22 not found; run build_tools/install-deps.sh" >&2; exit 2; }

flags=(-g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined
       -fno-sanitize-recover=undefined -D_GNU_SOURCE
       -I"$root/include" -I"$root/runtime/include" -I"$root/tools/kiln-tooling")
runtime_sources=("$root"/runtime/src/*.c)
mkdir -p "$out/obj"

# The runtime and the support code, once, instrumented.
objects=()
for source in "${runtime_sources[@]}"; do
  object="$out/obj/$(basename "$source").o"
  clang-22 "${flags[@]/-fsanitize=fuzzer,/-fsanitize=fuzzer-no-link,}" \
    -std=c11 -c "$source" -o "$object"
  objects+=("$object")
done
for source in "$root"/lib/Support/*.cpp "$root/tools/kiln-tooling/ValueIO.cpp"; do
  object="$out/obj/$(basename "$source").o"
  clang++-22 "${flags[@]/-fsanitize=fuzzer,/-fsanitize=fuzzer-no-link,}" \
    -std=c++17 -c "$source" -o "$object"
  objects+=("$object")
done

failed=0
for target in "${targets[@]}"; do
  binary="$out/${target}_fuzzer"
  clang++-22 "${flags[@]}" -std=c++17 "$root/fuzz/${target}_fuzzer.cpp" \
    "${objects[@]}" -lpthread -ldl -lm -o "$binary"
  corpus="$out/corpus/$target"
  artifacts="$out/artifacts/$target"
  rm -rf "$artifacts"
  mkdir -p "$corpus" "$artifacts"
  log="$out/$target.log"
  status=0
  # libFuzzer merges the seeds into the corpus as it starts.
  "$binary" "$corpus" "$root/fuzz/seeds/$target" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$artifacts/" -print_final_stats=1 >"$log" 2>&1 ||
    status=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  crashes=$(find "$artifacts" -type f | wc -l)
  echo "fuzz.sh: $target: ${runs:-?} executions in ${seconds} s," \
       "corpus $(find "$corpus" -type f | wc -l) files, $crashes crash files" \
       "(exit $status; log $log)"
  if [[ $status -ne 0 || $crashes -ne 0 ]]; then
    failed=1
    tail -30 "$log" >&2
  fi
done
exit $failed
