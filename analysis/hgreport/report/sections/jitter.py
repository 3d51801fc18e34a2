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
    out = [table(["CPU", "wake-ups", "worst jitter", "thread"],
                 [[r["cpu"], r["wakeups"], fmt_ns(r["worst_ns"]), r["thread"]] for r in rows],
                 "lrrl"), ""]
    return "\n".join(out)


SECTION = Section("Jitter per CPU (Dougan)", render, applies, figures=(figure.FIGURE,))
