# SPDX-License-Identifier: GPL-2.0-or-later
"""figures/reduce.py: what a figure keeps of millions of points. The reduced points must show
what every point shows: each pixel column's lowest and highest value (a single outlier among
a million stays visible), a scatter's every marked place, a CDF's tail to its maximum; small
samples are kept whole."""
import numpy as np
import pytest

from hgreport.figures import reduce
from hgreport.figures.reduce import cdf_points, envelope, scatter_points


def _columns(x, columns):
    lo, hi = float(x.min()), float(x.max())
    return ((x - lo) * (columns / max(hi - lo, 1.0))).astype(np.int64)


@pytest.mark.parametrize("reduce", [envelope, scatter_points])
@pytest.mark.parametrize("where", [0, 1, 123_457, 999_998, 999_999])
@pytest.mark.parametrize("sign", [1, -1])
def test_single_outlier_among_a_million_is_kept(where, sign, reduce):
    rng = np.random.default_rng(7)
    n = 1_000_000
    x = np.sort(rng.integers(0, 40_000_000_000, n))       # ns: wake-ups over 40 s
    y = rng.lognormal(np.log(20_000), 0.3, n).astype(np.int64)
    y[where] = 10**9 if sign > 0 else 1                   # one wake-up far off the others
    k = reduce(x, y)
    assert len(k) <= 1000 * 401 + 2 * 1000 + 2            # a screen's worth, not a million
    assert where in k
    assert (y[k].max() if sign > 0 else y[k].min()) == y[where]


def test_a_stride_subsample_of_the_same_size_loses_the_outlier():
    """What the test above guards against: as many points taken evenly miss the one that
    matters (so a reduction that only thins the points fails it)."""
    n = 1_000_000
    x = np.arange(n, dtype=np.int64)
    y = np.zeros(n, np.int64)
    y[123_457] = 10**9
    keep = len(envelope(x, y))
    naive = np.arange(0, n, n // keep)
    assert 123_457 not in naive and 123_457 in envelope(x, y)


def test_every_column_keeps_its_extremes():
    rng = np.random.default_rng(3)
    n, columns = 300_000, 500
    x = rng.uniform(0, 1e9, n)                             # unsorted x: order does not matter
    y = rng.standard_cauchy(n)
    k = envelope(x, y, columns)
    assert np.all(np.diff(k) > 0)                          # ascending indices, no duplicate
    col = _columns(x, columns)
    for c in (0, 1, columns // 2, columns - 1, columns):   # the last column holds x.max() only
        m = col == c
        if m.any():
            assert y[k][col[k] == c].max() == y[m].max()
            assert y[k][col[k] == c].min() == y[m].min()
    assert set(np.unique(col[k])) == set(np.unique(col))   # no column left empty


@pytest.mark.parametrize("n", [0, 1, 5, 8000])
def test_small_samples_are_drawn_whole(n):
    x = np.arange(n)
    assert np.array_equal(envelope(x, x * 2), np.arange(n))


@pytest.mark.parametrize("n", [0, 1, 4000])
def test_small_cdfs_are_drawn_whole(n):
    assert np.array_equal(cdf_points(n), np.arange(n))


def test_cdf_keeps_both_ends_and_every_step_of_the_tail():
    n = 5_000_000
    k = cdf_points(n)
    assert k[0] == 0 and k[-1] == n - 1                     # the earliest and the worst
    assert np.all(np.diff(k) > 0)
    assert len(k) <= 2 * 2000 + 1
    top = k[k >= n - 100]                                   # the 100 worst: every one of them
    assert np.array_equal(top, np.arange(n - 100, n))
    # 1 - CDF at the kept ranks: no step in the drawn curve larger than one of ~2000 evenly
    # spaced ranks, so the body is drawn at screen resolution
    assert np.diff(k).max() <= n / (2000 - 1) + 1


def _cells(x, y, columns, rows):
    lo, hi = float(x.min()), float(x.max())
    col = ((x - lo) * (columns / max(hi - lo, 1.0))).astype(np.int64)
    v = np.log(y)
    row = np.clip((v - v.min()) * (rows / (v.max() - v.min())), 0, rows).astype(np.int64)
    return set((col * (rows + 1) + row).tolist())


def test_a_scatter_keeps_every_place_it_marks():
    """A cloud of wake-ups (lognormal lateness over time, log y): every cell of the grid that
    a point marks keeps a point, so the body is drawn, not only its lowest and highest points
    per column (the envelope draws a cloud as two bands: it fails this)."""
    rng = np.random.default_rng(5)
    n = 300_000
    x = np.sort(rng.integers(0, 40_000_000_000, n))
    y = rng.lognormal(np.log(20_000), 0.5, n)
    k = scatter_points(x, y, log_y=True)
    assert len(k) < n // 2 and np.all(np.diff(k) > 0)
    assert _cells(x[k], y[k], 1000, 400) == _cells(x, y, 1000, 400)
    col = _columns(x, 1000)
    for c in (0, 500, 999):                                # and each column's extremes exactly
        assert y[k][col[k] == c].max() == y[col == c].max()
        assert y[k][col[k] == c].min() == y[col == c].min()


@pytest.mark.parametrize("n", [0, 1, 8000])
def test_small_scatters_are_drawn_whole(n):
    x = np.arange(n)
    assert np.array_equal(scatter_points(x, x + 1.0, log_y=True), np.arange(n))


@pytest.mark.parametrize("lo,hi", [(751.0, 7510.0), (1.0, 10.0), (3.3, 1e9), (999.0, 1000.5)])
def test_log_bins_count_both_extremes(lo, hi):
    """A log histogram over log_bins(lo, hi) counts lo and hi themselves: edges computed as
    10**log10(751) start at 751.0000000000002 and left a run's only gap uncounted."""
    edges = reduce.log_bins(lo, hi)
    assert edges[0] == lo and edges[-1] == hi and np.all(np.diff(edges) > 0)
    assert np.histogram([lo, hi], edges)[0].sum() == 2


def test_a_runs_only_gap_is_drawn_above_the_axis():
    """The gap panel of a run with one gap of 751 ns: its bin holds 1 (it held 0, the panel was
    empty), drawn as a step up from the floor of the log count axis, which starts below 1."""
    from hgreport.figures import gaps
    from hgreport.figures.plotting import plt
    fig, ax = plt.subplots()
    gaps._gap_panel(ax, None, [("lat", np.array([751]))], None)
    (step,) = ax.patches
    assert step.get_data().values.max() == 1
    assert ax.get_ylim()[0] < 1 < ax.get_ylim()[1]
    plt.close(fig)
