# SPDX-License-Identifier: GPL-2.0-or-later
"""Markdown of `hgreport provenance`: the facts the runs share, then a row per run."""
from __future__ import annotations

from typing import Any

from ..base.markdown import table


def page(rec: dict[str, Any]) -> str:
    c = rec["common"]
    host = c.get("host") or {}
    out = ["# Where these runs came from", ""]
    facts = [("scenario", c.get("scenario")), ("scenario sha256", c.get("scenario_sha256")),
             ("hgrun", c.get("hgrun_version"))]
    facts += [(k.replace("_", " "), v) for k, v in host.items()]
    out += [f"- {k}: {'(differs: per run)' if v is None else v}" for k, v in facts]
    out += ["", f"{rec['n']} runs, {rec['disturbed']} of them disturbed "
                "(docs/statistics.md, \"Disturbed runs\").", ""]
    rows = []
    for r in rec["runs"]:
        r = {**c, **r}
        rows.append([r["run"], r.get("scenario", c.get("scenario")), r["started_utc"],
                     f"{r['duration_s']:g} s", "yes" if r["complete"] else "**no**",
                     (r.get("host") or {}).get("kernel_release", host.get("kernel_release")),
                     "–" if r["outsiders_share"] is None else f"{100 * r['outsiders_share']:.1f}%",
                     ", ".join(r["disturbed"]) or "none"])
    out += [table(["run", "scenario", "started (UTC)", "duration", "complete", "kernel",
                   "other processes", "disturbed by"], rows, "lllrllrl"), ""]
    return "\n".join(out)
