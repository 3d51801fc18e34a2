# SPDX-License-Identifier: GPL-2.0-or-later
"""Markdown tables."""
from __future__ import annotations

from typing import Any, Sequence


def table(header: Sequence[str], rows: Sequence[Sequence[Any]], align: str | None = None) -> str:
    """A GitHub-flavoured table; `align` is one letter per column, l or r (default: text left,
    numbers right)."""
    cells = [[("–" if c is None else str(c)) for c in row] for row in rows]
    if align is None:
        align = "".join("r" if rows and isinstance(rows[0][k], (int, float)) else "l"
                        for k in range(len(header)))
    rule = ["---:" if a == "r" else "---" for a in align]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(rule) + " |"]
    lines += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in cells]
    return "\n".join(lines)


def pct(x: float | None, digits: int = 2) -> str:
    return "–" if x is None else f"{100 * x:.{digits}f}%"
