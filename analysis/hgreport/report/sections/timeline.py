# SPDX-License-Identifier: GPL-2.0-or-later
"""The run on a timeline: timeline.png (the execution trace where things happen, or the window
asked with --window) and the Perfetto trace's file, which holds the whole run."""
from __future__ import annotations

from ...figures import timeline as figure
from ...perfetto import FILE_NAME
from ..section import Context, Section


def render(ctx: Context) -> str:
    shown = ctx.figure(figure.FIGURE)
    return "\n".join(([shown] if shown else [])
                     + [f"Perfetto trace: `{FILE_NAME}` (open in https://ui.perfetto.dev)", ""])


SECTION = Section("Timeline", render, figures=(figure.FIGURE,))
