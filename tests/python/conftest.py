"""Shared fixtures of the Python module's tests: the command-line program, the test data,
and runs of the demo and of a real recording through the command line, to compare with."""
import csv
import os
import pathlib
import subprocess

import pytest

DATA = pathlib.Path(__file__).resolve().parents[1] / "data"


def cli_path():
    path = os.environ.get("SPIKEMINER_CLI")
    if not path or not os.path.exists(path):
        pytest.fail("SPIKEMINER_CLI must name the spikeminer program (ctest sets it)")
    return path


def run_cli(*args):
    done = subprocess.run([cli_path(), *map(str, args)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


@pytest.fixture(scope="session")
def demo_cli(tmp_path_factory):
    """`spikeminer run --simulate demo` (the demo at the defaults), its results folder."""
    out = tmp_path_factory.mktemp("cli") / "demo"
    run_cli("run", "--simulate", "demo", "-o", out, "--nwb")
    return out


@pytest.fixture(scope="session")
def songbird_cli(tmp_path_factory):
    """The songbird HVC recording (PPSeq's example data, MIT) through the command line."""
    out = tmp_path_factory.mktemp("cli") / "songbird"
    run_cli("run", DATA / "songbird_spikes.txt", "-o", out)
    return out
