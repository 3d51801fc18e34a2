# SPDX-License-Identifier: GPL-2.0-or-later
"""The numbers of one run's report (summary.json): every table of report.md comes from here."""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from ..base.stats import describe, within_run
from ..base.units import DEFAULT_THRESHOLDS_NS
from ..read.memo import per_run
from ..read.rundir import Run
from . import interactivation, jobs, skipped
from . import switches



def thread_window(run: Run, index: int) -> tuple[int, int]:
    """[start, end) of a thread's activity, from the run's time zero (ns)."""
    s = run.scenario_thread(index)
    start = int(s.get("start_ns") or 0)
    end = int(s.get("finish_ns") or run.duration_ns or 0)
    if run.duration_ns:
        end = min(end, run.duration_ns)
    return start, end


def miss_ratio(stats: dict[str, Any]) -> float | None:
    releases = stats.get("releases") or 0
    return stats["deadlines_missed"] / releases if releases else None


def periodic_jobs(run: Run, index: int) -> list[jobs.Job] | None:
    """Jobs of a `periodic` thread rebuilt from the trace, or None (not periodic, exec drawn
    from a distribution, or records dropped)."""
    s = run.scenario_thread(index)
    w = s.get("workload") or {}
    execs = jobs.exec_values(w)
    t = run.threads[index]
    if w.get("type") != "periodic" or not execs or t["stats"]["records_dropped"]:
        return None
    return _rebuilt(run, index, int(w["period_ns"]), tuple(execs))


@per_run
def _rebuilt(run: Run, index: int, period_ns: int, execs: tuple[int, ...]) -> list[jobs.Job]:
    start, end = thread_window(run, index)
    return jobs.rebuild(run.intervals.of_thread(index), start, end, period_ns, list(execs))


def _thread(run: Run, index: int) -> dict[str, Any]:
    t = run.threads[index]
    st = t["stats"]
    s = run.scenario_thread(index)
    w = s.get("workload") or {}
    g = t.get("granted") or {}
    start, end = thread_window(run, index)
    in_trace = int(_trace_counts(run)[index])
    row: dict[str, Any] = {
        "label": run.label(index), "name": t["name"], "instance": t["instance"],
        "tid": t.get("tid"), "cpu_affinity": t.get("cpu_affinity"),
        "workload": w.get("type") or t.get("workload"), "timer": s.get("timer"),
        "period_ns": w.get("period_ns"),
        "policy": g.get("policy"), "priority": g.get("priority"), "nice": g.get("nice"),
        "reservation": g.get("reservation"), "asked_level": (t.get("asked") or {}).get("level"),
        "window_ns": [start, end],
        "cpu_ns": st["cpu_ns"],
        "cpu_share": st["cpu_ns"] / (end - start) if end > start else None,
        "intervals": st["intervals"], "records": st["records"],
        "records_dropped": st["records_dropped"], "trace_intervals": in_trace,
        "gaps": st["gaps"], "releases": st["releases"], "deadlines_hit": st["deadlines_hit"],
        "deadlines_missed": st["deadlines_missed"], "deadline_miss_ratio": miss_ratio(st),
        "overrun_max_ns": st.get("overrun_max_ns"), "work_units": st["work_units"],
        "latency": _latency(run, index),
        "gap_lengths": describe(switches.gaps_of_run(run).of_thread(index), scratch=True),
    }
    js = periodic_jobs(run, index) if st["releases"] else None
    if js is not None:
        resp = [j.response for j in js if j.response is not None]
        row["jobs_rebuilt"] = {
            "releases": len(js), "missed": sum(j.missed for j in js),
            "response_max_ns": max(resp) if resp else None,
            "response_mean_ns": float(np.mean(resp)) if resp else None,
            # the timeline's worst deadline miss is this job: one value for one event
            "overrun_max_ns": max((j.completion - j.deadline for j in js
                                   if j.missed and j.completion is not None), default=None),
            "agrees_with_counters": len(js) == st["releases"]
                                    and sum(j.missed for j in js) == st["deadlines_missed"],
        }
    return row


