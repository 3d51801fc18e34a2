# SPDX-License-Identifier: GPL-2.0-or-later
"""The CPU the scenario did not get, per CPU and per phase, from the gap trace alone
(result.json `cpu_not_received`, docs/results.md): the time one of its threads wanted a CPU
while none of them ran there, beside the /proc estimate of who else ran (competition)."""
from __future__ import annotations

from ...base.markdown import table
from ...base.units import fmt_ns
from ..section import Context, Section


def applies(ctx: Context) -> bool:
    return bool((ctx.run.result.get("cpu_not_received") or {}).get("cpus"))


def _rows(cpus: list[dict], warn: float) -> list[list[str]]:
    rows = []
    for c in cpus:
        share = c.get("share")
        mark = " **over the warning level**" if share is not None and share > warn else ""
        rows.append([str(c["cpu"]), fmt_ns(c["received_ns"]), fmt_ns(c["not_received_ns"]),
                     (f"{100 * share:.1f}%" if share is not None else "–") + mark])
    return rows


def render(ctx: Context) -> str:
    nr = ctx.run.result["cpu_not_received"]
    warn = nr.get("warn_share") or 0.05
    head = ["CPU", "received", "wanted, not received", "share of the time wanted"]
    out = ["When one of the scenario's threads wanted a CPU (it was preempted, not blocked) and "
           "none of them ran there, someone else had it: another process, interrupts, the "
           "kernel or the hypervisor. `--kernel-trace` names who (docs/kernel-trace.md).", "",
           table(head, _rows(nr["cpus"], warn), "rrrr"), ""]
    phases = nr.get("phases") or []
    if len(phases) > 1:
        out += ["Per phase (the scenario's loads running in it):", ""]
        rows = []
        for ph in phases:
            loads = ph.get("loads") or "none"
            for r in _rows(ph["cpus"], warn):
                rows.append([f"{fmt_ns(ph['from_ns'])}–{fmt_ns(ph['to_ns'])}", loads] + r)
        out += [table(["phase", "loads"] + head, rows, "llrrrr"), ""]
    comp = ctx.run.result.get("competition") or {}
    if comp.get("outsiders_share") is not None:
        out += [f"The /proc estimate of other processes on these CPUs: about "
                f"{100 * comp['outsiders_share']:.1f}% of them over the run (capped at 100%; it "
                "counts a process's time on any CPU and cannot see interrupts or steal), against "
                f"{fmt_ns(comp.get('not_received_ns'))} the threads measured not getting.", ""]
    return "\n".join(out)


SECTION = Section("CPU not received", render, applies)
