# SPDX-License-Identifier: GPL-2.0-or-later
"""Damaged runs are read, with a warning (docs/results.md, "Checkpoints and crashes"): a
trace.bin, latency.bin or series.jsonl holding fewer whole records or lines than result.json
says were written (the disk filled, a copy still in progress, a power cut) is read up to its
last whole record; the report exits 0, says how many are missing and from when, and reports
the rest. A run without result.json says why in one line."""
from __future__ import annotations

import json
import os
import pathlib

import pytest

HEADER = 64
RECORD = 32


def cut(run: pathlib.Path, name: str, keep: int, extra: int = 0) -> None:
    os.truncate(run / name, HEADER + keep * RECORD + extra)


@pytest.fixture(scope="module")
def cut_report(tmp_path_factory):
    """cut_report(base, name, keep, extra) -> (report directory, exit status, stderr) of a copy
    of golden/<base> whose `name` was cut to `keep` records and `extra` bytes; one report per
    cut for the module (a report costs seconds)."""
    import contextlib
    import io
    import shutil
    from conftest import golden_path
    from hgreport.cli import main
    made = {}

    def report(base, name, keep, extra=0):
        key = (base, name, keep, extra)
        if key not in made:
            run = shutil.copytree(golden_path(base), tmp_path_factory.mktemp("cut") / base,
                                  ignore=shutil.ignore_patterns("report"))
            cut(run, name, keep, extra)
            err = io.StringIO()
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
                rc = main([str(run), "-o", str(run / "out")])
            made[key] = (run / "out", rc, err.getvalue())
        return made[key]
    return report


@pytest.mark.parametrize("base,name,keep,extra,claimed", [
    ("mix", "trace.bin", 100, 0, 1288),
    ("mix", "trace.bin", 1287, 25, 1288),      # a torn last record
    ("mix", "latency.bin", 3, 0, 234),
    ("killed", "trace.bin", 1000, 0, 1142),    # fewer than the checkpoint vouches for
    ("mix", "trace.bin", 0, 0, 1288),
])
def test_binary_file_cut_short_is_read_with_a_warning(base, name, keep, extra, claimed,
                                                      cut_report):
    out, rc, err = cut_report(base, name, keep, extra)
    assert rc == 0, err
    assert f"holds {keep} whole records but result.json says {claimed} were written: " \
           f"{claimed - keep} missing" in err
    if keep:
        assert "(the time of the last whole record)" in err
    assert f"reporting the {keep} that exist" in err
    assert "cut short" in (out / "report.md").read_text()
    summary = json.loads((out / "summary.json").read_text())
    assert any(f"{claimed - keep} missing" in w for w in summary["warnings"])


def test_time_of_the_last_whole_record(cut_report):
    from conftest import golden_path
    with (golden_path("mix") / "trace.bin").open("rb") as f:
        f.seek(HEADER + 99 * RECORD + 8)
        end_ns = int.from_bytes(f.read(8), "little", signed=True)
    _, rc, err = cut_report("mix", "trace.bin", 100)
    assert rc == 0
    from hgreport.base.units import fmt_ns
    assert f"1188 missing after {fmt_ns(end_ns)} (the time of the last whole record)" in err


def test_other_commands_read_a_cut_trace(golden, hgreport, tmp_path):
    run = golden("mix")
    cut(run, "trace.bin", 100)
    for args in (("table1", run), ("export", run, "-o", tmp_path / "e"), ("series", run, "-o",
                                                                              tmp_path / "s")):
        rc, _, err = hgreport(*args)
        assert rc == 0, (args, err)


@pytest.mark.parametrize("base", ["mix", "killed"])
def test_series_shorter_than_claimed(base, golden, hgreport, tmp_path):
    run = golden(base)
    lines = (run / "series.jsonl").read_bytes().splitlines(keepends=True)
    (run / "series.jsonl").write_bytes(b"".join(lines[:2]))
    rc, out, err = hgreport(run, "-o", tmp_path / "out")
    assert rc == 0, err
    assert f"2 whole lines but result.json says {len(lines)} were written: " \
           f"{len(lines) - 2} missing after" in err
    assert f"{len(lines) - 2} missing" in (tmp_path / "out" / "report.md").read_text()


def test_series_empty_though_lines_were_written(golden, hgreport, tmp_path):
    run = golden("mix")
    (run / "series.jsonl").write_bytes(b"")
    rc, _, err = hgreport(run, "-o", tmp_path / "out")
    assert rc == 0, err
    assert "0 whole lines but result.json says 26 were written: 26 missing;" in err


