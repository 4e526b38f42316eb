#!/usr/bin/env bash
# Configures (once) and builds Kiln instrumented with AddressSanitizer,
# UndefinedBehaviorSanitizer and libFuzzer's coverage in ./build-sanitize,
# with clang-22 (cmake/KilnSanitize.cmake says what each option does).
#
#   build_tools/build-sanitized.sh [NINJA TARGET...]   # default: all
#
# Run its tests with `cmake --build build-sanitize --target check-kiln`
# (lit sets the sanitizer options of build_tools/sanitizers/), its fuzz
# targets with build_tools/fuzz.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

command -v clang++-22 >/dev/null || {
  echo "build-sanitized.sh: clang++-22 not found; run build_tools/install-deps.sh" >&2
  exit 2; }
if [[ ! -f build-sanitize/build.ninja ]]; then
  # Release for NDEBUG, which Debian's libMLIR is built with; -O1 as
  # sanitized builds usually are (faster to build, reports still exact).
  cmake -G Ninja -S . -B build-sanitize -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DCMAKE_C_FLAGS_RELEASE="-O1 -DNDEBUG" \
    -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" \
    -DKILN_SANITIZE=address,undefined -DKILN_FUZZ=ON
fi
cmake --build build-sanitize ${1+--target "$@"}
