"""Spike trains in the shapes Python holds them, turned into one recording.

Accepted: a path (any format spikeminer reads); a Recording; two arrays, spike times in
seconds and unit ids; one array of times per unit (a list, or a dict from unit id to times);
neo.SpikeTrain objects; any mapping of unit ids to objects holding times, as pynapple's
TsGroup does.
"""
import os

import numpy as np

from . import _spikeminer


def _seconds(train):
    """One unit's spike times in seconds as a float array."""
    if hasattr(train, "rescale") and hasattr(train, "magnitude"):  # neo.SpikeTrain (quantities)
        return np.asarray(train.rescale("s").magnitude, dtype=np.float64)
    times = getattr(train, "times", None)
    if callable(times):  # pynapple Ts: times() in seconds
        return np.asarray(times(), dtype=np.float64)
    if hasattr(train, "t"):
        return np.asarray(train.t, dtype=np.float64)
    array = np.asarray(train)
    if array.dtype.kind not in "fiu":
        raise ValueError(f"a unit's spike times: expected numbers, got dtype {array.dtype}")
    return array.astype(np.float64, copy=False)


def _label(unit, fallback):
    """A unit's label: an integer id as it is, else its text."""
    if isinstance(unit, (int, np.integer)):
        if unit < 0:
            raise ValueError(f"unit id {unit}: unit ids are 0 or more")
        return int(unit)
    name = getattr(unit, "name", None) if not isinstance(unit, str) else unit
    return fallback if name is None else str(name)


def _from_trains(labels, trains, tick, duplicates, source):
    """One array of times per unit, each unit under its label."""
    times = [_seconds(t) for t in trains]
    for label, t in zip(labels, times):
        if t.ndim != 1:
            raise ValueError(f"unit {label}: expected a one-dimensional array of spike times, got {t.ndim} dimensions")
    all_times = np.concatenate(times) if times else np.empty(0, dtype=np.float64)
    lengths = [len(t) for t in times]
    if all(isinstance(label, int) for label in labels):
        if len(set(labels)) != len(labels):
            raise ValueError("unit ids: each unit once")
        units = np.repeat(np.asarray(labels, dtype=np.int64), lengths)
        names = None
    else:
        names = [str(label) for label in labels]
        if len(set(names)) != len(names):
            raise ValueError("unit labels: each unit once")
        units = np.repeat(np.arange(len(names), dtype=np.int64), lengths)
    return _spikeminer._from_arrays(all_times, units, names, tick, duplicates, source)


def recording(data, units=None, *, tick="", duplicates="keep", read=None, progress=None):
    """The Recording of `data` (see the module's help for the shapes it takes)."""
    if isinstance(data, _spikeminer.Recording):
        if units is not None:
            raise ValueError("units: a Recording has its own")
        return data
    if isinstance(data, (str, os.PathLike)):
        if units is not None:
            raise ValueError("units: a file has its own")
        options = dict(read or {})
        return _spikeminer._read(os.fspath(data), options.pop("format", ""), options.pop("tick", tick),
                                 options.pop("duplicates", duplicates), options.pop("units", "good"), progress)
    if units is not None:
        times = np.asarray(data)
        ids = np.asarray(units)
        if ids.dtype.kind in "US":  # unit names: each its own label, in sorted order
            names, positions = np.unique(ids, return_inverse=True)
            return _spikeminer._from_arrays(times, positions.astype(np.int64), [str(n) for n in names], tick, duplicates,
                                            "numpy arrays")
        return _spikeminer._from_arrays(times, ids, None, tick, duplicates, "numpy arrays")
    if isinstance(data, np.ndarray):
        raise ValueError("give the unit of each spike as well: recording(times, units)")
    if hasattr(data, "keys") and hasattr(data, "values"):  # a dict, a pynapple TsGroup
        keys = list(data.keys())
        return _from_trains([_label(k, str(k)) for k in keys], [data[k] for k in keys], tick, duplicates, "spike trains")
    trains = list(data)
    labels = [_label(getattr(t, "name", None) or i, i) for i, t in enumerate(trains)]
    return _from_trains(labels, trains, tick, duplicates, "spike trains")
