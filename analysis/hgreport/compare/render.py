# SPDX-License-Identifier: GPL-2.0-or-later
"""The Markdown page of `hgreport compare`: the runs and what disturbed them, one table of key
figures per thread and one per load (a row per run), the differences from the baseline with
their interval and verdict (base/stats.py), the within-run spread of single runs, the
--fail-if checks and the exit status the process ends with."""
from __future__ import annotations

import math
from typing import Any, Sequence

from ..analyses import disturbances
from ..analyses.disturbances import Disturbance
from ..base import stats
from ..base.markdown import table
from ..read.rungroups import Group, group_facts
from .differences import Table
from .failif import EXIT_INCONCLUSIVE, EXIT_TRUE
from .keyfigures import FIGURES, fmt_value


def fmt_delta(key: str, d: float | None, unit: str | None = None) -> str:
    if d is None:
        return "–"
    kind = FIGURES[key].kind
    sign = "+" if d >= 0 else "−"
    if kind == "ratio":
        return f"{sign}{abs(100 * d):.2f} pp"
    return sign + fmt_value(key, abs(d), unit)


def _rel(r: float | None) -> str:
    if r is None:
        return "–"
    if not math.isfinite(r):
        return "new" if r > 0 else "−∞"
    return f"{100 * r:+.1f}%".replace("-", "−")


def _interval(key: str, d: dict[str, Any], unit: str | None) -> str:
    if d.get("rel_low") is not None:
        return f"[{_rel(d['rel_low'])}, {_rel(d['rel_high'])}]"
    if d.get("low") is not None:
        return f"[{fmt_delta(key, d['low'], unit)}, {fmt_delta(key, d['high'], unit)}]"
    return "–"


def _verdict(d: dict[str, Any]) -> str:
    v = d.get("verdict") or stats.TOO_FEW
    return f"**{v}**" if v == stats.SIGNIFICANT else v


def _runs_table(groups: Sequence[Group], differing: list[str],
                dist: dict[str, list[Disturbance]]) -> list[str]:
    rows = []
    for k, g in enumerate(groups):
        f = group_facts(g)
        where = g.paths[0] + (f" (+{len(g.runs) - 1} more)" if len(g.runs) > 1 else "")
        rows.append([("**baseline** " if k == 0 else "") + g.label, len(g.runs),
                     "yes" if all(r.complete for r in g.runs) else "**no**",
                     disturbances.words(dist.get(g.label, [])) or "none"]
                    + [f.get(key, "") or "–" for key in differing] + [f"`{where}`"])
    out = [table(["run", "runs", "complete", "disturbed by"] + differing + ["path"], rows,
                 "lrll" + "l" * len(differing) + "l"), ""]
    common = {k: v for k, v in group_facts(groups[0]).items() if k not in differing and v}
    if common:
        out += ["Common to all: " + ", ".join(f"{k} {v}" for k, v in common.items()) + ".", ""]
    return out


def _labelled(d: Disturbance) -> str:
    """A disturbance's text, led by its kind unless it says it already."""
    word = disturbances.KINDS[d.kind]
    return d.text if d.text.lower().startswith((word.lower(), d.kind)) else f"{word}: {d.text}"


def _where(g: Group, runs: list[str]) -> str:
    """The runs of row `g` a disturbance applies to, in words: the row alone for a row of one
    run, else how many of its runs and their paths (none named: the row's runs together)."""
    if not runs:
        return f"**{g.label}**, its {len(g.runs)} runs together"
    if len(g.runs) == 1:
        return f"**{g.label}**"
    return f"**{g.label}** {len(runs)} of {len(g.runs)}: " + ", ".join(f"`{r}`" for r in runs)


def _warnings(groups: Sequence[Group], dist: dict[str, list[Disturbance]]) -> list[str]:
    """Every distinct disturbance once, with how many runs it applies to and which, row by
    row: the same warning of many runs is one line."""
    seen: dict[str, dict[str, list[str]]] = {}      # text -> row label -> its runs' paths
    for g in groups:
        for d in dist.get(g.label, []):
            runs = seen.setdefault(_labelled(d), {}).setdefault(g.label, [])
            if d.run in g.paths and d.run not in runs:
                runs.append(d.run)
    if not seen:
        return []
    by_label = {g.label: g for g in groups}
    lines = []
    for text, rows in seen.items():
        n = sum(len(runs) or len(by_label[lab].runs) for lab, runs in rows.items())
        lines.append(f"- {text} ({n} run{'' if n == 1 else 's'}: "
                     + "; ".join(_where(by_label[lab], runs) for lab, runs in rows.items()) + ")")
    return (["## Disturbed runs", "",
             "What disturbed the runs of each row (result.json's warnings, the reading, the "
             "machines), each once with the runs it applies to: a difference beside them may "
             "be theirs, and a --fail-if check over them is inconclusive.", ""] + lines + [""])


