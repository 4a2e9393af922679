#!/usr/bin/env bash
# The one call for the two-GPU machine (issue: two-GPU runs): build, the [devices] GPU
# tests, and one GPU against DEVICES (default 0,1) side by side in every engine's
# benchmark: clique counts (bench_cliques), the pipeline's hour and its mining levels
# (bench_pipeline), GPMA+ slides at batches of 64 K to 1 M (bench_dyngraph); logs and
# tables under $OUT (or build/gpu-devices-logs). DEVICES=0,0 rehearses it on one GPU.
#
# Reads .bench-data/graphs/ (blogcatalog, facebook, wiki-Vote: copy them from the shared
# data and carry the folder) and .deps/ as scripts/gpu-check.sh does.
set -uo pipefail
cd "$(dirname "$0")/.."
devices="${DEVICES:-0,1}"
logs="${OUT:-build/gpu-devices-logs}"
mkdir -p "$logs"
log="$logs/gpu-devices-check.log"
: >"$log"
status=0
step() {  # step NAME SECONDS COMMAND...: run with a time limit, append to the log, remember failures
  local name="$1" limit="$2"; shift 2
  echo "=== $name: $*" | tee -a "$log"
  local start=$SECONDS
  if timeout "$limit" "$@" >>"$log" 2>&1; then echo "=== $name: ok ($((SECONDS - start)) s)" | tee -a "$log"
  else echo "=== $name: FAILED ($((SECONDS - start)) s)" | tee -a "$log"; status=1; fi
}
prefixes=""
for deb in .deps/*.deb; do
  [ -e "$deb" ] || continue
  root="build/deps/$(basename "$deb" .deb)"
  mkdir -p "$root" && dpkg -x "$deb" "$root" && prefixes="$prefixes;$PWD/$root/usr"
done
{ date -u; git rev-parse --short HEAD 2>/dev/null; nvidia-smi --query-gpu=index,name,memory.total --format=csv; } | tee -a "$log"
step configure 120 cmake --preset gpu -DCMAKE_PREFIX_PATH="${prefixes#;}"
step build 300 cmake --build --preset gpu -j "$(nproc)" --target gpu_tests spikeminer bench_cliques bench_pipeline bench_dyngraph
step devices-tests 120 env SPIKEMINER_REQUIRE_GPU=1 build/gpu/tests/gpu/gpu_tests "[devices]" -d yes
graphs=(.bench-data/graphs/*)
[ -e "${graphs[0]}" ] && step bench_cliques 120 build/gpu/bench/bench_cliques --list-up-to 0 --no-combos --devices "$devices" "${graphs[@]}"
step bench_dyngraph 130 build/gpu/bench/bench_dyngraph --rmat-scale 20 --edges 8000000 --gpu-only --min-batch 65536 --devices "$devices"
step bench_pipeline 240 build/gpu/bench/bench_pipeline --minutes 60 --no-cpu --devices "$devices"
echo "=== gpu-devices-check: $([ $status -eq 0 ] && echo PASSED || echo FAILED); log in $log"
exit $status
