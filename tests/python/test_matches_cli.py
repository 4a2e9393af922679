"""The module's results are the command line's: on the demo, and on a real recording given
as a file and as numpy arrays."""
import json

import numpy as np
import pytest

import spikeminer
from conftest import DATA, read_csv


def assemblies_as_rows(result):
    return [(str(a["id"]), a["members"], len(a["windows"]), len(a["activations_s"]), a["start_s"], a["end_s"])
            for a in result.assemblies]


def rows_of_csv(folder):
    return [(r["id"], r["members"].split(), int(r["windows"]), int(r["activations"]), float(r["start_s"]), float(r["end_s"]))
            for r in read_csv(folder / "assemblies.csv")]


def episodes_of_csv(folder):
    return [(r["episode"], int(r["count"])) for r in read_csv(folder / "episodes.csv")]


def test_demo_equals_the_command_line(demo_cli, tmp_path):
    out = tmp_path / "py"
    result = spikeminer.run(spikeminer.simulate("demo", progress=False), output=out, nwb=True, progress=False)
    for name in ("assemblies.csv", "episodes.csv", "windows.csv"):
        assert (out / name).read_bytes() == (demo_cli / name).read_bytes(), name
    assert assemblies_as_rows(result) == pytest.approx(rows_of_csv(demo_cli))
    assert [(e["episode"], e["count"]) for e in result.episodes] == episodes_of_csv(demo_cli)
    windows = read_csv(demo_cli / "windows.csv")
    assert result.windows["edges"].tolist() == [int(w["edges"]) for w in windows]
    assert [len(c) for c in result.windows["cliques"]] == [int(w["cliques"]) for w in windows]
    assert len(result.assemblies) >= 3  # the demo embeds assemblies: the comparison is not of nothing
    assert result.recovery["assembly_recall"] > 0.5
    assert "results.nwb" in result.written
    summary = json.loads((demo_cli / "summary.json").read_text())
    assert result.recovery == summary["recovery"] and result.summary["assemblies"] == summary["assemblies"]


def test_a_real_recording_as_a_file_and_as_arrays(songbird_cli):
    from_file = spikeminer.run(DATA / "songbird_spikes.txt", progress=False)
    table = np.loadtxt(DATA / "songbird_spikes.txt")
    units, times = table[:, 0].astype(np.int64), table[:, 1]
    from_arrays = spikeminer.run(times, units, progress=False)
    expected = rows_of_csv(songbird_cli)
    assert assemblies_as_rows(from_file) == pytest.approx(expected)
    assert assemblies_as_rows(from_arrays) == pytest.approx(expected)
    episodes = episodes_of_csv(songbird_cli)
    assert len(episodes) > len(set(units))  # episodes of two neurons or more were found
    assert [(e["episode"], e["count"]) for e in from_file.episodes] == episodes
    assert [(e["episode"], e["count"]) for e in from_arrays.episodes] == episodes


def test_stages_alone_equal_the_run(demo_cli):
    rec = spikeminer.simulate("demo", progress=False)
    mined = spikeminer.mine(rec, progress=False)
    assert [(e["episode"], e["count"]) for e in mined.episodes] == episodes_of_csv(demo_cli)
    windows = spikeminer.cofiring(rec, progress=False)
    expected = read_csv(demo_cli / "windows.csv")
    assert len(windows) == len(expected)
    # Without lagged intervals every edge is a pair co-firing in synchrony: one per pair.
    assert [len(w["edges"]["a"]) for w in windows] == [int(w["edges"]) for w in expected]
    assert all((w["edges"]["interval"] == -1).all() for w in windows)
    assert [w["start_s"] for w in windows] == [float(w["start_s"]) for w in expected]
