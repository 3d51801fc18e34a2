# SPDX-License-Identifier: GPL-2.0-or-later
"""`--fail-if` conditions of `hgreport compare`: parsed with errors that say what to write,
evaluated for every run (group) but the baseline.

    CONDITION := METRIC ["[" NAME "]"] OP VALUE
    OP        := >  >=  <  <=
    VALUE     := NUMBER [UNIT]            the run's own value          deadlines_missed>0
               | (+|-) NUMBER [UNIT]      its change from the baseline  latency_p99_ns>+50us
               | [+|-] NUMBER %           its relative change, percent  latency_p99_ns>+10%

METRIC is a name of the runner's vocabulary (`hgrun list metrics`), the same strings expect:
takes: every expect: metric, and the figures only the trace gives (gap_p99_ns, ...).

NAME is a thread (its OS name, `hog.1`), a thread set (`hog`: every instance) or a load
(for throughput); without it, every thread (or load) the metric applies to. UNIT: ns, us, ms,
s for durations (a bare number is ns); ratios are fractions (0.01), never `%` (which always
means a change relative to the baseline)."""
from __future__ import annotations

import difflib
import math
import re
from dataclasses import dataclass
from typing import Any, Callable

from ..analyses.disturbances import KINDS, Disturbance, kinds
from ..base import stats
from ..base.errors import UsageError
from ..base.units import fmt_in_unit, is_duration_unit, parse_duration
from .keyfigures import FIGURES, fmt_value

# names earlier versions took, refused with the name to write now (one vocabulary)
RENAMED = {"p50_latency": "latency_p50_ns", "p99_latency": "latency_p99_ns",
           "max_latency": "latency_max_ns", "latency_p50": "latency_p50_ns",
           "latency_p99": "latency_p99_ns", "latency_max": "latency_max_ns",
           "p99_gap": "gap_p99_ns", "max_gap": "gap_max_ns", "gap_p99": "gap_p99_ns",
           "gap_max": "gap_max_ns", "misses": "deadlines_missed", "deadline_misses": "deadlines_missed",
           "miss_ratio": "deadline_miss_ratio", "cpu_received": "cpu_ns", "cpu": "cpu_ns",
           "median_switch_cost": "switch_cost_p50_ns", "switch_cost_median": "switch_cost_p50_ns",
           "switch_rate": "involuntary_switches_per_s",
           "involuntary_switch_rate": "involuntary_switches_per_s"}
_OPS: dict[str, Callable[[float, float], bool]] = {
    ">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b, "<": lambda a, b: a < b}
_SYNTAX = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\[([^\]]*)\])?\s*(>=|<=|>|<)\s*(\S.*?)\s*$")
_VALUE = re.compile(r"^([+-]?)(\d+(?:\.\d+)?)\s*(%|[a-z]+)?$")
HELP = ("METRIC[NAME] OP VALUE, e.g. latency_p99_ns>+10%, deadlines_missed>0, "
        "gap_max_ns[lat]>+20%, throughput<-5%")


@dataclass(frozen=True)
class Condition:
    text: str
    metric: str              # a key of keyfigures.FIGURES
    name: str | None
    op: str
    mode: str                # "value", "change" or "relative"
    value: float             # ns for durations, percent for relative
    unit: str | None = None  # the duration unit the bound was written in ("ms"), if any

    def fmt(self, x: float | None) -> str:
        """A value of the metric in the bound's own unit when it was written with one (a
        bound of 0.1ms reads 0.1286 ms, not 128.6 us), four digits, never an exponent."""
        if x is None or self.unit is None or not math.isfinite(x):
            return fmt_value(self.metric, x)
        return fmt_in_unit(x, self.unit)

    def verdict(self, base: float | None, cand: float | None) -> tuple[bool | None, float | None]:
        """(true?, the quantity compared), None when it cannot be evaluated."""
        if cand is None or (self.mode != "value" and base is None):
            return None, None
        if self.mode == "value":
            x = cand
        elif self.mode == "change":
            x = cand - base
        elif base == 0:
            x = 0.0 if cand == 0 else math.copysign(math.inf, cand)
        else:
            x = 100.0 * (cand - base) / abs(base)
        return _OPS[self.op](x, self.value), x


