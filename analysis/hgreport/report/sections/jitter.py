"""Dougan's form: the worst scheduling jitter per CPU with the histogram of every wake-up's
jitter on that CPU (jitter.png)."""
from __future__ import annotations

from ...base.markdown import table
from ...base.units import fmt_ns
from ...figures.jitter import plot_jitter, worst_per_cpu
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
    if plot_jitter(ctx.run, ctx.out / "jitter.png") is not None:
        out += ["![jitter.png](jitter.png)", "",
                "Per CPU, the wake-ups' jitter (lateness against the grid) as a histogram on "
                "log-log axes, the worst case dashed: the form of Dougan's figures, which report "
                "a run's worst-case jitter per CPU under load.", ""]
    return "\n".join(out)


SECTION = Section("Jitter per CPU (Dougan)", render, applies)
