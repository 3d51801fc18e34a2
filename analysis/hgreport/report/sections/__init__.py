# SPDX-License-Identifier: GPL-2.0-or-later
"""The sections of report.md, one module each (report/section.py: the contract; the order of
the page: report/registry.py)."""
