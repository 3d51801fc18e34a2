# SPDX-License-Identifier: GPL-2.0-or-later
"""Markdown of `hgreport kernels`: a column per kernel (analyses/kernels.py), a table per
question: the kernels themselves; each latency thread's wake-up latency (Hourglass's table
1: percentiles and the wake-ups later than each threshold); p99 / worst per load window
(Abeni et al.'s table 1); deadline misses; the share of gap time by cause."""
from __future__ import annotations

from typing import Any

from ..base.markdown import pct, table
from ..base.units import fmt_ns
from ..analyses.kernels import PERCENTILES

EMULATED = ("> **Emulated.** {which} under QEMU's software emulation (TCG): its latencies "
            "are the emulator's, not the kernel's (milliseconds on every kernel alike). Such "
            "a column shows that every path works on that kernel, not how it performs "
            "(docs/kernels.md).")


def _head(d: dict[str, Any]) -> list[str]:
    """Column headers; a column is marked emulated when not all are (then the title says it)."""
    return [c["label"] + (" (emulated)" if c["facts"]["emulated"] and not d["emulated_all"]
                          else "") for c in d["columns"]]


def _kernels(d: dict[str, Any]) -> list[str]:
    rows = []
    for name, key in (("release", "release"), ("uname -v", "build"), ("preempt", "preempt"),
                      ("preempt from", "preempt_source"), ("dynamic mode", "preempt_dynamic"),
                      ("command line (differs)", "cmdline_differs"), ("HZ", "hz"),
                      ("lockdown", "lockdown"), ("CPU", "cpu_model"), ("CPUs", "cpus"),
                      ("clocksource", "clocksource"), ("host", "hostname"),
                      ("kernel trace", "kernel_trace"), ("run", "run")):
        vals = [c["facts"].get(key) for c in d["columns"]]
        if all(v in (None, "") for v in vals):
            continue
        cells = ["`" + str(v) + "`" if key == "run" else ("–" if v in (None, "") else str(v))
                 for v in vals]
        rows.append([name] + cells)
    return ["## The kernels", "", table([""] + _head(d), rows, "l" * (1 + len(d["columns"]))), ""]


def _latency(d: dict[str, Any], label: str) -> list[str]:
    cols = [c["threads"].get(label) or {} for c in d["columns"]]
    lats = [c.get("latency") for c in cols]
    if not any(lats):
        return []
    rows = [["wake-ups"] + [x["count"] if x else "–" for x in lats]]
    rows += [[name] + [fmt_ns(x[name]) if x else "–" for x in lats] for name, _ in PERCENTILES]
    for th in d["thresholds_ns"]:
        rows.append([f"later than {fmt_ns(th)}"] +
                    [((c.get("later_than") or {}).get(str(th), "–")) for c in cols])
    rows.append(["beyond the histogram"] + [x["overflow"] if x else "–" for x in lats])
    return [f"## Wake-up latency of `{label}` (Hourglass table 1)", "",
            table([""] + _head(d), rows, "l" + "r" * len(cols)), ""]


def _windows(d: dict[str, Any], label: str) -> list[str]:
    names = list(dict.fromkeys(w for c in d["columns"] for w in c["windows"]))
    cols = [c["threads"].get(label) or {} for c in d["columns"]]
    if not any(c.get("latency") for c in cols) or len(names) < 2:
        return []
    rows = []
    for w in names:
        cells = []
        for c in cols:
            x = ((c.get("windows") or {}).get(w) or {}).get("latency")
            cells.append(f"{fmt_ns(x['p99_ns'])} / {fmt_ns(x['max_ns'])}" if x and x["count"] else "–")
        rows.append([w] + cells)
    return [f"## `{label}` per load window: p99 / worst (Abeni et al. table 1)", "",
            table(["window"] + _head(d), rows, "l" + "r" * len(cols)), ""]


def _misses(d: dict[str, Any]) -> list[str]:
    rows = []
    for label in d["threads"]:
        cells = []
        for c in d["columns"]:
            t = c["threads"].get(label) or {}
            cells.append(f"{t['deadlines_missed']}/{t['releases']}" if t.get("releases") else "–")
        if any(x != "–" for x in cells):
            rows.append([label] + cells)
    if not rows:
        return []
    return ["## Deadline misses (missed/jobs)", "",
            table(["thread"] + _head(d), rows, "l" + "r" * len(d["columns"])), ""]


def _causes(d: dict[str, Any]) -> list[str]:
    out: list[str] = []
    for label in d["threads"]:
        per = [(c["threads"].get(label) or {}).get("causes") for c in d["columns"]]
        if not any(per):
            continue
        names = sorted({k for p in per if p for k in p}, key=lambda k: -max((p or {}).get(k, 0) for p in per))
        rows = [[k] + [pct((p or {}).get(k), 1) if p else "–" for p in per] for k in names]
        out += [f"## Gap time of `{label}` by cause (kernel trace)", "",
                table(["cause"] + _head(d), rows, "l" + "r" * len(per)), ""]
    if out:
        out = ["Shares of each thread's gap time (docs/kernel-trace.md): on PREEMPT_RT device "
               "interrupts and softirqs run in kernel threads (`irq_thread`), elsewhere in "
               "`irq` and `softirq` contexts.", ""] + out
    return out


def page(d: dict[str, Any], figures: dict[str, str]) -> str:
    out = [f"# Kernels side by side: {d['scenario']} ({len(d['columns'])} runs"
           + (", all emulated)" if d["emulated_all"] else ")"), ""]
    if d["emulated"]:
        which = "Every column ran" if d["emulated_all"] else "A column marked (emulated) ran"
        out += [EMULATED.format(which=which), ""]
    out += _kernels(d)
    for label in d["threads"]:
        out += _latency(d, label)
        if label in figures:
            out += [f"![{label}: latency histograms overlaid]({figures[label]})", ""]
        out += _windows(d, label)
    out += _misses(d)
    out += _causes(d)
    incomplete = [c["label"] for c in d["columns"] if not c["complete"]]
    if incomplete:
        out += [f"- incomplete runs (`complete: false`): {', '.join(incomplete)}"]
    return "\n".join(out).rstrip() + "\n"