def _latency(run: Run, index: int) -> dict[str, Any] | None:
    """result.json's latency figures of a thread (no histogram), with its skipped slots:
    `skipped`, `slots` (released + skipped), `skipped_counted_late` (analyses/skipped.py)."""
    lat = run.threads[index]["stats"].get("latency")
    if not lat:
        return None
    sk = skipped.of_thread(run, index)
    return {**{k: v for k, v in lat.items() if k != "histogram"}, "skipped": sk.skipped,
            "slots": sk.slots, "skipped_counted_late": sk.counted_late,
            "p99_within_run": _p99_within_run(run, index)}


def _p99_within_run(run: Run, index: int) -> list[float] | None:
    """[low, high] of the p99's within-run spread (base/stats.py's block bootstrap over the
    wake-ups in time order), when latency.bin holds every wake-up; else None."""
    lat = run.threads[index]["stats"]["latency"]
    smp = run.samples
    mine = smp.thread == index
    if int(mine.sum()) != lat.get("count") or not lat.get("count"):
        return None
    w = within_run(smp.late[mine][np.argsort(smp.intended[mine], kind="stable")], [0.99])
    return None if w is None else list(w.bounds[0.99])


@per_run
def _trace_counts(run: Run) -> np.ndarray:
    """Intervals in the trace per thread (one pass over the thread column)."""
    return np.bincount(run.intervals.thread, minlength=len(run.threads))


@per_run
def switch_stats(run: Run) -> dict[str, Any]:
    """describe() of the costs of all, the voluntary and the involuntary inferred switches;
    computed once per run (the summary and figures.plot_gaps share it)."""
    return switches.of_run(run).describe_costs()


def dispatch_table(run: Run, thresholds_ns: Sequence[int]) -> list[dict[str, Any]]:
    """Table 1: per latency thread, the wake-ups later than each threshold, their share, and
    the slots it skipped (analyses/skipped.py: counted as later than every threshold unless
    the scenario said `skipped_slots: ignored`). The counts are of the stored samples
    (latency.bin) plus, when they count as late, the skipped slots."""
    rows = []
    smp = run.samples
    ths = np.asarray(thresholds_ns, dtype=np.int64)
    for i, t in enumerate(run.threads):
        lat = t["stats"].get("latency")
        if not lat:
            continue
        if run.result.get("peer") and isinstance(lat.get("histogram"), dict):
            rows.append(_dispatch_from_histogram(run.label(i), lat, thresholds_ns))
            continue
        late = np.sort(smp.late[smp.thread == i])
        later = len(late) - np.searchsorted(late, ths, side="right")
        sk = skipped.of_thread(run, i)
        over = sk.over(len(late))
        counts = {str(th): sk.later(int(c)) for th, c in zip(thresholds_ns, later)}
        rows.append({"label": run.label(i), "samples": int(len(late)),
                     "wakeups": lat.get("count"), "samples_dropped": lat.get("samples_dropped", 0),
                     "skipped": sk.skipped, "skipped_counted_late": sk.counted_late,
                     "over": over, "later_than": counts,
                     "share_later_than": {k: (c / over if over else None) for k, c in counts.items()}})
    return rows


