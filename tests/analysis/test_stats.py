# SPDX-License-Identifier: GPL-2.0-or-later
"""base/stats.py, the one method: Student's t without scipy against published values, a
configuration's estimate over its runs, Welch's comparison of two (hand-computed cases, its
false-positive rate, no verdict below MIN_RUNS), the within-run block bootstrap."""
import math

import numpy as np
import pytest

from hgreport.base import stats


@pytest.mark.parametrize("df, q", [(1, 12.706205), (2, 4.302653), (4, 2.776445),
                                   (10, 2.228139), (30, 2.042272)])
def test_t_quantiles_match_the_tables(df, q):
    assert stats.t_quantile(0.975, df) == pytest.approx(q, abs=2e-6)


def test_t_two_sided_p():
    assert stats.t_two_sided(2.0, 5) == pytest.approx(0.101939, abs=1e-6)
    assert stats.t_two_sided(0.0, 3) == pytest.approx(1.0)
    assert stats.t_two_sided(math.inf, 3) == 0.0


def test_welch_hand_computed():
    # R: t.test(c(4, 5, 6), c(1, 2, 3)): t = 3.6742, df = 4, p = 0.02131, CI [0.733, 5.267]
    c = stats.compare([1, 2, 3], [4, 5, 6])
    assert c.verdict == stats.SIGNIFICANT and c.significant is True
    assert c.df == pytest.approx(4.0) and c.p == pytest.approx(0.021311, abs=1e-6)
    assert (c.low, c.high) == (pytest.approx(0.73304, abs=1e-5), pytest.approx(5.26696, abs=1e-5))
    # unequal variances: var(a)/3 = 1/3, var(b)/4 = (500/3)/4 = 125/3; se² = 42;
    # df = 42² / ((1/3)²/2 + (125/3)²/3) = 1764 / 578.7593 = 3.04790; t = 23/√42 = 3.54898
    w = stats.compare([1, 2, 3], [10, 20, 30, 40])
    assert w.df == pytest.approx(1764 / (1 / 18 + 15625 / 27), rel=1e-12)
    assert w.p == pytest.approx(stats.t_two_sided(23 / math.sqrt(42), w.df), rel=1e-12)
    assert 0.03 < w.p < 0.045


def test_log_scale_is_a_ratio():
    base, cand = [100.0, 110.0, 90.0], [200.0, 220.0, 180.0]
    c = stats.compare(base, cand, stats.LOG)
    geo = math.exp(sum(map(math.log, base)) / 3)
    assert c.base == pytest.approx(geo) and c.relative == pytest.approx(1.0)
    assert c.rel_low < 1.0 < c.rel_high and c.verdict == stats.SIGNIFICANT
    assert "log" in c.method and c.low is None
    # a zero in a log-scale metric: compared on the linear scale, said so
    z = stats.compare([0.0, 1.0, 2.0], [5.0, 6.0, 7.0], stats.LOG)
    assert z.scale == stats.LINEAR and "linear" in z.method


def test_no_verdict_below_min_runs():
    for n in (1, 2):
        c = stats.compare([1.0] * n, [100.0] * n, stats.LOG)
        assert c.verdict == stats.TOO_FEW and c.significant is None and c.p is None
        assert f"{stats.MIN_RUNS} runs" in c.method
    assert stats.compare([1, 2, 3], [1, 2]).verdict == stats.TOO_FEW
    assert stats.compare([], [1, 2, 3]).verdict == stats.TOO_FEW


def test_constant_runs():
    same = stats.compare([5, 5, 5], [5, 5, 5])
    assert same.verdict == stats.NOT_SIGNIFICANT and same.p == 1.0
    shifted = stats.compare([5, 5, 5], [6, 6, 6])
    assert shifted.verdict == stats.SIGNIFICANT and shifted.low == shifted.high == 1


