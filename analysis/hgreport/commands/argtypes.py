# SPDX-License-Identifier: GPL-2.0-or-later
"""Argument types shared by hgreport's commands (durations as hgrun writes them)."""
from __future__ import annotations

import argparse


def duration(text: str) -> int:
    from ..base.units import parse_duration
    try:
        return parse_duration(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def window(text: str) -> tuple[int, int]:
    """START:LEN, e.g. 2s:25ms."""
    start, sep, length = text.partition(":")
    if not sep:
        raise argparse.ArgumentTypeError(f"--window wants START:LEN (e.g. 2s:25ms), got {text!r}")
    return duration(start), duration(length)


def assign(text: str) -> tuple[str, int]:
    """THREAD=DURATION, e.g. video=8ms."""
    name, sep, dur = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"want THREAD=DURATION (e.g. video=8ms), got {text!r}")
    return name, duration(dur)


def thresholds(text: str) -> list[int]:
    return [duration(x) for x in text.split(",") if x.strip()]
