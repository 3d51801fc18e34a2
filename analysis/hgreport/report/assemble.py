"""The report of one run: report.md, summary.json, timeline.png, gaps.png, latency.png and
trace.perfetto-trace in one output directory."""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Sequence

from ..analyses import causes
from ..analyses.summary import DEFAULT_THRESHOLDS_NS, summarize
from ..base import forked
from ..base.markdown import pct, table
from ..base.units import fmt_ns
from ..figures import gaps_latency as figures
from ..figures import timeline
from ..perfetto import trace as perfetto
from ..read.rundir import Run
from . import over_time as longrun


def _policy(t: dict[str, Any]) -> str:
    pol = t.get("policy") or "?"
    if t.get("reservation"):
        r = t["reservation"]
        return f"{pol} {fmt_ns(r['budget_ns'])}/{fmt_ns(r['period_ns'])} {r.get('mode', '')}".strip()
    if pol in ("fifo", "rr"):
        return f"{pol} {t.get('priority')}"
    if pol in ("other", "batch"):
        return f"{pol} nice {t.get('nice')}"
    return pol


def _header(s: dict[str, Any]) -> list[str]:
    r, h, tsc, gap = s["run"], s["host"], s["tsc"], s["gap"]
    out = [f"# hgrun report: {r['scenario']}", ""]
    if not r["complete"]:
        out += [f"> **This run is incomplete** (`complete: false`, exit status {r['exit_status']}"
                + (f", interrupted by {r['interrupted_by']}" if r.get("interrupted_by") else "")
                + "): counts cover only the part that ran.", ""]
    out += [f"- result: `{r['path']}`",
            f"- hgrun {r['hgrun_version']}, started {r['started_utc']}, "
            f"duration {fmt_ns(r['duration_ns'])}, exit status {r['exit_status']}"]
    if r.get("command_line"):
        out.append(f"- command: `{' '.join(r['command_line'])}`")
    if r.get("sweep_point"):
        sp = r["sweep_point"]
        ov = ", ".join(f"{k}={v}" for k, v in sp.get("overrides", {}).items())
        out.append(f"- sweep point {sp.get('id')}: {ov}")
    out += ["", "## Host", "",
            f"- kernel {h['kernel_release']} `{h['kernel_version']}`, preemption **{h['preempt']}**, "
            f"clocksource {h['clocksource']}",
            f"- {h['cpus_online']} CPUs online, {h['cpu_model']}, governor {h['governor']}, "
            f"sched_rt_runtime_us {h['sched_rt_runtime_us']}"
            + (f", isolcpus {h['isolcpus']}" if h.get("isolcpus") else ""),
            "", "## Calibration", "",
            f"- counter {tsc['hz'] / 1e6 if tsc.get('hz') else 0:.3f} MHz ({tsc['method']}, "
            f"±{tsc.get('hz_error_ppm') or 0:.2f} ppm, invariant {tsc.get('invariant')})",
            f"- gap threshold {fmt_ns(gap['threshold_ns'])}"
            f"{' (auto)' if gap.get('auto') else ''}, loop {gap['loop_ns'] or 0:.1f} ns per iteration; "
            f"memory locked: {s.get('memory_locked')}", ""]
    out += ["## Warnings", ""] + ([f"- {w}" for w in s["warnings"]] or ["none"]) + [""]
    return out


def _threads(s: dict[str, Any]) -> list[str]:
    rows = []
    for t in s["threads"]:
        periodic = t["releases"] > 0
        rows.append([t["label"], t["workload"], _policy(t), fmt_ns(t["cpu_ns"]),
                     pct(t["cpu_share"], 1), t["intervals"], t["gaps"],
                     t["deadlines_hit"] if periodic else None,
                     t["deadlines_missed"] if periodic else None,
                     pct(t["deadline_miss_ratio"]) if periodic else None,
                     t["work_units"] or None])
    out = ["## Threads", "",
           "CPU received is the sum of the thread's intervals; share is of its active window.", "",
           table(["thread", "workload", "granted", "CPU received", "share", "intervals", "gaps",
                  "hit", "missed", "missed %", "work units"], rows, "lllrrrrrrrr"), ""]
    dropped = [t for t in s["threads"] if t["records_dropped"]]
    for t in dropped:
        out.append(f"- {t['label']}: {t['records_dropped']} intervals were not recorded (trace "
                   "buffer full): figures and rebuilt jobs cover only the recorded ones.")
    rebuilt = [t for t in s["threads"] if t.get("jobs_rebuilt")]
    if rebuilt:
        out += ["### Deadlines", "",
                "Jobs rebuilt from the trace by the runner's rule (docs/semantics.md): response "
                "time = completion − release.", "",
                table(["thread", "period", "releases", "missed", "worst response", "mean response",
                       "worst overrun", "agrees with counters"],
                      [[t["label"], fmt_ns(t["period_ns"]), t["jobs_rebuilt"]["releases"],
                        t["jobs_rebuilt"]["missed"], fmt_ns(t["jobs_rebuilt"]["response_max_ns"]),
                        fmt_ns(t["jobs_rebuilt"]["response_mean_ns"]), fmt_ns(t["overrun_max_ns"]),
                        "yes" if t["jobs_rebuilt"]["agrees_with_counters"] else "**no**"]
                       for t in rebuilt], "lrrrrrrl"), ""]
    return out


