# SPDX-License-Identifier: GPL-2.0-or-later
"""Malformed inputs: every one ends with exit status 2 and a message naming the file and the
problem, never a traceback; only files inside the run directory are read; a missing trace
is an error unless the run recorded none. Each case damages a copy of a golden run."""
from __future__ import annotations

import json
import os
import pathlib
import shutil

import pytest

HEADER = 64
RECORD = 32


def edit_json(fn):
    def apply(run: pathlib.Path) -> None:
        doc = json.loads((run / "result.json").read_text())
        fn(doc)
        (run / "result.json").write_text(json.dumps(doc))
    return apply


def write(name: str, data: bytes | str):
    def apply(run: pathlib.Path) -> None:
        p = run / name
        p.unlink(missing_ok=True)
        p.write_bytes(data if isinstance(data, bytes) else data.encode())
    return apply


def replace_text(name: str, old: str, new: str):
    def apply(run: pathlib.Path) -> None:
        text = (run / name).read_text()
        assert old in text, old
        (run / name).write_text(text.replace(old, new, 1))
    return apply


def patch(name: str, offset: int, data: bytes):
    def apply(run: pathlib.Path) -> None:
        with (run / name).open("r+b") as f:
            f.seek(offset)
            f.write(data)
    return apply


def truncate(name: str, size: int):
    def apply(run: pathlib.Path) -> None:
        os.truncate(run / name, size)
    return apply


def replace_by(name: str, kind: str, target: str | None = None):
    def apply(run: pathlib.Path) -> None:
        p = run / name
        p.unlink(missing_ok=True)
        if kind == "dir":
            p.mkdir()
        elif kind == "fifo":
            os.mkfifo(p)
        elif kind == "symlink":
            p.symlink_to(target)
        elif kind == "gone":
            pass
    return apply


def record(i: int, field_offset: int) -> int:
    return HEADER + i * RECORD + field_offset


def cut_records(name: str, keep: int):
    return truncate(name, HEADER + keep * RECORD)


def thread0_stat(key, value):
    return edit_json(lambda d: d["threads"][0]["stats"].__setitem__(key, value))


def scenario_thread0(key, value):
    return edit_json(lambda d: d["scenario"]["threads"][0].__setitem__(key, value))


def _deep(run: pathlib.Path) -> None:
    (run / "result.json").write_text("[" * 100_000 + "]" * 100_000)


def _deep_inside(run: pathlib.Path) -> None:
    """Nested just below what the JSON parser refuses, inside a field the schema leaves open."""
    doc = json.loads((run / "result.json").read_text())
    text = json.dumps(doc).replace('"host": {', '"host": {"x": ' + "[" * 950 + "]" * 950 + ", ", 1)
    (run / "result.json").write_text(text)


