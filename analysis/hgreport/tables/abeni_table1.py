# SPDX-License-Identifier: GPL-2.0-or-later
"""Markdown of `hgreport abeni-table1`: one run in detail (a table per latency thread, misses and
switch rates per window, switch rates and costs per thread), several runs as Abeni's table 1
(a row per run, a column per window)."""
from __future__ import annotations

from typing import Any, Sequence

from ..analyses.abeni_table1 import QUIET
from ..read.late_wakeups import COMPONENTS
from ..base.markdown import table
from ..base.units import fmt_ns


def _rate(x: float | None) -> str:
    return "–" if x is None else f"{x:.1f}"


def _span(w: dict[str, Any]) -> str:
    if w["name"] == QUIET:
        return f"{w['seconds']:.3f} s outside the windows"
    (a, b), = w["spans_ns"]
    return f"{a / 1e9:.3f}–{b / 1e9:.3f} s"


def _lat_threads(t: dict[str, Any]) -> list[dict[str, Any]]:
    return [th for th in t["threads"] if any("latency" in c for c in th["windows"].values())]


def _job_threads(t: dict[str, Any]) -> list[dict[str, Any]]:
    return [th for th in t["threads"] if any("jobs" in c for c in th["windows"].values())]


def _window_switches(t: dict[str, Any], name: str, secs: float) -> list[str]:
    tot = {k: sum(th["windows"][name][k] for th in t["threads"]) for k in
           ("involuntary", "voluntary", "preempted")}
    return [_rate(tot[k] / secs if secs else None) for k in ("involuntary", "voluntary", "preempted")]


def one(t: dict[str, Any]) -> str:
    wins = t["windows"]
    out = [f"# Abeni table 1: {t['scenario']} (`{t['run']}`)", ""]
    if not t["complete"]:
        out += ["> **This run is incomplete** (`complete: false`).", ""]
    out += ["Windows: each load's, from when it started to when it stopped (result.json "
            f"loads[]), and `{QUIET}`: the time outside every window. A sample is in a window when "
            "its intended wake-up is; a job when its deadline is.", ""]
    for th in _lat_threads(t):
        rows = [[w["name"], _span(w)] + _lat_cells(th["windows"][w["name"]]["latency"]) for w in wins]
        out += [f"## Wake-up latency of `{th['label']}` per window (Abeni et al. table 1)", "",
                table(["window", "time", "wake-ups", "p50", "p99", "worst"], rows, "llrrrr"), ""]
    jt = _job_threads(t)
    if jt:
        rows = [[w["name"], _span(w)] + [f"{th['windows'][w['name']]['missed']}/{th['windows'][w['name']]['jobs']}"
                                         for th in jt] for w in wins]
        out += ["## Deadline misses per window (missed/jobs)", "",
                table(["window", "time"] + [th["label"] for th in jt], rows, "ll" + "r" * len(jt)), ""]
    out += _components_table(t)
    rows = [[w["name"], _span(w)] + _window_switches(t, w["name"], w["seconds"]) for w in wins]
    out += ["## Context switches per second per window (all traced threads)", "",
            table(["window", "time", "involuntary/s", "voluntary/s", "preempted/s"], rows, "llrrr"), ""]
    out += _switch_table(t)
    out += [f"- {n}" for n in t["notes"]]
    return "\n".join(out).rstrip() + "\n"


def _components_table(t: dict[str, Any]) -> list[str]:
    """Per latency thread, its late wake-ups per window split into their components (the
    kernel trace's late_wakeups.jsonl): which part of the latency each load brought."""
    out: list[str] = []
    for th in t.get("late_components") or []:
        cells = th["windows"]
        used = [c for c in COMPONENTS if any(c in x["components"] for x in cells.values())]
        rows = []
        for w in t["windows"]:
            c = cells.get(w["name"])
            if c is None:
                rows.append([w["name"], _span(w), 0, "–"] + ["–"] * len(used))
                continue
            rows.append([w["name"], _span(w), c["late"], f"{c['attributed']}"]
                        + [fmt_ns(c["components"][k]) if k in c["components"] else "–" for k in used])
        out += [f"## Components of `{th['label']}`'s late wake-ups per window (kernel trace)", "",
                "Time of each component summed over the window's late wake-ups that the kernel "
                "trace attributed (docs/kernel-trace.md, Late wake-ups): which part of the "
                "latency each load brought, as Abeni et al. ask.", "",
                table(["window", "time", "late wake-ups", "attributed"] + used, rows,
                      "llrr" + "r" * len(used)), ""]
    return out


def _lat_cells(c: dict[str, Any]) -> list[Any]:
    return [c["count"], fmt_ns(c["p50_ns"]), fmt_ns(c["p99_ns"]), fmt_ns(c["max_ns"])]


