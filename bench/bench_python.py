"""The Python module against the command line on the same recording: `spikeminer run FILE`
(reading the file included) against `spikeminer.run(times, units, output=...)` on numpy
arrays already in memory (their conversion to the library's ticks included), each in a
fresh process and each writing the same results folder.

    PYTHONPATH=build/release/python /usr/bin/python3 bench/bench_python.py \
        --cli build/release/app/spikeminer RECORDING [RECORDING ...] [-- extra run options]

Prints a markdown table: wall seconds of each, the ratio, and each process's peak memory.
"""
import argparse
import subprocess
import sys
import tempfile
import time

CHILD = r"""
import resource, sys, time
import spikeminer
rec = spikeminer.read(sys.argv[1], progress=False)
times, units = rec.times(), rec.neurons()   # held in memory, as a lab's arrays are
labels = rec.labels
del rec
start = time.perf_counter()
result = spikeminer.run(times, units, output=sys.argv[3], progress=False, **eval(sys.argv[2]))
seconds = time.perf_counter() - start
print(seconds, len(times), len(result.assemblies), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""

TIMED = r"""
import resource, subprocess, sys
subprocess.run(sys.argv[1:], check=True, capture_output=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cli", required=True)
    parser.add_argument("--settings", default="{}", help="settings of both runs, as a Python dict (e.g. \"{'backend': 'cpu'}\")")
    parser.add_argument("recordings", nargs="+")
    args = parser.parse_args()
    settings = eval(args.settings)
    cli_options = []
    for key, value in settings.items():
        cli_options += [f"--{key.replace('_', '-')}", str(value)]
    print("| recording | spikes | CLI s (from the file) | Python s (from arrays) | Python / CLI | CLI peak MiB | Python peak MiB | assemblies |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for recording in args.recordings:
        with tempfile.TemporaryDirectory() as folder:
            start = time.perf_counter()
            # A process of its own around the program, whose children's peak is the program's alone.
            measured = subprocess.run([sys.executable, "-c", TIMED, args.cli, "run", recording, "-o", f"{folder}/out", *cli_options],
                                      check=True, capture_output=True, text=True)
            cli_seconds = time.perf_counter() - start
            cli_peak = int(measured.stdout)
            done = subprocess.run([sys.executable, "-c", CHILD, recording, repr(settings), f"{folder}/py"], check=True,
                                  capture_output=True, text=True)
        py_seconds, spikes, assemblies, py_peak = done.stdout.split()
        print(f"| {recording.rsplit('/', 1)[-1]} | {spikes} | {cli_seconds:.2f} | {float(py_seconds):.2f} | "
              f"{float(py_seconds) / cli_seconds:.2f} | {cli_peak / 1024:.0f} | {int(py_peak) / 1024:.0f} | {assemblies} |")


if __name__ == "__main__":
    main()
