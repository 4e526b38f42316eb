#!/usr/bin/env bash
# Installs the dependencies, builds Kiln and runs every test: lit tests of
# the IR and the tools, and the GoogleTest unit tests (through lit).
set -euo pipefail
cd "$(dirname "$0")/.."

build_tools/install-deps.sh
build_tools/build.sh
cmake --build build --target check-kiln
