# SPDX-License-Identifier: GPL-2.0-or-later
"""The formats of `hgreport export --format`, listed once; the first is the default. Each is
one module of export/ defining FORMAT (the contract: export/format.py). A new format: its
module, and its entry here."""
from __future__ import annotations

from . import cyclictest, hourglass, jsonl, kcidb
from .format import Format

FORMATS: tuple[Format, ...] = (
    jsonl.FORMAT,
    cyclictest.FORMAT,
    hourglass.FORMAT,
    kcidb.FORMAT,
)
