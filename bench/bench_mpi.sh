#!/usr/bin/env bash
# Scaling of `run --batch` and of one recording's windows over mpirun's ranks: the same
# input with one process (no mpirun) and with each count of ranks, the wall time of each, and
# a check that every rank count wrote the one process's tables byte for byte. Prints Markdown
# tables (bench/RESULTS.md).
#
# Usage: bench_mpi.sh SPIKEMINER MPIEXEC [--recordings K] [--duration S] [--ranks "2 4"]
#                     [--backends "auto cpu"] [--gpu-check]
#   --gpu-check: the issue's sizes, 16 recordings of the large scenario, 10 minutes each,
#   with 2, 4 and 8 ranks. Default: 4 recordings of 60 s (a minute or two on 2 cores).
# In batch mode rank 0 hands out the recordings and ranks 1..N-1 run them (N - 1 workers);
# each run's CPU threads are the machine's cores shared among the processes that compute.
# The batch runs on the first backend; one recording's windows on each.
# mpirun binds each rank to one core by default (with 2 ranks or fewer), which would leave
# a rank's threads on that core: ranks are started with --bind-to none.
set -euo pipefail
spikeminer="$(realpath "$1")"
mpiexec="$2"
shift 2
recordings=4 duration=60 rank_counts="2 4" backends=auto
while [ $# -gt 0 ]; do
  case "$1" in
    --recordings) recordings="$2"; shift 2 ;;
    --duration) duration="$2"; shift 2 ;;
    --ranks) rank_counts="$2"; shift 2 ;;
    --backends) backends="$2"; shift 2 ;;
    --gpu-check) recordings=16 duration=600 rank_counts="2 4 8" backends="auto cpu"; shift ;;
    *) echo "bench_mpi: unknown argument $1" >&2; exit 2 ;;
  esac
done

dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
cd "$dir"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader  # one node: shared memory between the ranks
cores="$(nproc)"
mpirun=("$mpiexec" --oversubscribe --bind-to none -np)
read -r backend _ <<< "$backends"
settings='"cofiring": {"window_s": 30, "step_s": 5}, "backend": "'"$backend"'"'
{
  echo '{"recordings": ['
  for ((r = 1; r <= recordings; ++r)); do
    echo "  {\"simulate\": {\"scenario\": \"large\", \"duration_s\": $duration, \"seed\": $r}, \"name\": \"rec$r\"}$([ $r -lt $recordings ] && echo ,)"
  done
  echo "], $settings}"
} > manifest.json

seconds() {  # seconds COMMAND...: runs it, prints its wall time in s; its output goes to log.txt
  local start end
  start=$(date +%s.%N)
  "$@" > log.txt 2>&1 || { echo "bench_mpi: '$*' failed:" >&2; tail -20 log.txt >&2; exit 1; }
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN { print b - a }'

}
same_tables() {  # same_tables DIR-A DIR-B: every CSV but the batch summary equal byte for byte
  local table
  for table in $(cd "$1" && find . -name '*.csv' ! -name batch-summary.csv | sort); do
    cmp -s "$1/$table" "$2/$table" || { echo "no ($table differs)"; return; }
  done
  echo yes
}
row() {  # row RANKS WORKERS SECONDS BASE-SECONDS SAME: a table row, the speed-up against BASE
  awk -v r="$1" -v w="$2" -v t="$3" -v b="$4" -v same="$5" -v units="$units" \
    'BEGIN { printf "| %s | %s | %.1f | %.2f | %.2fx | %s |\n", r, w, t, t / units, b / t, same }'
}

echo "bench_mpi: $recordings recordings of the large scenario, $duration s each, $cores cores"
echo
echo "### run --batch: $recordings recordings of the large scenario, $duration s each, backend $backend"
echo
echo '| ranks | workers | wall s | s per recording | speed-up | same tables |'
echo '|---|---|---|---|---|---|'
units=$recordings
one=$(seconds "$spikeminer" run --batch manifest.json -o batch1 --threads "$cores")
row "1 (no mpirun)" 1 "$one" "$one" "-"
for n in $rank_counts; do
  workers=$((n - 1))
  if [ "$workers" -lt 1 ]; then echo "bench_mpi: a batch needs 2 ranks or more (rank 0 hands out)" >&2; exit 2; fi
  t=$(seconds "${mpirun[@]}" "$n" "$spikeminer" run --batch manifest.json -o "batch$n" \
        --threads $((cores / workers > 0 ? cores / workers : 1)))
  row "$n" "$workers" "$t" "$one" "$(same_tables batch1 "batch$n")"
done

# One recording's windows over the ranks: every rank computes a block of the windows.
"$spikeminer" simulate --scenario large --duration "$duration" -o one.h5 > /dev/null
for backend in $backends; do
  echo
  echo "### run: one recording of the large scenario ($duration s), its co-firing windows (10 s every 1 s) over the ranks, backend $backend"
  echo
  echo '| ranks | blocks of windows | wall s | s per hour recorded | speed-up | same tables |'
  echo '|---|---|---|---|---|---|'
  units=$(awk -v d="$duration" 'BEGIN { print d / 3600 }')
  run=(run one.h5 --backend "$backend")
  one=$(seconds "$spikeminer" "${run[@]}" -o "whole-$backend" --threads "$cores")
  row "1 (no mpirun)" 1 "$one" "$one" "-"
  for n in $rank_counts; do
    t=$(seconds "${mpirun[@]}" "$n" "$spikeminer" "${run[@]}" -o "windows$n-$backend" --threads $((cores / n > 0 ? cores / n : 1)))
    row "$n" "$n" "$t" "$one" "$(same_tables "whole-$backend" "windows$n-$backend")"
  done
done
