#!/usr/bin/env bash
# Installs the system packages spikeminer needs that are missing (Debian 12, Ubuntu 24.04),
# and any named as arguments (scripts/fuzz.sh adds clang). Does nothing when all are there. CUDA is optional and not installed here: with nvcc on
# the PATH (or in /usr/local/cuda) the GPU engines are built too.
set -euo pipefail

# The Python module needs pybind11, Python's headers and numpy (for Debian's /usr/bin/python3);
# its tests pytest, h5py, hdmf, neo and matplotlib. ZeroMQ for live sockets, pyzmq for their tests
# and scripts/replay.py.
packages=(cmake ninja-build g++ pkg-config zlib1g-dev libhdf5-dev libcli11-dev nlohmann-json3-dev catch2
          qt6-base-dev libcairo2-dev libgraphviz-dev libopenmpi-dev openmpi-bin libzmq3-dev python3-zmq
          pybind11-dev python3-dev python3-numpy python3-pytest python3-h5py python3-hdmf python3-neo python3-matplotlib "$@")

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

if ! command -v apt-get >/dev/null; then
  echo "bootstrap: apt-get not found; install these packages by hand: ${missing[*]}" >&2
  exit 1
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null; then sudo="sudo"; else
    echo "bootstrap: need root to install: ${missing[*]}" >&2
    exit 1
  fi
fi
echo "bootstrap: installing ${missing[*]}" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
