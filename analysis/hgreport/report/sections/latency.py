# SPDX-License-Identifier: GPL-2.0-or-later
"""Dispatch latency of the latency threads: min, p50, p99, p99.9, max, their tail and course
(latency.png), and the samples later than each threshold (the Hourglass paper's table 1)."""
from __future__ import annotations

from ...base.markdown import table
from ...base.units import fmt_ns
from ...figures import latency as figure
from ..section import Context, Section


def applies(ctx: Context) -> bool:
    return any(t["latency"] for t in ctx.summary["threads"])


def render(ctx: Context) -> str:
    s = ctx.summary
    lat = [t for t in s["threads"] if t["latency"]]
    out = [table(["thread", "wake-ups", "min", "p50", "p99", "p99.9", "max"],
                 [[t["label"], t["latency"]["count"], fmt_ns(t["latency"]["min_ns"]),
                   fmt_ns(t["latency"]["p50_ns"]), fmt_ns(t["latency"]["p99_ns"]),
                   fmt_ns(t["latency"]["p999_ns"]), fmt_ns(t["latency"]["max_ns"])] for t in lat],
                 "lrrrrrr"), ""]
    shown = ctx.figure(figure.FIGURE)
    out += [shown] if shown else []
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
    return "\n".join(out)


SECTION = Section("Dispatch latency", render, applies, figures=(figure.FIGURE,))
