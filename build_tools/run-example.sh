#!/usr/bin/env bash
# Kiln's main job on a bundled example: installs the dependencies, builds
# Kiln, compiles samples/mlp_tosa.mlir (a TOSA two-layer perceptron) into a
# native module, runs it on all cores and prints its output and time.
set -euo pipefail
cd "$(dirname "$0")/.."

build_tools/install-deps.sh
build_tools/build.sh
mkdir -p build/samples
echo "== kiln-compile samples/mlp_tosa.mlir -o build/samples/mlp_tosa.so"
build/bin/kiln-compile samples/mlp_tosa.mlir -o build/samples/mlp_tosa.so
echo "== kiln-run build/samples/mlp_tosa.so"
build/bin/kiln-run build/samples/mlp_tosa.so --function=mlp \
  --input=1x8x64xf32=0.5 --input=1x64x128xf32=0.01 --input=1x1x128xf32=0.1 \
  --input=1x128x10xf32=-0.02 --input=1x1x10xf32=1 --time
