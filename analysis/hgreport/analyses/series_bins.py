# SPDX-License-Identifier: GPL-2.0-or-later
"""The series aggregated into bins of time: a day at 1 s becomes 288 bins of 5 minutes, as the
OSADL long-term latency plots show a day. Every reduction is a numpy bincount / ufunc.at over the
columns of series.py."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from ..read.memo import per_run
from ..read.series import MISSING, Series, read_series

if TYPE_CHECKING:
    from ..read.rundir import Run

S = 1_000_000_000
NICE_BINS_NS = tuple(int(x * S) for x in (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60,
                                          120, 300, 600, 900, 1800, 3600, 7200, 3 * 3600,
                                          6 * 3600, 12 * 3600, 86400))
MAX_BINS = 600


def choose_bin(series_ns: int, covered_ns: int, max_bins: int = MAX_BINS) -> int:
    """The smallest nice multiple of the series interval that cuts `covered_ns` into at most
    `max_bins` bins (the series interval itself when it already does)."""
    series_ns = max(int(series_ns), 1)
    for b in (series_ns,) + tuple(n for n in NICE_BINS_NS if n > series_ns and n % series_ns == 0):
        if covered_ns <= b * max_bins:
            return b
    k = -(-covered_ns // (series_ns * max_bins))
    return series_ns * int(k)


@dataclass(frozen=True)
class Bins:
    """Per (thread, bin) arrays of shape (threads, bins) and per (load, bin) of (loads, bins).
    Bin k covers (k·bin_ns, (k+1)·bin_ns]; `span` is the series time it holds (0: no line)."""
    bin_ns: int
    n: int
    span: np.ndarray
    cpu_ns: np.ndarray
    intervals: np.ndarray
    gaps: np.ndarray
    gap_max: np.ndarray          # ns, -1 when no gap
    releases: np.ndarray
    misses: np.ndarray
    wakeups: np.ndarray
    lat_max: np.ndarray          # ns, -1 when no wake-up
    lat_p99: np.ndarray          # the worst p99 of the series intervals in the bin, -1 if none
    dropped: np.ndarray
    load_span: np.ndarray        # float: the loads' measured time, spread over the bins
    load_ops: np.ndarray         # float, likewise
    load_counters: dict[str, np.ndarray]
    lat_p99_exact: np.ndarray | None = None    # the bin's own p99 (sample_p99), when known

    @property
    def p99(self) -> tuple[np.ndarray, str]:
        """The per-bin p99 to show, and what it is: exact from latency.bin, or the worst of
        the series intervals' p99s."""
        if self.lat_p99_exact is not None:
            return self.lat_p99_exact, "p99"
        return self.lat_p99, "worst interval p99"

    @property
    def start_ns(self) -> np.ndarray:
        return np.arange(self.n, dtype=np.int64) * self.bin_ns

    def cpu_share(self) -> np.ndarray:
        """CPU received / series time, NaN where the thread had no line."""
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(self.span > 0, self.cpu_ns / np.maximum(self.span, 1), np.nan)

    def load_rate(self, counter: str | None = None) -> np.ndarray:
        """ops (or a counter) per second, NaN where the load had no line."""
        v = self.load_ops if counter is None else self.load_counters[counter]
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(self.load_span > 0, v * 1e9 / np.maximum(self.load_span, 1), np.nan)


def _sum(key: np.ndarray, values: np.ndarray, size: int) -> np.ndarray:
    return np.bincount(key, weights=np.where(values == MISSING, 0, values),
                       minlength=size).astype(np.int64)


def _max(key: np.ndarray, values: np.ndarray, size: int) -> np.ndarray:
    out = np.full(size, MISSING, np.int64)
    np.maximum.at(out, key, values)
    return out


