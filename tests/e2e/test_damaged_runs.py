# SPDX-License-Identifier: GPL-2.0-or-later
"""Runs damaged on the way (docs/results.md, "Shared directories, read-only
and full disks", "Checkpoints and crashes"): series lines reach the file
as they are written, a disk that fills is reported with when and how much
room was left, a small disk's limit is said in words, and a run killed
after the measuring still has a result.json covering all of it."""
import contextlib
import json
import os
import pathlib
import signal
import subprocess
import sys
import time

import pytest

from runhelp import scenario_text
from test_kernel_trace import needs_tracefs
from test_status_truth import threads_of, wait_until

ROOT = pathlib.Path(__file__).resolve().parents[2]
needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="mounts a tmpfs: needs root")
THREAD = "{name: be, workload: {type: cpu}}"
YIELDER = "{name: y, workload: {type: cpu_yield, yield_after: 50us}}"


@contextlib.contextmanager
def tmpfs(path, options):
    """A tmpfs mounted on path for the block (unmounted after it, whatever happens); the test
    is skipped when it cannot be mounted (a container without CAP_SYS_ADMIN)."""
    path.mkdir()
    m = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(path)],
                       capture_output=True, text=True)
    if m.returncode:
        pytest.skip(f"cannot mount a tmpfs: {m.stderr.strip()}")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False)


def whole_lines(path):
    return path.read_bytes().count(b"\n")


@needs_root
def test_a_disk_filled_mid_run_says_when_and_keeps_the_series(hgrun, scenario, tmp_path):
    # The disk fills at 0.6 s (an exec load's output); the run lasts 1.5 s.
    # 80 MiB: above the 64 MiB margin, so trace.bin is written until then.
    extra = ("trace: {series: 100ms}\n"
             'loads:\n  - {name: fill, type: exec, start: 600ms, command: "yes filling", '
             "output_max: 1GiB}\n")
    path = scenario(scenario_text("fill", [YIELDER], duration="1500ms", extra=extra))
    with tmpfs(tmp_path / "small", "size=80m") as out:
        r = hgrun("run", path, "-o", out, timeout=60)
        result = json.loads((out / "result.json").read_text())
        lines = whole_lines(out / "series.jsonl")
    warning = next((w for w in result["warnings"]
                    if w.startswith("the streaming writer stopped writing at ")), None)
    assert warning, result["warnings"]
    at = float(warning.split(" at ")[1].split(" s:")[0])
    assert 0.55 <= at < 1.45, warning            # when it happened, not the run's end
    assert "No space left on device" in warning and " free there" in warning, warning
    written = result["trace"]["written"]["series"]
    assert written >= 1, result["trace"]
    assert lines >= written, (lines, written)    # every line counted is on disk
    assert r.rc == 1
    fill = " | ".join(w for w in result["warnings"] if w.startswith("load fill:"))
    assert "write load-fill.out: No space left on device" in fill, fill
    assert "reached output_max" not in fill, fill


