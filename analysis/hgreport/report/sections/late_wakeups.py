# SPDX-License-Identifier: GPL-2.0-or-later
"""Why the wake-ups were late, when the run was recorded with the kernel's events
(docs/kernel-trace.md, "Late wake-ups"): per latency thread how many late wake-ups the
components add up for and how the time splits, the worst wake-ups with their breakdown
(analyses/late_wakeups.py), and late_wakeups.png, the components of the tail."""
from __future__ import annotations

from ...analyses import late_wakeups as lw
from ...analyses.series_bins import fmt_at
from ...base.markdown import pct, table
from ...base.units import fmt_ns
from ...figures import late_wakeups as figure
from ...read.rundir import Run
from ..section import Context, Section


def applies(ctx: Context) -> bool:
    return bool(lw.threads(ctx.run))


def render(ctx: Context) -> str:
    run = ctx.run
    rows = lw.threads(run)
    t0 = rows[0][1]
    lines = [f"Each wake-up later than {fmt_ns(t0.get('threshold_ns'))}, split over what the "
             "kernel did on its CPU from the intended time to the thread's return "
             "(docs/kernel-trace.md, Late wake-ups). `summed`: the components add up to the "
             f"lateness within max({fmt_ns(t0.get('tolerance_ns'))}, 10%) (the rest, the "
             "residual, is the thread's own return); `kernel-seen`: so do the components but "
             "`invisible`.", ""]
    summary, comp_rows = [], []
    for i, w in rows:
        n = w.get("late") or 0
        summary.append([run.label(i), n, w.get("attributed"),
                        pct(w["summed"] / n if n else None, 1),
                        pct(w["explained"] / n if n else None, 1), fmt_ns(w.get("late_ns"))])
        total = sum(c["ns"] for c in (w.get("by_component") or {}).values())
        for name in lw.COMPONENTS:
            c = (w.get("by_component") or {}).get(name)
            if c:
                comp_rows.append([run.label(i), name, fmt_ns(c["ns"]), c["wakeups"],
                                  c["dominant"], pct(c["ns"] / total if total else None, 1)])
    lines += [table(["thread", "late", "attributed", "summed", "kernel-seen", "late time"],
                    summary, "lrrrrr"), "",
              "### Components per thread", "",
              "`wake-ups`: late wake-ups the component had time in; `largest`: those where it "
              "had the most.", "",
              table(["thread", "component", "time", "wake-ups", "largest", "share"], comp_rows,
                    "llrrrr"), ""]
    for i, w in rows:
        top = [[t["component"], t["name"] + (f" ({t['cause']})" if t.get("cause") else ""),
                fmt_ns(t["ns"]), t["wakeups"], t["dominant"]] for t in (w.get("top") or [])]
        if top:
            lines += [f"Largest parts of {run.label(i)}:", "",
                      table(["component", "who", "time", "wake-ups", "largest"], top, "llrrr"),
                      ""]
    late = lw.collect(run)
    worst = sorted((x for xs in late.worst.values() for x in xs),
                   key=lambda x: -x["late_ns"])[:lw.WORST]
    if worst:
        lines += [f"### The {len(worst)} worst wake-ups", "",
                  "From late_wakeups.jsonl; `woken` and `switched`: the kernel's sched_waking "
                  "and switch to the thread, after the intended time.", "",
                  table(["at", "thread", "late", "CPU", "woken", "switched", "largest parts"],
                        [[fmt_at(x["intended_ns"]), run.label(x["thread"]), fmt_ns(x["late_ns"]),
                          x.get("cpu", "–"),
                          fmt_ns((x.get("at_ns") or {}).get("woken")),
                          fmt_ns((x.get("at_ns") or {}).get("switched")), lw.breakdown(x)]
                         for x in worst], "llrrrrl"), ""]
    return "\n".join(lines)


def prepare(run: Run) -> None:
    if lw.threads(run):
        lw.collect(run)


SECTION = Section("Why the wake-ups were late (kernel trace)", render, applies, prepare,
                  (figure.FIGURE,))
