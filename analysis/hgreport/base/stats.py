# SPDX-License-Identifier: GPL-2.0-or-later
"""Statistics without scipy, one module for every table and figure: intervals that fit the
metric (Wilson for ratios from counts, a percentile bootstrap for non-negative values, none
below three repeats), nearest-rank percentiles, one-pass descriptions."""
from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np


MIN_N = 3                 # fewer values than this: the value without an interval
LEVEL = 0.95
DRAWS = 4000              # bootstrap resamples; seeded, so an interval is reproducible
SEED = 1


@dataclass(frozen=True)
class Estimate:
    """A metric over n repeats: its value (the pooled ratio, or the mean), the bounds of its
    confidence interval (None when n < MIN_N or nothing varies to resample) and how they were
    found. Bounds never leave what the metric can be: [0, 1] for a ratio, >= 0 for a duration,
    count or rate."""
    n: int
    mean: float | None
    low: float | None = None
    high: float | None = None
    sd: float | None = None
    method: str = "none"

    @property
    def has_interval(self) -> bool:
        return self.low is not None and self.high is not None

    def excludes(self, value: float) -> bool | None:
        """Whether the interval lies wholly above or below `value` (None: no interval)."""
        if not self.has_interval:
            return None
        return value < self.low or value > self.high


def _clean(values: Iterable[float | None]) -> list[float]:
    return [float(v) for v in values if v is not None and not math.isnan(float(v))]


def normal_quantile(p: float) -> float:
    """The p-quantile of the standard normal (bisection on erfc; 1.959964 for 0.975)."""
    lo, hi = -40.0, 40.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if 0.5 * math.erfc(-mid / math.sqrt(2.0)) < p:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def wilson(k: float, n: float, level: float = LEVEL) -> tuple[float, float]:
    """Wilson score interval of a proportion k/n; always inside [0, 1], and not degenerate at
    0 or n (0 misses of 1000 releases: [0, 0.38%])."""
    if n <= 0:
        raise ValueError(f"wilson needs n > 0 (got {n})")
    z = normal_quantile((1.0 + level) / 2.0)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    # exact at the edges (the formula gives 1 - 2e-16 for k = n)
    return (0.0 if k <= 0 else max(0.0, centre - half)), (1.0 if k >= n else min(1.0, centre + half))


def bootstrap_mean(values: Sequence[float], level: float = LEVEL, draws: int = DRAWS,
                   seed: int = SEED) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean: the (1±level)/2 quantiles of the means of
    `draws` resamples with replacement. Its bounds are means of observed values, so they never
    leave the range the values can take (non-negative values give a non-negative interval)."""
    x = np.asarray(values, dtype=np.float64)
    rng = np.random.default_rng(seed)
    means = x[rng.integers(0, len(x), size=(draws, len(x)))].mean(axis=1)
    lo, hi = np.quantile(means, [(1.0 - level) / 2.0, (1.0 + level) / 2.0])
    return float(lo), float(hi)


def ratio_estimate(counts: Iterable[tuple[float, float]], level: float = LEVEL) -> Estimate:
    """A ratio from counts (deadlines missed of releases), one (k, n) per repeat: the pooled
    ratio sum(k)/sum(n) with the Wilson interval of the pooled counts. Fewer than MIN_N
    repeats: the ratio alone."""
    pairs = [(float(k), float(n)) for k, n in counts if n]
    if not pairs:
        return Estimate(0, None)
    k, n = sum(p[0] for p in pairs), sum(p[1] for p in pairs)
    ratios = [a / b for a, b in pairs]
    sd = statistics.stdev(ratios) if len(ratios) > 1 else None
    if len(pairs) < MIN_N:
        return Estimate(len(pairs), k / n, sd=sd, method=f"n < {MIN_N}: no interval")
    lo, hi = wilson(k, n, level)
    return Estimate(len(pairs), k / n, lo, hi, sd, f"Wilson, pooled {k:.0f}/{n:.0f}")


def mean_estimate(values: Iterable[float | None], floor: float | None = 0.0,
                  level: float = LEVEL, seed: int = SEED) -> Estimate:
    """The mean of repeats with a percentile-bootstrap interval (non-negative and
    heavy-tailed values: CPU time, latency percentiles, switch costs, counts, rates), clipped
    at `floor` (None for signed quantities such as a penalty). Fewer than MIN_N values: the
    mean alone."""
    xs = _clean(values)
    n = len(xs)
    if n == 0:
        return Estimate(0, None)
    mean = statistics.fmean(xs)
    sd = statistics.stdev(xs) if n > 1 else None
    if n < MIN_N:
        return Estimate(n, mean, sd=sd, method=f"n < {MIN_N}: no interval")
    lo, hi = bootstrap_mean(xs, level, seed=seed)
    if floor is not None:
        lo, hi = max(lo, floor), max(hi, floor)
    return Estimate(n, mean, lo, hi, sd, f"bootstrap of the mean ({DRAWS} draws, seed {seed})")


def describe_method(level: float = LEVEL) -> str:
    """One sentence for a table's caption."""
    return (f"{100 * level:.0f}% intervals: ratios from pooled counts (Wilson score), other "
            f"values a percentile bootstrap of the mean over repeats ({DRAWS} resamples, seeded), "
            f"never outside what the metric can be; fewer than {MIN_N} repeats: no interval")


def nearest_rank(sorted_values: Sequence[float] | np.ndarray, q: float) -> float | None:
    """Nearest-rank percentile (q in [0, 1]) of sorted values, as hgrun computes them."""
    n = len(sorted_values)
    if n == 0:
        return None
    rank = max(1, math.ceil(q * n))
    return float(sorted_values[min(rank, n) - 1])


def describe(values: np.ndarray, scratch: bool = False) -> dict[str, float | int | None]:
    """count, min, median, mean, p99 (nearest rank), max of a set of durations (ns). Linear
    time: the order statistics come from one np.partition, not a sort. `scratch`: `values`
    is a temporary the caller gives up, partitioned in place (no copy)."""
    v = np.asarray(values)
    if v.dtype.kind not in "iuf":
        v, scratch = v.astype(np.float64), True
    n = len(v)
    if n == 0:
        return {"count": 0, "min_ns": None, "median_ns": None, "mean_ns": None, "p99_ns": None,
                "max_ns": None}
    p99 = min(max(1, math.ceil(0.99 * n)), n) - 1
    kth = sorted({0, (n - 1) // 2, n // 2, p99, n - 1})
    mean = float(v.mean())
    if scratch and v.flags.writeable:
        v.partition(kth)
        part = v
    else:
        part = np.partition(v, kth)
    return {"count": int(n), "min_ns": float(part[0]),
            "median_ns": float((part[(n - 1) // 2] + part[n // 2]) / 2),
            "mean_ns": mean, "p99_ns": float(part[p99]), "max_ns": float(part[n - 1])}