@needs_root
def test_hgreport_reads_a_run_whose_disk_filled(hgrun, scenario, tmp_path):
    """analysis/README.md, damaged runs: `hgreport RUN` on a run whose disk filled mid-run
    (another writer, an exec load's output, fills an 80 MiB tmpfs at 0.6 s of 1.5 s) exits
    0, reports the records that exist and says how many of each thread's are missing and
    after when; hgrun's result.json says when the writer stopped and how much room was left."""
    extra = ("trace: {series: 100ms}\n"
             'loads:\n  - {name: fill, type: exec, start: 600ms, command: "yes filling", '
             "output_max: 1GiB}\n")
    lat = "{name: lat, workload: {type: latency, period: 1ms}}"
    path = scenario(scenario_text("full", [YIELDER, lat], duration="1500ms", extra=extra))
    report = tmp_path / "report"              # outside the full disk
    with tmpfs(tmp_path / "small", "size=80m") as out:
        r = hgrun("run", path, "-o", out, timeout=60)
        assert (out / "result.json").exists(), r.err
        result = json.loads((out / "result.json").read_text())
        sizes = {n: (out / n).stat().st_size for n in ("trace.bin", "latency.bin")}
        env = dict(os.environ, PYTHONPATH=str(ROOT / "analysis"))
        rep = subprocess.run([sys.executable, "-m", "hgreport", str(out), "-o", str(report)],
                             env=env, capture_output=True, text=True, timeout=300)
    assert r.rc == 1, r.err                    # incomplete: the disk filled
    stopped = next((w for w in result["warnings"]
                    if w.startswith("the streaming writer stopped writing at ")), None)
    assert stopped and "No space left on device" in stopped and " free there" in stopped, \
        result["warnings"]
    # trace.written counts only what reached the file (docs/results.md): the records
    # stdio still held when the disk filled are not counted, the torn one is cut off.
    for name, key in (("trace.bin", "trace"), ("latency.bin", "latency")):
        assert (sizes[name] - 64) % 32 == 0, sizes
        assert result["trace"]["written"][key] == (sizes[name] - 64) // 32, (result["trace"],
                                                                           sizes)
    assert sum(t["stats"]["records"] for t in result["threads"]) == \
        result["trace"]["written"]["trace"]
    assert rep.returncode == 0, rep.stderr
    assert "whole records but result.json says" not in rep.stderr, rep.stderr
    md = (report / "report.md").read_text()
    assert stopped in md                       # hgrun's warning, among the report's
    names = {t["name"]: t for t in result["threads"]}
    for name, file, counted, kept in (("y", "trace.bin", "intervals", ("records",
                                                                       "records_dropped")),
                                      ("lat", "latency.bin", "count", ("samples",
                                                                       "samples_dropped"))):
        st = names[name]["stats"] if file == "trace.bin" else names[name]["stats"]["latency"]
        lost = st[counted] - sum(st[k] for k in kept)
        assert lost > 0, st                    # the records after the disk filled
        assert f"{file}: " in md and f"{name} {lost} of {st[counted]}" in md, md
    assert "the streaming writer stopped writing them after " in md
    assert "the time of its last record" in md
    summary = json.loads((report / "summary.json").read_text())
    assert any("records the threads produced are not in it" in w for w in summary["warnings"])


@needs_root
def test_a_small_disks_limit_is_said_in_words(hgrun, scenario, tmp_path):
    path = scenario(scenario_text("small", [YIELDER], duration="300ms"))
    with tmpfs(tmp_path / "small", "size=16m") as out:
        r = hgrun("run", path, "-o", out, timeout=60)
        result = json.loads((out / "result.json").read_text())
    switched = " | ".join(w for w in result["warnings"] if "trace.mode" in w)
    assert f"less than 64 MiB free on {out}" in switched, result["warnings"]
    assert "limit of 1 " not in switched and "limit of 1B" not in switched
    assert r.rc == 0, r.err


@needs_tracefs
def test_a_run_killed_after_the_measuring_has_a_result(hgrun_bin, scenario, tmp_path):
    path = scenario(scenario_text("late", [THREAD, THREAD.replace("be", "be2")],
                                  duration="1s"))
    out = tmp_path / "out"
    proc = subprocess.Popen([str(hgrun_bin), "run", path, "-o", out, "--kernel-trace", "--quiet"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        assert wait_until(lambda: "hg-writer" in threads_of(proc.pid))
        assert wait_until(lambda: "hg-writer" not in threads_of(proc.pid) or
                          proc.poll() is not None)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    result = json.loads((out / "result.json").read_text())
    if result["checkpoint"] is not None:        # killed before the final result
        assert result["complete"] is False
        assert result["checkpoint"]["covers_ns"] >= 990_000_000, result["checkpoint"]
        records = ((out / "trace.bin").stat().st_size - 64) // 32
        assert records >= result["checkpoint"]["written"]["trace"]
    assert not list(out.glob("*.tmp.*")) or result["checkpoint"] is not None
