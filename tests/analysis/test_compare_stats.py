# SPDX-License-Identifier: GPL-2.0-or-later
"""base/significance.py: the Mann-Whitney U test against hand-computed values, and the bootstrap
CI of a difference of percentiles (coverage, reproducibility, equality with a naive bootstrap)."""
import itertools
import math

import numpy as np
import pytest

from hgreport.base.significance import _u_counts, bootstrap_diff, mann_whitney, rankdata
from hgreport.base.stats import nearest_rank


def test_rankdata_averages_ties():
    assert rankdata(np.array([10, 20, 20, 5, 20])).tolist() == [2, 4, 4, 1, 4]
    assert rankdata(np.array([3.0])).tolist() == [1]


def test_u_counts_match_enumeration():
    # every way to place 3 x-values among 7 positions: U = pairs (x, y) with x after y
    n1, n2 = 3, 4
    counts = np.zeros(n1 * n2 + 1)
    for xs in itertools.combinations(range(n1 + n2), n1):
        counts[sum(sum(1 for y in range(n1 + n2) if y not in xs and y < x) for x in xs)] += 1
    assert _u_counts(n1, n2).tolist() == counts.tolist()
    assert _u_counts(n1, n2).sum() == math.comb(7, 3)


def test_u_exact_hand_computed():
    # x = [19, 22, 16, 29, 24], y = [20, 11, 17, 12]: ranks of x in the 9 values are
    # 5, 7, 3, 9, 8 -> R1 = 32, U = 32 - 15 = 17 (of 20). P(U >= 17) = P(U <= 3): arrangements
    # with U = 0, 1, 2, 3 number 1 + 1 + 2 + 3 = 7 of C(9, 4) = 126; two-sided p = 14/126.
    t = mann_whitney([19, 22, 16, 29, 24], [20, 11, 17, 12])
    assert t.u == 17 and t.method == "exact"
    assert t.p == pytest.approx(14 / 126, abs=1e-12)


def test_u_exact_two_and_two_cannot_be_significant():
    t = mann_whitney([1, 2], [3, 4])          # the most extreme of C(4, 2) = 6 arrangements
    assert t.u == 0 and t.p == pytest.approx(2 / 6)


def test_u_normal_with_ties_hand_computed():
    # x = [1, 2, 2, 3], y = [2, 3, 3, 4, 5] (ties: normal approximation).
    # Sorted: 1 | 2 2 2 | 3 3 3 | 4 | 5 -> ranks 1 | 3 3 3 | 6 6 6 | 8 | 9.
    # R1 = 1 + 3 + 3 + 6 = 13, U = 13 - 10 = 3; mean n1 n2 / 2 = 10.
    # Ties: two groups of 3 -> sum(t^3 - t) = 48; var = 20/12 * (10 - 48/72) = 15.5556.
    # z = (|3 - 10| - 0.5) / sqrt(15.5556) = 6.5 / 3.94405 = 1.64805; p = erfc(z/√2) = 0.09933.
    t = mann_whitney([1, 2, 2, 3], [2, 3, 3, 4, 5])
    assert t.u == 3 and t.method == "normal"
    assert t.z == pytest.approx(6.5 / math.sqrt(20 / 12 * (10 - 48 / 72)), rel=1e-12)
    assert t.p == pytest.approx(0.09933, abs=5e-5)


def test_u_normal_large_samples_without_ties():
    # n1 = n2 = 30, x entirely below y: U = 0, var = 30*30*61/12, z = (450 - 0.5)/sqrt(4575)
    t = mann_whitney(np.arange(30), np.arange(30) + 100)
    assert t.u == 0 and t.method == "normal"
    assert t.z == pytest.approx(449.5 / math.sqrt(4575))
    assert t.p < 1e-9


def test_u_all_equal_and_symmetric():
    assert mann_whitney([0, 0], [0, 0, 0]).p == 1.0
    a, b = [3, 8, 1, 9], [4, 6, 7]
    assert mann_whitney(a, b).p == pytest.approx(mann_whitney(b, a).p)
    assert mann_whitney(a, b).u + mann_whitney(b, a).u == 12
    with pytest.raises(ValueError):
        mann_whitney([], [1])


def test_bootstrap_contains_true_difference_and_is_reproducible():
    gen = np.random.default_rng(7)
    base = gen.exponential(100.0, 20000)
    cand = gen.exponential(150.0, 20000)
    true_p99 = (150.0 - 100.0) * math.log(100.0)   # exponential: p99 = scale · ln 100
    ci = bootstrap_diff(base, cand, 0.99, seed=3)
    assert ci.low < true_p99 < ci.high
    assert ci.low < ci.diff < ci.high
    assert bootstrap_diff(base, cand, 0.99, seed=3) == ci
    assert bootstrap_diff(base, cand, 0.99, seed=4) != ci
    same = bootstrap_diff(base, base, 0.5, seed=3)
    assert same.diff == 0 and same.low <= 0 <= same.high


def test_bootstrap_order_statistic_shortcut_equals_naive_resampling():
    # The Beta shortcut draws the resampled quantile from the same distribution as resampling.
    v = np.sort(np.random.default_rng(1).lognormal(3, 1, 200))
    naive_rng = np.random.default_rng(2)
    naive = np.array([nearest_rank(np.sort(naive_rng.choice(v, len(v))), 0.9) for _ in range(4000)])
    from hgreport.base.significance import _boot_quantiles
    fast = _boot_quantiles(v, 0.9, 4000, np.random.default_rng(3))
    for q in (0.1, 0.5, 0.9):
        assert np.quantile(fast, q) == pytest.approx(np.quantile(naive, q), rel=0.03)


def test_bootstrap_refuses_max_and_empty():
    with pytest.raises(ValueError, match="maximum"):
        bootstrap_diff([1, 2], [3, 4], 1.0)
    with pytest.raises(ValueError):
        bootstrap_diff([], [3, 4], 0.5)
