# SPDX-License-Identifier: GPL-2.0-or-later
"""Reading trace.bin and latency.bin (docs/results.md) with numpy: a 64-byte header,
then 32-byte little-endian records; a torn last record is ignored."""
import pathlib

import numpy as np

INTERVAL = np.dtype([("start_ns", "<i8"), ("end_ns", "<i8"), ("thread", "<u4"), ("cpu", "<i2"),
                     ("end", "u1"), ("flags", "u1"), ("window", "<u4"), ("cause", "<u4")])
WAKEUP = np.dtype([("intended_ns", "<i8"), ("actual_ns", "<i8"), ("thread", "<u4"),
                   ("window", "<u4"), ("seq", "<u8")])
KINDS = {"intervals": INTERVAL, "wakeups": WAKEUP}
END_NAMES = ["preempted", "yielded", "blocked", "finished"]


def read(path):
    """The records of one file as a numpy structured array; checks the header."""
    data = pathlib.Path(path).read_bytes()
    assert len(data) >= 64, f"{path}: shorter than its header"
    assert data[:8] == b"HGRUNBIN", f"{path}: bad magic {data[:8]!r}"
    version, size = np.frombuffer(data[8:16], "<u4")
    kind = data[16:32].rstrip(b"\0").decode()
    assert version == 1 and kind in KINDS and size == KINDS[kind].itemsize == 32, (version, kind, size)
    assert data[32:64] == bytes(32), "reserved header bytes are zero"
    n = (len(data) - 64) // size
    return np.frombuffer(data[64:64 + n * size], KINDS[kind])


def intervals_as_dicts(path, threads):
    """trace.bin as the dicts trace.jsonl had (thread name, instance, end name)."""
    return [{"thread": threads[r["thread"]]["name"], "instance": threads[r["thread"]]["instance"],
             "os_name": threads[r["thread"]]["os_name"], "cpu": int(r["cpu"]),
             "start_ns": int(r["start_ns"]), "end_ns": int(r["end_ns"]), "end": END_NAMES[r["end"]],
             "flags": int(r["flags"]), "window": int(r["window"]), "cause": int(r["cause"])}
            for r in read(path)]


def wakeups_as_dicts(path, threads):
    return [{"thread": threads[r["thread"]]["name"], "instance": threads[r["thread"]]["instance"],
             "seq": int(r["seq"]), "intended_ns": int(r["intended_ns"]),
             "actual_ns": int(r["actual_ns"]), "late_ns": int(r["actual_ns"] - r["intended_ns"]),
             "window": int(r["window"])} for r in read(path)]
