"""The sections of report.md, listed once, in the order of the page. Each is one module of
report/sections/ defining SECTION (the contract: report/section.py); assemble.py writes the
page from this list. A new section: its module, and its entry here."""
from __future__ import annotations

from .section import Section
from .sections import (calibration, causes, expectations, figures, gaps, head, host, late_wakeups,
                       latency, loads, over_time, threads, warnings)

SECTIONS: tuple[Section, ...] = (
    head.SECTION,
    host.SECTION,
    calibration.SECTION,
    warnings.SECTION,
    threads.SECTION,
    latency.SECTION,
    gaps.SECTION,
    loads.SECTION,
    expectations.SECTION,
    over_time.SECTION,
    causes.SECTION,
    late_wakeups.SECTION,
    figures.SECTION,
)
