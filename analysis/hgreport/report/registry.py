# SPDX-License-Identifier: GPL-2.0-or-later
"""The sections of report.md, listed once, in the order of the page. Each is one module of
report/sections/ defining SECTION (the contract: report/section.py), which names the figures it
shows; assemble.py writes the page and draws the figures from this list. A new section: its
module, and its entry here."""
from __future__ import annotations

from .section import Section
from .sections import (calibration, causes, gaps, head, host, interactivation, jitter,
                       late_wakeups, latency, loads, not_received, over_time, threads, timeline,
                       verdict, warnings)

SECTIONS: tuple[Section, ...] = (
    head.SECTION,
    verdict.SECTION,
    warnings.SECTION,
    threads.SECTION,
    not_received.SECTION,
    latency.SECTION,
    interactivation.SECTION,
    jitter.SECTION,
    gaps.SECTION,
    loads.SECTION,
    over_time.SECTION,
    causes.SECTION,
    late_wakeups.SECTION,
    timeline.SECTION,
    host.SECTION,
    calibration.SECTION,
)
