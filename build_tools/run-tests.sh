#!/usr/bin/env bash
# Installs the dependencies, builds Kiln and runs every test: lit tests of
# the IR and the tools, and the GoogleTest unit tests (through lit); then
# each fuzz target for a short while (build_tools/fuzz.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

build_tools/install-deps.sh
build_tools/build.sh
cmake --build build --target check-kiln
build_tools/fuzz.sh --time "${KILN_FUZZ_SECONDS:-20}"
