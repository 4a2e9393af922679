"""Spike trains in every shape Python holds them are accepted alike, and bad ones are
refused with a message naming the element."""
import numpy as np
import pytest

import spikeminer


def spikes(seed=3, units=5, n=400):
    rng = np.random.default_rng(seed)
    times = np.sort(rng.uniform(0, 20, n))
    ids = rng.integers(0, units, n) * 7 + 2  # ids 2, 9, 16, ...: not positions
    return times, ids


def same(a, b):
    assert a.labels == b.labels
    assert np.array_equal(a.times(), b.times())
    assert np.array_equal(a.neurons(), b.neurons())


@pytest.mark.parametrize("time_type", [np.float32, np.float64])
@pytest.mark.parametrize("unit_type", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64])
def test_every_numeric_dtype(time_type, unit_type):
    times, ids = spikes()
    rec = spikeminer.recording(times.astype(time_type), ids.astype(unit_type), progress=False)
    assert rec.num_spikes == len(times)
    assert rec.labels == [str(u) for u in np.unique(ids)]
    expected = times.astype(time_type).astype(np.float64)
    assert np.allclose(rec.times(), np.sort(expected), atol=1e-6)


def test_every_shape_gives_one_recording():
    times, ids = spikes()
    reference = spikeminer.recording(times, ids, progress=False)
    per_unit = {int(u): times[ids == u] for u in np.unique(ids)}
    same(spikeminer.recording(per_unit, progress=False), reference)
    order = np.random.default_rng(1).permutation(len(times))
    same(spikeminer.recording(times[order], ids[order], progress=False), reference)  # unsorted: sorted here
    strided = np.stack([times, times]).T[:, 0]  # a view with a stride of two elements
    same(spikeminer.recording(strided, ids, progress=False), reference)

    class Ts:  # pynapple's Ts: times() in seconds
        def __init__(self, t):
            self._t = t

        def times(self):
            return self._t

    class TsGroup(dict):  # pynapple's TsGroup: unit id -> Ts
        pass

    same(spikeminer.recording(TsGroup({u: Ts(t) for u, t in per_unit.items()}), progress=False), reference)
    as_list = spikeminer.recording(list(per_unit.values()), progress=False)
    assert as_list.labels == [str(i) for i in range(len(per_unit))]
    assert as_list.num_spikes == len(times)


def test_neo_spike_trains():
    import neo
    import quantities as pq

    times, ids = spikes()
    trains = [neo.SpikeTrain(times[ids == u] * 1000 * pq.ms, t_stop=20000 * pq.ms, name=f"unit{u}") for u in np.unique(ids)]
    rec = spikeminer.recording(trains, progress=False)
    assert rec.labels == [f"unit{u}" for u in np.unique(ids)]
    assert np.allclose(np.sort(rec.times()), times, atol=1e-6)


def test_layouts_numpy_allows():
    times, ids = spikes()
    reference = spikeminer.recording(times, ids, progress=False)
    same(spikeminer.recording(times.astype(">f8"), ids.astype(">i4"), progress=False), reference)  # big-endian
    table = np.zeros(len(times), dtype=[("u", "i4"), ("t", "f8")])  # fields 12 bytes apart: unaligned views
    table["u"], table["t"] = ids, times
    same(spikeminer.recording(table["t"], table["u"], progress=False), reference)
    same(spikeminer.recording(times[::-1], ids[::-1], progress=False), reference)  # a negative stride


def test_ids_far_apart_and_huge():
    times = np.array([0.1, 0.2, 0.3, 0.4])
    ids = np.array([2**40, 7, 2**64 - 1, 7], dtype=np.uint64)  # past the table of ids: sorted instead
    rec = spikeminer.recording(times, ids, progress=False)
    assert rec.labels == ["7", str(2**40), str(2**64 - 1)]
    assert rec.neurons().tolist() == [1, 0, 2, 0]


def test_integer_times_per_unit_are_refused():
    with pytest.raises(ValueError, match="unit 0: integer spike times"):
        spikeminer.recording([np.array([30000, 60000])], progress=False)


def test_unit_names_and_duplicates():
    rec = spikeminer.recording(np.array([0.5, 0.1, 0.1]), np.array(["b", "a", "a"]), progress=False)
    assert rec.labels == ["b", "a"] and rec.num_spikes == 3  # first appearance, as the CSV reader orders names
    numeric = spikeminer.recording(np.array([0.1, 0.2, 0.3]), np.array(["10", "2", "7.0"]), progress=False)
    assert numeric.labels == ["2", "7", "10"]  # integer names in numeric order, "7.0" is unit 7
    assert spikeminer.recording(np.array([0.1]), np.array([b"x"]), progress=False).labels == ["x"]
    with pytest.raises(ValueError, match="names the unit of an earlier label"):
        spikeminer.recording({"7": [0.1], "7.0": [0.2]}, progress=False)
    merged = spikeminer.recording(np.array([0.5, 0.1, 0.1]), np.array([1, 0, 0]), duplicates="merge", progress=False)
    assert merged.num_spikes == 2


def test_empty_arrays_are_a_recording_without_spikes():
    rec = spikeminer.recording(np.empty(0), np.empty(0, dtype=np.int64), progress=False)
    assert rec.num_spikes == 0 and rec.num_neurons == 0


@pytest.mark.parametrize("times, units, message", [
    ([0.1, 0.2, np.nan], [0, 1, 2], r"times\[2\] = nan"),
    ([0.1, np.inf], [0, 1], r"times\[1\] = inf"),
    ([0.1, 0.2], [0, -4], r"units\[1\] = -4: unit ids are 0 or more"),
    ([0.1, 0.2, 0.3], [0, 1], r"differ in length: 3 and 2"),
    ([[0.1, 0.2]], [[0, 1]], r"times: expected a one-dimensional array"),
    (np.array([1, 2], dtype=np.int64), [0, 1], r"float32 or float64.*sampling rate"),
    ([0.1, 0.2], [0.5, 1.5], r"units: expected integer unit ids"),
    ([0.1, 1e300], [0, 1], r"times\[1\] = 1e\+300"),
])
def test_bad_arrays_are_refused(times, units, message):
    with pytest.raises(ValueError, match=message):
        spikeminer.recording(np.asarray(times), np.asarray(units), progress=False)


def test_other_refusals():
    with pytest.raises(ValueError, match="give the unit of each spike"):
        spikeminer.recording(np.array([0.1, 0.2]), progress=False)
    with pytest.raises(ValueError, match="'3' names the unit of an earlier label"):
        spikeminer.recording({"a": [0.1], "b": [0.2], 3: [0.3], "3": [0.4]}, progress=False)
    with pytest.raises(ValueError, match="tick"):
        spikeminer.recording(np.array([0.1]), np.array([0]), tick="fast", progress=False)
