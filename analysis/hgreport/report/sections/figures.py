"""The figures of the report (the PNG files written before the sections) and the Perfetto
trace's file."""
from __future__ import annotations

from ...figures.timeline import aggregated_note
from ...perfetto import trace as perfetto
from ..section import Context, Section


def render(ctx: Context) -> str:
    note = aggregated_note(ctx.run)
    return "\n".join([f"![{f}]({f})" for f in ctx.figures if f.endswith(".png")]
                     + ([f"", f"Note: {note}."] if note else [])
                     + ["", f"Perfetto trace: `{perfetto.FILE_NAME}` (open in https://ui.perfetto.dev)",
                        ""])


SECTION = Section("Figures", render)
