# SPDX-License-Identifier: GPL-2.0-or-later
"""Why the wake-ups were late (docs/kernel-trace.md, "Late wake-ups"): per latency thread the
components summed (result.json `threads[].wakeup_causes`), and from late_wakeups.jsonl the worst
wake-ups with their breakdown and the components of the tail, the worst TAIL of each thread, for
the stacked figure. One pass over the file, keeping a bounded heap per thread."""
from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from typing import Any

from ..base.units import fmt_ns
from ..read.late_wakeups import COMPONENTS, lines, present
from ..read.memo import per_run
from ..read.rundir import Run

WORST = 10          # wake-ups listed in the report
TAIL = 200          # wake-ups per thread drawn in the stacked figure


@dataclass
class Late:
    """The late wake-ups of one run: per thread index, its worst (largest lateness first)."""
    worst: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    count: dict[int, int] = field(default_factory=dict)


@per_run
def collect(run: Run, keep: int = TAIL) -> Late:
    """The `keep` latest wake-ups of each thread among the attributed ones (those with
    components); `count` counts them all. Once per run (the report reads the file before it
    draws anything, so that a bad line is refused first: the late wake-ups section's
    `prepare`)."""
    heaps: dict[int, list[tuple[int, int, dict[str, Any]]]] = {}
    out = Late()
    for x in lines(run):
        th = x["thread"]
        out.count[th] = out.count.get(th, 0) + 1
        if not x.get("attributed"):
            continue
        h = heaps.setdefault(th, [])
        item = (int(x["late_ns"]), -int(x["seq"]), x)
        if len(h) < keep:
            heapq.heappush(h, item)
        elif item[:2] > h[0][:2]:
            heapq.heapreplace(h, item)
    for th, h in heaps.items():
        out.worst[th] = [x for _, _, x in sorted(h, key=lambda it: it[:2], reverse=True)]
    return out


def threads(run: Run) -> list[tuple[int, dict[str, Any]]]:
    """(index, wakeup_causes) of the latency threads whose late wake-ups were explained."""
    return [(i, t["wakeup_causes"]) for i, t in enumerate(run.threads)
            if (t.get("wakeup_causes") or {}).get("available")]


def dominant(x: dict[str, Any]) -> str:
    comps = x.get("components") or {}
    return max(comps, key=lambda k: comps[k]) if comps else "-"


def breakdown(x: dict[str, Any], parts: int = 3) -> str:
    """`task hog 2.9 ms, timer_irq vector 236 14 us, ...`: a wake-up's largest parts."""
    out = []
    for p in (x.get("parts") or [])[:parts]:
        who = p.get("name")
        out.append(f"{p['component']}{' ' + who if who and who != '-' else ''} {fmt_ns(p['ns'])}")
    return ", ".join(out) or "–"


__all__ = ["COMPONENTS", "Late", "collect", "threads", "dominant", "breakdown", "present",
           "WORST", "TAIL"]
