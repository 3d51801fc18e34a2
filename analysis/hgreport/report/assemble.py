# SPDX-License-Identifier: GPL-2.0-or-later
"""The report of one run in one output directory: report.md, the sections of report/registry.py
in their order, each written by its module of report/sections/ (which prepares what it reads
and names the figures it shows); the figures; summary.json; trace.perfetto-trace."""
from __future__ import annotations

import gc
import os
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from ..analyses.summary import summarize
from ..base import forked
from ..base import jsontext
from ..base import safeout
from ..base.units import DEFAULT_THRESHOLDS_NS
from ..figures import figure
from ..figures.figure import Figure
from ..perfetto import FILE_NAME as PERFETTO_FILE
from ..read.rundir import Run
from .registry import SECTIONS
from .section import Context, Section


def prepare(run: Run, sections: Sequence[Section] = SECTIONS) -> None:
    """Reads and checks every input the report uses before it writes anything: the trace and
    the wake-ups, then what only some sections read (their `prepare`)."""
    run.intervals, run.samples        # noqa: B018  (read, and check, before anything is written)
    for sec in sections:
        sec.prepare(run)


def planned(ctx: Context, sections: Sequence[Section] = SECTIONS) -> list[Figure]:
    """The figures the report draws for this run: those of the sections that apply, in the
    order of the page."""
    return [f for sec in sections for f in sec.planned(ctx)]


# Records up to which a report drawn by two processes runs without Python's cyclic garbage
# collector: matplotlib makes hundreds of thousands of objects (its import, every figure), and
# the collections they trigger (each one walks the younger objects) were 0.03 s of a small
# report's CPU in each of its processes (analysis/README.md#performance). What its figures leave
# for the collector is 11-14 MiB in the figure child (the golden runs). A larger run keeps the
# collector, for its figures' larger arrays, and so does a report in one process
# (HGREPORT_SERIAL=1, the least memory, or one CPU): there every figure's leftovers would add
# up, 35-48 MiB more at the peak.
NO_COLLECTOR_UP_TO = 100_000


@contextmanager
def _collector_paused(records: int) -> Iterator[None]:
    """The collector off for the block (and in the children forked within it) when the run
    has at most NO_COLLECTOR_UP_TO records, the report forks and the collector was on; on again
    after."""
    if records > NO_COLLECTOR_UP_TO or not gc.isenabled() or not forked.can_fork():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def draw(ctx: Context, figures: Sequence[Figure], after: Callable[[str], None]) -> None:
    """Draws each figure into the report's directory; `after(file)` follows each. With a second
    CPU (base/forked.py), a forked child draws figures at the same time: matplotlib is
    imported and its fonts loaded first, once for both processes, and what the figures share
    of the run (its columns, the memoised gaps and bins, computed when the figures were
    planned) is shared copy on write. The two take the figures one at a time from a queue,
    the costliest first (figures/figure.py's `cost`; a pipe holding their numbers: whichever
    process is free takes the next), so that neither waits while the other still draws a long
    one. A figure's failure comes back as it would in one process.

    On a big run too, beside the Perfetto export's child: three processes on two CPUs, but
    each figure costs about what it costs on a short run (figures/reduce.py: none grows with
    the records), so the export (1.1 s of CPU at 5M intervals) no longer fills the second CPU
    for as long as the figures take, and what the figure child adds is its own drawing's
    memory, the run's columns being shared (analysis/README.md#performance, the numbers)."""
    if len(figures) < 2 or figure.SAVE_HOOKS or not forked.can_fork():
        for f in figures:
            f.draw(ctx, ctx.out / f.file)
            after(f.file)
        return
    from ..figures import plotting
    plotting.warm()                   # matplotlib and its fonts, once for both processes
    queue = _Queue(sorted(range(len(figures)), key=lambda k: -figures[k].weight(ctx)))

    def draw_theirs() -> list[int]:
        drawn = []
        for k in queue:
            figures[k].draw(ctx, ctx.out / figures[k].file)
            forked.tidy()
            drawn.append(k)
        return drawn
    job = forked.Job(ctx.out, "drawing figures", draw_theirs)
    try:
        for k in queue:
            f = figures[k]
            f.draw(ctx, ctx.out / f.file)
            forked.tidy()
            after(f.file)
            job.check()
        theirs = job.wait()
    except BaseException:
        job.cancel()
        raise
    finally:
        queue.close()
    for k in theirs or ():
        after(figures[k].file)


