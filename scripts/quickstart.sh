#!/usr/bin/env bash
# Quick start, first command: installs what is missing, builds the release preset, and runs
# the main job: a real recording shipped with the project (songbird HVC) is described, then a
# recording of the episode-mining papers' network is simulated and mined for firing chains,
# and a recording with embedded assemblies is simulated and its assemblies found and drawn.
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
# The papers' network (four embedded 9-neuron chains) at a 5 Hz resting rate for 5 minutes,
# then level-wise mining at 1 ms delay resolution; the summary says which chains were found.
"$bin" simulate --scenario paper --rate 5 --duration 300 --seed 11 -o out/paper.h5
echo
"$bin" mine out/paper.h5 --intervals 1-2,2-3,3-4,4-5,5-6,6-7 --min-count 450,450,12 --max-level 9 --show 3 \
  -o out/paper-episodes.json
echo
# 100 neurons at 5 Hz with six embedded assemblies and slow up/down states, 5 minutes; then
# the groups that fire together within 2 ms far above chance, and a raster of the first 5 s.
"$bin" simulate --scenario assemblies --duration 300 --seed 11 -o out/assemblies.h5
echo
"$bin" assemblies out/assemblies.h5 -o out/assemblies.json --figure out/assemblies.svg
echo
echo "spikeminer is at $bin; the simulated recordings (with their ground truth) are out/paper.h5"
echo "and out/assemblies.h5; the frequent episodes are in out/paper-episodes.json, the assemblies"
echo "in out/assemblies.json, drawn in out/assemblies.svg"
