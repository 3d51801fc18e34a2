"""The execution trace (the paper's figures 3 and 6): one row per thread, a gray rectangle for
each interval of continuous CPU in a time window, load windows shaded."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from .rundir import Run

WIDTH_PX = 1400          # about the drawn width of the figure (11 in at 120 dpi, less margins)


def merge_to_pixels(a: np.ndarray, b: np.ndarray, pixel: float) -> tuple[np.ndarray, np.ndarray]:
    """Intervals [a, b) sorted by a, merged where the hole between them is shorter than
    `pixel`: what the eye sees at that resolution, drawn as a few hundred rectangles instead
    of millions. Vectorised: a block ends where the next start is a pixel or more past the
    furthest end so far."""
    if len(a) == 0:
        return a, b
    reach = np.maximum.accumulate(b)
    cut = np.flatnonzero(a[1:] - reach[:-1] >= pixel)
    first = np.r_[0, cut + 1]
    last = np.r_[cut, len(a) - 1]
    return a[first], reach[last]


def plot_timeline(run: Run, path: Path, start_ns: int = 0, length_ns: int = 500_000_000) -> Path:
    """One chosen window (`--window START:LEN`), drawn like the default's panels
    (timeline_auto.py: gaps by kernel cause, legend outside)."""
    from .timeline_auto import Window, plot_windows
    return plot_windows(run, path, [Window("the window asked (--window)", start_ns, length_ns)],
                        "execution trace")
