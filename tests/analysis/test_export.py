# SPDX-License-Identifier: GPL-2.0-or-later
"""hgreport export: trace.bin / latency.bin as JSON lines, and back: a run whose files name
the exported lines gives the same report numbers as the binary files."""
import json
import shutil

import pytest


@pytest.mark.parametrize("case", ["mix", "outliers", "killed"])
def test_export_round_trip(case, golden, rendered, hgreport, tmp_path):
    run = golden(case)
    rc, out, err = hgreport("export", run, "-o", tmp_path / "exp")
    assert rc == 0, err
    res = json.loads((run / "result.json").read_text())
    written = (res.get("checkpoint") or res["trace"])["written"]
    lines = (tmp_path / "exp" / "trace.jsonl").read_text().splitlines()
    assert len(lines) == written["trace"] and f"trace.jsonl: {written['trace']} lines" in out
    first = json.loads(lines[0])
    assert set(first) == {"thread", "instance", "cpu", "start_ns", "end_ns", "end", "flags",
                          "window", "cause"}
    binary = rendered(case)                  # the report of the binary files
    assert binary.rc == 0, binary.stderr
    text = golden(case, "as_text")
    for name in ("trace", "latency"):
        (text / f"{name}.bin").unlink(missing_ok=True)
        if (tmp_path / "exp" / f"{name}.jsonl").exists():
            shutil.copy(tmp_path / "exp" / f"{name}.jsonl", text)
            res["files"][name] = f"{name}.jsonl"
    (text / "result.json").write_text(json.dumps(res))
    rc, _, err = hgreport(text, "-o", tmp_path / "txt")
    assert rc == 0, err
    a, b = (json.loads((d / "summary.json").read_text()) for d in (binary.out, tmp_path / "txt"))
    for key in ("threads", "context_switches", "dispatch_latency"):
        assert a[key] == b[key], key


def test_export_refuses_what_the_report_refuses(golden, hgreport, tmp_path):
    run = golden("mix")
    (run / "trace.bin").write_bytes(b"NOTHGRUN" + bytes(100))
    rc, _, err = hgreport("export", run, "-o", tmp_path / "exp")
    assert rc == 2 and "trace.bin: not an hgrun intervals file" in err


LINE = r"(\d+) (-?\d+\.\d{6}) (-?\d+\.\d{6}) (-?\d+\.\d{6}) (-?\d+\.\d{6})"


def test_export_hourglass_lines_are_the_papers_form(golden, hgreport, tmp_path):
    """`thread start finish duration gap` in ms (Hourglass 5.1), `latlate: X` in us (5.3),
    `thread N: missed M deadlines, hit H` (5.5): the same intervals and wake-ups as the
    binary files, merged in order of start, each gap from the previous line's finish."""
    import re
    import numpy as np
    import sys
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).parents[1] / "e2e"))
    import hgbin
    run = golden("mix")
    out_file = tmp_path / "hg.txt"
    rc, out, err = hgreport("export", run, "--format", "hourglass", "-o", out_file)
    assert rc == 0, err
    lines = out_file.read_text().splitlines()
    assert f"{out_file}: {len(lines)} lines" in out
    res = json.loads((run / "result.json").read_text())
    iv = hgbin.read(run / "trace.bin")
    wk = hgbin.read(run / "latency.bin")
    rows = [re.fullmatch(LINE, x) for x in lines if not x.startswith(("latlate", "thread"))]
    assert len(rows) == len(iv) and all(rows)
    order = np.argsort(iv["start_ns"], kind="stable")
    prev = 0
    for m, k in zip(rows, order):
        t, s, f, d, g = (m.group(i) for i in range(1, 6))
        assert int(t) == int(iv["thread"][k])
        ns = [round(float(v) * 1e6) for v in (s, f, d, g)]
        assert ns[0] == iv["start_ns"][k] and ns[1] == iv["end_ns"][k]
        assert ns[2] == ns[1] - ns[0] and ns[3] == ns[0] - prev
        prev = ns[1]
    late = [x for x in lines if x.startswith("latlate: ")]
    assert len(late) == len(wk) > 0
    assert all(re.fullmatch(r"latlate: -?\d+\.\d{6}", x) for x in late)
    by_actual = np.argsort(wk["actual_ns"], kind="stable")
    want = (wk["actual_ns"] - wk["intended_ns"])[by_actual]
    assert [round(float(x.split()[1]) * 1000) for x in late] == want.tolist()
    dl = [x for x in lines if x.startswith("thread ")]
    periodic = [i for i, t in enumerate(res["threads"]) if t["stats"].get("releases")]
    assert len(dl) == len(periodic) > 0
    for x, i in zip(dl, periodic):
        s = res["threads"][i]["stats"]
        assert x == (f"thread {i}: missed {s['deadlines_missed']} deadlines, "
                     f"hit {s['deadlines_hit']}")


def test_export_hourglass_to_stdout_and_says_when_intervals_are_missing(golden, hgreport):
    rc, out, err = hgreport("export", golden("outliers"), "--format", "hourglass", "-o", "-")
    assert rc == 0, err
    assert out.splitlines()[0].count(" ") == 4
    assert "trace mode 'outliers': trace.bin holds only some intervals" in err
