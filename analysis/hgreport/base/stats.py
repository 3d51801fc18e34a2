"""Statistics without scipy: Student t quantiles, mean with confidence interval, nearest-rank."""
from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the regularized incomplete beta (modified Lentz)."""
    tiny, eps = 1e-300, 1e-15
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10_000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < eps:
            break
    return h


def betainc(a: float, b: float, x: float) -> float:
    """Regularized incomplete beta I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    lbeta = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
    front = math.exp(lbeta + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with df degrees of freedom."""
    tail = 0.5 * betainc(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t >= 0 else tail


def t_quantile(p: float, df: float) -> float:
    """The p-quantile of Student's t (t_quantile(0.975, 14) = 2.145)."""
    if not 0.0 < p < 1.0 or df <= 0:
        raise ValueError(f"t_quantile needs 0 < p < 1 and df > 0 (got p={p}, df={df})")
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < p:
        lo, hi = hi, hi * 2.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12 * max(1.0, hi):
            break
    return 0.5 * (lo + hi)


@dataclass(frozen=True)
class Estimate:
    """Mean of n repeats with the half-width of its confidence interval (None when n < 2)."""
    n: int
    mean: float | None
    half_width: float | None
    sd: float | None

    @property
    def low(self) -> float | None:
        return None if self.mean is None or self.half_width is None else self.mean - self.half_width

    @property
    def high(self) -> float | None:
        return None if self.mean is None or self.half_width is None else self.mean + self.half_width


def mean_ci(values: Iterable[float], level: float = 0.95) -> Estimate:
    """Mean and Student-t confidence interval: mean ± t_{(1+level)/2, n-1} · s/√n."""
    xs = [float(v) for v in values if v is not None and not math.isnan(float(v))]
    n = len(xs)
    if n == 0:
        return Estimate(0, None, None, None)
    mean = statistics.fmean(xs)
    if n < 2:
        return Estimate(1, mean, None, None)
    sd = statistics.stdev(xs)   # exact arithmetic: equal values give exactly 0
    return Estimate(n, mean, t_quantile((1.0 + level) / 2.0, n - 1) * sd / math.sqrt(n), sd)


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