# (id, golden case, damage, file named in the message, what the message says)
CASES = [
    # result.json: not JSON, not text, not an object
    ("empty", "mix", write("result.json", b""), "result.json", "invalid JSON"),
    ("truncated", "mix", lambda r: truncate("result.json", (r / "result.json").stat().st_size // 2)(r),
     "result.json", "invalid JSON"),
    ("garbage", "mix", write("result.json", bytes(range(256)) * 4), "result.json", "not UTF-8"),
    ("latin1", "mix", replace_text("result.json", '"name": "mix"', '"name": "mix\udcff"'),
     "result.json", ""),
    ("list", "mix", write("result.json", "[]"), "result.json", "not a JSON object"),
    ("null", "mix", write("result.json", "null"), "result.json", "not a JSON object"),
    ("deep", "mix", _deep, "result.json", "nested too deeply"),
    ("deep-inside", "mix", _deep_inside, "result.json", "nested too deeply"),
    ("nan", "mix", replace_text("result.json", '"complete": true', '"complete": NaN'),
     "result.json", "NaN is not a number"),
    ("infinity", "mix", replace_text("result.json", '"cpus_online": 2', '"cpus_online": Infinity'),
     "result.json", "Infinity is not a number"),
    ("float-overflow", "mix", replace_text("result.json", '"cpus_online": 2', '"cpus_online": 1e999'),
     "result.json", "out of range"),
    ("int-overflow", "mix", thread0_stat("cpu_ns", 10**30), "result.json", "does not fit 64 bits"),
    ("format", "mix", edit_json(lambda d: d.update(format="hgrun-result/9")), "result.json",
     "format is 'hgrun-result/9'"),
    ("no-threads", "mix", edit_json(lambda d: d.pop("threads")), "result.json", "missing key 'threads'"),
    # result.json: wrong types where hgreport reads
    ("threads-string", "mix", edit_json(lambda d: d.update(threads="x")), "result.json", "threads"),
    ("thread-number", "mix", edit_json(lambda d: d["threads"].__setitem__(0, 7)), "result.json",
     "threads[0]"),
    ("stats-list", "mix", edit_json(lambda d: d["threads"][0].__setitem__("stats", [])), "result.json",
     "threads[0].stats"),
    ("cpu_ns-string", "mix", thread0_stat("cpu_ns", "12ms"), "result.json", "cpu_ns"),
    ("cpu_ns-negative-float", "mix", thread0_stat("cpu_ns", -1.5), "result.json", "cpu_ns"),
    ("releases-null", "mix", thread0_stat("releases", None), "result.json", "releases"),
    ("latency-string", "mix", thread0_stat("latency", "fast"), "result.json", "latency"),
    ("name-int", "mix", edit_json(lambda d: d["threads"][0].__setitem__("name", 3)), "result.json",
     "name"),
    ("instance-string", "mix", edit_json(lambda d: d["threads"][0].__setitem__("instance", "0")),
     "result.json", "instance"),
    ("scenario-list", "mix", edit_json(lambda d: d.update(scenario=[])), "result.json", "scenario"),
    ("scenario-duration", "mix", edit_json(lambda d: d["scenario"].update(duration_ns="1s")),
     "result.json", "scenario.duration_ns"),
    ("scenario-threads", "mix", edit_json(lambda d: d["scenario"].update(threads={})),
     "result.json", "scenario.threads"),
    ("scenario-start", "mix", scenario_thread0("start_ns", "soon"), "result.json",
     "scenario.threads[0].start_ns"),
    ("scenario-workload", "mix", scenario_thread0("workload", "periodic"), "result.json",
     "scenario.threads[0].workload"),
    ("scenario-exec", "mix", edit_json(lambda d: d["scenario"]["threads"][0]["workload"].update(
        exec={"values_ns": ["1ms"]})), "result.json", "exec.values_ns[0]"),
    ("scenario-period", "mix", edit_json(lambda d: d["scenario"]["threads"][0]["workload"].update(
        period_ns=5.5)), "result.json", "period_ns"),
    ("threshold-string", "mix", edit_json(lambda d: d["gap"].update(threshold_ns="1us")),
     "result.json", "gap.threshold_ns"),
    ("tsc-hz-string", "mix", edit_json(lambda d: d["tsc"].update(hz="3GHz")), "result.json", "tsc.hz"),
    ("load-string", "mix", edit_json(lambda d: d["loads"].__setitem__(0, "burn")), "result.json",
     "loads[0]"),
    ("load-started", "mix", edit_json(lambda d: d["loads"][0].update(started_ns="0")), "result.json",
     "loads[0].started_ns"),
    ("warnings-dict", "mix", edit_json(lambda d: d.update(warnings={"a": 1})), "result.json",
     "warnings"),
    ("expectation", "mix", edit_json(lambda d: d.update(expectations=[{"thread": "rt"}])),
     "result.json", "expectations[0]"),
    ("written-string", "mix", edit_json(lambda d: d["trace"]["written"].update(trace="many")),
     "result.json", "trace.written.trace"),
    # result.json: not a file
    ("result-dir", "mix", replace_by("result.json", "dir"), "result.json", "is a directory"),
    ("result-fifo", "mix", replace_by("result.json", "fifo"), "result.json", "not a regular file"),
    ("result-gone", "mix", replace_by("result.json", "gone"), "result.json", "no such file"),
    ("result-outside", "mix", replace_by("result.json", "symlink", "/etc/hostname"), "result.json",
     "outside the run directory"),
    # files.*: only plain names inside the directory
    ("files-parent", "mix", edit_json(lambda d: d["files"].update(trace="../trace.bin")),
     "result.json", "files.trace is '../trace.bin'"),
    ("files-absolute", "mix", edit_json(lambda d: d["files"].update(trace="/etc/passwd")),
     "result.json", "files.trace is '/etc/passwd'"),
    ("files-subdir", "mix", edit_json(lambda d: d["files"].update(latency="sub/latency.bin")),
     "result.json", "files.latency is 'sub/latency.bin'"),
    ("files-kernel-absolute", "mix", edit_json(lambda d: d["files"].update(kernel="/etc/passwd")),
     "result.json", "files.kernel is '/etc/passwd'"),
    ("files-series-parent", "mix", edit_json(lambda d: d["files"].update(series="../series.jsonl")),
     "result.json", "files.series is '../series.jsonl'"),
    ("files-other-symlink", "mix", lambda r: ((r / "kernel.jsonl").unlink(),
                                               (r / "kernel.jsonl").symlink_to("/etc/passwd")),
     "result.json", "files.kernel is 'kernel.jsonl', a symlink to /etc/passwd"),
    ("files-number", "mix", edit_json(lambda d: d["files"].update(trace=5)), "result.json",
     "files.trace"),
    ("files-empty", "mix", edit_json(lambda d: d["files"].update(trace="")), "result.json",
     "files.trace"),
    ("trace-symlink-out", "mix", replace_by("trace.bin", "symlink", "/etc/passwd"), "result.json",
     "outside the run directory"),
    ("trace-symlink-dotdot", "mix", replace_by("trace.bin", "symlink", "../elsewhere.bin"),
     "result.json", "outside the run directory"),
    # trace.bin
    ("trace-gone", "mix", replace_by("trace.bin", "gone"), "trace.bin", "no such file"),
    ("trace-dir", "mix", replace_by("trace.bin", "dir"), "trace.bin", "is a directory"),
    ("trace-fifo", "mix", replace_by("trace.bin", "fifo"), "trace.bin", "not a regular file"),
    ("trace-empty", "mix", write("trace.bin", b""), "trace.bin", "too short"),
    ("trace-short-header", "mix", truncate("trace.bin", 10), "trace.bin", "too short"),
    ("trace-magic", "mix", patch("trace.bin", 0, b"NOTHGRUN"), "trace.bin", "not an hgrun intervals file"),
    ("trace-version", "mix", patch("trace.bin", 8, (2).to_bytes(4, "little")), "trace.bin",
     "format version 2"),
    ("trace-record-size", "mix", patch("trace.bin", 12, (24).to_bytes(4, "little")), "trace.bin",
     "record size 24"),
    ("trace-kind", "mix", patch("trace.bin", 16, b"wakeups\0\0"), "trace.bin",
     "holds 'wakeups' records"),
    ("trace-thread", "mix", patch("trace.bin", record(5, 16), (4).to_bytes(4, "little")),
     "trace.bin", "record 6: thread 4 is not in result.json"),
    ("trace-end-kind", "mix", patch("trace.bin", record(7, 22), bytes([9])), "trace.bin",
     "record 8: end kind 9"),
    ("trace-backwards", "mix", patch("trace.bin", record(0, 8), (0).to_bytes(8, "little")),
     "trace.bin", "record 1: ends"),
    ("trace-not-in-files", "mix", edit_json(lambda d: d["files"].pop("trace")), "result.json",
     "files has no 'trace' entry"),
    # latency.bin
    ("latency-gone", "mix", replace_by("latency.bin", "gone"), "latency.bin", "no such file"),
    ("latency-magic", "mix", write("latency.bin", b"x" * 100), "latency.bin", "not an hgrun wakeups file"),
    ("latency-kind", "mix", patch("latency.bin", 16, b"intervals\0"), "latency.bin",
     "holds 'intervals' records"),
    ("latency-thread", "mix", patch("latency.bin", record(0, 16), (77).to_bytes(4, "little")),
     "latency.bin", "thread 77"),
    # a killed run: the checkpoint's counts (files cut short are read: test_damaged.py)
    ("checkpoint-written", "killed", edit_json(lambda d: d["checkpoint"]["written"].update(trace=-1)),
     "result.json", "checkpoint"),
]


def _unicode_error(run: pathlib.Path) -> None:
    data = (run / "result.json").read_bytes().replace(b'"mix"', b'"mi\xffx"', 1)
    (run / "result.json").write_bytes(data)


CASES[3] = ("invalid-utf8", "mix", _unicode_error, "result.json", "not UTF-8")


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_malformed_input_exits_2_naming_the_file(case, golden, hgreport, tmp_path):
    name, base, damage, file, says = case
    run = golden(base)
    damage(run)
    rc, out, err = hgreport(run, "-o", tmp_path / "out")
    assert rc == 2, (rc, out, err)
    assert "Traceback" not in err
    first = err.strip().splitlines()[0]
    assert first.startswith("hgreport: error: ") and str(run) in first, first
    assert file in first and says in first, first


@pytest.mark.parametrize("command", ["hourglass-table2", "rta", "abeni-table1", "hourglass-table1",
                                     "compare"])
@pytest.mark.parametrize("case", [c for c in CASES if c[0] in (
    "garbage", "nan", "cpu_ns-string", "files-absolute", "trace-magic", "trace-cut", "result-fifo")],
    ids=lambda c: c[0])
def test_other_commands_refuse_the_same_inputs(case, command, golden, hgreport):
    from hgreport.cli import COMMANDS
    if command not in {c.name for c in COMMANDS}:
        pytest.skip(f"no {command} command in this hgreport")
    name, base, damage, file, says = case
    run = golden(base)
    damage(run)
    rc, out, err = hgreport(command, run)
    if rc == 0:            # a command that does not read the damaged file
        assert name.startswith(("trace", "files")), (command, name)
        return
    assert rc == 2 and "Traceback" not in err and file in err, (command, rc, err)


# Inputs that look damaged but are legitimate: exit 0.
def _append_torn(run: pathlib.Path) -> None:
    with (run / "trace.bin").open("ab") as f:
        f.write(b"\x01" * 13)


def _append_garbage_records(run: pathlib.Path) -> None:
    with (run / "trace.bin").open("ab") as f:
        f.write(b"\xff" * RECORD * 3)


@pytest.mark.parametrize("base, damage", [
    ("killed", _append_torn),                      # the torn tail of a killed run
    ("killed", _append_garbage_records),           # records past checkpoint.written are not read
    ("none", lambda r: None),                      # trace.mode none: no trace files at all
    ("mix", replace_by("trace.bin", "symlink", "trace.bin.real")),   # a link inside the run
], ids=["torn-tail", "past-written", "mode-none", "symlink-inside"])
def test_legitimate_inputs_are_read(base, damage, golden, hgreport, tmp_path):
    run = golden(base)
    if base == "mix":
        (run / "trace.bin").rename(run / "trace.bin.real")
    damage(run)
    rc, out, err = hgreport(run, "-o", tmp_path / "out")
    assert rc == 0, err
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    res = json.loads((run / "result.json").read_text())
    written = (res.get("checkpoint") or res["trace"])["written"]["trace"]
    assert sum(t["trace_intervals"] for t in summary["threads"]) == written


def test_zero_records_written_and_no_file(golden, hgreport, tmp_path):
    run = golden("none")
    doc = json.loads((run / "result.json").read_text())
    doc["files"]["trace"] = "trace.bin"           # named, but nothing was written
    (run / "result.json").write_text(json.dumps(doc))
    assert doc["trace"]["written"]["trace"] == 0
    rc, _, err = hgreport(run, "-o", tmp_path / "out")
    assert rc == 0, err


def test_legacy_jsonl_lines(golden, hgreport, tmp_path):
    """A trace in JSON lines (runs older than trace.bin; `hgreport export`), damaged."""
    run = golden("miss")
    doc = json.loads((run / "result.json").read_text())
    doc["files"]["trace"] = "trace.jsonl"
    (run / "result.json").write_text(json.dumps(doc))
    (run / "trace.bin").unlink()
    good = '{"thread": "hi", "instance": 0, "cpu": 0, "start_ns": 1, "end_ns": 2, "end": "yielded"}\n'
    for text, says in ((good + "{nope\n", "line 2: invalid JSON"),
                       (good.replace('"cpu": 0', '"cpu": "x"'), "line 1: not an interval record"),
                       (good.replace('"hi"', '"ghost"'), "thread ghost.0 is not in result.json")):
        (run / "trace.jsonl").write_text(text)
        rc, _, err = hgreport(run, "-o", tmp_path / "out")
        assert rc == 2 and "trace.jsonl" in err and says in err, err
    (run / "trace.jsonl").write_bytes(good.encode() + b"\xff\xfe\n")
    rc, _, err = hgreport(run, "-o", tmp_path / "out")
    assert rc == 2 and "trace.jsonl: line 2: not UTF-8" in err, err
    (run / "trace.jsonl").write_text(good)
    rc, _, err = hgreport(run, "-o", tmp_path / "out")
    assert rc == 0, err


def _sweep_index(fn):
    def apply(sw: pathlib.Path) -> None:
        doc = json.loads((sw / "sweep.json").read_text())
        fn(doc)
        (sw / "sweep.json").write_text(json.dumps(doc))
    return apply


def _link_out(run: pathlib.Path) -> None:
    shutil.rmtree(run)
    run.symlink_to(run.parents[3])              # a directory outside the sweep


SWEEP_CASES = [
    ("garbage", write("sweep.json", b"\xff\xfe{"), "not UTF-8"),
    ("not-json", write("sweep.json", "{\"format\": "), "invalid JSON"),
    ("format", _sweep_index(lambda d: d.update(format="x")), "format is 'x'"),
    ("points-string", _sweep_index(lambda d: d.update(points="p000")),
     'points: expected an array, got a string "p000"'),
    ("overrides-string", _sweep_index(lambda d: d["points"][0].update(overrides="a=b")),
     'points[0].overrides: expected an object, got a string "a=b"'),
    ("run-parent", _sweep_index(lambda d: d["points"][0].update(runs=["../../.."])),
     "is not a path inside the sweep directory"),
    ("run-absolute", _sweep_index(lambda d: d["points"][0].update(runs=["/etc"])),
     "is not a path inside the sweep directory"),
    ("run-number", _sweep_index(lambda d: d["points"][0].update(runs=[7])),
     "is not a path inside the sweep directory"),
    ("run-symlink", lambda sw: _link_out(sw / "p000" / "r0"), "leads outside the sweep directory"),
    ("sweep-dir", replace_by("sweep.json", "dir"), "is a directory"),
]


@pytest.mark.parametrize("form", ["default", "sweep"])
@pytest.mark.parametrize("case", SWEEP_CASES, ids=[c[0] for c in SWEEP_CASES])
def test_malformed_sweep_index(case, form, golden, hgreport, tmp_path):
    name, damage, says = case
    sw = golden("sweep")
    damage(sw)
    args = [sw] if form == "default" else ["sweep", sw]
    rc, out, err = hgreport(*args, "-o", tmp_path / "out")
    if name == "sweep-dir" and form == "default":     # no sweep.json file: not a sweep, not a run
        assert rc == 2 and "result.json: no such file" in err, err
        return
    assert rc == 2 and "Traceback" not in err, (rc, err)
    assert "sweep.json" in err and says in err, err
