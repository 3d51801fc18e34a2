"""The report of one run: report.md, summary.json, timeline.png, gaps.png, latency.png and
trace.perfetto-trace in one output directory. report.md is the sections of report/registry.py
in their order, each written by its module of report/sections/."""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Sequence

from ..analyses import causes, late_wakeups
from ..analyses.summary import DEFAULT_THRESHOLDS_NS, summarize
from ..base import forked
from ..base import safeout
from ..figures import gaps_latency as figures
from ..figures import timeline
from ..perfetto import trace as perfetto
from ..read.rundir import Run
from ..read.series import read_series
from .registry import SECTIONS
from .section import Context


def render(ctx: Context) -> str:
    """report.md: every section that has something to say, in the registry's order."""
    return "\n".join(text for text in (sec.markdown(ctx) for sec in SECTIONS) if text)


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
    run.intervals, run.samples        # noqa: B018  (read, and check, before anything is written)
    read_series(run)                  # its damage is among the warnings, above its section
    # What only the sections read, read (and checked) now too, kept in run.cache: a bad line
    # of kernel.jsonl or late_wakeups.jsonl is refused before any figure is drawn.
    if (run.result.get("kernel_trace") or {}).get("enabled"):
        causes.top_gaps(run)          # sections/causes.py
    if late_wakeups.threads(run):
        late_wakeups.collect(run)     # sections/late_wakeups.py
    lap("read")
    # The Perfetto export needs none of the rest: a child process writes it while this one
    # draws the figures (the machine's second CPU; base/forked.py, in-process if it cannot fork).
    pf = out / perfetto.FILE_NAME
    job = forked.Job(pf, "the Perfetto export", lambda: perfetto.write(run, pf))
    try:
        s = summarize(run, thresholds_ns)
        lap("summary")
        tl = out / "timeline.png"   # by default where things happen (analyses/timeline_windows.py)
        written = [(timeline.plot_timeline(run, tl, *window) if window else
                    timeline.plot_default(run, tl)).name]
        lap("timeline")
        written.append(figures.plot_gaps(run, out / "gaps.png").name)
        lap("gaps")
        lat = figures.plot_latency(run, out / "latency.png")
        if lat is not None:
            written.append(lat.name)
        lap("latency")
        page = render(Context(run, s, out, list(written)))   # the sections write their files
        lap("sections")
    except BaseException:
        job.cancel()
        raise
    job.wait()
    written.append(pf.name)
    lap("perfetto")          # the time left waiting for it
    s["files"] = written + ["summary.json", "report.md"]
    safeout.write_text(out / "summary.json", json.dumps(s, indent=2) + "\n")
    safeout.write_text(out / "report.md", page)
    lap("markdown")
    return s