def _dispatch_from_histogram(label: str, lat: dict[str, Any],
                             thresholds_ns: Sequence[int]) -> dict[str, Any]:
    """A row of table 1 from another tool's histogram (read/peers.py): a bucket counts as
    later than a threshold when its lower edge is at or past it; samples past the
    histogram's end count when the end is, else only the maximum is known to be (the count
    is then a lower bound, listed in `at_least`)."""
    h = lat["histogram"]
    counts = np.asarray(h.get("counts") or [], dtype=np.int64)
    edges = np.arange(len(counts), dtype=np.int64) * int(h["bucket_ns"])
    end = int(h.get("n_buckets") or len(counts)) * int(h["bucket_ns"])
    over = int(h.get("overflow") or 0)
    later, at_least = {}, []
    for th in thresholds_ns:
        n = int(counts[edges >= th].sum())
        if over and end >= th:
            n += over
        elif over:
            n += 1 if (lat.get("max_ns") or 0) > th else 0
            at_least.append(str(th))
        later[str(th)] = n
    total = int(counts.sum()) + over
    return {"label": label, "samples": total, "wakeups": lat.get("count"),
            "samples_dropped": 0, "skipped": 0, "skipped_counted_late": True, "over": total,
            "later_than": later, "at_least": at_least, "from_histogram": True,
            "share_later_than": {k: (c / total if total else None) for k, c in later.items()}}


def _load(load: dict[str, Any]) -> dict[str, Any]:
    st = load.get("stats") or {}
    return {"name": load["name"], "type": load["type"], "started_ns": load.get("started_ns"),
            "stopped_ns": load.get("stopped_ns"), "seconds": st.get("seconds"),
            "mbps": st.get("mbps"), "ops_per_s": st.get("ops_per_s"), "ops": st.get("ops"),
            "bytes": st.get("bytes"), "ended_early": load.get("ended_early"),
            "warnings": load.get("warnings") or [], "stress_ng": _stress_ng(load)}


def _stress_ng(load: dict[str, Any]) -> dict[str, Any] | None:
    """A stress_ng load's own figures (docs/loads.md): what stress-ng ran and reported."""
    sng = load.get("stress_ng")
    if not isinstance(sng, dict):
        return None
    st = load.get("stats") or {}
    command = sng.get("command") or []
    return {"version": sng.get("version"),
            "stressor": command[1][2:] if len(command) > 1 else None,
            "instances": int(command[2]) if len(command) > 2 and str(command[2]).isdigit()
            else None,
            "bogo_ops": st.get("bogo_ops"), "bogo_ops_per_s": st.get("bogo_ops_per_s"),
            "bogo_ops_per_s_usr_sys": st.get("bogo_ops_per_s_usr_sys")}


def summarize(run: Run, thresholds_ns: Sequence[int] = DEFAULT_THRESHOLDS_NS) -> dict[str, Any]:
    r = run.result
    host = r.get("host") or {}
    return {
        "run": {"path": str(run.path), "scenario": run.scenario.get("name"),
                "complete": run.complete, "exit_status": r.get("exit_status"),
                "interrupted_by": r.get("interrupted_by"),
                "hgrun_version": r.get("hgrun_version"), "started_utc": r.get("started_utc"),
                "finished_utc": r.get("finished_utc"), "duration_ns": run.duration_ns,
                "command_line": r.get("command_line"), "sweep_point": r.get("sweep_point")},
        "host": {k: host.get(k) for k in ("hostname", "kernel_release", "kernel_version", "preempt",
                                          "clocksource", "cpu_model", "cpus_online",
                                          "sched_rt_runtime_us", "governor", "isolcpus",
                                          "nohz_full")},
        "tsc": {k: (r.get("tsc") or {}).get(k) for k in ("hz", "method", "hz_error_ppm", "invariant")},
        "gap": {k: (r.get("gap") or {}).get(k) for k in ("threshold_ns", "loop_ns", "auto")},
        "memory_locked": r.get("memory_locked"),
        "warnings": list(r.get("warnings") or []) + run.notes,
        "threads": [_thread(run, i) for i in range(len(run.threads))],
        "loads": [_load(ld) for ld in run.loads],
        "context_switches": {k: dict(v) for k, v in switch_stats(run).items()},
        "dispatch_latency": {"thresholds_ns": list(thresholds_ns),
                             "threads": dispatch_table(run, thresholds_ns)},
        "inter_activation": interactivation.summary(run),
        "expectations": list(r.get("expectations") or []),
    }
