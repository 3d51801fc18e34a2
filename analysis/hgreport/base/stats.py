# SPDX-License-Identifier: GPL-2.0-or-later
"""The one statistical method of hgreport (docs/statistics.md), for every command that puts a
number on a difference: `compare`, `sweep`, `cache-penalty`, the tables and report.md.

- The replicate is the run (a sweep point's repeat), never the single wake-up or gap: the
  wake-ups of one run share its load phases, its neighbours and its CPU placement, so they
  are not independent samples of the configuration.
- Durations and rates (units ns, 1/s, ops/s, Mbit/s) are compared on the log scale: a run's
  value is summarised by the geometric mean over the runs, a difference is a ratio, and its
  interval is Welch's t interval of the difference of the mean logs. Counts and ratios (which
  are often zero) are compared on their own scale: the mean over the runs, Welch's t interval
  of the difference of the means.
- A verdict ("significant", "not significant") needs MIN_RUNS runs on each side; below that
  the verdict is TOO_FEW, and a gate never counts it as a change.
- Within one run, an interval (the spread of a percentile) is a block bootstrap over time
  (within_run): it shows how much the run itself varies, never a difference between
  configurations.

No scipy: Student's t comes from the regularised incomplete beta function below."""
from __future__ import annotations

import functools
import math
import statistics
from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np


MIN_RUNS = 3              # runs per configuration for an interval or a verdict
LEVEL = 0.95
LOG, LINEAR = "log", "linear"
SIGNIFICANT = "significant"
NOT_SIGNIFICANT = "not significant"
TOO_FEW = "not enough runs to tell"
LOG_UNITS = ("ns", "1/s", "ops/s", "Mbit/s")


def scale_of(unit: str | None) -> str:
    """How a metric of this unit is compared: durations and rates by their ratio (LOG),
    counts and ratios by their difference (LINEAR)."""
    return LOG if unit in LOG_UNITS else LINEAR


def _clean(values: Iterable[float | None]) -> list[float]:
    return [float(v) for v in values if v is not None and math.isfinite(float(v))]


# --- Student's t without scipy ----------------------------------------------------------

