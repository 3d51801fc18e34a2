"""Student t quantiles, confidence intervals, nearest-rank percentiles."""
import math

import pytest

from hgreport.base.stats import mean_ci, nearest_rank, t_cdf, t_quantile


@pytest.mark.parametrize("df, q", [(1, 12.706), (2, 4.303), (4, 2.776), (14, 2.145), (30, 2.042),
                                   (1000, 1.962)])
def test_t_quantile_975(df, q):
    assert t_quantile(0.975, df) == pytest.approx(q, abs=1e-3)


def test_t_quantile_is_symmetric_and_inverts_the_cdf():
    assert t_quantile(0.5, 7) == pytest.approx(0.0, abs=1e-9)
    assert t_quantile(0.025, 5) == pytest.approx(-t_quantile(0.975, 5))
    assert t_cdf(t_quantile(0.9, 3), 3) == pytest.approx(0.9, abs=1e-9)
    with pytest.raises(ValueError):
        t_quantile(1.0, 3)


def test_mean_ci():
    e = mean_ci([1, 2, 3])
    assert e.n == 3 and e.mean == 2 and e.sd == 1
    assert e.half_width == pytest.approx(4.303 / math.sqrt(3), abs=1e-3)
    assert (e.low, e.high) == pytest.approx((2 - e.half_width, 2 + e.half_width))
    one = mean_ci([5])
    assert one.mean == 5 and one.half_width is None
    assert mean_ci([]).mean is None


def test_nearest_rank():
    v = list(range(1, 101))
    assert nearest_rank(v, 0.99) == 99 and nearest_rank(v, 0.5) == 50 and nearest_rank(v, 1.0) == 100
    assert nearest_rank([], 0.5) is None
