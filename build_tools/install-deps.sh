#!/usr/bin/env bash
# Installs everything building, testing and benchmarking Kiln needs, from
# Debian 12's packages. Idempotent and non-interactive; uses sudo when not
# run as root. --with-torch adds PyTorch (python3-torch, about 230
# packages), which the tests that export PyTorch models and bench/models.py
# need.
set -euo pipefail

packages=(
  cmake ninja-build g++ git
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools lld-22
  zlib1g-dev libzstd-dev
  libgtest-dev
  python3 python3-numpy python3-dev pybind11-dev python3-pytest
  python3-distributed
  libonnx-dev libprotobuf-dev python3-onnx libonnx-testdata
  libopenblas-dev libdnnl-dev
  clang-22 libfuzzer-22-dev libclang-rt-22-dev
)
if [[ "${1:-}" == --with-torch ]]; then
  packages+=(python3-torch)
fi

missing=()
for package in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$package")
done
if [[ ${#missing[@]} -eq 0 ]]; then
  echo "install-deps: all ${#packages[@]} packages are installed"
  exit 0
fi

sudo=()
if [[ $(id -u) -ne 0 ]]; then
  sudo=(sudo)
fi
echo "install-deps: installing ${missing[*]}"
"${sudo[@]}" apt-get update -q
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q \
  --no-install-recommends "${missing[@]}"
