#!/usr/bin/env bash
# Configures (once) and builds Kiln in ./build with Ninja.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ ! -f build/build.ninja ]]; then
  cmake -G Ninja -S . -B build -DCMAKE_BUILD_TYPE=Release
fi
cmake --build build
