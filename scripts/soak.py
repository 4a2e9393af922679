#!/usr/bin/env python3
"""A soak run of good input (scripts/soak.sh N): random recordings and random valid
settings through `spikeminer run` under a small memory budget.

Each case draws, from its seed alone, a recording (the simulator with a random scenario,
neuron count, rate, length, time grid and file format, some with duplicate spikes; or a
random slice of a real recording) and settings, and runs it. A case passes when the run
exits 0 and its results read back whole (`spikeminer info results.h5`, which checks every
table, agrees with summary.json), or exits 1 or 2 with one message that starts
"spikeminer:" and leaves no results folder. With --gpu each case also runs on the GPU and
must give the same tables. A failing case is kept under OUT/failures/SEED with its
commands and messages; `scripts/soak.sh 1 --seed SEED` runs it again.
"""
import argparse
import csv
import gzip
import json
import os
import random
import shutil
import subprocess
import sys

SCENARIOS = ["paper", "assemblies", "demo", "dynamics", "none", "large"]
TICKS = ["1us", "100us", "1ms", "30000/s"]
FORMATS = [".csv", ".csv.gz", ".txt", ".h5", ".nwb"]
BUDGETS = ["64M", "128M", "256M", "512M"]
# Tables of a run that the backends must give alike (summary.json holds times and notes).
TABLES = ["episodes.csv", "windows.csv", "assemblies.csv"]


def run(command, timeout=900):
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
        return done.returncode, done.stdout, done.stderr
    except subprocess.TimeoutExpired:
        return 124, "", "timed out after %d s" % timeout


