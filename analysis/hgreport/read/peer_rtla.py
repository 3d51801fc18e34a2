# SPDX-License-Identifier: GPL-2.0-or-later
"""`rtla timerlat hist`'s text (docs/peers.md), as the kernel's
rtla's timerlat_hist source (the kernel's tools/tracing/rtla) prints it: a header (`# RTLA timerlat histogram`,
`# Time unit is microseconds (us)` or nanoseconds with -n, `# Duration: D HH:MM:SS`), the
column line (`Index`, then per CPU `IRQ-NNN`, `Thr-NNN` and with user threads `Usr-NNN`), one line
per bucket that is not all zeros (every one with --with-zeros), `over:`, then `count:`,
`min:`, `avg:`, `max:` (a `-` where a column counted nothing), the `ALL:` block (rtla
6.12 prints it, 6.1 does not), and after a stop (-a, -T, -i) the auto-analysis. Checked
against real outputs of Debian's rtla 6.1 and 6.12 (tests/analysis/data/peers/README.md).

Per CPU the thread latency (Usr where there is such a column: -u, and rtla 6.12's default;
else Thr: the timerlat thread woken by its timer, what cyclictest measures) is the series
`cpuN`; the others are `cpuN.irq` (the timer's IRQ handler started) and `cpuN.thr` (the
kernel side of a user thread)."""
from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np

from ..base.errors import InputError
from .peer_model import Peer, Series, finish, read_text

_COLUMN = re.compile(r"(IRQ|Thr|Usr)-(\d{3,})")
_SUMMARY = ("over:", "count:", "min:", "avg:", "max:")


def sniff(first: str) -> bool:
    return bool(re.search(r"(?m)^# RTLA timerlat histogram\s*$", first))


def _cells(path: Path, n: int, words: list[str], width: int, what: str) -> list[int | None]:
    if len(words) != width:
        raise InputError(path, f"line {n}: {len(words)} {what} values for {width} columns")
    out: list[int | None] = []
    for w in words:
        if w == "-":
            out.append(None)
        elif w.isdigit() and len(w) < 19:
            out.append(int(w))
        else:
            raise InputError(path, f"line {n}: {w[:20]!r} is not a count")
    return out


def read(path: Path) -> Peer:
    lines = read_text(path).splitlines()
    unit, duration, columns, index = None, None, None, True
    rows: list[tuple[int | None, list[int | None]]] = []
    summary: dict[str, list[int | None]] = {}
    in_all = False
    for n, ln in enumerate(lines, 1):
        text = ln.strip()
        if not text:
            continue
        if m := re.fullmatch(r"# Time unit is (micro|nano)seconds \((us|ns)\)", text):
            unit = 1000 if m.group(2) == "us" else 1
            continue
        if m := re.fullmatch(r"# Duration:\s+(\d+) (\d\d):(\d\d):(\d\d)", text):
            d, h, mi, s = (int(x) for x in m.groups())
            duration = ((d * 24 + h) * 60 + mi) * 60 + s
            continue
        if text.startswith("#"):
            continue
        words = text.split()
        if columns is None:
            found = _COLUMN.findall(text)
            if not found:
                continue            # a line rtla printed before the histogram
            index = words[0] == "Index"
            if [w for w in words[1 if index else 0:]] != [f"{k}-{c}" for k, c in found]:
                raise InputError(path, f"line {n}: not rtla's column line ({text[:60]!r})")
            columns = [(k, int(c)) for k, c in found]
            continue
        if words[0] == "ALL:":
            in_all = True
            continue
        if in_all:
            continue                # the sum over CPUs: the series are per CPU
        if words[0] in _SUMMARY:
            summary[words[0][:-1]] = _cells(path, n, words[1:], len(columns), words[0][:-1])
            continue
        if summary:
            continue                # after the summary: missed-event lines and the like
        if index:
            if not words[0].isdigit() or len(words[0]) > 12:
                raise InputError(path, f"line {n}: {words[0][:20]!r} is not a bucket index")
            rows.append((int(words[0]), _cells(path, n, words[1:], len(columns), "bucket")))
        else:
            rows.append((None, _cells(path, n, words, len(columns), "bucket")))
        if len(rows) > 10_000_000:
            raise InputError(path, "more than 10000000 buckets")
    if columns is None:
        raise InputError(path, "no column line (Index IRQ-000 Thr-000 ...): rtla ran with "
                               "--no-header, which leaves the CPUs unnamed")
    if unit is None:
        raise InputError(path, "no '# Time unit is ...' line")
    peer = Peer("rtla timerlat", None, None, "timerlat tracer: per CPU, a kernel (Thr) or "
                "user (Usr: -u, rtla 6.12's default) thread woken by a periodic timer; IRQ: "
                "the timer's handler started, Thr/Usr: the thread ran (trace clock)", [],
                duration_ns=duration * 1_000_000_000 if duration is not None else None)
    if index:
        idx = [i for i, _ in rows if i is not None]
        if any(b <= a for a, b in zip(idx, idx[1:])):
            raise InputError(path, "bucket indices that do not increase")
        size = math.gcd(*idx) if any(idx) else 1
    else:
        size = 1
        peer.warnings.append(f"{path}: --no-index: the bucket size is not printed, 1 is assumed")
    positions = [(i if i is not None else k * size) // size for k, (i, _) in enumerate(rows)]
    if positions and positions[-1] >= 10_000_000:
        raise InputError(path, "a bucket index past 10000000 buckets")
    width = (positions[-1] + 1) if positions else 0
    have_usr = any(k == "Usr" for k, _ in columns)
    # rtla prints only the buckets that are not all zeros, unless --with-zeros (a row of zeros
    # tells): without it the histogram (-E entries) ends at the last bucket printed or later
    with_zeros = any(not any(cells) for _, cells in rows)
    for c, (kind, cpu) in enumerate(columns):
        counts = np.zeros(width, dtype=np.int64)
        for pos, (_, cells) in zip(positions, rows):
            counts[pos] = cells[c] or 0

        def stat(key: str) -> int | None:
            v = summary.get(key)
            return v[c] if v else None
        over = stat("over")
        total = stat("count")
        name = (f"cpu{cpu}" if kind == ("Usr" if have_usr else "Thr") else
                f"cpu{cpu}.{kind.lower()}")
        s = Series(name, cpu, 0, bucket_ns=size * unit, counts=counts, overflow=over or 0,
                   end_known=with_zeros)
        held = int(counts.sum()) + (over or 0)
        s.count = total if total is not None else held
        if total is not None and total < held:
            raise InputError(path, f"{kind}-{cpu:03d}: count {total} below the {held} samples "
                                   "of its histogram")
        for key, attr in (("min", "min_ns"), ("avg", "mean_ns"), ("max", "max_ns")):
            v = stat(key)
            setattr(s, attr, float(v) * unit if v is not None else None)
        if not summary:
            s.notes.append(f"{name}: rtla ran with --no-summary: no count, min, mean, max")
        if s.count:
            peer.series.append(finish(path, s))
    return peer
