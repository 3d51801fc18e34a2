"""The scenario's expectations: each bound, the measured value, pass or FAIL."""
from __future__ import annotations

from ...base.markdown import table
from ..section import Context, Section


def applies(ctx: Context) -> bool:
    return bool(ctx.summary["expectations"])


def render(ctx: Context) -> str:
    rows = [[e["thread"], e["metric"], ("≤ " + str(e["max"])) if "max" in e else ("≥ " + str(e["min"])),
             e["value"], "pass" if e["pass"] else "**FAIL**"] for e in ctx.summary["expectations"]]
    return "\n".join([table(["thread", "metric", "bound", "value", "result"], rows, "llrrl"), ""])


SECTION = Section("Expectations", render, applies)
