"""The figures of the report (the PNG files written before the sections) and the Perfetto
trace's file."""
from __future__ import annotations

from ...perfetto import trace as perfetto
from ..section import Context, Section


def render(ctx: Context) -> str:
    return "\n".join([f"![{f}]({f})" for f in ctx.figures if f.endswith(".png")]
                     + ["", f"Perfetto trace: `{perfetto.FILE_NAME}` (open in https://ui.perfetto.dev)",
                        ""])


SECTION = Section("Figures", render)
