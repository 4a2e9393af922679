#!/usr/bin/env bash
# The one command for the GPU machine (Ubuntu 24.04, CUDA 13, no Qt, no package installs):
# configure the gpu preset, build, run every test with SPIKEMINER_REQUIRE_GPU=1, run
# compute-sanitizer (memcheck, racecheck) on the GPU tests, run the benchmarks, and copy
# logs and tables under $OUT when it is set.
#
# Benchmarks read real recordings from .bench-data/ (git-ignored; copy them there from the
# shared data and name the folder in the device call's carry) when it is present.
#
# Header-only libraries that machine lacks (CLI11, nlohmann-json, Catch2) can travel as
# Debian packages in .deps/ (git-ignored; `apt-get download libcli11-dev nlohmann-json3-dev
# catch2` there): each is unpacked and used only when the system has no copy.
set -uo pipefail
cd "$(dirname "$0")/.."
logs="${OUT:-build/gpu-check-logs}"
mkdir -p "$logs"
log="$logs/gpu-check.log"      # everything, step by step
tables="$logs/bench-tables.md"  # the benchmarks' tables, for bench/RESULTS.md
: >"$log"; : >"$tables"
status=0
step() {  # step NAME COMMAND...: run, append to the log, remember failures
  local name="$1"; shift
  echo "=== $name: $*" | tee -a "$log"
  local start=$SECONDS
  if "$@" 2>&1 | tee -a "$log"; then echo "=== $name: ok ($((SECONDS - start)) s)" | tee -a "$log"
  else echo "=== $name: FAILED ($((SECONDS - start)) s)" | tee -a "$log"; status=1; fi
}

prefixes=()
unpack_if_missing() {  # unpack_if_missing HEADER DEB-GLOB
  local header="$1" glob="$2"
  if [ -e "/usr/include/$header" ] || [ -e "/usr/local/include/$header" ]; then return; fi
  for deb in .deps/$glob; do
    [ -e "$deb" ] || continue
    local root="build/deps/$(basename "$deb" .deb)"
    mkdir -p "$root" && dpkg -x "$deb" "$root" && prefixes+=("$PWD/$root/usr")
    echo "using $deb for $header"
  done
}
unpack_if_missing CLI/CLI.hpp 'libcli11-dev_*.deb'
unpack_if_missing nlohmann/json.hpp 'nlohmann-json3-dev_*.deb'
unpack_if_missing catch2 'catch2_*.deb'
prefix_path=$(IFS=';'; echo "${prefixes[*]:-}")

{ date -u; git rev-parse --short HEAD 2>/dev/null; lscpu | grep -E "Model name|^CPU\(s\)"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv; } | tee -a "$log" "$tables"
step configure cmake --preset gpu -DCMAKE_PREFIX_PATH="$prefix_path"
step build cmake --build --preset gpu -j "$(nproc)"
step test env SPIKEMINER_REQUIRE_GPU=1 ctest --preset gpu -j 4 -E gpu_tests
# Directly, with each test case's duration.
step gpu-tests env SPIKEMINER_REQUIRE_GPU=1 build/gpu/tests/gpu/gpu_tests -d yes
step devices build/gpu/app/spikeminer info --devices --self-test
if command -v compute-sanitizer >/dev/null; then
  # At small sizes: the simulated and larger cases ([large]: millions of edges), the clique
  # cases and those that fill the device are left to the plain run above.
  step memcheck compute-sanitizer --tool memcheck --error-exitcode 1 build/gpu/tests/gpu/gpu_tests "~[simulated]~[cliques]~[memory]~[large]"
  step memcheck-cliques compute-sanitizer --tool memcheck --error-exitcode 1 build/gpu/tests/gpu/gpu_tests \
    "GPU cliques: complete graphs*,GPU cliques: a limit*,GPU cliques: a failing sink*"
  # racecheck is slow (minutes per hundred launches): the kernels with shared memory, on small inputs.
  step racecheck compute-sanitizer --tool racecheck --error-exitcode 1 build/gpu/tests/gpu/gpu_tests \
    "CUB exclusive scan*,GPU counters equal two-step on empty*"
else
  echo "compute-sanitizer not found"; status=1
fi
# GPU_CHECK_BENCHES="bench_cliques bench_dyngraph" runs only those ("none": no benchmark),
# for calls that must fit the device's 10-minute limit.
for bench in build/gpu/bench/bench_*; do
  [ -x "$bench" ] || continue
  case " ${GPU_CHECK_BENCHES:-all} " in *" all "*|*" $(basename "$bench") "*) ;; *) continue ;; esac
  step "$(basename "$bench")" "$bench" --gpu-check
  { echo; echo "## $(basename "$bench") --gpu-check"; sed -n '/^=== '"$(basename "$bench")"': /,/^=== /p' "$log" | grep '^|'; } >>"$tables"
done
echo "=== gpu-check: $([ $status -eq 0 ] && echo PASSED || echo FAILED); logs in $logs"
exit $status
