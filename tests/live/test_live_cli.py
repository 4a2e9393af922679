"""`spikeminer live` as a user runs it: a simulated recording replayed faster than real time
(scripts/replay.py) into a growing file, through standard input and over ZeroMQ; the final
results equal `spikeminer run --config DIR/settings.json` on the same file, byte for byte;
the live tables are whole lines at every moment; the PUB socket tells each window and
activation the tables hold; a malformed spike, a late one, Ctrl-C and settings live cannot
take get their message and exit code. Nothing here depends on the machine's speed: a slower
machine decides the same windows later (or, behind, at the end)."""
import csv
import json
import os
import pathlib
import re
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest
import zmq

CLI = os.environ.get("SPIKEMINER_CLI", "")
REPLAY = os.environ.get("SPIKEMINER_REPLAY", str(pathlib.Path(__file__).resolve().parents[2] / "scripts" / "replay.py"))
TABLES = ("assemblies.csv", "windows.csv", "episodes.csv")
SPEED = "40"  # two minutes of recording in three seconds


def cli(*args, **kwargs):
    if not CLI or not os.path.exists(CLI):
        pytest.fail("SPIKEMINER_CLI must name the spikeminer program (ctest sets it)")
    return subprocess.run([CLI, *map(str, args)], capture_output=True, text=True, **kwargs)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(condition, seconds, what):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    pytest.fail(f"waited {seconds} s for {what}")


def status(folder):
    try:
        return json.loads((folder / "status.json").read_text())
    except (FileNotFoundError, json.JSONDecodeError):
        return {}


def passed(folder):
    """Windows decided live, with those left to the end by a coarser step while behind."""
    now = status(folder)
    return now.get("windows", 0) + now.get("windows_skipped", 0)


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


@pytest.fixture
def started():
    """Popen for a test; what is still running at its end is killed (a failed test leaves
    no live session behind)."""
    running = []

    def start(*args, **kwargs):
        running.append(subprocess.Popen(*args, **kwargs))
        return running[-1]

    yield start
    for process in running:
        if process.poll() is None:
            process.kill()
            process.wait()


@pytest.fixture(scope="module")
def recording(tmp_path_factory):
    """Two minutes of the demo scenario (seed 21) as CSV, and its number of spikes."""
    path = tmp_path_factory.mktemp("rec") / "rec.csv"
    done = cli("simulate", "--scenario", "demo", "--duration", "120", "--seed", "21", "-o", path)
    assert done.returncode == 0, done.stderr
    rows_and_header = [line for line in path.read_text().splitlines() if line and not line.startswith("#")]
    return path, len(rows_and_header) - 1


def same_as_run(recording_path, live_dir, tmp_path):
    """The live session's final tables against `run` with its settings on the file."""
    out = tmp_path / "run"
    done = cli("run", recording_path, "--config", live_dir / "settings.json", "-o", out)
    assert done.returncode == 0, done.stderr
    for name in TABLES:
        assert (live_dir / "final" / name).read_bytes() == (out / name).read_bytes(), name
    assert len(rows(live_dir / "final" / "assemblies.csv")) > 0


def check_whole_lines(path, fields):
    text = path.read_text()
    assert text.endswith("\n")
    for line in text.splitlines()[1:]:
        assert len(next(csv.reader([line]))) == fields, line


