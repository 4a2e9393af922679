#!/usr/bin/env bash
# Quick start, first command: installs what is missing, builds the release preset, and runs
# the main job on the real songbird HVC recording shipped with the project.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)"
bin=build/release/app/spikeminer
mkdir -p out
"$bin" info --devices
echo
"$bin" info tests/data/songbird_spikes.txt
"$bin" convert tests/data/songbird_spikes.txt out/songbird.h5
echo
echo "spikeminer is at $bin; the recording in its own format is at out/songbird.h5"
