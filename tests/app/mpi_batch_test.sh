#!/usr/bin/env bash
# Under `mpirun -np 2` and `-np 3` (oversubscribed: more ranks than cores): run --batch
# writes the single process's tables byte for byte, a recording that fails is reported by
# the rank that ran it while the others go on, and no rank is left waiting; one recording
# with its windows shared out over the ranks gives the single process's tables too.
# Usage: mpi_batch_test.sh SPIKEMINER MPIEXEC
set -euo pipefail
spikeminer="$1"
mpiexec="$2"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
cd "$dir"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # CI runs as root
# One node: shared memory between the ranks, no probing of network fabrics (UCX, InfiniBand)
# that a GPU server may have and a test does not need.
export OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"  # MPI's start-up keeps memory to the end

cat > manifest.json <<'JSON'
{"recordings": [{"simulate": {"scenario": "demo", "duration_s": 20}, "name": "a"},
                {"simulate": {"scenario": "demo", "duration_s": 20, "seed": 2}, "name": "b"},
                "missing.h5",
                {"simulate": {"scenario": "demo", "duration_s": 20, "seed": 3}, "name": "c"},
                {"simulate": {"scenario": "assemblies", "duration_s": 20}, "name": "d"}],
 "cofiring": {"window_s": 10, "step_s": 5}, "mining": {"min_count": "100"}, "backend": "cpu", "threads": 1}
JSON

expect_exit() {  # expect_exit CODE COMMAND...: runs it (at most 2 minutes), fails unless it exits with CODE
  local code="$1"; shift
  local got=0
  timeout 120 "$@" > log.txt 2>&1 || got=$?
  if [ "$got" -ne "$code" ]; then
    echo "FAIL: '$*' exited with $got, expected $code"; cat log.txt; exit 1
  fi
}

expect_exit 1 "$spikeminer" run --batch manifest.json -o one  # the missing file fails; the others are done
grep -q "missing.h5: no such file" one/batch-summary.csv || { echo "FAIL: the missing recording is not reported"; exit 1; }
for ranks in 2 3; do
  expect_exit 1 "$mpiexec" --oversubscribe -np "$ranks" "$spikeminer" run --batch manifest.json -o "ranks$ranks"
  for table in $(cd one && find . -name '*.csv' ! -name batch-summary.csv | sort); do
    cmp "one/$table" "ranks$ranks/$table" || { echo "FAIL: $table differs with $ranks ranks"; exit 1; }
  done
  # The summary without its seconds column.
  if ! diff <(cut -d, -f1-3,5- one/batch-summary.csv) <(cut -d, -f1-3,5- "ranks$ranks/batch-summary.csv"); then
    echo "FAIL: the summary differs with $ranks ranks"; exit 1
  fi
done
run=(run --simulate demo --duration 60 --window 10 --step 2 --backend cpu --threads 1)
expect_exit 0 "$spikeminer" "${run[@]}" -o whole
for ranks in 2 3; do
  expect_exit 0 "$mpiexec" --oversubscribe -np "$ranks" "$spikeminer" "${run[@]}" -o "windows$ranks"
  for table in assemblies.csv episodes.csv windows.csv; do
    cmp "whole/$table" "windows$ranks/$table" || { echo "FAIL: $table differs with the windows over $ranks ranks"; exit 1; }
  done
done
echo "mpi_batch: 2 and 3 ranks wrote the single process's tables, for a batch and for one recording's windows"