def test_a_growing_file_followed_until_ctrl_c(recording, tmp_path, started):
    rec, spikes = recording
    grow = tmp_path / "grow.csv"
    grow.touch()
    out = tmp_path / "live"
    live = started([CLI, "live", "--source", grow, "-o", out, "--refresh", "30"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    replay = started([sys.executable, REPLAY, rec, "--to", grow, "--speed", SPEED])
    # While spikes come, the live tables are whole lines whenever they are read.
    while replay.poll() is None:
        if (out / "live-windows.csv").exists():
            check_whole_lines(out / "live-windows.csv", 6)
            check_whole_lines(out / "activations.csv", 6)
        time.sleep(0.1)
    assert replay.returncode == 0
    wait_for(lambda: status(out).get("spikes") == spikes, 300, "every spike to be in")
    wait_for(lambda: passed(out) >= 100, 300, "the windows of those spikes to be decided")
    live.send_signal(signal.SIGINT)  # the end of a session on a file
    stdout, stderr = live.communicate(timeout=600)
    assert live.returncode == 0, stderr
    assert "stopped" in stdout and "wrote" in stdout
    assert status(out)["state"].startswith("ended: stopped")
    assert json.loads((out / "settings.json").read_text())["input"] == str(grow)
    same_as_run(rec, out, tmp_path)
    decided = rows(out / "live-windows.csv")
    assert len(decided) == status(out)["windows"] and passed(out) >= 100
    assert [int(r["window"]) for r in decided] == sorted(int(r["window"]) for r in decided)


def test_zmq_binary_messages_with_the_results_published(recording, tmp_path, started):
    rec, spikes = recording
    source, publish = f"tcp://127.0.0.1:{free_port()}", f"tcp://127.0.0.1:{free_port()}"
    out = tmp_path / "live"
    received = {}
    subscriber = zmq.Context.instance().socket(zmq.SUB)
    subscriber.setsockopt(zmq.RCVHWM, 0)
    subscriber.setsockopt_string(zmq.SUBSCRIBE, "")
    subscriber.connect(publish)

    def listen():
        while subscriber.poll(600_000):
            topic, body = subscriber.recv_string().split(" ", 1)
            received.setdefault(topic, []).append(json.loads(body))
            if topic == "end":
                return

    listener = threading.Thread(target=listen)
    listener.start()
    live = started([CLI, "live", "--source", source, "--publish", publish, "-o", out, "--refresh", "30"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(0.5)  # the live session subscribes before the replay sends
    replay = subprocess.run([sys.executable, REPLAY, rec, "--zmq", source, "--binary", "--wait", "2", "--speed", SPEED])
    assert replay.returncode == 0
    stdout, stderr = live.communicate(timeout=600)  # the replay's "end" ends the session
    listener.join(timeout=60)
    assert live.returncode == 0, stderr
    assert "the source ended" in stdout
    assert status(out)["spikes"] == spikes
    same_as_run(rec, out, tmp_path)
    windows = rows(out / "live-windows.csv")
    activations = rows(out / "activations.csv")
    assert [w["index"] for w in received["window"]] == [int(w["window"]) for w in windows]
    assert len(received.get("activation", [])) == len(activations)
    if activations:
        assert received["activation"][0]["members"] == activations[0]["members"].split(" ")
    searches = int(re.search(r"(\d+) searches for the assemblies", stdout).group(1))
    assert len(received.get("assemblies", [])) == searches
    assert received["end"][0]["reason"] == "the source ended"


def test_standard_input_text_lines(recording, tmp_path, started):
    rec, _ = recording
    out = tmp_path / "live"
    replay = started([sys.executable, REPLAY, rec, "--stdout", "--speed", "400"], stdout=subprocess.PIPE)
    live = subprocess.run([CLI, "live", "--source", "-", "-o", out], stdin=replay.stdout, capture_output=True, text=True, timeout=600)
    replay.wait()
    assert live.returncode == 0, live.stderr
    assert json.loads((out / "settings.json").read_text())["input"] == ""
    same_as_run(rec, out, tmp_path)


def test_a_malformed_spike_ends_the_session_with_what_came_before(tmp_path):
    lines = ["unit,time_s"] + [f"{u},{t / 100:.3f}" for t in range(1, 1500) for u in (1, 2, 3) if (t + u) % 7 != 0]
    out = tmp_path / "live"
    done = cli("live", "--source", "-", "-o", out, input="\n".join(lines + ["4,soon", "5,20.0"]) + "\n")
    assert done.returncode == 1
    assert f"standard input line {len(lines) + 1}" in done.stderr and "soon" in done.stderr
    assert (out / "final" / "windows.csv").exists()
    assert status(out)["state"].startswith("ended: stopped by a malformed spike")


def test_a_spike_later_than_the_lateness_is_left_out_and_said(tmp_path, started):
    lines = ["unit,time_s"] + [f"{u},{t / 10:.1f}" for t in range(1, 400) for u in (1, 2)]
    out = tmp_path / "live"
    live = started([CLI, "live", "--source", "-", "-o", out], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    live.stdin.write("\n".join(lines[:300]) + "\n")
    live.stdin.flush()
    wait_for(lambda: status(out).get("spikes", 0) > 0, 300, "the first spikes to be in order")
    live.stdin.write("3,1.0\n" + "\n".join(lines[300:]) + "\n")  # 1 s after 15 s came: 14 s late
    stdout, stderr = live.communicate(timeout=600)
    assert live.returncode == 0, stderr
    assert status(out)["late_spikes"] == 1
    assert "raise --lateness" in stderr


@pytest.mark.parametrize("args, says", [
    (["--edge-test", "surrogate"], "surrogate"),
    (["--lateness", "-1"], "--lateness"),
    (["--nwb"], "--nwb"),  # not a live option: the session writes no NWB file
    (["--window", "10", "--step", "3"], "step"),
])
def test_settings_live_cannot_take_are_usage_errors(tmp_path, args, says):
    done = cli("live", "--source", "-", "-o", tmp_path / "out", *args, input="")
    assert done.returncode == 2 and says in done.stderr


def test_the_folder_cannot_be_the_file_followed_nor_a_missing_file(tmp_path):
    followed = tmp_path / "rec.csv"
    followed.write_text("unit,time_s\n")
    done = cli("live", "--source", followed, "-o", followed)
    assert done.returncode == 2
    done = cli("live", "--source", tmp_path / "missing.csv", "-o", tmp_path / "out")
    assert done.returncode == 2 and "no such file" in done.stderr


def test_replay_names_the_recordings_tick_for_binary_messages(tmp_path):
    """--binary messages carry no tick: replay.py names the recording's, read from the writer's
    first line, whatever follows it there, and says nothing for the default 1 µs."""
    for tick, warned in (("30000", True), ("1000000", False)):
        rec = tmp_path / f"r{tick}.csv"
        rec.write_text(f"# spikeminer spike trains; tick t; ticks_per_second={tick}; recorded in room 2\nunit,time_s\n1,0.5\n")
        done = subprocess.run([sys.executable, REPLAY, str(rec), "--binary", "--stdout", "--speed", "1000"], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        assert ("give the live session --tick " + tick + "/s\n" in done.stderr) == warned, done.stderr
        assert warned or "--tick" not in done.stderr
