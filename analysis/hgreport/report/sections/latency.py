# SPDX-License-Identifier: GPL-2.0-or-later
"""Dispatch latency of the latency threads: min, p50, p99, p99.9, max, their tail and course
(latency.png), and the samples later than each threshold (the Hourglass paper's table 1)."""
from __future__ import annotations

from ...base import stats
from ...base.markdown import table
from ...base.units import fmt_ns
from ...figures import latency as figure
from ..section import Context, Section


def applies(ctx: Context) -> bool:
    return any(t["latency"] for t in ctx.summary["threads"])


def _skipped(lat: dict) -> str:
    n = lat.get("skipped") or 0
    return f"{n} of {lat['slots']} ({100 * n / lat['slots']:.1f}%)" if n else "0"


def render(ctx: Context) -> str:
    s = ctx.summary
    lat = [t for t in s["threads"] if t["latency"]]
    skips = any(t["latency"].get("skipped") for t in lat)
    out = [table(["thread", "wake-ups", "min", "p50", "p99", "p99.9", "max"]
                 + (["slots skipped"] if skips else []),
                 [[t["label"], t["latency"]["count"], fmt_ns(t["latency"]["min_ns"]),
                   fmt_ns(t["latency"]["p50_ns"]), fmt_ns(t["latency"]["p99_ns"]),
                   fmt_ns(t["latency"]["p999_ns"]), fmt_ns(t["latency"]["max_ns"])]
                  + ([_skipped(t["latency"])] if skips else []) for t in lat],
                 "lrrrrrr" + ("r" if skips else "")), ""]
    if skips:
        out += ["Slots skipped: with `align: absolute` a slot whose time had passed when the "
                "thread woke is skipped (docs/results.md, skipped wake-ups). The percentiles "
                "are over the released wake-ups; the shares below count a skipped slot as "
                "later than every threshold, unless the scenario said `skipped_slots: "
                "ignored` (then they are over the released wake-ups only); "
                "`skipped_slots: released` measures every slot.", ""]
    spread = [[t["label"], fmt_ns(t["latency"]["p99_ns"]),
               f"[{fmt_ns(t['latency']['p99_within_run'][0])}, "
               f"{fmt_ns(t['latency']['p99_within_run'][1])}]"]
              for t in lat if t["latency"].get("p99_within_run")]
    if spread:
        out += [f"Within-run spread of the p99 ({stats.LEVEL:.0%} block bootstrap over time): how "
                "much this run itself varies, not evidence of a difference from another "
                "configuration. " + stats.describe_method(), "",
                table(["thread", "p99", "within-run spread"], spread, "lrl"), ""]
    shown = ctx.figure(figure.FIGURE)
    out += [shown] if shown else []
    d = s["dispatch_latency"]
    ths = d["thresholds_ns"]
    out += ["### Wake-ups later than (Hourglass table 1)", "",
            table(["thread", "wake-ups", "skipped", "over"] + ["> " + fmt_ns(x) for x in ths],
                  [[r["label"], r["samples"], r["skipped"], r["over"]]
                   + [_share(r["later_than"][str(x)], r["over"]) for x in ths]
                   for r in d["threads"]], "l" + "r" * (len(ths) + 3)), ""]
    for r in d["threads"]:
        if r["samples_dropped"]:
            out.append(f"- {r['label']}: {r['samples_dropped']} samples not stored; "
                       "the table counts the stored ones.")
        if r["skipped"]:
            out.append(f"- {r['label']}: the shares are over {r['over']} "
                       + ("slots, the skipped ones later than every threshold."
                          if r["skipped_counted_late"] else
                          "released wake-ups: the scenario left the skipped slots out "
                          "(`skipped_slots: ignored`)."))
    if out[-1]:
        out.append("")
    return "\n".join(out)


def _share(count: int, over: int) -> str:
    return f"{count} ({100 * count / over:.1f}%)" if over else str(count)


SECTION = Section("Dispatch latency", render, applies, figures=(figure.FIGURE,))
