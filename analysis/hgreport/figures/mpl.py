# SPDX-License-Identifier: GPL-2.0-or-later
"""matplotlib with the Agg backend, set up once for every figure module: tick labels that say
the value itself, and the import of what a figure needs made cheaper. The figure modules import
matplotlib's classes from here, so that this runs first."""
from __future__ import annotations

import sys
import warnings

import matplotlib
import matplotlib.artist

matplotlib.use("Agg")
# Tick labels say the value itself: a window 40.3 s into a run reads 40297..40302 ms, not
# −3…1 with "+4.03e4" in a corner, and rates up to 10^9 are not "×1e6" (docs/testing.md,
# "Writing a test").
matplotlib.rcParams["axes.formatter.useoffset"] = False
matplotlib.rcParams["axes.formatter.limits"] = (-6, 9)
# While matplotlib defines its Artist classes, matplotlib.artist.kwdoc (which writes the table
# of every settable property into the docstring of each class's `set`) returns nothing: the
# docstrings are help text no figure reads, and writing them is 0.09 s of CPU, 15% of
# importing what a figure needs (analysis/README.md#performance). Restored once they exist.
# Nor is mpl_toolkits.mplot3d imported, which matplotlib.projections imports to register the
# "3d" projection no figure uses (0.013 s of CPU, 5% of the imports): blocked while
# matplotlib.figure is imported, matplotlib goes on without the projection, as it does where
# mplot3d is missing; importing it afterwards works as ever.
_kwdoc = matplotlib.artist.kwdoc
matplotlib.artist.kwdoc = lambda artist: ""
_MPLOT3D = "mpl_toolkits.mplot3d"
_block_3d = _MPLOT3D not in sys.modules and "matplotlib.projections" not in sys.modules
if _block_3d:
    sys.modules[_MPLOT3D] = None  # type: ignore[assignment]   # its import raises ImportError
try:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Unable to import Axes3D")
        try:
            import matplotlib.figure  # noqa: E402,F401
        except ImportError:
            if not _block_3d:
                raise
            del sys.modules[_MPLOT3D]
            _block_3d = False
            import matplotlib.figure  # noqa: E402,F401   (a matplotlib that needs mplot3d)
    import matplotlib.lines  # noqa: E402
    import matplotlib.patches  # noqa: E402
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
    from matplotlib.figure import Figure  # noqa: E402
    from matplotlib.layout_engine import PlaceHolderLayoutEngine  # noqa: E402
    from matplotlib.patches import Patch  # noqa: E402
    from matplotlib.ticker import (FuncFormatter, Locator, LogLocator,  # noqa: E402
                                   NullFormatter, NullLocator)
    from matplotlib.transforms import Bbox  # noqa: E402
finally:
    matplotlib.artist.kwdoc = _kwdoc
    if _block_3d and sys.modules.get(_MPLOT3D, 0) is None:
        del sys.modules[_MPLOT3D]

__all__ = ["Bbox", "Figure", "FigureCanvasAgg", "FuncFormatter", "Locator", "LogLocator",
           "NullFormatter", "NullLocator", "Patch", "PlaceHolderLayoutEngine", "matplotlib"]
