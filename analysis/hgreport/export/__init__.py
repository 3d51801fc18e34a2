# SPDX-License-Identifier: GPL-2.0-or-later
"""Exports of a run's binary files for other tools (jsonl.py: trace.bin / latency.bin as JSON
lines; cyclictest.py: the latency histograms in cyclictest's -h layout; hourglass.py:
Hourglass's own output lines). Imports base/, read/, analyses/."""
