# SPDX-License-Identifier: GPL-2.0-or-later
"""The run's warnings (result.json and hgreport's own), or "none"."""
from __future__ import annotations

from ..section import Context, Section


def render(ctx: Context) -> str:
    return "\n".join(([f"- {w}" for w in ctx.summary["warnings"]] or ["none"]) + [""])


SECTION = Section("Warnings", render)
