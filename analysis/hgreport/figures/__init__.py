# SPDX-License-Identifier: GPL-2.0-or-later
"""The figures of a run (matplotlib, Agg): plotting.py what every figure shares, the timeline,
gap and latency histograms, the run over time. Imports base/, read/, analyses/."""
