# SPDX-License-Identifier: GPL-2.0-or-later
"""The report's Perfetto export in a forked child (hgreport/base/forked.py, report/assemble.py): failures come
back as the same errors, and the report is the same as written in one process; the default
timeline's windows (timeline._rows) select what a per-thread scan selects."""
import os
import signal

import numpy as np
import pytest

from hgreport.base import forked
from hgreport.perfetto import trace as perfetto
from hgreport.figures import timeline
from hgreport.base.errors import InputError
from hgreport.read.rundir import read_run

needs_fork = pytest.mark.skipif(not forked.can_fork(), reason="no fork here (or other threads, "
                                "or HGREPORT_SERIAL=1): the child cannot be tested")


@needs_fork
def test_a_failing_perfetto_child_exits_2_with_its_message(mix_run, hgreport, tmp_path,
                                                           monkeypatch):
    parent = os.getpid()

    def broken(run, path, **_kw):
        assert os.getpid() != parent            # it runs in the child
        raise InputError(path, "cannot write here: the disk is full (test)")

    monkeypatch.setattr(perfetto, "write", broken)
    rc, out, err = hgreport(mix_run, "-o", tmp_path / "out")
    assert rc == 2
    assert f"{tmp_path / 'out' / perfetto.FILE_NAME}: cannot write here: the disk is full (test)" \
        in err
    assert "report:" not in out
    assert not (tmp_path / "out" / "report.md").exists()


@needs_fork
def test_other_errors_of_the_child_keep_their_type(mix_run, hgreport, tmp_path, monkeypatch):
    def broken(run, path, **_kw):
        raise ValueError("a value the export did not expect (test)")

    import tempfile
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(perfetto, "write", broken)
    rc, _, err = hgreport(mix_run, "-o", tmp_path / "out")
    assert rc == 70                              # cli.py: a bug (base/bugreport.py)
    assert "ValueError: a value the export did not expect (test)" in err
    bug, = tmp_path.glob("hgreport-bug-*.txt")   # with the child's own traceback
    text = bug.read_text()
    assert "in the child process:" in text and "in broken" in text


@needs_fork
def test_a_child_killed_by_a_signal_is_reported(mix_run, hgreport, tmp_path, monkeypatch):
    monkeypatch.setattr(perfetto, "write",
                        lambda run, path, **_kw: os.kill(os.getpid(), signal.SIGKILL))
    rc, _, err = hgreport(mix_run, "-o", tmp_path / "out")
    assert rc == 2
    assert f"{tmp_path / 'out' / perfetto.FILE_NAME}: incomplete: the Perfetto export in a " \
        "child process was killed by signal SIGKILL (out of memory?); rerun with " \
        "HGREPORT_SERIAL=1 to write it in-process" in err


def test_the_child_is_reaped_when_the_parent_fails(mix_run, tmp_path, monkeypatch):
    from hgreport.report import assemble as report
    started = []
    real = forked.Job

    def job(path, what, fn):
        started.append(real(path, what, fn))
        return started[-1]

    def boom(*a, **k):
        raise InputError("x", "figure failed (test)")

    monkeypatch.setattr(forked, "Job", job)
    from hgreport.figures import gaps
    monkeypatch.setattr(gaps, "plot_gaps", boom)
    with pytest.raises(InputError, match="figure failed"):
        report.write_report(read_run(mix_run), tmp_path / "out")
    assert started and started[0].pid is None    # killed and waited for: no zombie left


@needs_fork
@pytest.mark.parametrize("case", ["mix", "outliers"])
def test_the_report_is_the_same_forked_or_serial(case, rendered, hgreport, tmp_path,
                                                 monkeypatch):
    r = rendered(case)                           # HGREPORT_SERIAL unset: forked
    assert r.forked
    monkeypatch.setenv(forked.SERIAL_ENV, "1")
    assert not forked.can_fork()
    rc1, out1, _ = hgreport(r.run, "-o", tmp_path / "serial")
    assert rc1 == r.rc == 0
    assert out1.replace(str(tmp_path / "serial"), str(r.out)) == r.stdout
    names = sorted(p.name for p in (tmp_path / "serial").iterdir())
    assert names == sorted(p.name for p in r.out.iterdir())
    assert perfetto.FILE_NAME in names and "summary.json" in names
    for name in names:
        if name.endswith(".png"):
            continue                             # drawn by the same code in the same process
        assert (tmp_path / "serial" / name).read_bytes() == (r.out / name).read_bytes(), name