def read_rows(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return [line for line in f]


def with_duplicates(path, rng, folder):
    """The CSV at `path` with some spikes given twice (the same neuron at the same time)."""
    lines = read_rows(path)
    out = os.path.join(folder, "duplicated.csv")
    share = rng.uniform(0.001, 0.1)
    with open(out, "w") as f:
        for line in lines:
            f.write(line)
            if line[0].isdigit() and rng.random() < share:
                f.write(line)
    return out


def simulated(spikeminer, rng, seed, folder):
    scenario = rng.choice(SCENARIOS)
    neurons = rng.randint(2, 400 if scenario == "large" else 150)
    duplicates = rng.random() < 0.2
    suffix = ".csv" if duplicates else rng.choice(FORMATS)
    path = os.path.join(folder, "recording" + suffix)
    command = [spikeminer, "simulate", "--scenario", scenario, "--neurons", str(neurons), "--rate", "%.3g" % rng.uniform(0.5, 30),
               "--duration", "%.3g" % rng.uniform(2, 120), "--tick", rng.choice(TICKS), "--seed", str(seed), "-o", path]
    status, _, err = run(command)
    if status == 2:  # the scenario's chains or assemblies need more neurons than drawn
        command[command.index("--scenario") + 1] = "none"
        status, _, err = run(command)
    if status != 0:
        return None, command, err
    if duplicates:
        path = with_duplicates(path, rng, folder)
    return path, command, ""


def sliced(spikeminer, rng, recordings, folder):
    source = rng.choice(recordings)
    whole = os.path.join(folder, "whole.csv")
    status, _, err = run([spikeminer, "convert", source, whole])
    if status != 0:
        return None, ["convert", source], err
    rows = list(csv.reader(line for line in read_rows(whole) if not line.startswith("#")))
    header, rows = rows[0], rows[1:]
    times = [float(r[1]) for r in rows]
    if not times:
        return None, ["slice", source], "no spikes"
    start = rng.uniform(min(times), max(times))
    length = rng.uniform(1, 900)
    units = sorted({r[0] for r in rows})
    kept = set(rng.sample(units, max(1, int(len(units) * rng.uniform(0.2, 1)))))
    path = os.path.join(folder, "slice.csv")
    with open(path, "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(header)
        for r, t in zip(rows, times):
            if start <= t < start + length and r[0] in kept:
                out.writerow(r)
    return path, ["slice", source, "from %.3f s for %.3f s of %d of %d units" % (start, length, len(kept), len(units))], ""


def settings(rng):
    args = ["--memory-budget", rng.choice(BUDGETS), "--threads", str(rng.randint(1, 2))]
    if rng.random() < 0.5:
        window = rng.randint(1, 30)
        args += ["--window", str(window), "--step", "%g" % (window / rng.choice([1, 2, 5, 10]))]
    if rng.random() < 0.5:
        args += ["--min-size", str(rng.randint(2, 5))]
    if rng.random() < 0.5:
        args += ["--max-level", str(rng.randint(1, 5))]
    if rng.random() < 0.3:
        args += ["--q", rng.choice(["0.001", "0.05", "0.1"])]
    if rng.random() < 0.3:
        args += ["--sync", rng.choice(["1", "2", "5"])]
    if rng.random() < 0.3:
        args += ["--jaccard", "%.2f" % rng.uniform(0.2, 0.9)]
    if rng.random() < 0.3:
        args += ["--min-windows", str(rng.randint(1, 5))]
    if rng.random() < 0.2:
        args += ["--duplicates", "merge"]
    if rng.random() < 0.2:
        args += ["--no-analytics"]
    return args


def refusal_ok(status, err, out):
    lines = [line for line in err.strip().splitlines() if line and not line.startswith("note:")]
    return status in (1, 2) and bool(lines) and lines[-1].startswith("spikeminer:") and not os.path.exists(out) and \
        not any(word in err for word in ("terminate called", "Assertion", "Sanitizer", "Segmentation"))


def results_ok(spikeminer, out):
    """summary.json parses and agrees with results.h5 read back whole."""
    try:
        with open(os.path.join(out, "summary.json")) as f:
            summary = json.load(f)
    except (OSError, ValueError) as e:
        return "summary.json: %s" % e
    status, text, err = run([spikeminer, "info", os.path.join(out, "results.h5"), "--json"])
    if status != 0:
        return "info results.h5: " + err.strip()
    saved = json.loads(text)["results"]
    if saved["windows"] != summary["windows"] or saved["assemblies"] != len(summary["assemblies"]):
        return "results.h5 holds %d windows and %d assemblies, summary.json %d and %d" % (
            saved["windows"], saved["assemblies"], summary["windows"], len(summary["assemblies"]))
    for table in TABLES:
        if not os.path.exists(os.path.join(out, table)):
            return table + " is missing"
    return ""


def same_tables(a, b):
    for table in TABLES:
        with open(os.path.join(a, table)) as x, open(os.path.join(b, table)) as y:
            if x.read() != y.read():
                return table + " differs between the CPU and the GPU"
    return ""


def one_case(spikeminer, seed, recordings, work, gpu):
    """What went wrong with case `seed` ("" when nothing), its commands and its outcome."""
    rng = random.Random(seed)
    folder = os.path.join(work, str(seed))
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    if recordings and rng.random() < 0.3:
        path, made_by, err = sliced(spikeminer, rng, recordings, folder)
    else:
        path, made_by, err = simulated(spikeminer, rng, seed, folder)
    if path is None:
        return "the recording could not be made: " + err.strip(), [made_by], "no recording"
    chosen = settings(rng)
    commands = [made_by]
    outcome = ""
    backends = ["cpu", "gpu"] if gpu else ["cpu"]
    outs = []
    errs = []
    for backend in backends:
        out = os.path.join(folder, "out-" + backend)
        command = [spikeminer, "run", path, "-o", out, "--backend", backend] + chosen
        commands.append(command)
        status, _, err = run(command)
        outs.append((status, out))
        errs.append(err)
        if status == 0:
            problem = results_ok(spikeminer, out)
            if problem:
                return problem, commands, "ran"
            outcome = "ran"
        elif refusal_ok(status, err, out):
            outcome = "refused: " + err.strip().splitlines()[-1][:120]
        else:
            return "exit %d: %s" % (status, err.strip()[-600:]), commands, "failed"
    if gpu and outs[0][0] == 0 and outs[1][0] == 0:
        problem = same_tables(outs[0][1], outs[1][1])
        if problem:
            return problem, commands, outcome
    if gpu and outs[0][0] != outs[1][0]:
        # The CPU keeps on the host what the GPU keeps on the device (the co-firing counts),
        # so a budget can refuse one and not the other: a refusal that says so is the rule.
        refused = [k for k in range(2) if outs[k][0] != 0]
        if len(refused) == 1 and "memory budget" in errs[refused[0]]:
            outcome = "refused on the %s only: memory budget" % backends[refused[0]]
        else:
            said = " / ".join(e.strip().splitlines()[-1] for e in errs if e.strip())
            return "the CPU exited %d and the GPU %d: %s" % (outs[0][0], outs[1][0], said[-600:]), commands, outcome
    shutil.rmtree(folder, ignore_errors=True)
    return "", commands, outcome


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("cases", type=int)
    parser.add_argument("--seed", type=int, default=1, help="the first case's seed (case k: seed + k)")
    parser.add_argument("--out", default="soak-out", help="where failing cases are kept")
    parser.add_argument("--spikeminer", default="build/release/app/spikeminer")
    parser.add_argument("--recordings", default="../shared/data/spikes", help="real recordings to slice (a folder)")
    parser.add_argument("--gpu", action="store_true", help="also run each case on the GPU and compare")
    parser.add_argument("--log", help="append each case's seed and outcome to this file as it ends")
    args = parser.parse_args()
    recordings = []
    for root, _, files in os.walk(args.recordings):
        recordings += [os.path.join(root, f) for f in files if f.endswith((".h5", ".nwb", ".txt", ".csv")) and "LICENSE" not in f]
    work = os.path.join(args.out, "cases")
    os.makedirs(work, exist_ok=True)
    counts = {}
    failed = 0
    for k in range(args.cases):
        seed = args.seed + k
        problem, commands, outcome = one_case(args.spikeminer, seed, sorted(recordings), work, args.gpu)
        kind = outcome.split(":")[0]
        if args.log:
            with open(args.log, "a") as log:
                log.write("%d\t%s\t%s\n" % (seed, "failed" if problem else kind, problem or outcome))
        counts[kind] = counts.get(kind, 0) + 1
        if problem:
            failed += 1
            kept = os.path.join(args.out, "failures", str(seed))
            shutil.rmtree(kept, ignore_errors=True)
            shutil.move(os.path.join(work, str(seed)), kept)
            with open(os.path.join(kept, "case.txt"), "w") as f:
                f.write("seed %d: %s\n" % (seed, problem))
                for command in commands:
                    f.write(" ".join(command) + "\n")
            print("case %d FAILED: %s" % (seed, problem), flush=True)
        elif outcome.startswith("refused"):
            print("case %d %s" % (seed, outcome), flush=True)
    print("%d cases (seeds %d-%d): %s; %d failed" % (args.cases, args.seed, args.seed + args.cases - 1,
                                                  ", ".join("%s %d" % kv for kv in sorted(counts.items())), failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
