# SPDX-License-Identifier: GPL-2.0-or-later
"""The head of report.md: the scenario's name as the page's title, whether the run is
complete, where its result is, how it was started and the sweep point it belongs to."""
from __future__ import annotations

from ...base.units import fmt_ns
from ..section import Context, Section


def render(ctx: Context) -> str:
    r = ctx.summary["run"]
    out = [f"# hgrun report: {r['scenario']}", ""]
    if not r["complete"]:
        out += [f"> **This run is incomplete** (`complete: false`, exit status {r['exit_status']}"
                + (f", interrupted by {r['interrupted_by']}" if r.get("interrupted_by") else "")
                + "): counts cover only the part that ran.", ""]
    out += [f"- result: `{r['path']}`",
            f"- hgrun {r['hgrun_version']}, started {r['started_utc']}, "
            f"duration {fmt_ns(r['duration_ns'])}, exit status {r['exit_status']}"]
    if r.get("command_line"):
        out.append(f"- command: `{' '.join(r['command_line'])}`")
    if r.get("sweep_point"):
        sp = r["sweep_point"]
        ov = ", ".join(f"{k}={v}" for k, v in sp.get("overrides", {}).items())
        out.append(f"- sweep point {sp.get('id')}: {ov}")
    return "\n".join(out + [""])


SECTION = Section("", render)
