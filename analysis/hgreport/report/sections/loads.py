# SPDX-License-Identifier: GPL-2.0-or-later
"""The loads: type, window, how long each ran, throughput, whether it ended early, stress-ng's
own figures for a stress_ng load, and their warnings."""
from __future__ import annotations

from ...base.markdown import table
from ...base.units import fmt_ns
from ..section import Context, Section


def applies(ctx: Context) -> bool:
    return bool(ctx.summary["loads"])


def render(ctx: Context) -> str:
    loads = ctx.summary["loads"]
    rows = [[ld["name"], ld["type"],
             f"{fmt_ns(ld['started_ns'])} – {fmt_ns(ld['stopped_ns'])}" if ld["started_ns"] is not None
             else "never started",
             f"{ld['seconds']:.3f} s" if ld["seconds"] is not None else None,
             f"{ld['mbps']:.1f}" if ld["mbps"] is not None else None,
             f"{ld['ops_per_s']:.1f}" if ld["ops_per_s"] is not None else None,
             "yes" if ld.get("ended_early") else ""] for ld in loads]
    out = [table(["load", "type", "window", "ran", "Mbit/s", "ops/s", "ended early"],
                 rows, "lllrrrl"), ""]
    for ld in loads:
        sng = ld.get("stress_ng")
        if sng and sng.get("bogo_ops") is not None:
            rate = sng.get("bogo_ops_per_s")
            out.append(f"- {ld['name']}: stress-ng {sng.get('version') or '?'} "
                       f"--{sng.get('stressor')} {sng.get('instances')}: {sng['bogo_ops']} "
                       f"bogo-ops" + (f", {rate:.1f} bogo-ops/s over stress-ng's own run "
                                      f"({sng.get('bogo_ops_per_s_usr_sys') or 0:.1f} per "
                                      f"CPU second); ops/s above is over the load's window"
                                      if rate is not None else ""))
    for ld in loads:
        out += [f"- {ld['name']}: {w}" for w in ld["warnings"]]
    if out[-1]:
        out.append("")
    return "\n".join(out)


SECTION = Section("Loads", render, applies)
