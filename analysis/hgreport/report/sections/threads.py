# SPDX-License-Identifier: GPL-2.0-or-later
"""The Hourglass summary per thread: granted policy, CPU received and share, intervals, gaps,
deadlines hit and missed, work units; the jobs rebuilt from the trace (worst and mean
response time) and whether they agree with the runner's counters."""
from __future__ import annotations

from typing import Any

from ...base.markdown import pct, table
from ...base.units import fmt_ns
from ..section import Context, Section


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


def render(ctx: Context) -> str:
    s = ctx.summary
    rows = []
    for t in s["threads"]:
        periodic = t["releases"] > 0
        rows.append([t["label"], t["workload"], _policy(t), fmt_ns(t["cpu_ns"]),
                     pct(t["cpu_share"], 1), t["intervals"], t["gaps"],
                     t["deadlines_hit"] if periodic else None,
                     t["deadlines_missed"] if periodic else None,
                     pct(t["deadline_miss_ratio"]) if periodic else None,
                     t["work_units"] or None])
    out = ["CPU received is the sum of the thread's intervals; share is of its active window.", "",
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
                "time = completion − release, overrun = completion − deadline (the timeline's "
                "worst deadline miss is the worst overrun here).", "",
                table(["thread", "period", "releases", "missed", "worst response", "mean response",
                       "worst overrun", "agrees with counters"],
                      [[t["label"], fmt_ns(t["period_ns"]), t["jobs_rebuilt"]["releases"],
                        t["jobs_rebuilt"]["missed"], fmt_ns(t["jobs_rebuilt"]["response_max_ns"]),
                        fmt_ns(t["jobs_rebuilt"]["response_mean_ns"]),
                        fmt_ns(t["jobs_rebuilt"]["overrun_max_ns"]),
                        "yes" if t["jobs_rebuilt"]["agrees_with_counters"] else "**no**"]
                       for t in rebuilt], "lrrrrrrl"), ""]
    return "\n".join(out)


SECTION = Section("Threads", render)
