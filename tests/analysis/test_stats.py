# SPDX-License-Identifier: GPL-2.0-or-later
"""Intervals that fit the metric (Wilson, bootstrap), nearest-rank percentiles."""
import pytest

from hgreport.base.stats import mean_estimate, nearest_rank, normal_quantile, ratio_estimate, wilson


def test_wilson_stays_inside_zero_and_one():
    lo, hi = wilson(0, 100)
    assert lo == 0 and hi == pytest.approx(0.0370, abs=1e-4)
    lo, hi = wilson(100, 100)
    assert hi == 1 and lo == pytest.approx(0.9630, abs=1e-4)
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    assert normal_quantile(0.975) == pytest.approx(1.959964, abs=1e-6)


def test_ratio_from_pooled_counts():
    none = ratio_estimate([(0, 1000)] * 3)
    assert none.mean == 0 and none.low == 0 and 0 < none.high < 0.002
    every = ratio_estimate([(100, 100)] * 3)
    assert every.mean == 1 and every.high == 1 and 0.98 < every.low < 1
    e = ratio_estimate([(1, 100), (2, 100), (3, 100)])
    assert e.n == 3 and e.mean == pytest.approx(0.02) and e.low < 0.02 < e.high
    assert "Wilson" in e.method and "6/300" in e.method
    two = ratio_estimate([(1, 100), (3, 100)])
    assert two.mean == pytest.approx(0.02) and not two.has_interval and "n < 3" in two.method
    assert ratio_estimate([]).mean is None


def test_bootstrap_mean_never_below_the_floor():
    heavy = [0.0, 0.0, 0.0, 5e6]        # one long outlier: t would give mean - 4 ms
    e = mean_estimate(heavy)
    assert e.low >= 0 and e.high <= 5e6 and e.low <= e.mean <= e.high
    assert e == mean_estimate(heavy), "seeded: the same interval every time"
    signed = mean_estimate([-3.0, -1.0, 2.0], floor=None)
    assert signed.low < 0 < signed.high
    assert mean_estimate([-3.0, -1.0, -2.0]).high == 0, "clipped at the floor"
    one = mean_estimate([5])
    assert one.mean == 5 and not one.has_interval and one.excludes(0) is None
    assert mean_estimate([]).mean is None
    same = mean_estimate([7, 7, 7])
    assert (same.low, same.high) == (7, 7) and same.excludes(0) and not same.excludes(7)


def test_nearest_rank():
    v = list(range(1, 101))
    assert nearest_rank(v, 0.99) == 99 and nearest_rank(v, 0.5) == 50 and nearest_rank(v, 1.0) == 100
    assert nearest_rank([], 0.5) is None