def test_false_positives_near_five_percent_at_three_runs():
    """Two configurations that are the same (log-normal run values, as p99s are): Welch's t
    on the logs says significant about 5% of the time, and never with too few runs."""
    rng = np.random.default_rng(11)
    trials = 800
    hits = sum(stats.compare(rng.lognormal(3, 0.3, 3), rng.lognormal(3, 0.3, 3), stats.LOG)
               .verdict == stats.SIGNIFICANT for _ in range(trials))
    assert 0.025 < hits / trials < 0.08, hits


def test_estimate_intervals():
    e = stats.estimate([10.0, 11.0, 12.0], stats.LOG)
    assert e.value == pytest.approx((10 * 11 * 12) ** (1 / 3)) and e.low < e.value < e.high
    assert e.low > 0
    lin = stats.estimate([0.0, 0.0, 0.03], stats.LINEAR, lower=0.0, upper=1.0)
    assert lin.low == 0.0 and lin.value == pytest.approx(0.01) and lin.high <= 1.0
    signed = stats.estimate([-3.0, -1.0, 2.0], stats.LINEAR, lower=None)
    assert signed.low < 0 < signed.high
    two = stats.estimate([1.0, 3.0])
    assert two.value == 2 and not two.has_interval and "n < 3" in two.method
    assert stats.estimate([]).value is None
    same = stats.estimate([7, 7, 7])
    assert (same.low, same.high) == (7, 7) and same.excludes(0) and not same.excludes(7)


def test_within_run_respects_phases():
    """A run whose first half is quiet and second half loaded: its median is 10 or 100
    depending on where the halves meet, and the block bootstrap says so; resampling single
    wake-ups (blocks of one) would call the median exact."""
    rng = np.random.default_rng(3)
    n = 10_000
    x = np.concatenate([rng.normal(10, 1, n // 2 - 300), rng.normal(100, 1, n // 2 + 300)])
    w = stats.within_run(x, [0.5])
    assert w.block == 100 and w.draws == 400
    lo, hi = w.bounds[0.5]
    assert lo < 20 and hi > 90, (lo, hi)
    assert stats.within_run(x, [0.5]) == w, "seeded: the same interval every time"
    assert stats.within_run(x[:50], [0.5]) is None


def test_nearest_rank():
    v = list(range(1, 101))
    assert stats.nearest_rank(v, 0.99) == 99 and stats.nearest_rank(v, 0.5) == 50
    assert stats.nearest_rank(v, 1.0) == 100 and stats.nearest_rank([], 0.5) is None


def test_counts_between_is_numpys_histogram():
    """counts_between counts as np.histogram does for the same edges: values on an edge in
    the bin to its right, the last edge in the last bin, values outside and NaN in none,
    repeated edges, ints compared with float edges; edges it does not take raise alike."""
    import numpy as np
    import pytest
    from hgreport.base.stats import counts_between
    rng = np.random.default_rng(27)
    for t in range(200):
        e = np.unique(np.geomspace(1, 1e7, int(rng.integers(2, 60))))
        if t % 5 == 0 and len(e) > 4:
            e = np.r_[e[:3], e[2], e[3:]]
        x = rng.integers(-100, 2 * 10**7, int(rng.integers(0, 3000)))
        if t % 3 == 0:
            x = np.r_[x, e.astype(np.int64), [int(e[-1])] * 3, [int(e[0]) - 1]]
        want = np.histogram(x, e)[0]
        got = counts_between(x, e)
        assert got.dtype == want.dtype and got.tolist() == want.tolist(), t
        xf = x.astype(float)
        if len(xf):
            xf[0] = np.nan
        assert counts_between(xf, e).tolist() == np.histogram(xf, e)[0].tolist(), t
    assert counts_between(np.array([5, 10]), np.array([5.0, 10.0])).tolist() == [2]
    with pytest.raises(ValueError):
        counts_between(np.array([1, 2]), np.array([3.0, 1.0]))
