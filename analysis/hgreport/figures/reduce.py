# SPDX-License-Identifier: GPL-2.0-or-later
"""What a figure keeps of millions of points: no more than its pixels can show, extremes kept.

A figure is about 1000-2000 pixels wide, so a scatter or a curve of millions of points draws
most of them on top of each other; matplotlib still pays for each one (transforms, the path,
Agg's rasteriser). The figures hand matplotlib the points that make a visible difference:
- `envelope`: per pixel column of x, the point with the lowest and the one with the highest
  y (min/max decimation, as Perfetto's UI and datashader reduce a series): every column
  shows the same vertical extent as with every point, so a single outlier stays visible
  (a stride subsample `x[::k]` drops it with probability 1 - 1/k);
- `scatter_points`: a scatter's points, one per occupied cell of a grid finer than the
  figure's pixels, plus the envelope's: every place the scatter marks stays marked (its body,
  not only its edges: the envelope alone draws a cloud as two bands, its lowest and highest
  points), every column's extremes exactly;
- `cdf_points`: of a sorted sample, evenly spaced ranks plus log-spaced ranks from the top,
  so a 1 - CDF on a log axis keeps every step of its tail, the maximum included;
- `log_bins`: a log histogram's bin edges, from exactly the smallest value to exactly the
  largest, so that both are counted.
Samples small enough to draw whole (at most a few points per column) are returned whole, so
the figures of short runs are drawn from every point, as before."""
from __future__ import annotations

import numpy as np

COLUMNS = 2000          # pixel columns: more than any figure of the report is wide
SCATTER_COLUMNS = 1000  # a scatter's grid: finer than latency.png's lateness panel (about
SCATTER_ROWS = 400      # 860 x 380 pixels at the report's 120 dpi) and than its markers
CDF_POINTS = 2000       # ranks of each kind a CDF keeps


def cdf_points(n: int, points: int = CDF_POINTS) -> np.ndarray:
    """Indices of a sorted sample of n that draw its CDF at screen resolution: evenly spaced
    ranks, plus log-spaced ranks from the top so the tail keeps every visible step; the
    first and the last rank always. All of them when n <= 2 * points."""
    if n <= 2 * points:
        return np.arange(n)
    tail = n - np.geomspace(1, n, points).astype(np.int64)
    return np.unique(np.r_[np.linspace(0, n - 1, points).astype(np.int64), tail, n - 1])


def envelope(x: np.ndarray, y: np.ndarray, columns: int = COLUMNS) -> np.ndarray:
    """Indices (ascending) of the lowest and the highest y in each of `columns` equal bins of
    x's range: a curve of millions of points drawn as what a screen shows of its extent. All
    of them when len(x) <= 4 * columns."""
    if len(x) <= 4 * columns:
        return np.arange(len(x))
    return _envelope(x, y, columns)


def _column(x: np.ndarray, columns: int) -> np.ndarray:
    """Each x's column of `columns` equal bins over x's range."""
    lo, hi = float(x.min()), float(x.max())
    return ((x - lo) * (columns / max(hi - lo, 1.0))).astype(np.int64)


def _envelope(x: np.ndarray, y: np.ndarray, columns: int,
              col: np.ndarray | None = None) -> np.ndarray:
    col = _column(x, columns) if col is None else col
    order = np.lexsort((y, col))
    c = col[order]
    edge = np.flatnonzero(c[1:] != c[:-1])
    return np.unique(np.r_[order[np.r_[0, edge + 1]], order[np.r_[edge, len(c) - 1]]])


def scatter_points(x: np.ndarray, y: np.ndarray, columns: int = SCATTER_COLUMNS,
                   rows: int = SCATTER_ROWS, log_y: bool = False) -> np.ndarray:
    """Indices (ascending) of the points of a scatter worth drawing: the first point in each
    occupied cell of a columns x rows grid over the points' range (over y's logarithm with
    `log_y`, y <= 0 in the lowest row), and `envelope`'s at those columns (each column's
    lowest and highest exactly). All of them when len(x) <= 4 * COLUMNS, as `envelope`."""
    if len(x) <= 4 * COLUMNS:
        return np.arange(len(x))
    col = _column(x, columns)
    v = np.log(np.maximum(y, 1e-300)) if log_y else y.astype(np.float64)
    if log_y:
        v[y <= 0] = -np.inf
    finite = v[np.isfinite(v)]
    vlo, vhi = (float(finite.min()), float(finite.max())) if len(finite) else (0.0, 0.0)
    row = np.clip((v - vlo) * (rows / max(vhi - vlo, 1e-12)), 0, rows).astype(np.int64)
    _, first = np.unique(col * (rows + 1) + row, return_index=True)
    return np.union1d(first, _envelope(x, y, columns, col))


def log_bins(lo: float, hi: float, per_decade: int = 20) -> np.ndarray:
    """Log-spaced histogram edges, per_decade to a decade, whose first is exactly lo and last
    exactly hi (numpy's last bin includes its right edge): 10**log10(751) is
    751.0000000000002, and edges from there would leave the smallest value out of the
    histogram (a run's only gap: an empty panel). lo > 0, hi > lo."""
    edges = np.logspace(np.log10(lo), np.log10(hi), max(2, int(per_decade * np.log10(hi / lo)) + 2))
    edges[0], edges[-1] = lo, hi
    return edges
