#!/usr/bin/env bash
# Installs the Debian 12 packages respec builds with, when any is missing.
set -euo pipefail
packages=(clang-22 llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools
          libclang-cpp22-dev libclang-22-dev libomp-22-dev lld-22 cmake ninja-build ccache
          python3)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "respec: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q "${missing[@]}"
