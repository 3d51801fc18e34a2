# SPDX-License-Identifier: GPL-2.0-or-later
"""hgreport bounded on any input (analysis/README.md): every file it reads is refused unless
regular (a FIFO used to block forever), a symlink loop is one line, and a line longer than any
line hgrun writes costs one block, not time and memory that grow with it."""
from __future__ import annotations

import os
import pathlib
import resource
import signal
import time

import pytest


@pytest.fixture
def deadline():
    """Fails the test (instead of hanging the suite) if it takes over 60 s: a FIFO open that
    blocks."""
    def expire(*_):
        raise TimeoutError("blocked: hgreport waited on a FIFO?")
    old = signal.signal(signal.SIGALRM, expire)
    signal.alarm(60)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


def fifo(run: pathlib.Path, name: str) -> None:
    (run / name).unlink(missing_ok=True)
    os.mkfifo(run / name)


@pytest.mark.parametrize("base,name,command", [
    ("mix", "series.jsonl", ()),
    ("mix", "series.jsonl", ("series",)),
    ("mix", "kernel.jsonl", ()),
    ("killed", "series.jsonl", ()),
])
def test_fifo_is_refused(base, name, command, golden, hgreport, tmp_path, deadline):
    run = golden(base)
    fifo(run, name)
    rc, _, err = hgreport(*command, run, "-o", tmp_path / "out")
    assert rc == 2, err
    assert err.count("\n") == 1, err
    assert f"{name}: not a regular file (a FIFO" in err


def test_result_json_symlink_loop(golden, hgreport, tmp_path):
    run = golden("mix")
    (run / "result.json").unlink()
    (run / "result.json").symlink_to("result.json")
    for args in ((run, "-o", tmp_path / "out"), ("series", run), ("table1", run),
                 (run / "result.json",)):
        rc, _, err = hgreport(*args)
        assert rc == 2, (args, err)
        assert err.count("\n") == 1 and "symbolic link loop" in err, err


def test_series_symlink_loop(golden, hgreport, tmp_path):
    run = golden("mix")
    (run / "series.jsonl").unlink()
    (run / "series.jsonl").symlink_to("series.jsonl")
    rc, _, err = hgreport(run, "-o", tmp_path / "out")
    assert rc == 2 and err.count("\n") == 1 and "symbolic link loop" in err, err


def _append(path: pathlib.Path, byte: bytes, size: int) -> None:
    with path.open("ab") as f:
        block = byte * (1 << 20)
        for _ in range(size >> 20):
            f.write(block)


@pytest.mark.parametrize("byte", [b"\0", b"x"])
def test_a_long_torn_tail_costs_one_block(byte, golden, hgreport, tmp_path):
    """A killed run whose series.jsonl ends in 64 MiB without a newline (NUL bytes of a power
    cut, or garbage): read in linear time and bounded memory, the tail left out as torn."""
    run = golden("killed")
    _append(run / "series.jsonl", byte, 64 << 20)
    from hgreport.read.rundir import read_run
    from hgreport.read.series import read_series
    r = read_run(run)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t = time.perf_counter()
    s = read_series(r)
    took = time.perf_counter() - t
    grew = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) << 10
    assert s.lines == 6
    assert s.torn == (0 if byte == b"\0" else 1)
    assert grew < 48 << 20, grew            # a few blocks, not the 64 MiB line (or its copies)
    assert took < 20, took                  # quadratic: minutes


def test_a_long_line_where_lines_must_parse_is_an_error(golden, hgreport, tmp_path):
    run = golden("mix")
    lines = (run / "series.jsonl").read_bytes().splitlines(keepends=True)
    (run / "series.jsonl").write_bytes(lines[0] + b"[" * (3 << 20) + b"\n" + b"".join(lines[1:]))
    rc, _, err = hgreport("series", run, "-o", tmp_path / "out")
    assert rc == 2, err
    assert "line 2: invalid JSON" in err and "longer than any series line (1 MiB)" in err


def test_kernel_jsonl_long_line_is_refused(golden, hgreport, tmp_path):
    run = golden("mix")
    _append(run / "kernel.jsonl", b"x", 16 << 20)
    t = time.perf_counter()
    rc, _, err = hgreport(run, "-o", tmp_path / "out")
    assert rc == 2, err
    assert "kernel.jsonl: line 2524: longer than 1 MiB, not a kernel segment" in err, err
    assert time.perf_counter() - t < 120


def test_legacy_jsonl_long_line_is_refused(golden, hgreport, tmp_path):
    from hgreport.base.errors import InputError
    from hgreport.read.regular import lines
    p = tmp_path / "trace.jsonl"
    p.write_bytes(b'{"a": 1}\n' + b"x" * (2 << 20) + b"\n")
    with pytest.raises(InputError, match="line 2: longer than 1 MiB"):
        list(lines(p))


def test_a_sparse_power_cut_tail_is_skipped_not_read(golden, hgreport, tmp_path):
    """A power cut's NUL tail is often a hole: it is passed with SEEK_DATA, not read (64 GiB
    would take minutes to read)."""
    run = golden("killed")
    os.truncate(run / "series.jsonl", (run / "series.jsonl").stat().st_size + (64 << 30))
    from hgreport.read.rundir import read_run
    from hgreport.read.series import read_series
    t = time.perf_counter()
    s = read_series(read_run(run))
    assert (s.lines, s.torn) == (6, 0)
    assert time.perf_counter() - t < 20
