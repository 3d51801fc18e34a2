# SPDX-License-Identifier: GPL-2.0-or-later
"""The verdict, first on the page: the scenario's expectations, PASS or FAIL, in the units
they were written in (a bound `min: 1s` reads 1 s, a ratio a percentage), then the few
findings a reader needs before the details: the CPU each thread received against what it
asked, deadlines missed, the worst wake-up, and the CPU the scenario wanted and did not get."""
from __future__ import annotations

from typing import Any

from ...base.markdown import table
from ...base.units import fmt_metric, fmt_ns
from ...read.memo import per_run
from ...read.rundir import Run
from ..section import Context, Section


def _expectations(ctx: Context) -> list[str]:
    exp = ctx.summary["expectations"]
    if not exp:
        return ["No expectations (`expect:`): nothing to pass or fail; the findings below.", ""]
    failed = [e for e in exp if not e["pass"]]
    head = (f"**FAIL**: {len(failed)} of {len(exp)} expectations failed." if failed
            else f"**PASS**: all {len(exp)} expectations held.")
    if not ctx.summary["run"]["complete"]:
        head += " The run is incomplete: the values cover only the part that ran."
    rows = []
    for e in exp:
        bound = ("≤ " + fmt_metric(e["metric"], e["max"])) if "max" in e \
            else ("≥ " + fmt_metric(e["metric"], e["min"]))
        value = fmt_metric(e["metric"], e["value"]) if e.get("value") is not None else "nothing measured"
        who = e["thread"] + (f" (worst: {e['worst_instance']})"
                             if e.get("worst_instance") not in (None, e["thread"]) else "")
        rows.append([who, f"`{e['metric']}`", bound, value, "pass" if e["pass"] else "**FAIL**"])
    return [head, "", table(["thread", "metric", "bound", "measured", "result"], rows, "llrrl"), ""]


@per_run
def _by_label(run: Run) -> dict[Any, dict[str, Any]]:
    """The scenario's first thread entry of each os_name or name, built once per run (a scan
    per thread was quadratic: minutes for thousands of threads)."""
    index: dict[Any, dict[str, Any]] = {}
    for x in run.scenario.get("threads") or []:
        for key in (x.get("os_name"), x.get("name")):
            if key is not None:
                index.setdefault(key, x)
    return index


def asked_ns(ctx: Context, t: dict[str, Any]) -> tuple[float | None, str]:
    """What a thread asked of the CPU: a periodic thread its jobs' execution times (releases ×
    exec), any other CPU-bound thread its whole window; a latency thread asks for none."""
    lo, hi = t["window_ns"]
    if t["workload"] == "latency":
        return None, ""
    if t["releases"]:
        s = _by_label(ctx.run).get(t["label"])
        values = (((s or {}).get("workload") or {}).get("exec") or {}).get("values_ns") or []
        if values:
            return t["releases"] * sum(values) / len(values), "releases × exec"
        return None, ""
    return (hi - lo, "its whole window") if hi > lo else (None, "")


def _findings(ctx: Context) -> list[str]:
    s = ctx.summary
    out = []
    for t in s["threads"]:
        parts = []
        asked, what = asked_ns(ctx, t)
        if asked:
            parts.append(f"received {fmt_ns(t['cpu_ns'])} of CPU against {fmt_ns(asked)} asked "
                         f"({what}): {100 * t['cpu_ns'] / asked:.1f}%")
        elif t["workload"] != "latency":
            parts.append(f"received {fmt_ns(t['cpu_ns'])} of CPU")
        if t["releases"]:
            parts.append(f"missed {t['deadlines_missed']} of {t['releases']} deadlines "
                         f"({100 * t['deadline_miss_ratio']:.2f}%)")
        lat = t.get("latency")
        if lat and lat.get("max_ns") is not None:
            parts.append(f"worst wake-up {fmt_ns(lat['max_ns'])} late (p99 {fmt_ns(lat.get('p99_ns'))}, "
                         f"{lat.get('count')} wake-ups)")
        if lat and lat.get("skipped"):
            parts.append(f"{lat['skipped']} of {lat['slots']} wake-up slots skipped "
                         f"({100 * lat['skipped'] / lat['slots']:.1f}%): "
                         + ("counted as later than every threshold" if lat["skipped_counted_late"]
                            else "left out of the shares (skipped_slots: ignored)"))
        if parts:
            out.append(f"- **{t['label']}**: " + "; ".join(parts))
    nr = ctx.run.result.get("cpu_not_received") or {}
    worst = max(nr.get("cpus") or [], key=lambda c: c.get("share") or 0, default=None)
    if worst and worst.get("not_received_ns"):
        wanted = worst["received_ns"] + worst["not_received_ns"]
        out.append(f"- **CPU not received**: on CPU {worst['cpu']} the scenario's threads wanted "
                   f"{fmt_ns(wanted)} and did not get {fmt_ns(worst['not_received_ns'])} of it "
                   f"({100 * worst['share']:.1f}%; every CPU and phase: below)")
    elif nr.get("cpus"):
        out.append("- **CPU not received**: none: whenever a scenario thread wanted a CPU, one of "
                   "the scenario's threads ran there")
    return out + [""] if out else []


def render(ctx: Context) -> str:
    return "\n".join(_expectations(ctx) + _findings(ctx))


SECTION = Section("Verdict", render)
