# SPDX-License-Identifier: GPL-2.0-or-later
"""What the numbers say: gaps and switches, periodic jobs, the summary of a run, per-window
statistics, the response-time analysis, gap causes, series bins, sweep metrics, where the
timeline looks. Data in, data out: no Markdown pages, no figures. Imports base/ and read/."""
