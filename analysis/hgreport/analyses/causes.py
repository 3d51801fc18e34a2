"""Why the gaps happened, when the run was recorded with the kernel's events
(docs/kernel-trace.md): per thread the time, count and share of each cause (result.json
`threads[].gap_causes`), and the largest gaps with their cause and culprit (trace.bin's cause
codes; the culprit from kernel.jsonl's segments of that CPU during the gap). The report's
section is report/sections/causes.py; the colours of the causes serve every figure."""
from __future__ import annotations

import json
import mmap
import os
from pathlib import Path
from typing import Any

import numpy as np

from ..base.markdown import pct
from ..base.units import fmt_ns
from ..base.errors import InputError
from ..read.regular import LONGEST_LINE, open_file
from ..read.rundir import Run
from .switches import gaps_of_run

# docs/kernel-trace.md's codes, in order; a run's own list (kernel_trace.causes) wins.
CAUSES = ("unattributed", "invisible", "scenario_thread", "hgrun", "load", "process",
          "kernel_thread", "idle", "irq", "softirq", "local_timer", "ipi")
_COLORS = {"unattributed": "#d9d9d9", "invisible": "#de77ae", "scenario_thread": "#1f78b4",
           "hgrun": "#a6cee3", "load": "#ff7f00", "process": "#e31a1c",
           "kernel_thread": "#6a3d9a", "idle": "#b2df8a", "irq": "#33a02c", "softirq": "#fb9a99",
           "local_timer": "#fdbf6f", "ipi": "#cab2d6"}
TOP_GAPS = 20


def cause_names(run: Run) -> list[str]:
    return list((run.result.get("kernel_trace") or {}).get("causes") or CAUSES)


def cause_color(name: str) -> str:
    return _COLORS.get(name, "#000000")


def traced(run: Run) -> bool:
    return bool((run.result.get("kernel_trace") or {}).get("enabled"))


def cause_rows(run: Run) -> list[list[Any]]:
    """One row per (thread, cause): time, gaps it had time in, gaps it dominated, its share of
    the thread's gap time; most time first."""
    rows = []
    for i, t in enumerate(run.threads):
        gc = t.get("gap_causes") or {}
        if not gc.get("available"):
            continue
        total = gc.get("gap_ns") or 0
        by = sorted((gc.get("by_cause") or {}).items(), key=lambda kv: -kv[1].get("ns", 0))
        for name, c in by:
            rows.append([run.label(i), name, fmt_ns(c["ns"]), c["gaps"], c["dominant"],
                         pct(c["ns"] / total if total else None, 1)])
    return rows


class KernelSegments:
    """kernel.jsonl (sorted by CPU then start, one JSON object per line), searched by bisection
    over byte offsets: a few lines are parsed per gap, not the whole file. A regular file only
    (read/regular.py); a line longer than LONGEST_LINE is refused when met (every search for
    a line end looks that far and no further: a one-line file costs no more than a line)."""

    def __init__(self, path: Path):
        self.path = path
        self._f = open_file(path)
        size = os.fstat(self._f.fileno()).st_size
        self._m = mmap.mmap(self._f.fileno(), 0, access=mmap.ACCESS_READ) if size else b""
        self._size = size

    def close(self) -> None:
        if isinstance(self._m, mmap.mmap):
            self._m.close()
        self._f.close()

    def _find_end(self, off: int) -> int:
        """The offset of the newline ending the line at `off` (-1: the file's last line)."""
        nl = self._m.find(b"\n", off, off + LONGEST_LINE + 1)
        if nl < 0 and self._size - off > LONGEST_LINE:
            raise InputError(self.path, f"a line longer than {LONGEST_LINE >> 20} MiB at byte "
                                        f"{off}: not a kernel.jsonl line (docs/kernel-trace.md)")
        return nl

    def _line_at(self, off: int) -> tuple[int, dict[str, Any] | None]:
        """(offset after it, the first whole line starting at or after `off`)."""
        if off > 0:
            nl = self._find_end(off - 1)
            off = self._size if nl < 0 else nl + 1
        if off >= self._size:
            return self._size, None
        end = self._find_end(off)
        end = self._size if end < 0 else end
        try:
            return end + 1, json.loads(self._m[off:end])
        except ValueError:
            return end + 1, None

    def overlapping(self, cpu: int, lo: int, hi: int, limit: int = 2000) -> list[dict[str, Any]]:
        """Segments of `cpu` that overlap [lo, hi)."""
        a, b = 0, self._size
        while b - a > 1:                               # last line start with key < (cpu, lo)
            mid = (a + b) // 2
            _, seg = self._line_at(mid)
            if seg is None or (seg["cpu"], seg["start_ns"]) >= (cpu, lo):
                b = mid
            else:
                a = mid
        # Step back a little: the segment running at `lo` starts before it.
        off = max(0, a - 4096)
        out = []
        while off < self._size and len(out) < limit:
            off, seg = self._line_at(off)
            if seg is None:
                if off >= self._size:
                    break
                continue
            if seg["cpu"] > cpu or (seg["cpu"] == cpu and seg["start_ns"] >= hi):
                break
            if seg["cpu"] == cpu and seg["end_ns"] > lo:
                out.append(seg)
        return out


def culprit(segs: list[dict[str, Any]], lo: int, hi: int, own_tid: int | None) -> str:
    """The segment kind/name with the most time in [lo, hi), the thread itself left out."""
    time: dict[str, int] = {}
    for s in segs:
        if s["kind"] == "task" and own_tid is not None and int(s["id"]) == own_tid:
            continue
        t = min(hi, s["end_ns"]) - max(lo, s["start_ns"])
        if t <= 0:
            continue
        key = f"{s['name']} ({s['id']})" if s["kind"] == "task" else s["name"]
        if s["kind"] == "softirq":
            key = f"softirq {s['name']}"
        time[key] = time.get(key, 0) + t
    if not time:
        return "–"
    best = max(time, key=lambda k: time[k])
    return f"{best} {fmt_ns(time[best])}"


def top_gaps(run: Run, n: int = TOP_GAPS) -> list[dict[str, Any]]:
    """The `n` largest gaps of trace.bin, with cause and culprit."""
    g = gaps_of_run(run, same_cpu=False)      # docs/kernel-trace.md's gaps, from the columns
    if not len(g):
        return []
    k = min(n, len(g))
    idx = np.argpartition(-g.length, k - 1)[:k]
    idx = idx[np.argsort(-g.length[idx], kind="stable")]
    top = g.take(idx)
    names = cause_names(run)
    kfile = run.file("kernel")
    segs = KernelSegments(kfile) if kfile is not None and kfile.exists() else None
    out = []
    try:
        for j in range(len(top)):
            th, lo, hi = int(top.thread[j]), int(top.start[j]), int(top.stop[j])
            code = int(top.cause[j])
            row = {"thread": run.label(th), "start_ns": lo, "length_ns": hi - lo,
                   "cpu": int(top.cpu[j]), "cause": names[code] if code < len(names) else code,
                   "window": int(top.window[j]) or None, "culprit": None}
            if segs is not None and row["cpu"] >= 0:
                row["culprit"] = culprit(segs.overlapping(row["cpu"], lo, hi), lo, hi,
                                         run.threads[th].get("tid"))
            out.append(row)
    finally:
        if segs is not None:
            segs.close()
    return out
