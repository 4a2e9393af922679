# %% [markdown]
# # spikeminer from Python: assemblies in a simulated recording
#
# Run it as a script (`PYTHONPATH=build/app/python /usr/bin/python3 docs/python_example.py`) or
# cell by cell in Jupyter or VS Code. It simulates four minutes of 100 neurons with embedded
# assemblies, runs the whole pipeline at the defaults, and draws the raster with each
# assembly's members in its colour, and the assemblies' timeline.

# %%
import os

import matplotlib

if "MPLBACKEND" not in os.environ and not os.environ.get("DISPLAY"):
    matplotlib.use("Agg")  # no screen: the figures go to files only
import matplotlib.pyplot as plt
import numpy as np

import spikeminer

# %% A recording: here simulated; spikeminer.read("rec.nwb") or spikeminer.run(times, units) for yours.
recording = spikeminer.simulate("demo", seed=1)
print(f"{recording.num_neurons} neurons, {recording.num_spikes} spikes, {recording.span_s[1]:.0f} s")

# %% The whole pipeline at the defaults, as `spikeminer run`.
result = spikeminer.run(recording)
for a in result.assemblies:
    print(f"assembly {a['id']}: neurons {' '.join(a['members'])}, {a['start_s']:.1f}-{a['end_s']:.1f} s, "
          f"{len(a['activations_s'])} activations")

# %% The raster of the first 20 s: every spike in grey, each assembly's members in its colour.
shown = 20.0
times, neurons = recording.times(), recording.neurons()
early = times < shown
labels = recording.labels
fig, ax = plt.subplots(figsize=(10, 5))
ax.scatter(times[early], neurons[early], s=1, c="0.7", marker="|")
colours = plt.cm.tab10.colors
for k, a in enumerate(result.assemblies):
    rows = [labels.index(m) for m in a["members"]]
    member = np.isin(neurons, rows) & early
    ax.scatter(times[member], neurons[member], s=3, color=colours[k % 10], marker="|", label=f"assembly {a['id']}")
ax.set(xlabel="time (s)", ylabel="neuron", title="spikes, assemblies' members coloured", xlim=(0, shown))
ax.legend(loc="upper right", fontsize="small", markerscale=4)
fig.savefig("assemblies_raster.png", dpi=100)

# %% The timeline: a row per assembly, a bar over each active period, a tick at each activation.
fig, ax = plt.subplots(figsize=(10, 3))
for k, a in enumerate(result.assemblies):
    ax.broken_barh([(start, end - start) for start, end in a["active"]], (k - 0.35, 0.7), color=colours[k % 10], alpha=0.5)
    ax.plot(a["activations_s"], np.full(len(a["activations_s"]), k), "|", color=colours[k % 10], markersize=6)
ax.set(xlabel="time (s)", yticks=range(len(result.assemblies)), yticklabels=[f"assembly {a['id']}" for a in result.assemblies],
       title="assemblies through time")
fig.tight_layout()
fig.savefig("assemblies_timeline.png", dpi=100)
print("wrote assemblies_raster.png and assemblies_timeline.png")
