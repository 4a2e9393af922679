#!/usr/bin/env bash
# Fuzzes every reader with libFuzzer under AddressSanitizer and UBSan.
#
#   scripts/fuzz.sh [SECONDS]          each target for SECONDS (default 60)
#   FUZZ_RUNS=1000000 scripts/fuzz.sh  each target for that many executions instead
#   FUZZ_TARGETS="csv nwb" ...         only these targets
#   FUZZ_JOBS=2 ...                    targets run side by side (default: the cores)
#   FUZZ_FORKS=4 ...                   processes per HDF5 target (default 1)
#
# Installs clang and libFuzzer when missing, builds the fuzz preset, writes seed corpora
# with the program itself (a simulation with ground truth in every spike format, a graph
# as an edge list and in HDF5, an edge stream, network specs, a run config) plus the
# test data, then runs each target. Corpora grow in build/fuzz/corpus/TARGET; findings
# (crash-*, leak-*, timeout-*, oom-*; slow-unit-* are only slow) land in
# build/fuzz/findings/TARGET, each triaged as open (it ends the program) or handled (the
# program refuses it with an Error), verdicts in build/fuzz/findings/TARGET.triage; logs in
# build/fuzz/logs. Prints one row per target: executions, seconds, findings. Exit 1 when
# any finding is open.
set -uo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
runs="${FUZZ_RUNS:-}"
targets=(${FUZZ_TARGETS:-csv text spikeminer nwb waverepo graph edge_stream network_spec run_config})
jobs="${FUZZ_JOBS:-$(nproc)}"

bash scripts/bootstrap.sh clang libclang-rt-dev libomp-dev || exit 1
cmake --preset fuzz >/dev/null || exit 1
cmake --build --preset fuzz -j "$(nproc)" >/dev/null || { cmake --build --preset fuzz -j 1; exit 1; }

root=build/fuzz
program="$root/app/spikeminer"
seeds="$root/seeds"
rm -rf "$seeds" && mkdir -p "$seeds"/{csv,text,spikeminer,nwb,waverepo,graph,edge_stream,network_spec,run_config}
# Where the program reads HDF5 (triage below), files on which the library loops are refused
# after 1 s instead of 10.
export SPIKEMINER_HDF5_PROBE_SECONDS=1
export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 LSAN_OPTIONS=suppressions=$PWD/fuzz/lsan.supp
quiet() { "$@" >/dev/null 2>"$seeds/seed.log" || { cat "$seeds/seed.log" >&2; echo "fuzz: seed step failed: $*" >&2; exit 1; }; }
quiet "$program" simulate --scenario none --neurons 8 --duration 3 --chain '0>1>2@0.8:5' --assembly '4,5,6@2:2' --seed 3 -o "$seeds/spikeminer/sim.h5"
quiet "$program" simulate --scenario none --neurons 3 --duration 1 --rate 4 --seed 4 -o "$seeds/spikeminer/tiny.h5"
for format in csv text nwb waverepo; do
  quiet "$program" convert "$seeds/spikeminer/sim.h5" "$seeds/$format/sim.out" --to "$format"
  quiet "$program" convert "$seeds/spikeminer/tiny.h5" "$seeds/$format/tiny.out" --to "$format"
done
quiet "$program" convert "$seeds/spikeminer/tiny.h5" "$seeds/csv/tiny.csv.gz"
cp tests/data/songbird_spikes.txt "$seeds/text/"
cp tests/data/A8604-211122.nwb "$seeds/nwb/"
printf '# a triangle and a pendant\n0 1\n1 2\n0 2\n2 3\n' >"$seeds/graph/edges.txt"
printf '0,1\n1,2\n0,2\n' >"$seeds/graph/edges.csv"
quiet "$program" cliques "$seeds/graph/edges.txt" --graph-out "$seeds/graph/graph.h5"
printf '0 1 1.0 0.5\n1 2 2.5 1.0\n% comment\n2 0 -1 1.5\n' >"$seeds/edge_stream/stream.txt"
printf '\x00%s' '0>1>2>3@0.8:5' >"$seeds/network_spec/chain"
printf '\x00%s' '0>1@0.7:3-6+loop' >"$seeds/network_spec/loop"
printf '\x01%s' '3>7@0.6:4' >"$seeds/network_spec/link"
printf '\x02%s' '4,5,6@0.5:2:0.8' >"$seeds/network_spec/assembly"
printf '\x02%s' '4,5,6@0.5:2 60-120,300-360' >"$seeds/network_spec/assembly_periods"
printf '\x03%s' 'sine:10:0.5' >"$seeds/network_spec/modulation"
cat >"$seeds/run_config/run.json" <<'JSON'
{"simulate": {"scenario": "demo", "seed": 2, "duration_s": 30},
 "mining": {"intervals_ms": "0-5,5-10", "min_count": "auto", "max_level": 4},
 "cofiring": {"window_s": 10, "step_s": 2, "sync_ms": 2, "baseline_ms": "20-40", "correction": "bh", "q": 0.01},
 "assemblies": {"min_size": 3, "jaccard": 0.5, "max_gap": 1, "min_windows": 1},
 "analytics": true, "backend": "cpu", "threads": 0}
JSON

