#!/usr/bin/env bash
# Installs the Debian packages the project needs (only those missing),
# then configures and builds everything in ./build.
# Usage: scripts/setup.sh            (idempotent; safe to run repeatedly)
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools clang-22 lld-22
  libclang-rt-22-dev clang-format-22 ninja-build cmake ccache git
  libopenmpi-dev openmpi-bin libgtest-dev
  python3 python3-dev python3-numpy python3-pytest python3-pytest-xdist python3-hypothesis python3-mpi4py
  python3-pybind11 pybind11-dev valgrind libopenblas-dev
  liblapacke-dev libfftw3-dev libfftw3-mpi-dev libscalapack-openmpi-dev
)

missing=()
for pkg in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$pkg")
done
if ((${#missing[@]})); then
  echo "== installing: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

BUILD_DIR=${BUILD_DIR:-build}
LLVM_PREFIX=$(llvm-config-22 --prefix)
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -G Ninja -S . -B "$BUILD_DIR" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DLLVM_USE_LINKER=lld \
    -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir" \
    -DPython3_EXECUTABLE=/usr/bin/python3
fi
cmake --build "$BUILD_DIR"
