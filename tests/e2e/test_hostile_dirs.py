# SPDX-License-Identifier: GPL-2.0-or-later
"""Output directories under attack or failing: a read-only directory is
refused before anything runs; a disk that fills up during the run still
gets result.json, with the exact errno in its warnings, and the summary
names only files that exist.  (Symlinks planted in the directory:
tests/unit/test_fsutil.c.)"""
import contextlib
import json
import os
import subprocess
import time

import pytest

from runhelp import scenario_text

needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="mounts a tmpfs: needs root")
THREAD = "{name: be, workload: {type: cpu}}"


@contextlib.contextmanager
def tmpfs(path, options):
    path.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(path)], check=True)
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False)


@needs_root
def test_read_only_output_dir_refused_before_the_run(hgrun, scenario, tmp_path):
    path = scenario(scenario_text("ro", [THREAD], duration="4s"))
    with tmpfs(tmp_path / "ro", "ro,size=1m") as out:
        t0 = time.monotonic()
        r = hgrun("run", path, "-o", out, "--quiet", timeout=30)
        took = time.monotonic() - t0
    assert r.rc != 0
    assert "Read-only file system" in r.err, r.err
    assert took < 3, f"refused after {took:.1f}s: the 4 s run went ahead"


@needs_root
def test_full_disk_still_writes_result_json(hgrun, scenario, tmp_path):
    # An exec load fills the disk with its output (load-fill.out) at once.
    extra = 'loads:\n  - {name: fill, type: exec, command: "yes hostile"}'
    path = scenario(scenario_text("full", [THREAD], duration="1s", extra=extra))
    with tmpfs(tmp_path / "small", "size=2m") as out:
        r = hgrun("run", path, "-o", out, timeout=60)
        result_path = out / "result.json"
        exists = result_path.exists()
        result = json.loads(result_path.read_text()) if exists else None
        leftovers = [p.name for p in out.iterdir() if ".tmp." in p.name or p.name.startswith(".hgrun")]
    assert exists, f"no result.json: {r.err}"
    assert r.rc == 1, "records were lost: the run is not complete"
    assert result["complete"] is False
    warnings = " | ".join(result["warnings"])
    assert "No space left on device" in warnings, warnings
    assert "Input/output error" not in warnings + r.err
    assert f"result: {out}/result.json" in r.out
    assert not leftovers, leftovers


@needs_root
def test_summary_names_only_files_that_exist(hgrun, scenario, tmp_path):
    # A disk too small even for the space kept for result.json: refused
    # before the run, and no "result:" line for a file that is not there.
    path = scenario(scenario_text("tiny", [THREAD], duration="1s"))
    with tmpfs(tmp_path / "tiny", "size=64k") as out:
        r = hgrun("run", path, "-o", out, timeout=30)
        exists = (out / "result.json").exists()
    assert r.rc != 0
    assert "No space left on device" in r.err, r.err
    assert not exists
    assert "result:" not in r.out