def aggregate(s: Series, n_threads: int, bin_ns: int | None = None,
              covered_ns: int | None = None) -> Bins:
    """Bins over [0, covered_ns] (default: the end of the series)."""
    covered = int(covered_ns if covered_ns is not None else s.end_ns) or s.series_ns
    if bin_ns is None:
        bin_ns = choose_bin(s.series_ns, covered)
    n = max(1, -(-covered // bin_ns))
    t = s.threads
    b = np.clip((t["t_ns"] - 1) // bin_ns, 0, n - 1)
    key = t["thread"] * n + b
    size = n_threads * n

    def shape(a: np.ndarray) -> np.ndarray:
        return a.reshape(n_threads, n)

    sums = {k: shape(_sum(key, t[k], size)) for k in
            ("span_ns", "cpu_ns", "intervals", "gaps", "releases", "misses", "wakeups", "dropped")}
    maxes = {k: shape(_max(key, t[k], size)) for k in ("gap_max_ns", "lat_max_ns", "lat_p99_ns")}
    gap_max = np.where(sums["gaps"] > 0, maxes["gap_max_ns"], MISSING)
    load_span, load_sums = _spread_loads(s, bin_ns, n, ["ops"] + list(s.counters))
    return Bins(bin_ns, n, sums["span_ns"], sums["cpu_ns"], sums["intervals"], sums["gaps"],
                gap_max, sums["releases"], sums["misses"], sums["wakeups"],
                maxes["lat_max_ns"], maxes["lat_p99_ns"], sums["dropped"],
                load_span, load_sums["ops"], {c: load_sums[c] for c in s.counters})


def _spread_loads(s: Series, bin_ns: int, n: int,
                  keys: list[str]) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """Per (load, bin): the time the loads' lines measured in the bin, and how much each counter
    of `keys` grew in it. A line's counters grew over the time it measured (`span_ns` from
    `from_ns`: Series.within_windows; else its interval), taken as even: each bin gets the
    part of the line's time, and of its growth, that falls in it. Binned by `t_ns` instead, a
    line would be rated over a time that is not the bin's: its counters are read a little
    after its interval, and a streaming writer that fell behind reads several lines at once,
    the later ones over microseconds (a rate of 0, or of millions, for a whole bin). A line
    that measured no time (read after its load's stop) adds its growth to the bin of its
    `t_ns`."""
    ld = s.loads
    nl = len(s.load_names)
    span = np.zeros((nl, n))
    sums = {k: np.zeros((nl, n)) for k in keys}
    if not nl or not len(ld["t_ns"]):
        return span, sums
    a = ld["from_ns"] if "from_ns" in ld else ld["t_ns"] - ld["span_ns"]
    b = a + ld["span_ns"]
    values = {k: np.where(ld[k] == MISSING, 0, ld[k]) for k in keys}
    at = np.clip((ld["t_ns"] - 1) // bin_ns, 0, n - 1)
    edges = np.arange(n + 1, dtype=np.float64) * bin_ns
    edges[0] = min(edges[0], float(a.min()))      # nothing measured outside the bins is lost
    edges[-1] = max(edges[-1], float(b.max()))

    def spread(k: int, lines: np.ndarray, x: np.ndarray | None) -> None:
        """Add load k's `lines` to its bins: spread over the times `x` (each line's start and
        end, in time order), or each into the bin of its t_ns when x is None."""
        if not len(lines):          # (np.interp needs points: a load whose every line
            return                  # measured no time has none to spread)
        for row, v in ((span[k], b - a), *((sums[key][k], values[key]) for key in keys)):
            if x is None:
                row += np.bincount(at[lines], weights=v[lines], minlength=n)
            else:
                total = np.cumsum(v[lines], dtype=np.float64)
                row += np.diff(np.interp(edges, x, np.column_stack((total - v[lines], total))
                                         .ravel()))

    for k in range(nl):
        mine = ld["load"] == k
        spread(k, np.nonzero(mine & (b <= a))[0], None)       # measured no time
        timed = np.nonzero(mine & (b > a))[0]
        timed = timed[np.argsort(a[timed], kind="stable")]
        x = np.column_stack((a[timed], b[timed])).ravel().astype(np.float64)
        # Lines whose times overlap are not the runner's: each stays in the bin of its t_ns.
        spread(k, timed, x if (np.diff(x) >= 0).all() else None)
    return span, sums


def interrupt_rates(s: Series, b: Bins) -> dict[int, np.ndarray]:
    """Per scenario CPU, its interrupts per second in each bin (series.jsonl's CPU lines: the
    interrupts of the lines ending in the bin over the time they measured), NaN where none."""
    out = {}
    for cpu, (t, measured, n) in s.interrupt_lines().items():
        k = np.clip((t - 1) // b.bin_ns, 0, b.n - 1)
        span = np.bincount(k, weights=measured, minlength=b.n)
        count = np.bincount(k, weights=n, minlength=b.n)
        with np.errstate(invalid="ignore", divide="ignore"):
            out[cpu] = np.where(span > 0, count * 1e9 / np.maximum(span, 1), np.nan)
    return out


MAX_SAMPLES = 5_000_000        # wake-ups read and sorted for exact per-bin p99 (about 60 bytes
                               # each while sorted: 300 MB at most)


def sample_p99(run: "Run", b: Bins, max_samples: int = MAX_SAMPLES) -> np.ndarray | None:
    """Each (thread, bin)'s p99 wake-up lateness (nearest rank, ns, lateness below 0 taken as
    0 as the runner's histograms take it; -1 where the bin has no wake-up), exact, from
    latency.bin: the series only gives the worst of its intervals' p99s, which over a bin of
    many intervals is a far higher quantile. Wake-ups are binned by their own time (the series
    counts one that reached the writer late in a later interval). None unless latency.bin holds
    every wake-up: trace mode full, as many per thread as the series counted, and no record
    dropped (a dropped one is in neither); None too beyond `max_samples`."""
    if ((run.result.get("trace") or {}).get("mode") or "full") != "full":
        return None
    stored = run.written("latency")
    if not stored or stored > max_samples or not b.wakeups.any() or b.dropped.any():
        return None                     # (counts result.json and the series give: nothing read)
    w = run.samples
    threads, n = b.wakeups.shape
    if not np.array_equal(np.bincount(w.thread, minlength=threads), b.wakeups.sum(axis=1)):
        return None
    key = w.thread.astype(np.int64) * n + np.clip(w.actual // b.bin_ns, 0, n - 1)
    count = np.bincount(key, minlength=threads * n)
    order = np.lexsort((np.maximum(w.late, 0), key))
    late = np.maximum(w.late[order], 0)
    first = np.concatenate(([0], np.cumsum(count)[:-1]))
    rank = np.maximum(np.ceil(0.99 * count).astype(np.int64), 1) - 1
    at = np.minimum(first + rank, len(late) - 1)
    return np.where(count > 0, late[at], MISSING).reshape(threads, n)


def fmt_clock(ns: float | None) -> str:
    """A time from the run's start, readable at any scale: 850 ms, 12.5 s, 3 min 05 s, 5 h 03 min."""
    if ns is None:
        return "–"
    s = ns / 1e9
    if s < 1:
        return f"{ns / 1e6:.0f} ms"
    if s < 60:
        return f"{s:.3g} s" if s < 10 else f"{s:.1f} s"
    if s < 3600:
        return f"{int(s // 60)} min {int(s % 60):02d} s"
    return f"{int(s // 3600)} h {int(s % 3600 // 60):02d} min"


def fmt_span(ns: int) -> str:
    """A bin's length in its natural unit: 10 ms, 500 ms, 2 s, 5 min, 1 h, 1 d."""
    for unit, scale in (("d", 86400 * S), ("h", 3600 * S), ("min", 60 * S), ("s", S),
                        ("ms", 1_000_000)):
        if ns >= scale and ns % scale == 0 or unit == "ms":
            v = ns / scale
            return f"{v:g} {unit}"
    return f"{ns} ns"


def fmt_at(ns: float) -> str:
    """A point in time, precise to the microsecond below an hour: 598.283 ms, 12.003417 s."""
    if ns < 1e9:
        return f"{ns / 1e6:.3f} ms"
    if ns < 3600e9:
        return f"{ns / 1e9:.6f} s"
    return fmt_clock(ns) + f" {ns / 1e9 % 60:06.3f} s"


@dataclass(frozen=True)
class OverTime:
    """What the Over time section and series.png show of a run: its series cut to each
    thread's and load's window, the bins, and the time the run recorded."""
    series: Series
    bins: Bins
    covered_ns: int
    windows: list                    # result.json trace.outliers


def covered_ns(run: "Run", s: Series) -> int:
    """The time the run recorded: the duration when complete, else the later of the last
    checkpoint and the last series line read."""
    cp = (run.result.get("checkpoint") or {}).get("covers_ns")
    if run.complete and run.duration_ns:
        return max(run.duration_ns, s.end_ns)
    return max(int(cp or 0), s.end_ns) or run.duration_ns


def active_windows(items: list[dict], covered: int) -> list[tuple[int, int] | None]:
    """(started_ns, stopped_ns) of each thread or load, None where it did not start; a window
    still open ends at `covered`. A load's ends at its SIGTERM (`stop_requested_ns`) when that
    came first: its rates are over that time (docs/loads.md#statistics), and a dying load
    does no work."""
    out: list[tuple[int, int] | None] = []
    for t in items:
        a, b = t.get("started_ns"), t.get("stopped_ns")
        asked = t.get("stop_requested_ns")
        if isinstance(asked, int) and (not isinstance(b, int) or asked < b):
            b = asked
        out.append((a, b if isinstance(b, int) else covered) if isinstance(a, int) else None)
    return out


@per_run
def over_time(run: "Run") -> OverTime | None:
    """The run's series in bins (series.jsonl read once: read/series.py), once per run; None
    without a series or with no line in it."""
    s = read_series(run)
    if s is None or s.lines == 0:
        return None
    covered = covered_ns(run, s)
    s = s.within_windows(dict(enumerate(active_windows(run.threads, covered))),
                         {ld["name"]: w for ld, w in
                          zip(run.loads, active_windows(run.loads, covered)) if w is not None})
    b = aggregate(s, len(run.threads), covered_ns=covered)
    b = replace(b, lat_p99_exact=sample_p99(run, b))
    return OverTime(s, b, covered, list((run.result.get("trace") or {}).get("outliers") or []))
