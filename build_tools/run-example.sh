#!/usr/bin/env bash
# Kiln's main job on a bundled example: installs the dependencies, builds
# Kiln, and compiles samples/mlp_tosa.mlir (a TOSA two-layer perceptron)
# to the last phase Kiln has, printing the result.
set -euo pipefail
cd "$(dirname "$0")/.."

build_tools/install-deps.sh
build_tools/build.sh
echo "== kiln-compile samples/mlp_tosa.mlir"
build/bin/kiln-compile samples/mlp_tosa.mlir