@pytest.mark.parametrize("coarse", [7, 1024])
@pytest.mark.parametrize("case", ["mix", "miss", "outliers", "killed", "windows"])
def test_timeline_windows_select_what_a_scan_per_thread_selects(case, coarse, golden_session,
                                                                 monkeypatch):
    monkeypatch.setattr(timeline, "COARSE", coarse)     # blocks smaller than the runs
    run = read_run(golden_session(case))
    iv = run.intervals
    end = int(iv.stop.max())
    rng = np.random.default_rng(7)
    spans = [tuple(sorted(rng.integers(-10, end + 10, 2).tolist())) for _ in range(100)]
    spans += [(w.start_ns, w.start_ns + w.length_ns) for w in timeline.choose_windows(run)]
    spans += [(0, end + 1), (end, end + 100), (-5, 0)]
    for lo, hi in spans:
        rows = timeline._rows(run, lo, hi)
        for i in range(len(run.threads)):
            mine = iv.of_thread(i)
            reach = np.maximum.accumulate(mine.stop) if len(mine) else mine.stop
            m = (reach > lo) & (mine.start < hi)
            assert np.array_equal(rows[i][0], mine.start[m]), (lo, hi, i)
            assert np.array_equal(rows[i][1], reach[m]), (lo, hi, i)


def pipes():
    """The pipes this process has open (not every descriptor: matplotlib's font cache opens
    and closes font files as figures need them)."""
    out = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            out.append(os.readlink(f"/proc/self/fd/{fd}"))
        except OSError:                          # the listing's own descriptor, closed
            continue
    return sorted(x for x in out if x.startswith("pipe:"))


@needs_fork
def test_a_fork_that_fails_writes_it_here(mix_run, hgreport, tmp_path, monkeypatch):
    """fork() refused (EAGAIN: too many processes): the export is written in this process,
    the collector is thawed again and the pipe closed."""
    import gc

    def no_fork():
        raise BlockingIOError(11, "Resource temporarily unavailable")

    fds = pipes()
    monkeypatch.setattr(os, "fork", no_fork)
    rc, out, err = hgreport(mix_run, "-o", tmp_path / "out")
    assert rc == 0, err
    assert (tmp_path / "out" / perfetto.FILE_NAME).stat().st_size > 0
    assert gc.get_freeze_count() == 0
    assert pipes() == fds


@needs_fork
def test_check_raises_what_the_child_raised_as_soon_as_it_ended(tmp_path):
    """write_report asks between its figures (Job.check): a failed export stops the report
    there instead of after every figure."""
    import time

    def fails():
        raise InputError(tmp_path / "x", "cannot write here (test)")

    def checked(job):
        end = time.monotonic() + 60
        while job.pid is not None and time.monotonic() < end:
            job.check()
            time.sleep(0.01)

    job = forked.Job(tmp_path / "x", "a test", fails)
    with pytest.raises(InputError, match=r"cannot write here \(test\)"):
        checked(job)
    assert job.pid is None                       # reaped
    ok = forked.Job(tmp_path / "y", "a test", lambda: None)
    checked(ok)
    assert ok.pid is None
    ok.wait()                                    # nothing left to raise


@needs_fork
def test_figures_drawn_in_a_child_are_those_drawn_in_one_process(golden, tmp_path):
    """Figures are drawn by a forked child as well (report/assemble.py's draw): the files are
    byte for byte those of a report written in one process (HGREPORT_SERIAL=1)."""
    import subprocess
    import sys
    run = golden("mix")
    outs = {}
    for serial in ("0", "1"):
        env = {k: v for k, v in os.environ.items() if k != forked.SERIAL_ENV}
        if serial == "1":
            env[forked.SERIAL_ENV] = "1"
        out = tmp_path / f"serial{serial}"
        p = subprocess.run([sys.executable, "-m", "hgreport", str(run), "-o", str(out)], env=env,
                           capture_output=True, text=True, timeout=300)
        assert p.returncode == 0, p.stderr
        outs[serial] = out
    names = sorted(p.name for p in outs["1"].iterdir())
    assert names == sorted(p.name for p in outs["0"].iterdir())
    assert sum(n.endswith(".png") for n in names) >= 4
    for name in names:
        assert (outs["0"] / name).read_bytes() == (outs["1"] / name).read_bytes(), name


@needs_fork
def test_a_figure_failing_in_the_child_fails_the_report(mix_run, tmp_path, monkeypatch):
    """The child takes figures from the queue as the parent does (report/assemble.py's draw):
    here the parent's first figure waits until the child has taken one, which fails."""
    import time
    from hgreport.figures.figure import Figure
    from hgreport.report import assemble
    parent = os.getpid()
    taken = tmp_path / "taken"
    real = assemble.planned

    def boom(given, path):
        if os.getpid() != parent:
            taken.touch()
            raise InputError("x", "figure failed in the child (test)")
        end = time.monotonic() + 60
        while not taken.exists() and time.monotonic() < end:
            time.sleep(0.005)

    monkeypatch.setattr(assemble, "planned",
                        lambda ctx: [Figure(f.file, boom) for f in real(ctx)])
    with pytest.raises(InputError, match="figure failed in the child"):
        assemble.write_report(read_run(mix_run), tmp_path / "out")
    assert taken.exists()
    assert not (tmp_path / "out" / "report.md").exists()


