# SPDX-License-Identifier: GPL-2.0-or-later
"""Units: the scenario's duration and size words, and human formatting of ns."""
import math
import re

_DURATION = {"ns": 1, "us": 1_000, "ms": 1_000_000, "s": 1_000_000_000, "m": 60_000_000_000}
_SIZE = {"B": 1, "KiB": 1024, "MiB": 1024**2, "GiB": 1024**3, "KB": 1000, "MB": 1000**2, "GB": 1000**3}
_WORD = re.compile(r"^(\d+(?:\.\d+)?)([A-Za-z]+)$")
# The dispatch-latency thresholds of the Hourglass paper's table 1: 1, 5, 10 and 50 ms.
DEFAULT_THRESHOLDS_NS = (1_000_000, 5_000_000, 10_000_000, 50_000_000)


def parse_duration(text: str) -> int:
    """'8ms' -> 8000000 (ns); a bare number is taken as ns. ValueError if not a duration."""
    text = text.strip()
    if re.fullmatch(r"\d+", text):
        return int(text)
    m = _WORD.match(text)
    if not m or m.group(2) not in _DURATION:
        raise ValueError(f"not a duration: {text!r} (write e.g. 8ms, 250us, 1.5s)")
    return round(float(m.group(1)) * _DURATION[m.group(2)])


def fmt_in_unit(ns: float, unit: str) -> str:
    """A duration in one of parse_duration's units ('ms'), as a bound written in it reads:
    four significant digits, never an exponent (0.1286 ms, 12570 us)."""
    y = ns / _DURATION[unit]
    text = f"{y:.0f}" if abs(y) >= 1000 else f"{y:.4g}"
    if "e" in text:                     # below 1e-4 of the unit: 0.00006655 s
        digits = 3 - math.floor(math.log10(abs(y)))
        text = f"{y:.{digits}f}".rstrip("0").rstrip(".")
    return f"{text} {unit}"


def is_duration_unit(unit: str | None) -> bool:
    return unit in _DURATION


def parse_size(text: str) -> int:
    """'32KiB' -> 32768 (bytes). ValueError if not a size."""
    m = _WORD.match(text.strip())
    if not m or m.group(2) not in _SIZE:
        raise ValueError(f"not a size: {text!r}")
    return round(float(m.group(1)) * _SIZE[m.group(2)])


def axis_number(value: object) -> float | None:
    """The numeric value of a sweep axis value ('16KiB' -> 16384, '2ms' -> 2e6 ns, '10' -> 10),
    or None for words (timer names, priorities)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    text = str(value).strip()
    try:
        return float(text)
    except ValueError:
        pass
    for parse in (parse_size, parse_duration):
        try:
            return float(parse(text))
        except ValueError:
            continue
    return None


def fmt_ns(ns: float | None) -> str:
    """A duration in ns as a short human string: 681.7 us, 3.000 ms, 1.25 s."""
    if ns is None:
        return "–"
    a = abs(ns)
    if a < 1_000:
        return f"{ns:.0f} ns"
    if a < 1_000_000:
        return f"{ns / 1e3:.1f} us"
    if a < 1_000_000_000:
        return f"{ns / 1e6:.3f} ms"
    return f"{ns / 1e9:.3f} s"


def fmt_bytes(n: float) -> str:
    """Bytes with a binary unit: 16 KiB, 1 MiB."""
    for unit, scale in (("GiB", 1024**3), ("MiB", 1024**2), ("KiB", 1024)):
        if n >= scale:
            v = n / scale
            return f"{v:.0f} {unit}" if v == int(v) else f"{v:.1f} {unit}"
    return f"{n:.0f} B"


def fmt_ns_exact(ns: float | None) -> str:
    """A duration in the largest unit it is at least one of, to 4 significant digits with no
    trailing zeros, as a user writes it: 1e9 -> '1 s', 2e5 -> '200 us', 10175799 -> '10.18 ms'."""
    if ns is None:
        return "–"
    for scale, unit in ((1e9, "s"), (1e6, "ms"), (1e3, "us")):
        if abs(ns) >= scale:
            return f"{_digits(ns / scale)} {unit}"
    return f"{_digits(ns)} ns"


def _digits(x: float) -> str:
    """Four significant digits, never in exponent form (12570 stays 12570, not 1.257e+04)."""
    return f"{x:.0f}" if abs(x) >= 1000 else f"{x:.4g}"


def fmt_metric(metric: str, value: float | None) -> str:
    """A metric's value in its unit (the unit is in the name: `_ns`, `_ratio`): durations as
    written (fmt_ns_exact), ratios as percentages, counts as integers."""
    if value is None:
        return "–"
    if metric.endswith("_ns"):
        return fmt_ns_exact(value)
    if metric.endswith("_ratio"):
        return f"{_digits(100 * value)}%"
    return f"{value:.0f}" if float(value) == int(value) else _digits(value)