findings=0
run_target() {
  local target="$1"
  local corpus="$root/corpus/$target" found="$root/findings/$target" log="$root/logs/$target.log"
  mkdir -p "$corpus" "$found" "$root/logs"
  local limit=(-max_total_time="$seconds")
  [ -n "$runs" ] && limit=(-runs="$runs")
  # HDF5 seeds are a few KiB; text and specs stay short. HDF5 keeps free lists across
  # inputs, which would make LeakSanitizer scan after every one; its leak checks are left
  # to the test suite's run under AddressSanitizer.
  # The HDF5 targets read in their own process (the program reads HDF5 in a child), so the
  # library's own crashes and loops on damaged files end a run: they run in fork mode, go on
  # after each, and a read still busy after 1 s (it takes milliseconds) counts as a loop;
  # triage below checks each against the program.
  local max_len=4096 leaks=1 timeout=30 mode=()
  case "$target" in
    spikeminer|nwb|waverepo|graph)
      max_len=65536 leaks=0 timeout=1 mode=(-fork="${FUZZ_FORKS:-1}" -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1) ;;
  esac
  "$root/fuzz/fuzz_$target" "$corpus" "$seeds/$target" "${limit[@]}" "${mode[@]}" -max_len="$max_len" -detect_leaks="$leaks" \
    -timeout="$timeout" -rss_limit_mb=4096 -artifact_prefix="$found/" -print_final_stats=1 >"$log" 2>&1
}

# A fork-mode job whose CPU time stands still for 20 s is killed (libFuzzer goes on with
# the next job): when its -timeout alarm fires inside an HDF5 malloc, the alarm handler
# allocates again and deadlocks in AddressSanitizer's allocator, a hang of the harness,
# not of the program.
is_fuzzer() { [ "$(ps -o comm= -p "$1" 2>/dev/null | cut -c1-5)" = fuzz_ ]; }
watchdog() {
  local pid parent grandparent cpu now
  declare -A cpu_at since
  while sleep 5; do
    now=$SECONDS
    while read -r pid parent cpu; do
      # a job is the fuzzer's child, or its grandchild when `sh -c` (dash) runs it
      grandparent=$(ps -o ppid= -p "$parent" 2>/dev/null | tr -d ' ')
      is_fuzzer "$parent" || { [ -n "$grandparent" ] && is_fuzzer "$grandparent"; } || continue
      if [ "${cpu_at[$pid]:-}" != "$cpu" ]; then cpu_at[$pid]=$cpu since[$pid]=$now
      elif [ $((now - since[$pid])) -ge 20 ]; then
        kill -9 "$pid" 2>/dev/null && echo "fuzz: killed job $pid, stuck at $cpu s of CPU for 20 s" >&2
      fi
    done < <(ps -eo pid=,ppid=,cputimes=,comm= | awk '$4 ~ /^fuzz_/ {print $1, $2, $3}')
  done
}

# A finding the program reads (an out-of-memory of the fuzzer's limit only) or refuses with
# an Error (exit 1 or 2: for HDF5, its reading child caught the library's crash or loop) is
# "handled"; one that ends the program otherwise is "open". Sanitizer reports exit 86 here, so that they
# cannot pass for an Error.
triage() {  # triage TARGET FILE
  local command=()
  case "$1" in
    graph) command=(cliques "$2") ;;
    spikeminer) command=(mine --format spikeminer "$2" --max-level 1) ;;  # reads the ground truth too
    csv|text|nwb|waverepo) command=(info --format "$1" "$2") ;;
    *) echo open; return ;;
  esac
  ASAN_OPTIONS=exitcode=86 UBSAN_OPTIONS=halt_on_error=1:exitcode=86 SPIKEMINER_HDF5_PROBE_SECONDS=1 \
    timeout 120 "$program" "${command[@]}" >/dev/null 2>&1
  case $? in 0|1|2) echo "handled $2" ;; *) echo "open $2" ;; esac
}
export -f triage
export program
echo "fuzzing ${targets[*]} ($([ -n "$runs" ] && echo "$runs runs" || echo "$seconds s") each, $jobs at a time)"
watchdog &
watching=$!
trap 'kill "$watching" 2>/dev/null' EXIT
running=0
fuzzing=()
for target in "${targets[@]}"; do
  run_target "$target" &
  fuzzing+=($!)
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then wait -n; running=$((running - 1)); fi
done
wait "${fuzzing[@]}"
kill "$watching"
trap - EXIT

echo "| target | executions | seconds | exec/s | corpus | open findings | handled |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for target in "${targets[@]}"; do
  log="$root/logs/$target.log"
  execs=$(grep -oP 'stat::number_of_executed_units:\s*\K[0-9]+' "$log" | tail -1)
  [ -n "$execs" ] || execs=$(grep -oP '^#\K[0-9]+(?=: cov)' "$log" | tail -1)  # fork mode
  secs=$(grep -oP 'Done [0-9]+ runs in \K[0-9]+' "$log" | tail -1)
  [ -n "$secs" ] || secs=$(grep -oP ' time: \K[0-9]+' "$log" | tail -1)
  rate=$(grep -oP 'stat::average_exec_per_sec:\s*\K[0-9]+' "$log" | tail -1)
  [ -n "$rate" ] || rate=$(grep -oP 'exec/s: \K[0-9]+' "$log" | tail -1)
  # Every finding checked on all cores; the verdicts in findings/TARGET.triage.
  find "$root/findings/$target" -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) -print0 |
    xargs -0 -r -P "$(nproc)" -I{} bash -c 'triage "$0" "$1"' "$target" {} >"$root/findings/$target.triage"
  open=$(grep -c '^open' "$root/findings/$target.triage")
  handled=$(grep -c '^handled' "$root/findings/$target.triage")
  findings=$((findings + open))
  echo "| $target | ${execs:-?} | ${secs:-?} | ${rate:-?} | $(ls "$root/corpus/$target" | wc -l) | $open | $handled |"
done
[ "$findings" -eq 0 ] || { echo "fuzz: findings in $root/findings (logs in $root/logs)" >&2; exit 1; }
