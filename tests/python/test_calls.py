"""The calls' contract: settings as keys, errors as Python exceptions, progress, cliques
against brute force, the GIL released, and Ctrl-C."""
import _thread
import itertools
import threading
import time

import numpy as np
import pytest

import spikeminer
from conftest import DATA


@pytest.fixture(scope="module")
def demo():
    return spikeminer.simulate("demo", progress=False)


def test_settings_as_groups_dotted_keys_and_a_dict(demo):
    c = spikeminer.run(demo, progress=False)
    largest = max(len(x["members"]) for x in c.assemblies)  # only the largest stay
    a = spikeminer.run(demo, assemblies={"min_size": largest}, progress=False)
    b = spikeminer.run(demo, settings={"assemblies.min_size": largest}, progress=False)
    assert a.settings["assemblies"]["min_size"] == largest == b.settings["assemblies"]["min_size"]
    assert [x["members"] for x in a.assemblies] == [x["members"] for x in b.assemblies]
    assert a.assemblies and all(len(x["members"]) >= largest for x in a.assemblies)
    assert len(a.assemblies) < len(c.assemblies)
    keys = dict(spikeminer.config_keys())
    assert {"cofiring.q", "assemblies.min_size", "nwb", "backend"} <= set(keys) and "input" in keys


def test_bad_settings_are_value_errors(demo):
    with pytest.raises(ValueError, match="unknown key 'cofiring.qq'"):
        spikeminer.run(demo, cofiring={"qq": 1}, progress=False)
    with pytest.raises(ValueError, match="Jaccard"):
        spikeminer.run(demo, assemblies={"jaccard": 2}, progress=False)
    with pytest.raises(ValueError, match="not as 'input' or 'simulate'"):
        spikeminer.run(demo, simulate={"seed": 2}, progress=False)
    with pytest.raises(ValueError, match="'read' settings apply where the recording is read"):
        spikeminer.run(demo, read={"tick": "1ms"}, progress=False)


def test_files_errors_are_os_errors(tmp_path):
    with pytest.raises(OSError, match="missing.csv"):
        spikeminer.read(tmp_path / "missing.csv", progress=False)
    bad = tmp_path / "bad.csv"
    bad.write_text("unit,time_s\n1,0.5\n2,soon\n")
    with pytest.raises(OSError, match=r"bad.csv line 3"):
        spikeminer.read(bad, progress=False)


def test_output_rules(tmp_path, demo):
    full = tmp_path / "full"
    full.mkdir()
    (full / "keep.txt").write_text("mine")
    with pytest.raises(ValueError, match="is not empty"):
        spikeminer.run(demo, output=full, progress=False)
    assert (full / "keep.txt").read_text() == "mine"


def test_progress_reaches_the_callback(demo):
    seen = []
    spikeminer.run(demo, progress=lambda task, done, total: seen.append((task, done, total)))
    assert all(isinstance(t, str) and d >= 0 for t, d, _ in seen)
    tasks = {t for t, _, _ in seen}
    assert len(tasks) >= 3  # every stage's start and end reach the callback, however quick
    assert all(any(t == task and d == total for t, d, total in seen) for task in tasks)  # each one's end

    def fail(task, done, total):
        raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        spikeminer.run(demo, progress=fail)


def brute_force_cliques(n, edges):
    adjacent = {(a, b) for a, b in edges} | {(b, a) for a, b in edges}
    cliques = [set(c) for k in range(1, n + 1) for c in itertools.combinations(range(n), k)
               if all((a, b) in adjacent for a, b in itertools.combinations(c, 2))]
    return sorted(sorted(c) for c in cliques if not any(c < d for d in cliques))


@pytest.mark.parametrize("seed", range(5))
def test_cliques_against_brute_force(seed):
    rng = np.random.default_rng(seed)
    n = 11
    edges = [(a, b) for a, b in itertools.combinations(range(n), 2) if rng.random() < 0.5]
    assert spikeminer.cliques(np.array(edges), vertices=n) == brute_force_cliques(n, edges)
    big = [c for c in brute_force_cliques(n, edges) if len(c) >= 3]
    assert spikeminer.cliques(edges, vertices=n, min_size=3) == big


def test_cliques_refuse_bad_edges():
    with pytest.raises(ValueError, match="shape"):
        spikeminer.cliques(np.array([1, 2, 3]))
    with pytest.raises(ValueError, match="negative"):
        spikeminer.cliques([(0, -1)])
    with pytest.raises(ValueError, match="integer vertex numbers"):
        spikeminer.cliques([(0.5, 1.7)])
    with pytest.raises(ValueError, match="not below vertices=2"):
        spikeminer.cliques([(0, 2)], vertices=2)
    assert spikeminer.cliques([]) == []


def test_the_gil_is_released(demo):
    entered = threading.Event()
    returned = []

    def work():
        entered.set()
        spikeminer.run(demo, progress=False)
        returned.append(time.monotonic())  # before this thread lets go of the GIL again

    worker = threading.Thread(target=work)
    worker.start()
    entered.wait()
    turns = []
    while worker.is_alive():
        turns.append(time.monotonic())
        time.sleep(0.001)
    worker.join()
    # Had the call held the GIL, this thread would only have run again once it returned.
    assert any(t < returned[0] for t in turns[1:])


def test_ctrl_c_stops_a_long_run_and_writes_nothing(tmp_path, demo):
    out = tmp_path / "results"
    timer = threading.Timer(0.5, _thread.interrupt_main)
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        # Significance against a million surrogates: far longer than the timer.
        spikeminer.run(demo, output=out, significance={"q": 0.05, "surrogates": 1000000}, progress=False)
    timer.join()
    assert not out.exists()
    assert list(tmp_path.iterdir()) == []
    assert spikeminer.read(DATA / "songbird_spikes.txt", progress=False).num_spikes == 3336  # still usable
