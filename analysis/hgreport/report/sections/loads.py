"""The loads: type, window, how long each ran, throughput, whether it ended early, and their
warnings."""
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
        out += [f"- {ld['name']}: {w}" for w in ld["warnings"]]
    return "\n".join(out)


SECTION = Section("Loads", render, applies)
