# SPDX-License-Identifier: GPL-2.0-or-later
"""A closed stdout (`hgreport ... | head`): hgreport ends as coreutils do, killed by SIGPIPE
(the shell's $? 141), without a message or a traceback, and keeps what it wrote
(docs/cli.md, "hgreport and a closed pipe"). The pipes are real: their reader is closed
before hgreport starts, so its first write finds no reader, whatever the machine's speed."""
from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from conftest import ROOT

ENV = dict(os.environ, PYTHONPATH=str(ROOT / "analysis"))


def closed_stdout(*args: object) -> subprocess.CompletedProcess:
    r, w = os.pipe()
    os.close(r)
    try:
        return subprocess.run([sys.executable, "-m", "hgreport", *map(str, args)], stdout=w,
                              stderr=subprocess.PIPE, text=True, env=ENV, timeout=300)
    finally:
        os.close(w)


# Every command that prints to stdout, on a golden case it accepts.
COMMANDS = [
    ("export-hourglass", "mix", ["export", "{run}", "--format", "hourglass", "-o", "-"]),
    ("export-cyclictest", "mix", ["export", "{run}", "--format", "cyclictest", "-o", "-"]),
    ("export-jsonl", "mix", ["export", "{run}", "-o", "{tmp}/jsonl"]),
    ("table1", "mix", ["table1", "{run}"]),
    ("table2", "rx", ["table2", "{run}"]),
    ("table2-json", "rx", ["table2", "{run}", "--json"]),
    ("dispatch", "mix", ["dispatch", "{run}"]),
    ("rta", "miss", ["rta", "{run}"]),
    ("series", "mix", ["series", "{run}", "-o", "{tmp}/series"]),
    ("compare", "mix", ["compare", "{run}", "{run}", "-o", "{tmp}/compare"]),
    ("sweep", "sweep", ["sweep", "{run}", "-o", "{tmp}/sweep"]),
]


@pytest.mark.parametrize("case,args", [(c, a) for _, c, a in COMMANDS],
                         ids=[i for i, _, _ in COMMANDS])
def test_each_command_dies_quietly_of_sigpipe(golden_session, tmp_path, case, args):
    run = golden_session(case)
    words = [a.format(run=run, tmp=tmp_path) for a in args]
    p = closed_stdout(*words)
    assert p.returncode == -signal.SIGPIPE, (p.returncode, p.stderr)
    assert p.stderr == "", p.stderr


def test_a_report_on_a_closed_stdout_keeps_its_files(golden, tmp_path):
    run = golden("mix")
    p = closed_stdout(run, "-o", tmp_path / "rep")
    assert p.returncode == -signal.SIGPIPE and p.stderr == "", (p.returncode, p.stderr)
    assert (tmp_path / "rep" / "report.md").stat().st_size > 0
    assert not list((tmp_path / "rep").glob(".*.tmp.*"))


def test_head_closing_the_pipe_early_is_exit_141(golden_session):
    """The shell's view, as `seq 1000000 | head -c 10` gives it. The export (58 KB) would
    fit a pipe's default 64 KiB and could be written whole before head exits, so the pipe
    is made one page small first (F_SETPIPE_SZ): hgreport must meet the closed reader."""
    run = golden_session("mix")
    shrink = ("import fcntl, os, sys; fcntl.fcntl(1, 1031, 4096); "     # F_SETPIPE_SZ
              "os.execv(sys.executable, [sys.executable, '-m', 'hgreport'] + sys.argv[1:])")
    sh = (f'"{sys.executable}" -c "{shrink}" export "{run}" --format hourglass -o - '
          '| head -c 10 >/dev/null; echo "${PIPESTATUS[0]}"')
    p = subprocess.run(["bash", "-c", sh], capture_output=True, text=True, env=ENV, timeout=300)
    assert p.stdout.strip() == "141" and p.stderr == "", (p.stdout, p.stderr)


def test_a_broken_pipe_that_is_not_stdout_is_still_an_error(golden, hgreport, monkeypatch):
    """Only a closed stdout or stderr ends hgreport quietly: an EPIPE from anything else is
    the one-line error it always was."""
    import dataclasses

    from hgreport import cli

    def broken(*_a, **_k):
        raise BrokenPipeError(32, "Broken pipe")
    monkeypatch.setattr(cli, "COMMANDS", tuple(
        dataclasses.replace(c, run=broken) if c.name == "abeni-table1" else c for c in cli.COMMANDS))
    rc, _, err = hgreport("table1", golden("mix"))
    assert rc == 2 and "Broken pipe" in err, (rc, err)
