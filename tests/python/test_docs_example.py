"""docs/python_example.py runs as a script and draws its two figures."""
import pathlib
import runpy

DOCS = pathlib.Path(__file__).resolve().parents[2] / "docs"


def test_the_example_runs_and_draws(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    runpy.run_path(str(DOCS / "python_example.py"), run_name="__main__")
    printed = capsys.readouterr().out
    assert "100 neurons" in printed and printed.count("assembly ") >= 3
    for name in ("assemblies_raster.png", "assemblies_timeline.png"):
        assert (tmp_path / name).read_bytes().startswith(b"\x89PNG")
