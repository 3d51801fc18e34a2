# SPDX-License-Identifier: GPL-2.0-or-later
"""Figures bounded in the thread count (analysis/README.md): past MAX_ROWS threads the
timeline draws the first ones a row each and the rest as one row, and says so in the figure's
title and in the report (bench/hgreport_threads.py times 4096 threads)."""
from __future__ import annotations

import copy
import json
import pathlib
import struct

import numpy as np

HEADER = 64


def many_threads(run: pathlib.Path, n: int) -> pathlib.Path:
    """The golden `miss` run with its threads copied to n, each record given to one in turn."""
    doc = json.loads((run / "result.json").read_text())
    base, sc = doc["threads"], doc["scenario"]["threads"]
    doc["threads"], doc["scenario"]["threads"] = [], []
    for i in range(n):
        t = copy.deepcopy(base[i % len(base)])
        t.update(name="t", instance=i, os_name=f"t.{i}")
        doc["threads"].append(t)
        s = copy.deepcopy(sc[i % len(sc)])
        s.update(name="t", instance=i)
        doc["scenario"]["threads"].append(s)
    (run / "result.json").write_text(json.dumps(doc))
    data = (run / "trace.bin").read_bytes()
    rec = np.frombuffer(data, np.dtype([("a", "<i8"), ("b", "<i8"), ("thread", "<u4"),
                                        ("rest", "V12")]), offset=HEADER).copy()
    rec["thread"] = rec["thread"] + len(base) * (np.arange(len(rec)) % (n // len(base)))
    (run / "trace.bin").write_bytes(data[:HEADER] + rec.tobytes())
    return run


def png_size(path: pathlib.Path) -> tuple[int, int]:
    return struct.unpack(">II", path.read_bytes()[16:24])


def test_timeline_rows_are_bounded(golden, hgreport, tmp_path):
    from hgreport.figures.timeline import MAX_ROWS
    run = many_threads(golden("miss"), 200)
    rc, _, err = hgreport(run, "-o", tmp_path / "out")
    assert rc == 0, err
    _, height = png_size(tmp_path / "out" / "timeline.png")
    # a row per thread: 3 panels x 200 rows x 0.42 in at 120 dpi is over 30 000 px
    assert height < 3 * (0.42 * MAX_ROWS + 1.0) * 120 + 400, height
    md = (tmp_path / "out" / "report.md").read_text()
    assert (f"the first {MAX_ROWS - 1} have a row each, the other {201 - MAX_ROWS} "
            f"(t.{MAX_ROWS - 1} to t.199) share the last row") in md


def test_few_threads_keep_a_row_each(golden, hgreport, tmp_path):
    run = many_threads(golden("miss"), 8)
    rc, _, err = hgreport(run, "-o", tmp_path / "out")
    assert rc == 0, err
    assert "share the last row" not in (tmp_path / "out" / "report.md").read_text()