def test_no_result_json_but_trace_files(golden, hgreport, tmp_path):
    run = golden("killed")
    (run / "result.json").unlink()
    rc, out, err = hgreport(run, "-o", tmp_path / "out")
    assert rc == 2
    assert err.count("\n") == 1, err
    assert "result.json: no such file, but trace.bin" in err
    assert "killed before its first checkpoint" in err


def _hold_lock(directory: pathlib.Path):
    """A child process holding directory/.hgrun-lock as hgrun does (a POSIX record lock), its
    text saying who it is; the caller kills it."""
    import subprocess
    import sys
    code = ("import fcntl,os,sys,time\n"
            "fd=os.open(sys.argv[1],os.O_RDWR|os.O_CREAT,0o644)\n"
            "fcntl.lockf(fd,fcntl.LOCK_EX|fcntl.LOCK_NB)\n"
            "os.write(fd,b'pid %d on testhost since 2026-11-25T15:02:11Z: hgrun run s.yaml\\n'"
            "%os.getpid())\n"
            "print('held',flush=True)\n"
            "time.sleep(60)\n")
    p = subprocess.Popen([sys.executable, "-c", code, str(directory / ".hgrun-lock")],
                         stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "held"
    return p


def test_a_run_still_being_written_is_read_with_a_warning(golden, hgreport, tmp_path):
    run = golden("killed")
    p = _hold_lock(run)
    try:
        rc, _, err = hgreport(run, "-o", tmp_path / "out")
    finally:
        p.kill()
        p.wait()
    assert rc == 0, err
    assert f"the run is still being written (pid {p.pid} on testhost" in err
    assert "still being written" in (tmp_path / "out" / "report.md").read_text()


def test_a_stale_lock_is_no_writer(golden, hgreport, tmp_path):
    run = golden("killed")
    p = _hold_lock(run)
    p.kill()
    p.wait()
    assert (run / ".hgrun-lock").exists()
    rc, _, err = hgreport(run, "-o", tmp_path / "out")
    assert rc == 0 and "still being written" not in err


def test_a_run_before_its_first_checkpoint(golden, hgreport, tmp_path):
    run = golden("killed")
    (run / "result.json").unlink()
    p = _hold_lock(run)
    try:
        rc, _, err = hgreport(run, "-o", tmp_path / "out")
    finally:
        p.kill()
        p.wait()
    assert rc == 2 and err.count("\n") == 1, err
    assert "result.json: no such file yet: hgrun is writing this run (pid" in err


def _edit(run: pathlib.Path, fn) -> None:
    doc = json.loads((run / "result.json").read_text())
    fn(doc)
    (run / "result.json").write_text(json.dumps(doc))


def test_records_never_written_are_counted_per_thread(golden, capsys):
    """A full disk: the threads' intervals (and a latency thread's wake-ups) go on being
    counted, the records stop reaching trace.bin (latency.bin); the reading says how many of
    each thread's are not there and after when (tests/e2e/test_damaged_runs.py makes it
    happen on a real full tmpfs)."""
    from hgreport.base.units import fmt_ns
    from hgreport.read.rundir import read_run
    run = golden("mix")

    def lost(doc):
        doc["threads"][0]["stats"]["intervals"] += 500
        doc["threads"][3]["stats"]["latency"]["count"] += 40
    _edit(run, lost)
    r = read_run(run)
    end = fmt_ns(int(r.intervals.stop.max()))
    last_wakeup = fmt_ns(int(r.samples.actual.max()))
    n0 = r.threads[0]["stats"]["intervals"]
    assert (f"trace.bin: 500 of the {n0} records the threads produced are not in it "
            f"({r.label(0)} 500 of {n0}): the streaming writer stopped writing them after "
            f"{end}, the time of its last record") in r.notes[0], r.notes
    lat = r.threads[3]["stats"]["latency"]["count"]
    assert f"latency.bin: 40 of the {lat} records" in r.notes[1] and \
           f"after {last_wakeup}" in r.notes[1], r.notes
    assert "hgrun's warning says" in capsys.readouterr().err


def test_a_switched_trace_mode_is_not_a_loss(golden):
    """Records not written because trace.mode switched (a budget, a small disk) are not
    missing: hgrun's own warning says so."""
    from hgreport.read.rundir import read_run
    run = golden("mix")

    def switched(doc):
        doc["threads"][0]["stats"]["intervals"] += 500
        doc["trace"]["switched"] = [{"from": "full", "to": "outliers", "at_ns": 1,
                                     "why": "trace.budget"}]
    _edit(run, switched)
    r = read_run(run)
    r.intervals
    assert r.notes == []
