"""Spike trains in the shapes Python holds them, turned into one recording.

Accepted: a path (any format spikeminer reads); a Recording; two arrays, spike times in
seconds and unit ids (integers, or names); one array of times per unit (a list, or a dict
from unit id to times); neo.SpikeTrain objects; any mapping of unit ids to objects holding
times, as pynapple's TsGroup does.
"""
import os

import numpy as np

from . import _spikeminer

_SAMPLES = "integer spike times: give seconds as floats (sample numbers: divide by the sampling rate)"


def _readable(array):
    """The array itself where the library can read it in place, else one copy that it can."""
    if array.ndim == 1 and array.dtype.kind in "fiu" and not (
            array.dtype.isnative and array.flags.aligned and array.strides[0] % array.itemsize == 0):
        return np.ascontiguousarray(array, dtype=array.dtype.newbyteorder("="))
    return array


def _seconds(train, label):
    """One unit's spike times in seconds as a float array."""
    if hasattr(train, "rescale") and hasattr(train, "magnitude"):  # neo.SpikeTrain (quantities)
        return np.asarray(train.rescale("s").magnitude, dtype=np.float64)
    times = getattr(train, "times", None)
    if callable(times):  # pynapple Ts: times() in seconds
        train = times()
    elif hasattr(train, "t"):
        train = train.t
    array = np.asarray(train)
    if array.dtype.kind in "iu":
        raise ValueError(f"unit {label}: {_SAMPLES}")
    if array.dtype.kind != "f":
        raise ValueError(f"unit {label}: expected spike times in seconds, got dtype {array.dtype}")
    if array.ndim != 1:
        raise ValueError(f"unit {label}: expected a one-dimensional array of spike times, got {array.ndim} dimensions")
    return array.astype(np.float64, copy=False)


def _label(unit, position):
    """A unit's label: an integer id as it is, else its text (a neo train's name)."""
    if isinstance(unit, (bool, np.bool_)):
        raise ValueError(f"unit {unit!r}: a unit id is an integer or a name")
    if isinstance(unit, (int, np.integer)):
        if unit < 0:
            raise ValueError(f"unit id {unit}: unit ids are 0 or more")
        return int(unit)
    if isinstance(unit, bytes):
        return unit.decode()
    return str(unit) if unit is not None else position


def _from_trains(labels, trains, tick, duplicates, source):
    """One array of times per unit, each unit under its label."""
    times = [_seconds(t, label) for label, t in zip(labels, trains)]
    all_times = np.concatenate(times) if times else np.empty(0, dtype=np.float64)
    lengths = [len(t) for t in times]
    if all(isinstance(label, int) for label in labels):
        if len(set(labels)) != len(labels):
            raise ValueError("unit ids: each unit once")
        return _spikeminer._from_arrays(all_times, np.repeat(np.asarray(labels, dtype=np.uint64), lengths), None, tick,
                                        duplicates, source)
    positions = np.repeat(np.arange(len(labels), dtype=np.int64), lengths)
    return _spikeminer._from_arrays(all_times, positions, [str(label) for label in labels], tick, duplicates, source)


def _named_units(times, names, tick, duplicates):
    """Units named by text: each name its label, first appearance first (as the readers do)."""
    if names.dtype.kind == "S":
        names = np.char.decode(names)
    unique, first, inverse = np.unique(names, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    return _spikeminer._from_arrays(_readable(times), rank[inverse.reshape(-1)], [str(u) for u in unique[order]], tick,
                                    duplicates, "numpy arrays")


def recording(data, units=None, *, tick="", duplicates="keep", read=None, progress=None):
    """The Recording of `data` (see the module's help for the shapes it takes)."""
    if isinstance(data, _spikeminer.Recording):
        if units is not None:
            raise ValueError("units: a Recording has its own")
        return data
    if isinstance(data, (str, bytes, os.PathLike)):
        if units is not None:
            raise ValueError("units: a file has its own")
        options = dict(read or {})
        return _spikeminer._read(os.fsdecode(data), options.pop("format", ""), options.pop("tick", tick),
                                 options.pop("duplicates", duplicates), options.pop("units", "good"), progress)
    if units is not None:
        times = np.asarray(data)
        ids = np.asarray(units)
        if ids.dtype.kind in "US" and ids.ndim == 1 and times.ndim == 1 and len(ids) == len(times):
            return _named_units(times, ids, tick, duplicates)
        return _spikeminer._from_arrays(_readable(times), _readable(ids), None, tick, duplicates, "numpy arrays")
    if isinstance(data, np.ndarray):
        raise ValueError("give the unit of each spike as well: recording(times, units)")
    if hasattr(data, "keys") and hasattr(data, "values"):  # a dict, a pynapple TsGroup
        keys = list(data.keys())
        return _from_trains([_label(k, str(k)) for k in keys], [data[k] for k in keys], tick, duplicates, "spike trains")
    trains = list(data)
    labels = [_label(getattr(t, "name", None), i) for i, t in enumerate(trains)]
    return _from_trains(labels, trains, tick, duplicates, "spike trains")
