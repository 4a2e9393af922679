#!/usr/bin/env python3
"""The ICA assembly method of Lopes-dos-Santos, Ribeiro and Tort (J Neurosci Methods 2013),
the peer bench_pipeline runs beside `spikeminer run`, written here from the paper.

Spike counts in bins are z-scored per neuron; the eigenvalues of their correlation matrix
above the Marchenko-Pastur bound (1 + sqrt(N / B))^2 give the number of assemblies; FastICA
on the projection onto those principal components gives one weight vector per assembly
(unit length, its largest weight positive), whose members are the neurons weighted above
the vector's mean + 2 standard deviations. Each assembly's activation strength through time
is z(t)' P z(t) with P = w w' less its diagonal; it is active where the strength passes
`--strength` (5 by default, as the method's papers use), and its span runs from the first
such bin to the last.

Reads a CSV of `unit,time_s` (units 0..N-1; --neurons N for units that never fire) and
prints JSON: {"seconds": ..., "assemblies": [{"members": [...], "start_s": ..., "end_s": ...}]}.
Debian 12: python3-numpy and python3-sklearn.
"""

import argparse
import json
import sys
import time

import numpy as np
from sklearn.decomposition import FastICA


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("spikes", help="CSV with a header and columns unit,time_s")
    parser.add_argument("--neurons", type=int, default=0, help="the recording's neurons (default: the largest unit + 1)")
    parser.add_argument("--bin-ms", type=float, default=25.0, help="bin width in ms (default 25)")
    parser.add_argument("--strength", type=float, default=5.0, help="activation strength an active bin passes (default 5)")
    parser.add_argument("--seed", type=int, default=0, help="FastICA's seed")
    args = parser.parse_args()

    with open(args.spikes) as text:  # comment lines, then the header
        header = 0
        for line in text:
            header += 1
            if not line.startswith("#"):
                break
    data = np.loadtxt(args.spikes, delimiter=",", skiprows=header, ndmin=2)
    started = time.perf_counter()
    units = data[:, 0].astype(np.int64)
    times = data[:, 1]
    neurons = max(args.neurons, int(units.max()) + 1 if len(units) else 0)
    width = args.bin_ms / 1000.0
    start = times.min() if len(times) else 0.0
    bins = int(np.ceil((times.max() - start) / width)) + 1 if len(times) else 1
    counts = np.zeros((neurons, bins))
    np.add.at(counts, (units, ((times - start) / width).astype(np.int64)), 1)
    firing = counts.std(axis=1) > 0
    z = np.zeros_like(counts)
    z[firing] = (counts[firing] - counts[firing].mean(axis=1, keepdims=True)) / counts[firing].std(axis=1, keepdims=True)

    active = z[firing]
    n = active.shape[0]
    found = []
    if n >= 2:
        correlation = active @ active.T / bins
        values, vectors = np.linalg.eigh(correlation)
        bound = (1 + np.sqrt(n / bins)) ** 2
        significant = vectors[:, values > bound]
        if significant.shape[1] > 0:
            projected = significant.T @ active
            ica = FastICA(n_components=significant.shape[1], random_state=args.seed, max_iter=1000, whiten="unit-variance")
            ica.fit(projected.T)
            patterns = significant @ ica.components_.T
            index = np.flatnonzero(firing)
            for k in range(patterns.shape[1]):
                w = patterns[:, k] / np.linalg.norm(patterns[:, k])
                if -w.min() > w.max():
                    w = -w
                members = index[w > w.mean() + 2 * w.std()]
                if len(members) < 2:
                    continue
                projection = w @ active
                strength = projection ** 2 - (w ** 2) @ (active ** 2)
                on = np.flatnonzero(strength > args.strength)
                assembly = {"members": sorted(int(m) for m in members)}
                if len(on):
                    assembly["start_s"] = float(start + on[0] * width)
                    assembly["end_s"] = float(start + (on[-1] + 1) * width)
                found.append(assembly)
    json.dump({"seconds": time.perf_counter() - started, "assemblies": found}, sys.stdout)
    print()


if __name__ == "__main__":
    main()
