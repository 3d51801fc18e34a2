# SPDX-License-Identifier: GPL-2.0-or-later
"""The report of one run (report.md, summary.json, the figures, the Perfetto trace):
assemble.py writes it; report.md is the sections listed in registry.py, one module each in
sections/, under the contract of section.py. Imports every layer below (base/ to figures/,
perfetto/, export/)."""