def _metric(word: str, text: str) -> str:
    if word in FIGURES:
        return word
    near = [RENAMED[word]] if word in RENAMED else difflib.get_close_matches(word, sorted(FIGURES), n=1)
    hint = f"; did you mean {near[0]!r}?" if near else ""
    raise UsageError(f"--fail-if {text!r}: unknown metric {word!r}{hint} (metrics: {', '.join(sorted(FIGURES))})")


def parse(text: str) -> Condition:
    m = _SYNTAX.match(text)
    if not m:
        raise UsageError(f"--fail-if {text!r}: not a condition; write {HELP}")
    word, name, op, raw = m.groups()
    metric = _metric(word, text)
    if name is not None and not name.strip():
        raise UsageError(f"--fail-if {text!r}: empty [NAME]; write a thread or load name, or leave "
                         "[...] out for every one")
    v = _VALUE.match(raw.replace(" ", ""))
    if not v:
        raise UsageError(f"--fail-if {text!r}: value {raw!r} is not a number, a +/- change or a "
                         "percentage (e.g. 0, +50us, +10%)")
    sign, number, unit = v.groups()
    kind = FIGURES[metric].kind
    if unit == "%":
        mode, value = "relative", float(number)
    else:
        mode = "change" if sign else "value"
        if unit:
            if kind != "ns":
                raise UsageError(f"--fail-if {text!r}: {metric} is a {kind}, it takes no unit "
                                 f"{unit!r}" + (" (a ratio is a fraction: 0.01, not 1%)" if kind == "ratio" else ""))
            try:
                value = float(parse_duration(number + unit))
            except ValueError as e:
                raise UsageError(f"--fail-if {text!r}: {e}") from None
        else:
            value = float(number)
    return Condition(text, metric, name.strip() if name else None, op, mode,
                     -value if sign == "-" else value,
                     unit if kind == "ns" and is_duration_unit(unit) else None)


def _subjects(cond: Condition, rows: dict[str, dict[str, Any]]) -> list[str]:
    """The subjects (thread labels or load names) a condition looks at, from the table's rows:
    {subject: {"kind": "thread"|"load", "set": set name, "metrics": {metric: {"values":
    {group label: value}}}}}."""
    kind = "load" if cond.metric == "throughput" else "thread"
    pool = {s: r for s, r in rows.items() if r["kind"] == kind}
    if cond.name is not None:
        hit = [s for s, r in pool.items() if s == cond.name or r.get("set") == cond.name]
        if not hit:
            raise UsageError(f"--fail-if {cond.text!r}: no {kind} named {cond.name!r} in these runs "
                             f"({kind}s: {', '.join(pool) or 'none'})")
        pool = {s: pool[s] for s in hit}
    hit = [s for s, r in pool.items()
           if any(v is not None for v in r["metrics"].get(cond.metric, {}).get("values", {}).values())]
    if not hit:
        raise UsageError(f"--fail-if {cond.text!r}: no {kind} of these runs has {cond.metric} "
                         f"({FIGURES[cond.metric].title})")
    return hit


def _disturbed(dist: dict[str, list[Disturbance]], label: str, subject: str) -> list[str]:
    """The kinds (in words) of what disturbed a row's runs and affects `subject`."""
    return [KINDS[k] for k in kinds(dist.get(label, []), subject)]


