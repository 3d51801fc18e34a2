# SPDX-License-Identifier: GPL-2.0-or-later
"""`hgreport` ends its process itself once the command has ended, without the interpreter's
teardown (cli.py's _end): what it wrote is all there, its exit status is the command's, and
under a profiler the teardown still happens (its results are written then)."""
import os
import subprocess
import sys

from conftest import ROOT


def hgreport(*args, pre=()):
    env = dict(os.environ, PYTHONPATH=str(ROOT / "analysis"))
    env.pop("HGREPORT_DEBUG", None)
    return subprocess.run([sys.executable, *pre, "-m", "hgreport", *map(str, args)], env=env,
                          capture_output=True, timeout=120)


def test_stdout_is_complete_and_the_status_kept(mix_run, tmp_path):
    p = hgreport("export", mix_run, "--format", "hourglass", "-o", "-")
    assert p.returncode == 0, p.stderr
    q = hgreport("export", mix_run, "--format", "hourglass", "-o", tmp_path / "x.txt")
    assert q.returncode == 0, q.stderr
    assert p.stdout == (tmp_path / "x.txt").read_bytes() and len(p.stdout) > 10_000
    bad = hgreport(tmp_path / "nothing-here")
    assert bad.returncode == 2
    assert bad.stderr.decode().startswith("hgreport: error: ")


def test_a_report_is_whole_when_the_command_returns(mix_run, tmp_path):
    p = hgreport(mix_run, "-o", tmp_path / "out")
    assert p.returncode == 0, p.stderr
    assert p.stdout.decode().endswith(f"report: {tmp_path / 'out' / 'report.md'}\n")
    md = (tmp_path / "out" / "report.md").read_text()
    assert md.endswith("\n") and "## " in md


def test_under_a_profiler_the_interpreter_ends_as_usual(mix_run, tmp_path):
    prof = tmp_path / "prof.out"
    p = hgreport("export", mix_run, "--format", "jsonl", "-o", tmp_path / "x.jsonl",
                 pre=("-m", "cProfile", "-o", str(prof)))
    assert p.returncode == 0, p.stderr
    assert prof.stat().st_size > 0               # written by cProfile after main returned


def test_a_sys_monitoring_tool_counts_as_watching():
    # cProfile from Python 3.12 on (and coverage with its sysmon core) watch through
    # sys.monitoring, where sys.getprofile() stays None: the teardown must still happen.
    import pytest
    from hgreport import cli
    monitoring = getattr(sys, "monitoring", None)
    if monitoring is None:
        pytest.skip("sys.monitoring is new in Python 3.12")
    free = next((i for i in range(6) if monitoring.get_tool(i) is None), None)
    if free is None:
        pytest.skip("every sys.monitoring tool id is taken")
    before = cli._observed()
    monitoring.use_tool_id(free, "test")
    try:
        assert cli._observed()
    finally:
        monitoring.free_tool_id(free)
    assert cli._observed() == before