def _betacf(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 400):
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
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def betainc(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_two_sided(t: float, df: float) -> float:
    """P(|T| >= |t|) for Student's t with df degrees of freedom."""
    if math.isinf(t):
        return 0.0
    return betainc(df / 2.0, 0.5, df / (df + t * t))


@functools.lru_cache(maxsize=256)
def t_quantile(p: float, df: float) -> float:
    """The p-quantile (p > 0.5) of Student's t: 4.303 for p = 0.975, df = 2."""
    target = 2.0 * (1.0 - p)
    lo, hi = 0.0, 1.0
    while t_two_sided(hi, df) > target:
        hi *= 2.0
    for _ in range(64):
        mid = 0.5 * (lo + hi)
        if t_two_sided(mid, df) > target:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


# --- one configuration over its runs ----------------------------------------------------

@dataclass(frozen=True)
class Estimate:
    """A metric over the n runs of one configuration: its value (the geometric mean on the
    log scale, the mean on the linear one), the bounds of its t interval (None below
    MIN_RUNS runs), the standard deviation over the runs and how it was found."""
    n: int
    value: float | None
    low: float | None = None
    high: float | None = None
    sd: float | None = None
    scale: str = LINEAR
    method: str = "none"

    @property
    def has_interval(self) -> bool:
        return self.low is not None and self.high is not None

    def excludes(self, value: float) -> bool | None:
        """Whether the interval lies wholly above or below `value` (None: no interval)."""
        if not self.has_interval:
            return None
        return value < self.low or value > self.high


def _log_usable(values: Sequence[float]) -> bool:
    return all(v > 0 for v in values)


def estimate(values: Iterable[float | None], scale: str = LINEAR, lower: float | None = 0.0,
             upper: float | None = None, level: float = LEVEL) -> Estimate:
    """One configuration's value over its runs with a t interval (MIN_RUNS runs or more): on
    the log scale the geometric mean and exp(mean log ± t·sd/√n), which never leaves the
    positive values; on the linear scale the mean ± t·sd/√n, clipped to [lower, upper]
    (None: unbounded, e.g. a penalty that may be negative). A log-scale metric with a value
    of zero or less in some run is summarised on the linear scale (the method says so)."""
    xs = _clean(values)
    n = len(xs)
    if n == 0:
        return Estimate(0, None, scale=scale)
    sd = statistics.stdev(xs) if n > 1 else None
    note = ""
    if scale == LOG and not _log_usable(xs):
        scale, note = LINEAR, " (a value <= 0: on the linear scale)"
    if scale == LOG:
        logs = [math.log(v) for v in xs]
        # one run (or runs that agree) is its own value, not exp(log(x)) a rounding away
        value = xs[0] if len(set(xs)) == 1 else math.exp(statistics.fmean(logs))
        if n < MIN_RUNS:
            return Estimate(n, value, sd=sd, scale=LOG,
                            method=f"geometric mean of {n} run{'s' if n > 1 else ''}; "
                                   f"n < {MIN_RUNS}: no interval")
        half = t_quantile((1 + level) / 2, n - 1) * statistics.stdev(logs) / math.sqrt(n)
        return Estimate(n, value, value * math.exp(-half), value * math.exp(half), sd, LOG,
                        f"geometric mean of {n} runs, t interval of the mean log")
    value = statistics.fmean(xs)
    if n < MIN_RUNS:
        return Estimate(n, value, sd=sd, scale=LINEAR,
                        method=f"mean of {n} run{'s' if n > 1 else ''}; n < {MIN_RUNS}: "
                               "no interval" + note)
    half = t_quantile((1 + level) / 2, n - 1) * (sd or 0.0) / math.sqrt(n)
    lo, hi = value - half, value + half
    if lower is not None:
        lo, hi = max(lo, lower), max(hi, lower)
    if upper is not None:
        lo, hi = min(lo, upper), min(hi, upper)
    return Estimate(n, value, lo, hi, sd, LINEAR, f"mean of {n} runs, t interval" + note)


# --- two configurations -----------------------------------------------------------------

@dataclass(frozen=True)
class Comparison:
    """Candidate against baseline, run against run. `delta` is cand − base of the two
    estimates, `relative` cand/base − 1; the interval is of `relative` on the log scale
    (rel_low, rel_high) and of `delta` on the linear one (low, high); `verdict` is
    SIGNIFICANT, NOT_SIGNIFICANT or TOO_FEW (fewer than MIN_RUNS runs on a side)."""
    n_base: int
    n_cand: int
    base: float | None
    cand: float | None
    scale: str
    delta: float | None
    relative: float | None
    verdict: str
    method: str
    p: float | None = None
    df: float | None = None
    low: float | None = None
    high: float | None = None
    rel_low: float | None = None
    rel_high: float | None = None

    @property
    def significant(self) -> bool | None:
        """True or False when there were enough runs to tell, else None."""
        return None if self.verdict == TOO_FEW else self.verdict == SIGNIFICANT


def relative_change(base: float, cand: float) -> float:
    """cand / base − 1; ±inf from a baseline of zero (0 when both are zero)."""
    if base == 0:
        return 0.0 if cand == 0 else math.copysign(math.inf, cand)
    return (cand - base) / abs(base)


def _welch(a: Sequence[float], b: Sequence[float], level: float
           ) -> tuple[float, float, float, float, float]:
    """(difference of means b − a, its low, its high, p, df) by Welch's t."""
    ma, mb = statistics.fmean(a), statistics.fmean(b)
    va, vb = statistics.variance(a) / len(a), statistics.variance(b) / len(b)
    d, se2 = mb - ma, va + vb
    if se2 == 0:
        return d, d, d, (1.0 if d == 0 else 0.0), math.inf
    df = se2 * se2 / (va * va / (len(a) - 1) + vb * vb / (len(b) - 1))
    se = math.sqrt(se2)
    half = t_quantile((1 + level) / 2, df) * se
    return d, d - half, d + half, t_two_sided(d / se, df), df


def compare(base: Iterable[float | None], cand: Iterable[float | None], scale: str = LINEAR,
            level: float = LEVEL) -> Comparison:
    """The candidate's runs against the baseline's (Welch's two-sample t: unequal variances,
    no pairing), on the metric's scale; TOO_FEW below MIN_RUNS runs on either side."""
    a, b = _clean(base), _clean(cand)
    note = ""
    if scale == LOG and not (_log_usable(a) and _log_usable(b)):
        scale, note = LINEAR, "; a value <= 0, so on the linear scale"
    ea, eb = estimate(a, scale), estimate(b, scale)
    if ea.value is None or eb.value is None:
        return Comparison(len(a), len(b), ea.value, eb.value, scale, None, None, TOO_FEW,
                          "a side has no value")
    delta, rel = eb.value - ea.value, relative_change(ea.value, eb.value)
    if len(a) < MIN_RUNS or len(b) < MIN_RUNS:
        return Comparison(len(a), len(b), ea.value, eb.value, scale, delta, rel, TOO_FEW,
                          f"{len(a)} vs {len(b)} runs: a verdict needs {MIN_RUNS} runs on "
                          "each side" + note)
    what = "Welch t on the log values (a ratio)" if scale == LOG else "Welch t"
    method = f"{what}, {len(a)} vs {len(b)} runs" + note
    if scale == LOG:
        d, lo, hi, p, df = _welch([math.log(v) for v in a], [math.log(v) for v in b], level)
        verdict = SIGNIFICANT if p < 1 - level else NOT_SIGNIFICANT
        return Comparison(len(a), len(b), ea.value, eb.value, LOG, delta, rel, verdict, method,
                          p, df, rel_low=math.expm1(lo), rel_high=math.expm1(hi))
    d, lo, hi, p, df = _welch(a, b, level)
    verdict = SIGNIFICANT if p < 1 - level else NOT_SIGNIFICANT
    return Comparison(len(a), len(b), ea.value, eb.value, LINEAR, delta, rel, verdict, method,
                      p, df, low=lo, high=hi)


def describe_method(level: float = LEVEL) -> str:
    """The method in one paragraph, the same words on every page that shows a verdict."""
    return (f"The replicate is the run: a configuration is summarised over its runs (durations "
            f"and rates by the geometric mean, counts and ratios by the mean) with a "
            f"{level:.0%} t interval, and two configurations are compared by Welch's t over "
            f"their runs (durations and rates as a ratio, on the log scale; counts and ratios "
            f"as a difference). A verdict needs {MIN_RUNS} runs of each: below that it reads "
            f"\"{TOO_FEW}\" and no --significant-only gate counts the change. Wake-ups and "
            "gaps within one run are never treated as independent samples "
            "(docs/statistics.md).")


# --- within one run ---------------------------------------------------------------------

@dataclass(frozen=True)
class WithinRun:
    """The spread of quantiles of one run's samples under a block bootstrap over time:
    `block` consecutive samples per block, `draws` resamples; {q: (low, high)}."""
    block: int
    draws: int
    bounds: dict[float, tuple[float, float]]


def within_run(values: np.ndarray, qs: Sequence[float], draws: int = 400, seed: int = 1,
               level: float = LEVEL, bins: int = 2048) -> WithinRun | None:
    """A non-overlapping block bootstrap (Carlstein 1986; Künsch 1989) of nearest-rank
    quantiles of one run's samples, in time order: blocks of ceil(√n) consecutive samples
    keep their dependence (load phases, bursts); the resamples' quantiles are read from
    counts over `bins` quantile-spaced bins (each value stands for its bin's upper edge, so a
    bound is at most one bin above the exact one). Within-run variation only: it is not
    evidence of a difference between configurations. None below 100 samples."""
    x = np.asarray(values, dtype=np.float64)
    n = len(x)
    if n < 100:
        return None
    block = max(1, math.ceil(math.sqrt(n)))
    k = math.ceil(n / block)
    edges = np.unique(np.quantile(x, np.linspace(0.0, 1.0, bins + 1)))
    idx = np.minimum(np.searchsorted(edges, x, side="left"), len(edges) - 1)
    which = np.arange(n) // block
    counts = np.bincount(which * len(edges) + idx, minlength=k * len(edges)).reshape(k, len(edges))
    rng = np.random.default_rng(seed)
    pick = rng.integers(0, k, size=(draws, k))
    rows = np.repeat(np.arange(draws), k) * k
    weights = np.bincount(rows + pick.ravel(), minlength=draws * k).reshape(draws, k)
    cum = np.cumsum(weights.astype(np.float64) @ counts, axis=1)
    total = cum[:, -1]
    out = {}
    for q in qs:
        rank = np.maximum(1.0, np.ceil(q * total))
        pos = (cum < rank[:, None]).sum(axis=1)
        lo, hi = np.quantile(edges[np.minimum(pos, len(edges) - 1)],
                             [(1 - level) / 2, (1 + level) / 2])
        out[q] = (float(lo), float(hi))
    return WithinRun(block, draws, out)


# --- descriptions of one sample ---------------------------------------------------------

def nearest_rank(sorted_values: Sequence[float] | np.ndarray, q: float) -> float | None:
    """Nearest-rank percentile (q in [0, 1]) of sorted values, as hgrun computes them."""
    n = len(sorted_values)
    if n == 0:
        return None
    rank = max(1, math.ceil(q * n))
    return float(sorted_values[min(rank, n) - 1])


def counts_between(values: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """np.histogram(values, edges)[0] (ascending edges; each bin [a, b), the last [a, b]) by
    a binary search of each value among the edges: np.histogram sorts the values when its
    bins are not evenly spaced, n log n where this is n log(bins) (0.35 s of a 5M-interval
    report's switch histogram; analysis/README.md#performance). The same counts, compared in
    the same common type."""
    v, e = np.asarray(values), np.asarray(edges)
    k = len(e)
    if k < 2 or bool(np.any(e[1:] < e[:-1])):
        return np.histogram(v, e)[0]            # its own errors for edges it does not take
    counts = np.bincount(np.searchsorted(e, v.ravel(), side="right"), minlength=k + 1)
    out = counts[1:k].astype(np.intp, copy=True)
    out[-1] += np.count_nonzero(v == e[-1])     # the last bin holds its right edge
    return out


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
