# SPDX-License-Identifier: GPL-2.0-or-later
"""hgreport: the analysis stage of hgrun (reads result directories, never YAML)."""

__version__ = "0.1.0"
