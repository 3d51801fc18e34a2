# SPDX-License-Identifier: GPL-2.0-or-later
"""The base of hgreport, below everything else: its errors (and the report of an internal
one), units, Markdown tables, statistics and the forked child of the report. Imports nothing
of hgreport (layers: tests/analysis/test_layers.py)."""
