"""spikeminer from Python: repeating firing sequences (episodes) and neuron assemblies
through time in spike trains, the same pipeline and numbers as the `spikeminer` command.

    import spikeminer
    r = spikeminer.run(times, units)            # spike times in s, unit ids
    r = spikeminer.run("recording.nwb", output="results/")
    r = spikeminer.run(spikeminer.simulate("demo"), cofiring={"q": 0.05})
    for a in r.assemblies: print(a["id"], a["members"], a["start_s"], a["end_s"])

Spike trains may be given as a path (NWB, HDF5, CSV, text, a Kilosort/Phy folder), a
Recording, two arrays (times in seconds, integer unit ids or unit names), one array of
times per unit (a list, or a dict from unit id to times), neo.SpikeTrain objects, or any
mapping of unit ids to objects holding times (pynapple's TsGroup).

Settings are the keys of a `spikeminer run` config file (spikeminer.config_keys()), as
keyword arguments (groups as dicts: mining={"q": 0.05}, backend="cpu") or a `settings`
dict (nested, or with dotted keys: {"cofiring.q": 0.05}).

Long calls release the GIL, show a tqdm bar when tqdm is installed (progress=False for
none, or a callable taking task, done, total), and stop on Ctrl-C with KeyboardInterrupt,
writing nothing. Bad arguments raise ValueError, unreadable files OSError, other failures
(a stage that does not fit the memory budget) RuntimeError, each with spikeminer's message.
"""
import json
import os

from . import _spikeminer
from ._inputs import recording as _recording
from ._progress import finish as _finish
from ._progress import reporter as _reporter
from ._spikeminer import Recording, config_keys

__version__ = _spikeminer.__version__
__all__ = ["Recording", "Result", "read", "simulate", "recording", "mine", "cofiring", "cliques", "run", "config_keys"]


class Result(dict):
    """A run's results: a dict whose keys are also attributes (r.assemblies, r["assemblies"])."""

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    def __dir__(self):
        return list(self.keys()) + list(super().__dir__())


def _settings(settings, keys):
    """One nested settings object from a dict (nested or dotted) and keyword arguments."""
    merged = {}

    def put(key, value):
        *groups, last = key.split(".")
        into = merged
        for group in groups:
            into = into.setdefault(group, {})
            if not isinstance(into, dict):
                raise ValueError(f"settings: '{group}' is a group of settings, not a value")
        if isinstance(value, dict):
            for k, v in value.items():
                put(f"{key}.{k}", v)
        else:
            into[last] = value

    for source in (settings or {}, keys):
        if not isinstance(source, dict):
            raise ValueError(f"settings: expected a dict, got {type(source).__name__}")
        for key, value in source.items():
            put(key, value)
    return merged


def _called(function, progress, *args):
    callback = _reporter(progress)
    try:
        return function(*args, callback)
    finally:
        _finish(callback)


def read(path, *, format="", tick="", duplicates="keep", units="good", progress="auto"):
    """Reads a recording: any format `spikeminer run` reads (detected unless `format` says).
    `tick` for files in seconds (default: the file's own, else 1 us); `units` of a Kilosort
    or Phy folder: "good" (its curation labels) or "all"."""
    return _called(_spikeminer._read, progress, os.fspath(path), format, tick, duplicates, units)


def simulate(scenario="demo", *, seed=1, duration_s=None, progress="auto"):
    """Simulates a scenario of the built-in network simulator (demo, assemblies, dynamics,
    paper, large, none); the Recording keeps its ground truth, which run() scores."""
    return _called(_spikeminer._simulate, progress, scenario, seed, duration_s)


def recording(data, units=None, *, tick="", duplicates="keep", progress="auto"):
    """The Recording of spike trains in any of the shapes the module takes. Times in seconds
    become ticks of `tick` (default 1 us); unsorted times are sorted."""
    callback = _reporter(progress)
    try:
        return _recording(data, units, tick=tick, duplicates=duplicates, progress=callback)
    finally:
        _finish(callback)


def _input(data, units, settings):
    """The recording a call works on: `data`, or the settings' input or simulation."""
    read_settings = settings.get("read", {})
    if data is None:
        if "simulate" in settings:
            s = settings["simulate"]
            if isinstance(s, str):
                s = {"scenario": s}
            return simulate(s.get("scenario", "demo"), seed=s.get("seed", 1), duration_s=s.get("duration_s"), progress=False)
        if "input" in settings:
            data = settings["input"]
        else:
            raise ValueError("give spike trains, a path, or settings with 'input' or 'simulate'")
    return _recording(data, units, tick=read_settings.get("tick", ""), duplicates=read_settings.get("duplicates", "keep"),
                      read=read_settings)


def _split(data, units, settings, keys):
    merged = _settings(settings, keys)
    if data is not None and ("input" in merged or "simulate" in merged):
        raise ValueError("settings: give the recording as the first argument, not as 'input' or 'simulate' too")
    rec = _input(data, units, merged)
    merged.pop("input", None)
    merged.pop("simulate", None)
    return rec, json.dumps(merged)


def mine(data, units=None, *, settings=None, progress="auto", **keys):
    """Frequent serial episodes over the whole recording (the `mining` settings): a dict with
    "episodes" (each: episode, neurons, intervals_ms, count, chance, significance), "levels"
    and "stopped" (why mining stopped early, if it did)."""
    rec, text = _split(data, units, settings, keys)
    return Result(_called(_spikeminer._mine, progress, rec, text))


def cofiring(data, units=None, *, settings=None, progress="auto", **keys):
    """The co-firing windows (the `cofiring` settings): a list of dicts with index, start_s,
    end_s, tests and edges (a dict of columns a, b, interval, count, baseline, expected, p,
    p_adjusted; interval -1 is synchrony)."""
    rec, text = _split(data, units, settings, keys)
    return _called(_spikeminer._cofiring, progress, rec, text)


def cliques(edges, *, vertices=None, min_size=1, backend="auto"):
    """The maximal cliques of an undirected graph given as an (m, 2) array of vertex pairs,
    each a sorted list, in sorted order."""
    import numpy as np

    array = np.asarray(edges)
    if array.size == 0:
        array = array.reshape(0, 2).astype(np.int64)
    if array.dtype.kind not in "iu":
        raise ValueError(f"edges: expected integer vertex numbers, got dtype {array.dtype}")
    if vertices is not None and int(vertices) < 0:
        raise ValueError(f"vertices: {vertices} is negative")
    if int(min_size) < 0:
        raise ValueError(f"min_size: {min_size} is negative")
    return _spikeminer._cliques(array, -1 if vertices is None else int(vertices), int(min_size), backend)


def run(data=None, units=None, *, output=None, settings=None, figure_seconds=10.0, progress="auto", **keys):
    """The whole pipeline, as `spikeminer run`: episodes, co-firing windows, their graph,
    cliques, assemblies through time. Returns a Result with labels, episodes, levels,
    windows, changes, assemblies, events, recovery (of a simulation), stages, notes and
    settings. With `output`, also writes the results folder `spikeminer run -o` writes."""
    rec, text = _split(data, units, settings, keys)
    result = _called(_spikeminer._run, progress, rec, text, "" if output is None else os.fspath(output), float(figure_seconds))
    return Result(result)
