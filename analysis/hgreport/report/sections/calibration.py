# SPDX-License-Identifier: GPL-2.0-or-later
"""The run's calibration: the counter's frequency and how it was measured, the gap threshold
and the measuring loop's cost, whether memory was locked."""
from __future__ import annotations

from ...base.units import fmt_ns
from ..section import Context, Section


def render(ctx: Context) -> str:
    s = ctx.summary
    tsc, gap = s["tsc"], s["gap"]
    return "\n".join([
        f"- counter {tsc['hz'] / 1e6 if tsc.get('hz') else 0:.3f} MHz ({tsc['method']}, "
        f"±{tsc.get('hz_error_ppm') or 0:.2f} ppm, invariant {tsc.get('invariant')})",
        f"- gap threshold {fmt_ns(gap['threshold_ns'])}"
        f"{' (auto)' if gap.get('auto') else ''}, loop {gap['loop_ns'] or 0:.1f} ns per iteration; "
        f"memory locked: {s.get('memory_locked')}", ""])


SECTION = Section("Calibration", render)