def _switch_table(t: dict[str, Any]) -> list[str]:
    rows = []
    for s in t["switches"]:
        i, v = s["involuntary"], s["voluntary"]
        if not (i["count"] or v["count"] or s["preempted"]):
            continue
        rows.append([s["label"], f"{s['seconds']:.3f} s" if s["seconds"] else "–",
                     s["preempted"], _rate(s["preempted_per_s"]),
                     i["count"], _rate(i["per_s"]), fmt_ns(i["cost_min_ns"]), fmt_ns(i["cost_median_ns"]),
                     v["count"], _rate(v["per_s"]), fmt_ns(v["cost_min_ns"]), fmt_ns(v["cost_median_ns"])])
    a = t["switches_all"]
    rows.append(["all", "run", "", "", a["involuntary"], _rate(a["involuntary_per_s"]), "", "",
                 a["voluntary"], _rate(a["voluntary_per_s"]), "", ""])
    return ["## Switches per second and switch costs (Hourglass section 5.1)", "",
            "`preempted`: the thread's intervals that ended `preempted` (it lost the CPU to any "
            "thread, traced or not, or to an interrupt longer than the gap threshold). "
            "Involuntary / voluntary: switches to another traced thread on the same CPU after "
            "the thread was preempted / yielded or blocked, with their inferred cost (next "
            "thread's start − this thread's end).", "",
            table(["thread", "active", "preempted", "/s", "involuntary", "/s", "min cost",
                   "median cost", "voluntary", "/s", "min cost", "median cost"], rows,
                  "llrrrrrrrrrr"), ""]


def several(ts: Sequence[dict[str, Any]], labels: Sequence[str]) -> str:
    names = list(dict.fromkeys(w["name"] for t in ts for w in t["windows"] if w["name"] != QUIET))
    names.append(QUIET)
    out = [f"# Abeni table 1: {len(ts)} runs", "",
           "A row per run, a column per window (each load's, and the time outside them); cells "
           "p99 / worst wake-up latency, or missed/jobs.", ""]
    out += [table(["run", "scenario", "path"], [[lab, t["scenario"], f"`{t['run']}`"]
                                                 for lab, t in zip(labels, ts)], "lll"), ""]
    lat = list(dict.fromkeys(th["label"] for t in ts for th in _lat_threads(t)))
    for name in lat:
        rows = []
        for lab, t in zip(labels, ts):
            th = next((x for x in t["threads"] if x["label"] == name), None)
            cells = []
            for w in names:
                c = (th or {}).get("windows", {}).get(w, {}).get("latency")
                cells.append(f"{fmt_ns(c['p99_ns'])} / {fmt_ns(c['max_ns'])}" if c and c["count"] else "–")
            rows.append([lab] + cells)
        out += [f"## Wake-up latency of `{name}`: p99 / worst", "",
                table(["run"] + names, rows, "l" + "r" * len(names)), ""]
    jobs = list(dict.fromkeys(th["label"] for t in ts for th in _job_threads(t)))
    for name in jobs:
        rows = []
        for lab, t in zip(labels, ts):
            th = next((x for x in t["threads"] if x["label"] == name), None)
            cells = []
            for w in names:
                c = (th or {}).get("windows", {}).get(w, {})
                cells.append(f"{c['missed']}/{c['jobs']}" if "jobs" in c else "–")
            rows.append([lab] + cells)
        out += [f"## Deadline misses of `{name}`: missed/jobs", "",
                table(["run"] + names, rows, "l" + "r" * len(names)), ""]
    rows = [[lab, _rate(t["switches_all"]["involuntary_per_s"]), _rate(t["switches_all"]["voluntary_per_s"])]
            for lab, t in zip(labels, ts)]
    out += ["## Switches per second between traced threads, whole run", "",
            table(["run", "involuntary/s", "voluntary/s"], rows, "lrr"), ""]
    for lab, t in zip(labels, ts):
        out += [f"- {lab}: {n}" for n in t["notes"]]
    return "\n".join(out).rstrip() + "\n"


def values(t: dict[str, Any]) -> dict[tuple[str, str], float | None]:
    """A run's figures the table's verdicts compare (tables/verdicts.py): each latency
    thread's p99 and worst wake-up per window."""
    out: dict[tuple[str, str], float | None] = {}
    for th in _lat_threads(t):
        for name, cell in th["windows"].items():
            lat = cell.get("latency")
            if lat and lat.get("count"):
                out[(f"{th['label']} in {name}", "latency_p99_ns")] = lat["p99_ns"]
                out[(f"{th['label']} in {name}", "latency_max_ns")] = lat["max_ns"]
    return out