class _Queue:
    """Numbers below 256 in a pipe, in the order given, each read (taken) by one process: a
    queue shared by a parent and the children it forks after making it. Iterating takes the
    next number until none is left."""

    def __init__(self, order: Sequence[int]) -> None:
        assert all(0 <= k < 256 for k in order)
        self.r, w = os.pipe()
        try:
            os.write(w, bytes(order))        # a byte each: far below a pipe's buffer
        finally:
            os.close(w)                      # the last number read, a read returns b"": done

    def __iter__(self) -> Iterator[int]:
        while True:
            b = os.read(self.r, 1)           # one byte: taken by exactly one reader
            if not b:
                return
            yield b[0]

    def close(self) -> None:
        if self.r >= 0:
            os.close(self.r)
            self.r = -1


def _perfetto(run: Run, path: Path, threads: bool) -> None:
    """The Perfetto export, its modules imported where it runs: in the child (0.01 s of
    imports off the parent's way to the first figure, analysis/README.md#performance)."""
    from ..perfetto import trace
    trace.write(run, path, threads=threads)


def render(ctx: Context, sections: Sequence[Section] = SECTIONS) -> str:
    """report.md: every section that has something to say, in the registry's order."""
    return "\n".join(text for text in (sec.markdown(ctx) for sec in sections) if text)


def write_report(run: Run, out: Path, window: tuple[int, int] | None = None,
                 thresholds_ns: Sequence[int] = DEFAULT_THRESHOLDS_NS,
                 timings: dict[str, float] | None = None) -> dict[str, Any]:
    """Write every file of the report into `out`; returns the summary. `window`: the timeline's
    (start, length), None for where things happen (analyses/timeline_windows.py). `timings`,
    when given, receives the seconds each stage took (bench/hgreport_scale.py)."""
    clock = time.perf_counter()
    job: forked.Job | None = None

    def lap(stage: str) -> None:
        nonlocal clock
        if timings is not None:
            now = time.perf_counter()
            timings[stage] = timings.get(stage, 0.0) + now - clock
            clock = now
        if job is not None:
            job.check()       # the export failed: no more figures for a report that fails

    safeout.make_dir(out)
    prepare(run)                      # a bad input is refused before any file is written
    lap("read")
    with _collector_paused(len(run.intervals) + len(run.samples)):
        # The Perfetto export needs none of the rest: a child process writes it while this
        # one draws the figures (the machine's second CPU; base/forked.py, in-process if it
        # cannot fork). The child encodes and deflates in its one thread: its worker threads
        # would take CPU from this process (the summary, then figures), which the report
        # waits for, for no less CPU in all (analysis/README.md#performance).
        pf = out / PERFETTO_FILE
        threads = not forked.can_fork()
        job = forked.Job(pf, "the Perfetto export", lambda: _perfetto(run, pf, threads))
        try:
            ctx = Context(run, summarize(run, thresholds_ns), out, window)
            lap("summary")
            figures = planned(ctx)
            draw(ctx, figures, lap)
            ctx.figures = [f.file for f in figures]
            page = render(ctx)
            lap("sections")
        except BaseException:
            job.cancel()
            raise
        job.wait()
        lap("perfetto")          # the time left waiting for it
        s = ctx.summary
        s["files"] = ctx.figures + ctx.written + [pf.name, "summary.json", "report.md"]
        safeout.write_text(out / "summary.json", jsontext.dumps(s, 2) + "\n")
        safeout.write_text(out / "report.md", page)
        lap("markdown")
    return s