def _subject(name: str, row: dict[str, Any], labels: list[str], level: float,
             dist: dict[str, list[Disturbance]]) -> list[str]:
    keys = [k for k, m in row["metrics"].items() if any(v is not None for v in m["values"].values())]
    if not keys:
        return []
    unit = row["unit"]
    head = f"## Thread `{name}`" if row["kind"] == "thread" else f"## Load `{name}`"
    body = [[lab] + [fmt_value(k, row["metrics"][k]["values"].get(lab), unit) for k in keys]
            for lab in labels]
    out = [head, "", table(["run"] + [FIGURES[k].title for k in keys], body, "l" + "r" * len(keys)), ""]
    spread = [[lab, FIGURES[k].title, fmt_value(k, row["metrics"][k]["values"].get(lab), unit),
               f"[{fmt_value(k, w[0], unit)}, {fmt_value(k, w[1], unit)}]"]
              for lab in labels for k in keys
              if (w := row["metrics"][k].get("within_run", {}).get(lab)) is not None]
    if spread:
        out += [f"Within-run spread of single runs ({level:.0%} block bootstrap over time, "
                "docs/statistics.md): how much the run itself varies, not a test between rows.",
                "", table(["run", "figure", "value", "within-run spread"], spread, "llrl"), ""]
    diffs = []
    subject = name if row["kind"] == "thread" else None
    for lab in labels[1:]:
        for k in keys:
            d = row["metrics"][k]["diff"].get(lab)
            if d is None or (d["delta"] == 0 and d["verdict"] == stats.TOO_FEW):
                continue
            m = row["metrics"][k]["values"]
            seen = disturbances.words(dist.get(labels[0], []) + dist.get(lab, []), subject)
            diffs.append([lab, FIGURES[k].title, fmt_value(k, m[labels[0]], unit),
                          fmt_value(k, m[lab], unit), fmt_delta(k, d["delta"], unit),
                          _rel(d["relative"]), _interval(k, d, unit),
                          "–" if d.get("p") is None else f"{d['p']:.2g}", _verdict(d),
                          seen or "–"])
    if diffs:
        out += [table(["run", "figure", "baseline", "this", "Δ", "Δ %", f"{level:.0%} interval",
                       "p", "verdict", "disturbed by"], diffs, "llrrrrrrll"), ""]
    return out


def status_line(verdicts: list[dict[str, Any]], status: int) -> str:
    """How many checks were true and inconclusive, and the exit status the process ends with."""
    true = sum(1 for v in verdicts if v["result"] == "true")
    unsure = sum(1 for v in verdicts if v["result"] == "inconclusive")
    meaning = {0: "no check true", EXIT_TRUE: "a check is true",
               EXIT_INCONCLUSIVE: "inconclusive: no check true, some over disturbed runs or "
                                  "with too few runs to tell"}[status]
    return (f"{true} of {len(verdicts)} checks true, {unsure} inconclusive: exit status "
            f"{status} ({meaning}).")


def render(t: Table, groups: Sequence[Group], differing: list[str], verdicts: list[dict[str, Any]],
           figures: list[str], dist: dict[str, list[Disturbance]], status: int) -> str:
    n = sum(len(g.runs) for g in groups)
    lines = [f"# Compare: {len(groups)} rows from {n} runs", "",
             f"Baseline: **{t.labels[0]}**; every difference is this row − the baseline. "
             + stats.describe_method(t.level), ""]
    lines += _runs_table(groups, differing, dist)
    lines += _warnings(groups, dist)
    for kind in ("thread", "load"):
        for name, row in t.rows.items():
            if row["kind"] == kind:
                lines += _subject(name, row, t.labels, t.level, dist)
    if verdicts:
        lines += ["## --fail-if", "", table(["condition", "run", "subject", "result", "detail"],
                  [[f"`{v['condition']}`", v["run"], v["subject"],
                    f"**{v['result']}**" if v["result"] != "false" else "false", v["detail"]]
                   for v in verdicts], "lllll"),
                  "", status_line(verdicts, status), ""]
    if t.notes:
        lines += ["## Notes", ""] + [f"- {x}" for x in t.notes] + [""]
    if figures:
        lines += ["## Figures", ""] + [f"![{f}]({f})" for f in figures] + [""]
    return "\n".join(lines)