def evaluate(conds: list[Condition], rows: dict[str, dict[str, Any]], labels: list[str],
             significant_only: bool = False,
             dist: dict[str, list[Disturbance]] | None = None) -> list[dict[str, Any]]:
    """Every (condition, row but the baseline, subject) checked; each check's `result` is
    "true", "false" or "inconclusive". A value the row lacks counts as true (a gate must not
    pass on what it could not see); a change from a baseline that lacks the value is not
    checked (false, said in the detail). With `significant_only`, a change (+/-, %) that is
    not significant is false, and one with too few runs to tell is inconclusive (base/stats.py:
    it can never trip the gate). A check over a disturbed run (analyses/disturbances.py: the
    row's own for a plain value, the baseline's too for a change) is inconclusive, whatever
    the condition says: a noisy neighbour must not pass or fail a kernel. With one row only (a
    glob that matched one run) that row is checked: its absolute conditions as any row's; a
    change, with no baseline to compare with, is inconclusive."""
    out = []
    dist = dist or {}
    base = labels[0] if len(labels) > 1 else None
    for c in conds:
        subjects = _subjects(c, rows)
        for label in labels[1:] if len(labels) > 1 else labels[:1]:
            for s in subjects:
                vals = rows[s]["metrics"][c.metric]["values"]
                b, v = vals.get(base) if base is not None else None, vals.get(label)
                if b is None and v is None:
                    continue
                true, x = c.verdict(b, v)
                if c.mode == "relative" and x is not None:
                    shown = f"{x:+.1f}%" if math.isfinite(x) else f"{'+' if x > 0 else '-'}∞ (baseline 0)"
                elif c.mode == "change" and x is not None:
                    shown = ("+" if x >= 0 else "") + c.fmt(x)
                else:
                    shown = c.fmt(v)
                result = None
                if true is not None:
                    why = f"{s}: {c.fmt(b)} -> {c.fmt(v)} ({shown})"
                    d = rows[s]["metrics"][c.metric].get("diff", {}).get(label) or {}
                    if significant_only and c.mode != "value" and d.get("verdict") == stats.TOO_FEW:
                        why += f", {stats.TOO_FEW} ({d.get('method')})"
                        result = "inconclusive"
                    elif significant_only and c.mode != "value" and d.get("verdict") == stats.NOT_SIGNIFICANT:
                        why += " but not significant" + (f" (p = {d['p']:.2g})" if d.get("p") is not None else "")
                        true = False
                elif v is None:
                    why, true = f"{s}: missing in {label}, cannot be checked (counts as true)", True
                elif base is None:
                    why, true = f"{s}: one row only, no baseline: the change cannot be checked", False
                    result = "inconclusive"
                else:
                    why, true = f"{s}: not in the baseline, no change to check", False
                mine = _disturbed(dist, label, s)
                theirs = _disturbed(dist, base, s) if c.mode != "value" and base else []
                disturbed = [f"{label}: {k}" for k in mine] + [f"baseline: {k}" for k in theirs]
                if disturbed:
                    result = "inconclusive"
                    why += ("; inconclusive: disturbed runs (" + "; ".join(
                        [f"{', '.join(mine)} in this row"] * bool(mine)
                        + [f"{', '.join(theirs)} in the baseline"] * bool(theirs))
                            + ": compare.md, Disturbed runs)")
                if result is None:
                    result = "true" if true else "false"
                out.append({"condition": c.text, "run": label, "subject": s, "baseline": b,
                            "value": v, "compared": x, "true": bool(true), "result": result,
                            "evaluated": x is not None, "detail": why,
                            "disturbed_by": disturbed})
    return out


EXIT_TRUE = 5            # a condition is true on undisturbed runs: a finding (hgrun's 5)
EXIT_INCONCLUSIVE = 6    # no condition true, some check inconclusive (docs/cli.md)


def exit_status(verdicts: list[dict[str, Any]]) -> int:
    """5 when a check is true, else 6 when one is inconclusive, else 0."""
    results = {v["result"] for v in verdicts}
    if "true" in results:
        return EXIT_TRUE
    return EXIT_INCONCLUSIVE if "inconclusive" in results else 0
