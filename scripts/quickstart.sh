#!/usr/bin/env bash
# Quick start, first command: installs what is missing, builds the program (no tests or
# benchmarks), and runs the main job on its built-in example: `spikeminer demo` simulates
# four minutes of 100 neurons with firing chains and assemblies that come and go, runs the
# whole pipeline (episodes, co-firing windows, their graph, cliques, assemblies through
# time), says what it found against what was embedded, and writes everything to
# ./spikeminer-demo/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
cmake --preset app >/dev/null
cmake --build --preset app -j "$(nproc)"
bin=build/app/app/spikeminer
"$bin" info --devices
echo
"$bin" demo
echo
echo "spikeminer is at $bin; the demo's results are in spikeminer-demo/ (summary.json, assemblies.csv,"
echo "timeline.svg, ...). Next: $bin run YOUR_RECORDING -o results/ (see README.md)"
if [ -d build/app/python/spikeminer ]; then
  echo "From Python: PYTHONPATH=build/app/python /usr/bin/python3 -c 'import spikeminer' (README, From Python)"
fi
