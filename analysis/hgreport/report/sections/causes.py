# SPDX-License-Identifier: GPL-2.0-or-later
"""Why the gaps happened, when the run was recorded with the kernel's events
(docs/kernel-trace.md): per thread the gaps, their time, the share explained and the time
taken by outsiders; per thread and cause the time, gaps and share; the largest gaps with their
cause and culprit (analyses/causes.py). A run traced without the kernel's events says why not."""
from __future__ import annotations

from ...analyses.causes import cause_rows, top_gaps
from ...analyses.series_bins import fmt_at
from ...base.markdown import pct, table
from ...base.units import fmt_ns
from ...read.rundir import Run
from ..section import Context, Section


def applies(ctx: Context) -> bool:
    return bool(ctx.run.result.get("kernel_trace"))


def render(ctx: Context) -> str:
    run = ctx.run
    kt = run.result.get("kernel_trace") or {}
    if not kt.get("enabled"):
        return "\n".join([f"Not attributed: {kt.get('reason') or 'the kernel was not traced'} "
                          "(`--kernel-trace`, docs/kernel-trace.md).", ""])
    lines = [f"{kt.get('events', 0)} kernel events on CPUs {kt.get('cpus')}; of the gaps of 50 us "
             f"or more, {kt.get('attributed_ge_50us', 0)} of {kt.get('gaps_ge_50us', 0)} have a "
             f"cause the kernel saw; {kt.get('switch_outs_matched', 0)} of "
             f"{kt.get('switch_outs_ge_5us', 0)} involuntary switch-outs of 5 us or more match a "
             "gap. `invisible`: the kernel saw the thread running (hypervisor, SMI).", ""]
    if kt.get("events_not_kept") or kt.get("lost"):
        lines += [f"- incomplete: {kt.get('events_not_kept', 0)} events not kept, "
                  f"{kt.get('lost', 0)} lost by the kernel's buffer; later gaps are unattributed.",
                  ""]
    summary = []
    for i, t in enumerate(run.threads):
        gc = t.get("gap_causes") or {}
        if gc.get("available"):
            summary.append([run.label(i), gc.get("gaps"), fmt_ns(gc.get("gap_ns")),
                            pct(gc.get("explained_share"), 1), fmt_ns(gc.get("outsiders_ns"))])
    lines += [table(["thread", "gaps", "gap time", "explained", "taken by outsiders"], summary,
                    "lrrrr"), "",
              "### Causes per thread", "",
              "Time in the thread's gaps by cause; `gaps`: gaps the cause had time in; "
              "`dominant`: gaps where it had the most time.", "",
              table(["thread", "cause", "time", "gaps", "dominant", "share of gap time"],
                    cause_rows(run), "llrrrr"), ""]
    top = top_gaps(run)
    if top:
        lines += [f"### The {len(top)} largest gaps", "",
                  "From trace.bin; the culprit is what the kernel ran on that CPU for longest "
                  "during the gap (kernel.jsonl).", "",
                  table(["at", "length", "thread", "CPU", "cause", "culprit (pid) and its time"],
                        [[fmt_at(r["start_ns"]),
                          fmt_ns(r["length_ns"]), r["thread"], r["cpu"], r["cause"],
                          r["culprit"] or "–"] for r in top], "rrlrll"), ""]
    return "\n".join(lines)


def prepare(run: Run) -> None:
    """kernel.jsonl, read and checked (the culprits of the largest gaps)."""
    if (run.result.get("kernel_trace") or {}).get("enabled"):
        top_gaps(run)


SECTION = Section("Why the gaps (kernel trace)", render, applies, prepare)
