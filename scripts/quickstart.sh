#!/usr/bin/env bash
# Quick start, first command: installs what is missing, builds the release preset, and runs
# the main job: a real recording shipped with the project (songbird HVC), then a simulated
# recording of the episode-mining papers' network with its ground truth.
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
echo
"$bin" simulate --scenario paper --duration 60 --seed 1 -o out/paper.h5
echo
"$bin" info out/paper.h5
echo
echo "spikeminer is at $bin; the simulated recording and its ground truth are in out/paper.h5"
