# SPDX-License-Identifier: GPL-2.0-or-later
"""Dougan's form: the worst scheduling jitter per CPU with the histogram of every wake-up's
jitter on that CPU (jitter.png)."""
from __future__ import annotations

from ...base.markdown import table
from ...base.units import fmt_ns
from ...figures import jitter as figure
from ...figures.jitter import worst_per_cpu
from ..section import Context, Section


def applies(ctx: Context) -> bool:
    return any(t["latency"] for t in ctx.summary["threads"])


def render(ctx: Context) -> str:
    rows = worst_per_cpu(ctx.run)
    if not rows:
        return ""
    skips = any(r["skipped"] for r in rows)
    out = [table(["CPU", "wake-ups", "worst jitter", "thread"] + (["slots skipped"] if skips else []),
                 [[r["cpu"], r["wakeups"], fmt_ns(r["worst_ns"]), r["thread"]]
                  + ([r["skipped"]] if skips else []) for r in rows],
                 "lrrl" + ("r" if skips else "")), ""]
    for r in rows:
        if r["skipped"]:
            out += [f"On {r['cpu']}, {r['skipped']} slots were skipped (their time had passed "
                    "when the thread woke): "
                    + ("each was later than any wake-up measured, so the worst jitter is a "
                       "lower bound." if r["skipped_counted_late"] else
                       "left out, as the scenario asked (`skipped_slots: ignored`)."), ""]
    return "\n".join(out)


SECTION = Section("Jitter per CPU (Dougan)", render, applies, figures=(figure.FIGURE,))