@needs_fork
def test_the_figure_queue_gives_each_number_to_one_reader(tmp_path):
    """assemble._Queue: a parent and a child forked after it is made read every number once
    between them, and then nothing."""
    from hgreport.report import assemble
    queue = assemble._Queue(range(40))

    def theirs():
        got = []
        for k in queue:
            got.append(k)
            time.sleep(0.001)
        return got
    import time
    job = forked.Job(tmp_path / "q", "a test", theirs)
    mine = []
    for k in queue:
        mine.append(k)
        time.sleep(0.001)
    other = job.wait()
    queue.close()
    assert sorted(mine + other) == list(range(40))
    assert list(queue.__class__([])) == []


def test_a_report_in_one_process_keeps_the_collector(mix_run, tmp_path, monkeypatch):
    """HGREPORT_SERIAL=1 (the least memory): the figures are drawn with the cyclic collector
    on, or every figure's leftovers would add up (35-48 MiB at the peak); and it is on after."""
    import gc
    from hgreport.figures import figure
    from hgreport.report import assemble
    seen = []
    monkeypatch.setenv(forked.SERIAL_ENV, "1")
    monkeypatch.setattr(figure, "SAVE_HOOKS", [lambda fig, path: seen.append(gc.isenabled())])
    assemble.write_report(read_run(mix_run), tmp_path / "out")
    assert len(seen) >= 3 and all(seen), seen
    assert gc.isenabled()


@needs_fork
def test_the_heap_is_given_back_before_each_fork(tmp_path, monkeypatch):
    """Job gives the heap's free pages back (malloc_trim) before it forks, once per fork: free
    memory the parent keeps would be shared with the child, then copied by whichever reuses
    it (analysis/README.md#performance); and the child runs the function all the same."""
    calls = []
    real = os.fork

    def fork():
        calls.append("fork")
        return real()
    monkeypatch.setattr(forked, "_trim", lambda pad: calls.append(("trim", pad)) or 1,
                        raising=False)
    monkeypatch.setattr(forked.os, "fork", fork)
    monkeypatch.setattr(forked, "can_fork", lambda: True)
    assert forked.Job(tmp_path / "x", "a test", lambda: 41 + 1).wait() == 42
    assert calls == [("trim", 0), "fork"]


@needs_fork
def test_the_parent_keeps_its_objects_frozen_while_a_child_lives(tmp_path):
    """A full collection in the parent would write to the header of every object the child
    still shares, copying those pages: they stay frozen until the last child is reaped."""
    import gc
    assert gc.get_freeze_count() == 0
    r, w = os.pipe()
    jobs = []
    try:
        jobs.append(forked.Job(tmp_path / "x", "a test", lambda: os.read(r, 1) and 1))
        jobs.append(forked.Job(tmp_path / "y", "a test", lambda: os.read(r, 1) and 2))
        frozen = gc.get_freeze_count()
        assert frozen > 0
        os.write(w, b"ab")
        assert jobs[1].wait() == 2
        assert gc.get_freeze_count() == frozen       # the first child still shares them
        assert jobs[0].wait() == 1
        assert gc.get_freeze_count() == 0
    finally:
        for job in jobs:
            job.cancel()                              # none left waiting if something failed
        os.close(r)
        os.close(w)
        gc.unfreeze()


def test_tidy_collects_the_last_figures_garbage_and_gives_the_heap_back(monkeypatch):
    """forked.tidy (between a forked report's figures): cyclic garbage is gone after it, and
    the heap was trimmed; with the collector paused (a small run's report) it stays paused and
    nothing is collected."""
    import gc
    import weakref
    trims = []
    monkeypatch.setattr(forked, "_trim", lambda pad: trims.append(pad) or 1, raising=False)

    class Node:
        pass

    def cycle():
        a, b = Node(), Node()
        a.other, b.other = b, a
        return weakref.ref(a)
    gone = cycle()
    forked.tidy()
    assert gone() is None and trims == [0]
    gc.disable()
    try:
        kept = cycle()
        forked.tidy()
        assert kept() is not None and trims == [0, 0]
        assert not gc.isenabled()
    finally:
        gc.enable()
