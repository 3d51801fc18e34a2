# SPDX-License-Identifier: GPL-2.0-or-later
"""Significance without scipy, for `hgreport compare`: the Mann-Whitney U rank test (over
repeats) and a bootstrap confidence interval of the difference of two nearest-rank percentiles
(single runs; stats.nearest_rank)."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .stats import nearest_rank

EXACT_MAX_N = 20        # no ties and both samples this small: the exact distribution of U


def rankdata(values: np.ndarray) -> np.ndarray:
    """Ranks 1..n, tied values sharing the average of their ranks ('average' ranking)."""
    a = np.asarray(values, dtype=np.float64)
    order = np.argsort(a, kind="mergesort")
    s = a[order]
    first = np.r_[True, s[1:] != s[:-1]]
    group = np.cumsum(first) - 1                      # 0-based tie group of each sorted value
    bounds = np.r_[np.nonzero(first)[0], len(a)]      # start of each group, then n
    avg = 0.5 * (bounds[group] + bounds[group + 1] + 1)   # mean of ranks start+1 .. end
    ranks = np.empty(len(a))
    ranks[order] = avg
    return ranks


def _u_counts(n1: int, n2: int) -> np.ndarray:
    """How many of the C(n1+n2, n1) arrangements give each U = 0 .. n1·n2 (no ties), by the
    recurrence f(m, n, u) = f(m-1, n, u-n) + f(m, n-1, u)."""
    f = [[None] * (n2 + 1) for _ in range(n1 + 1)]
    for m in range(n1 + 1):
        for n in range(n2 + 1):
            if m == 0 or n == 0:
                f[m][n] = np.ones(1, dtype=np.float64)
                continue
            c = np.zeros(m * n + 1)
            a, b = f[m - 1][n], f[m][n - 1]
            c[n:n + len(a)] += a
            c[:len(b)] += b
            f[m][n] = c
    return f[n1][n2]


@dataclass(frozen=True)
class UTest:
    """U of the first sample (the number of pairs where it is the larger, ties counting ½),
    the two-sided p-value, how it was found, and z (normal approximation only)."""
    u: float
    p: float
    method: str             # "exact" or "normal"
    z: float | None = None


def mann_whitney(x: np.ndarray | list[float], y: np.ndarray | list[float]) -> UTest:
    """Two-sided Mann-Whitney U test of x against y. Exact when there are no ties and both
    samples have at most EXACT_MAX_N values; otherwise the normal approximation with the tie
    correction of the variance and a continuity correction of ½ (as scipy's 'asymptotic')."""
    x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    n1, n2 = len(x), len(y)
    if n1 == 0 or n2 == 0:
        raise ValueError(f"mann_whitney needs two non-empty samples (got {n1} and {n2} values)")
    both = np.concatenate([x, y])
    ranks = rankdata(both)
    u1 = float(ranks[:n1].sum() - n1 * (n1 + 1) / 2)
    u2 = n1 * n2 - u1
    _, ties = np.unique(both, return_counts=True)
    if len(ties) == n1 + n2 and max(n1, n2) <= EXACT_MAX_N:
        counts = _u_counts(n1, n2)
        tail = counts[int(round(max(u1, u2))):].sum() / counts.sum()
        return UTest(u1, min(1.0, 2.0 * float(tail)), "exact")
    n = n1 + n2
    tie_term = float((ties.astype(np.float64) ** 3 - ties).sum())
    var = n1 * n2 / 12.0 * ((n + 1) - tie_term / (n * (n - 1)))
    if var <= 0:                                        # every value equal
        return UTest(u1, 1.0, "normal", 0.0)
    z = max(0.0, abs(u1 - n1 * n2 / 2.0) - 0.5) / math.sqrt(var)
    return UTest(u1, min(1.0, math.erfc(z / math.sqrt(2.0))), "normal", z)


def _boot_quantiles(sorted_values: np.ndarray, q: float, draws: int,
                    rng: np.random.Generator) -> np.ndarray:
    """The nearest-rank q-quantile of `draws` bootstrap resamples, without resampling: in a
    resample of n values drawn with replacement, the r-th smallest is the value at sorted index
    ceil(n·U) where U, the r-th smallest of n uniforms, is Beta(r, n − r + 1). Exact, O(draws)."""
    n = len(sorted_values)
    r = min(max(1, math.ceil(q * n)), n)
    u = rng.beta(r, n - r + 1, size=draws)
    idx = np.clip(np.ceil(u * n).astype(np.int64), 1, n) - 1
    return sorted_values[idx]


@dataclass(frozen=True)
class Interval:
    """A difference (candidate − baseline) with its bootstrap confidence interval."""
    diff: float
    low: float
    high: float
    level: float
    draws: int


def bootstrap_diff(base: np.ndarray, cand: np.ndarray, q: float, draws: int = 2000,
                   level: float = 0.95, seed: int = 1) -> Interval:
    """Percentile bootstrap CI of quantile_q(cand) − quantile_q(base), the two samples resampled
    independently; the same seed gives the same interval."""
    if not len(base) or not len(cand):
        raise ValueError("bootstrap_diff needs two non-empty samples")
    if not 0.0 < q < 1.0:
        raise ValueError(f"bootstrap_diff: q must be in (0, 1) (got {q}); a maximum has no "
                         "bootstrap interval")
    b = np.sort(np.asarray(base, dtype=np.float64))
    c = np.sort(np.asarray(cand, dtype=np.float64))
    rng = np.random.default_rng(seed)
    d = _boot_quantiles(c, q, draws, rng) - _boot_quantiles(b, q, draws, rng)
    lo, hi = np.quantile(d, [(1.0 - level) / 2.0, (1.0 + level) / 2.0])
    return Interval(nearest_rank(c, q) - nearest_rank(b, q), float(lo), float(hi), level, draws)
