# SPDX-License-Identifier: GPL-2.0-or-later
"""The Markdown page of `hgreport compare`: the runs, one table of key figures per thread and
one per load (a row per run), the differences from the baseline with their confidence
interval or rank test, and the --fail-if verdicts."""
from __future__ import annotations

import math
from typing import Any, Sequence

from ..base.markdown import table
from ..read.rungroups import Group, group_facts
from .differences import Table
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


def _test(key: str, d: dict[str, Any], unit: str | None) -> str:
    if d.get("p") is not None:
        return f"p = {d['p']:.3g}"
    if d.get("low") is not None:
        return f"[{fmt_delta(key, d['low'], unit)}, {fmt_delta(key, d['high'], unit)}]"
    return "–"


def _runs_table(groups: Sequence[Group], differing: list[str]) -> list[str]:
    rows = []
    for k, g in enumerate(groups):
        f = group_facts(g)
        where = g.paths[0] + (f" (+{len(g.runs) - 1} more)" if len(g.runs) > 1 else "")
        rows.append([("**baseline** " if k == 0 else "") + g.label, len(g.runs),
                     "yes" if all(r.complete for r in g.runs) else "**no**"]
                    + [f.get(key, "") or "–" for key in differing] + [f"`{where}`"])
    out = [table(["run", "runs", "complete"] + differing + ["path"], rows,
                 "lrl" + "l" * len(differing) + "l"), ""]
    common = {k: v for k, v in group_facts(groups[0]).items() if k not in differing}
    if common:
        out += ["Common to all: " + ", ".join(f"{k} {v}" for k, v in common.items()) + ".", ""]
    return out


def _subject(name: str, row: dict[str, Any], labels: list[str], level: float) -> list[str]:
    keys = [k for k, m in row["metrics"].items() if any(v is not None for v in m["values"].values())]
    if not keys:
        return []
    unit = row["unit"]
    head = f"## Thread `{name}`" if row["kind"] == "thread" else f"## Load `{name}`"
    body = [[lab] + [fmt_value(k, row["metrics"][k]["values"].get(lab), unit) for k in keys]
            for lab in labels]
    out = [head, "", table(["run"] + [FIGURES[k].title for k in keys], body, "l" + "r" * len(keys)), ""]
    diffs = []
    for lab in labels[1:]:
        for k in keys:
            d = row["metrics"][k]["diff"].get(lab)
            if d is None or (d["delta"] == 0 and d["method"] is None):
                continue
            m = row["metrics"][k]["values"]
            diffs.append([lab, FIGURES[k].title, fmt_value(k, m[labels[0]], unit), fmt_value(k, m[lab], unit),
                          fmt_delta(k, d["delta"], unit), _rel(d["relative"]), _test(k, d, unit),
                          {True: "**yes**", False: "no", None: "–"}[d["significant"]]])
    if diffs:
        out += [table(["run", "figure", "baseline", "this", "Δ", "Δ %",
                       f"{level:.0%} CI of Δ / p", "significant"], diffs, "llrrrrrl"), ""]
    return out


def render(t: Table, groups: Sequence[Group], differing: list[str], verdicts: list[dict[str, Any]],
           figures: list[str]) -> str:
    n = sum(len(g.runs) for g in groups)
    lines = [f"# Compare: {len(groups)} rows from {n} runs", "",
             f"Baseline: **{t.labels[0]}**; every difference is this row − the baseline. "
             f"Single runs: {t.level:.0%} bootstrap confidence interval of the difference of the "
             "percentiles (the samples resampled, seed "
             f"{t.seed}); rows of two or more repeats: Mann-Whitney U test of the repeats' values "
             "(two-sided p; with 2 runs each p ≥ 0.33, 3 runs ≥ 0.1: repeat more to resolve a "
             "difference). Counts and maxima of single runs have no interval.", ""]
    lines += _runs_table(groups, differing)
    if any(not r.complete for g in groups for r in g.runs):
        lines += ["> **Incomplete runs** are included: their counts cover only the part that ran.", ""]
    for kind in ("thread", "load"):
        for name, row in t.rows.items():
            if row["kind"] == kind:
                lines += _subject(name, row, t.labels, t.level)
    if verdicts:
        true = [v for v in verdicts if v["true"]]
        lines += ["## --fail-if", "", table(["condition", "run", "subject", "result", "detail"],
                  [[f"`{v['condition']}`", v["run"], v["subject"],
                    "**true**" if v["true"] else "false", v["detail"]] for v in verdicts], "lllll"),
                  "", f"{len(true)} of {len(verdicts)} checks true: exit status {1 if true else 0}.", ""]
    if t.notes:
        lines += ["## Notes", ""] + [f"- {x}" for x in t.notes] + [""]
    if figures:
        lines += ["## Figures", ""] + [f"![{f}]({f})" for f in figures] + [""]
    return "\n".join(lines)
