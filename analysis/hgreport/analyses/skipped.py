# SPDX-License-Identifier: GPL-2.0-or-later
"""Skipped wake-ups (docs/results.md, "Skipped wake-ups"): a latency thread with `align:
absolute` skips each grid slot whose time had passed when it woke (result.json
`stats.latency.grid_skipped`). The scenario says what a skipped slot means (the workload's
`skipped_slots`): `late`, a wake-up later than every threshold (the default), or `ignored`,
left out of the shares; `released` skips none. Every share of wake-ups later than a threshold
is computed here, so report.md, `dispatch`, the jitter table and the exports agree."""
from __future__ import annotations

from dataclasses import dataclass

from ..read.rundir import Run

LATE, IGNORED = "late", "ignored"


@dataclass(frozen=True)
class Skipped:
    """A latency thread's wake-ups: `released` (the histogram's count, every wake-up that
    happened), `skipped` slots, and whether those count as later than every threshold."""
    released: int
    skipped: int
    counted_late: bool

    @property
    def slots(self) -> int:
        return self.released + self.skipped

    def over(self, stored: int) -> int:
        """What a share of wake-ups later than a threshold is taken over, `stored` of the
        released wake-ups in latency.bin: the skipped slots too when they count as late."""
        return stored + (self.skipped if self.counted_late else 0)

    def later(self, count: int) -> int:
        """Wake-ups later than a threshold, `count` of them released: the skipped slots too
        when they count as late."""
        return count + (self.skipped if self.counted_late else 0)

    def words(self) -> str:
        """'310 of 996 slots skipped (31.1%), counted as later than every threshold', or ''."""
        if not self.skipped:
            return ""
        return (f"{self.skipped} of {self.slots} slots skipped "
                f"({100 * self.skipped / self.slots:.1f}%), "
                + ("counted as later than every threshold" if self.counted_late
                   else "left out of the shares (skipped_slots: ignored)"))


def of_thread(run: Run, index: int) -> Skipped:
    """The skipped slots of thread `index` (0 for a thread that skips none)."""
    lat = run.threads[index]["stats"].get("latency") or {}
    mode = ((run.scenario_thread(index).get("workload") or {}).get("skipped_slots")) or LATE
    return Skipped(int(lat.get("count") or 0), int(lat.get("grid_skipped") or 0), mode != IGNORED)
