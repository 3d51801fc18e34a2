# SPDX-License-Identifier: GPL-2.0-or-later
"""read/memo.py: an analysis of a run computed once per run and arguments, kept by the
function (no dict on the Run that every module writes), and let go with the run."""
import gc
import weakref
from pathlib import Path

from hgreport.read.memo import per_run
from hgreport.read.rundir import Run


def _run() -> Run:
    return Run(Path("synthetic"), {"threads": [], "scenario": {}})


def test_once_per_run_and_arguments():
    calls = []

    @per_run
    def twice(run, k=2):
        calls.append(k)
        return [k * 2]

    a, b = _run(), _run()
    assert twice(a) is twice(a) is twice(a, 2) is twice(a, k=2)     # defaults are bound
    assert twice(a, 3) == [6] and twice(b) == [4] and twice(b) is not twice(a)
    assert calls == [2, 3, 2]


def test_a_run_no_longer_used_is_let_go():
    @per_run
    def big(run):
        return bytearray(1 << 20)

    run = _run()
    big(run)
    gone = weakref.ref(run)
    del run
    gc.collect()
    assert gone() is None


def test_the_run_has_no_shared_cache():
    assert not hasattr(_run(), "cache")
