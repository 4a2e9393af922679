#!/usr/bin/env python3
"""Replays a recording in real time (or N times faster) for `spikeminer live`.

The recording is a spike table in text, as `spikeminer simulate -o rec.csv` or
`spikeminer convert REC rec.csv` writes it (`unit,time_s` lines; comments and a header
first). Its spikes go out in time order, each when its time comes (the first spike at
once), in batches of at most --batch-ms of recording:

  replay.py rec.csv --to grow.csv            append the lines to a file (live follows it)
  replay.py rec.csv --stdout | spikeminer live --source - -o out
  replay.py rec.csv --zmq tcp://*:5556       publish them on a ZeroMQ PUB socket: each batch
                                             one message of text lines, or with --binary the
                                             tag "SMB1" and 12-byte records (uint32 unit,
                                             float64 s, little-endian); "end" at the end

The comment and header lines go first, as they are, so that the live session sees the
tick and the units the writer declared.
"""

import argparse
import re
import struct
import sys
import time


def read_table(path):
    """The lines before the first row, and the rows as (time_s, unit, line) in time order."""
    head, rows = [], []
    time_column, unit_column = 1, 0
    with open(path, encoding="utf-8") as f:
        for line in f:
            text = line.rstrip("\r\n")
            if not rows and (not text.strip() or text.startswith(("#", "%"))):
                head.append(text)
                continue
            if not text.strip() or text.startswith(("#", "%")):
                continue
            fields = [x.strip().strip('"') for x in (text.split(",") if "," in text else text.split())]
            try:
                seconds = float(fields[time_column])
            except (ValueError, IndexError):
                if rows:
                    sys.exit(f"replay.py: {path}: line {text!r} is not 'unit,time_s'")
                names = [x.lower() for x in fields]
                time_column = next((i for i, n in enumerate(names) if n in ("time_s", "time", "t", "spike_time", "seconds")), 1)
                unit_column = next((i for i, n in enumerate(names) if n in ("unit", "neuron", "id", "cluster", "cell", "unit_id")), 0)
                head.append(text)
                continue
            rows.append((seconds, fields[unit_column], text))
    rows.sort(key=lambda r: r[0])
    return head, rows


class ZmqOut:
    def __init__(self, endpoint, binary, wait_s):
        import zmq

        self.socket = zmq.Context.instance().socket(zmq.PUB)
        self.socket.setsockopt(zmq.SNDHWM, 0)
        self.socket.bind(endpoint)
        self.binary = binary
        time.sleep(wait_s)  # subscribers that connect now get every message

    def head(self, lines):
        if not self.binary and lines:
            self.socket.send_string("\n".join(lines) + "\n")

    def send(self, batch):
        if self.binary:
            self.socket.send(b"SMB1" + b"".join(struct.pack("<Id", int(unit), seconds) for seconds, unit, _ in batch))
        else:
            self.socket.send_string("".join(line + "\n" for _, _, line in batch))

    def close(self):
        self.socket.send_string("end")
        time.sleep(0.2)
        self.socket.close(linger=1000)


class StreamOut:
    def __init__(self, stream):
        self.stream = stream

    def head(self, lines):
        self.stream.write("".join(line + "\n" for line in lines))
        self.stream.flush()

    def send(self, batch):
        self.stream.write("".join(line + "\n" for _, _, line in batch))
        self.stream.flush()

    def close(self):
        self.stream.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("recording")
    parser.add_argument("--speed", type=float, default=1.0, help="times faster than real time (default 1)")
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("--to", help="append the lines to this file")
    target.add_argument("--stdout", action="store_true", help="write the lines to standard output")
    target.add_argument("--zmq", help="bind a PUB socket here and publish")
    parser.add_argument("--binary", action="store_true", help="with --zmq: binary SMB1 messages (numeric units)")
    parser.add_argument("--wait", type=float, default=1.0, help="with --zmq: seconds to wait for subscribers first (default 1)")
    parser.add_argument("--batch-ms", type=float, default=1.0, help="most recording time in one batch, ms (default 1)")
    parser.add_argument("--start-delay", type=float, default=0.0, help="seconds to wait before the first spike")
    args = parser.parse_args()
    if not args.speed > 0:
        parser.error("--speed must be positive")
    head, rows = read_table(args.recording)
    if args.binary:
        if any(not unit.lstrip("-").isdigit() for _, unit, _ in rows[:1000]):
            sys.exit("replay.py: --binary sends unit numbers; this recording names its units otherwise: send text")
        tick = next((m.group(1) for m in (re.search(r"ticks_per_second=(\d+)", line) for line in head) if m), None)
        if tick and tick != "1000000":
            print(f"replay.py: binary messages carry no tick: give the live session --tick {tick}/s", file=sys.stderr)
    if args.zmq:
        out = ZmqOut(args.zmq, args.binary, args.wait)
    elif args.stdout:
        out = StreamOut(sys.stdout)
    else:
        out = StreamOut(open(args.to, "a", encoding="utf-8"))
    out.head(head)
    time.sleep(args.start_delay)
    if rows:
        first = rows[0][0]
        start = time.monotonic()
        batch_s = args.batch_ms / 1000
        i = 0
        while i < len(rows):
            due = start + (rows[i][0] - first) / args.speed
            now = time.monotonic()
            if due > now:
                time.sleep(due - now)
            # Everything due by now, at most one batch of recording time.
            reached = min(first + (time.monotonic() - start) * args.speed, rows[i][0] + batch_s)
            j = i
            while j < len(rows) and rows[j][0] <= reached:
                j += 1
            out.send(rows[i:max(j, i + 1)])
            i = max(j, i + 1)
    out.close()


if __name__ == "__main__":
    try:
        main()
    except (BrokenPipeError, KeyboardInterrupt):
        sys.exit(1)