def _latency(s: dict[str, Any]) -> list[str]:
    lat = [t for t in s["threads"] if t["latency"]]
    if not lat:
        return []
    out = ["## Dispatch latency", "",
           table(["thread", "wake-ups", "min", "p50", "p99", "p99.9", "max"],
                 [[t["label"], t["latency"]["count"], fmt_ns(t["latency"]["min_ns"]),
                   fmt_ns(t["latency"]["p50_ns"]), fmt_ns(t["latency"]["p99_ns"]),
                   fmt_ns(t["latency"]["p999_ns"]), fmt_ns(t["latency"]["max_ns"])] for t in lat],
                 "lrrrrrr"), ""]
    d = s["dispatch_latency"]
    ths = d["thresholds_ns"]
    out += ["### Samples later than (Hourglass table 1)", "",
            table(["thread", "samples"] + [fmt_ns(x) for x in ths],
                  [[r["label"], r["samples"]] + [r["later_than"][str(x)] for x in ths]
                   for r in d["threads"]], "l" + "r" * (len(ths) + 1)), ""]
    for r in d["threads"]:
        if r["samples_dropped"]:
            out.append(f"- {r['label']}: {r['samples_dropped']} samples not stored; "
                       "the table counts the stored ones.")
    return out


def _gaps(s: dict[str, Any]) -> list[str]:
    sw = s["context_switches"]
    rows = [[t["label"], t["gap_lengths"]["count"], fmt_ns(t["gap_lengths"]["min_ns"]),
             fmt_ns(t["gap_lengths"]["median_ns"]), fmt_ns(t["gap_lengths"]["mean_ns"]),
             fmt_ns(t["gap_lengths"]["max_ns"])] for t in s["threads"] if t["gap_lengths"]["count"]]
    out = ["## Gaps and context switches", "",
           "Gaps: an interval ended `preempted` and the same thread ran next on the same CPU.",
           "Switches: on one CPU an interval of thread A is followed by one of thread B; the cost is "
           "B's start − A's end (section 4's inference; the minimum is the fastest path through the "
           "switch, the median the representative cost, long outliers include other activity).", ""]
    if rows:
        out += [table(["thread", "gaps", "min", "median", "mean", "max"], rows, "lrrrrr"), ""]
    out += [table(["switches", "count", "min", "median", "mean", "max"],
                  [[k, sw[k]["count"], fmt_ns(sw[k]["min_ns"]), fmt_ns(sw[k]["median_ns"]),
                    fmt_ns(sw[k]["mean_ns"]), fmt_ns(sw[k]["max_ns"])]
                   for k in ("involuntary", "voluntary", "all")], "lrrrrr"), ""]
    return out


def _loads(s: dict[str, Any]) -> list[str]:
    if not s["loads"]:
        return []
    rows = [[ld["name"], ld["type"],
             f"{fmt_ns(ld['started_ns'])} – {fmt_ns(ld['stopped_ns'])}" if ld["started_ns"] is not None
             else "never started",
             f"{ld['seconds']:.3f} s" if ld["seconds"] is not None else None,
             f"{ld['mbps']:.1f}" if ld["mbps"] is not None else None,
             f"{ld['ops_per_s']:.1f}" if ld["ops_per_s"] is not None else None,
             "yes" if ld.get("ended_early") else ""] for ld in s["loads"]]
    out = ["## Loads", "", table(["load", "type", "window", "ran", "Mbit/s", "ops/s", "ended early"],
                                 rows, "lllrrrl"), ""]
    for ld in s["loads"]:
        out += [f"- {ld['name']}: {w}" for w in ld["warnings"]]
    return out


def _expectations(s: dict[str, Any]) -> list[str]:
    if not s["expectations"]:
        return []
    rows = [[e["thread"], e["metric"], ("≤ " + str(e["max"])) if "max" in e else ("≥ " + str(e["min"])),
             e["value"], "pass" if e["pass"] else "**FAIL**"] for e in s["expectations"]]
    return ["## Expectations", "", table(["thread", "metric", "bound", "value", "result"], rows,
                                         "llrrl"), ""]


def render(s: dict[str, Any], figures_written: Sequence[str], extra: Sequence[str] = ()) -> str:
    lines = _header(s) + _threads(s) + _latency(s) + _gaps(s) + _loads(s) + _expectations(s)
    lines += [x for x in extra if x]
    lines += ["## Figures", ""] + [f"![{f}]({f})" for f in figures_written if f.endswith(".png")]
    lines += ["", f"Perfetto trace: `{perfetto.FILE_NAME}` (open in https://ui.perfetto.dev)", ""]
    return "\n".join(lines)


def write_report(run: Run, out: Path, window: tuple[int, int] | None = None,
                 thresholds_ns: Sequence[int] = DEFAULT_THRESHOLDS_NS,
                 timings: dict[str, float] | None = None) -> dict[str, Any]:
    """Write every file of the report into `out`; returns the summary. `window`: the timeline's
    (start, length), None for where things happen (analyses/timeline_windows.py). `timings`, when given,
    receives the seconds each stage took (bench/hgreport_scale.py)."""
    clock = time.perf_counter()

    def lap(stage: str) -> None:
        nonlocal clock
        if timings is not None:
            now = time.perf_counter()
            timings[stage] = timings.get(stage, 0.0) + now - clock
            clock = now

    out.mkdir(parents=True, exist_ok=True)
    run.intervals, run.samples        # noqa: B018  (read, and check, before anything is written)
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
        extra = [longrun.write_section(run, out), causes.write_section(run, out)]  # report/over_time.py, causes.py
        lap("longrun")
    except BaseException:
        job.cancel()
        raise
    job.wait()
    written.append(pf.name)
    lap("perfetto")          # the time left waiting for it
    s["files"] = written + ["summary.json", "report.md"]
    (out / "summary.json").write_text(json.dumps(s, indent=2) + "\n")
    (out / "report.md").write_text(render(s, written, extra))
    lap("markdown")
    return s
