# SPDX-License-Identifier: GPL-2.0-or-later
"""matplotlib with the Agg backend, set up once for every figure module: tick labels that say
the value itself, and the import of what a figure needs made cheaper. The figure modules import
matplotlib's classes from here, so that this runs first."""
from __future__ import annotations

import importlib
import importlib.util
import re
import sys
import types
import warnings
from typing import Any, Callable

# Modules that matplotlib imports and no figure uses stand in for themselves while matplotlib is
# imported (analysis/README.md#performance), 0.04 s of CPU, a fifth of importing what a figure
# needs, on the critical path of every report:
# - pyparsing, which matplotlib imports to check its version, to build mathtext's parser
#   (matplotlib._mathtext) and to parse font patterns (matplotlib._fontconfig_pattern). No
#   figure's text is mathtext (no "$...$") and no figure names a font by a pattern. Stand-ins:
#   pyparsing with its __version__ read from its __init__.py; matplotlib.mathtext, whose
#   MathTextParser (kept by the Agg renderer and matplotlib.textpath) imports the real one at
#   its first parse; matplotlib._fontconfig_pattern, which passes matplotlib's own default
#   mathtext fonts ("sans:bold", ...: valid by construction) unparsed and any other pattern (a
#   matplotlibrc's) to the real parser. Afterwards rcsetup and font_manager call the real
#   module, imported at its first use, and an `import` of any of them gets the real one.
# - fontTools.agl (0.02 s: it builds its glyph-name tables when imported), which
#   matplotlib.dviread imports for TeX's fonts: its stand-in stays and imports it at the first
#   name looked up in it.
_PYPARSING = "pyparsing"
_MATHTEXT = "matplotlib.mathtext"
_FCP = "matplotlib._fontconfig_pattern"
_AGL = "fontTools.agl"
_PIL = "PIL"
_DEFAULT_PATTERNS = frozenset(("sans", "sans:bold", "sans:italic", "sans:italic:bold",
                               "cursive", "monospace"))


class _StandIn(types.ModuleType):
    """A module in sys.modules that imports the real one at the first name looked up in it."""

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__"):        # the import system's questions (__path__: a package?)
            raise AttributeError(attr)
        return getattr(_real(self.__name__), attr)


def _real(name: str) -> types.ModuleType:
    """The module itself, imported now if only its stand-in was (and its packages' too)."""
    parts = name.split(".")
    for k in range(1, len(parts) + 1):
        if isinstance(sys.modules.get(".".join(parts[:k])), _StandIn):
            del sys.modules[".".join(parts[:k])]
    return importlib.import_module(name)


def _deferred(name: str, function: str) -> Callable[..., Any]:
    """`function` of module `name`, which is imported at the first call."""
    def call(*args: Any, **kw: Any) -> Any:
        return getattr(_real(name), function)(*args, **kw)
    call.__name__ = call.__qualname__ = function
    return call


def _check_pattern(pattern: str) -> Any:
    """_fontconfig_pattern's parse while matplotlib is imported: its rcParams' checks."""
    if pattern in _DEFAULT_PATTERNS:
        return {}
    return _real(_FCP).parse_fontconfig_pattern(pattern)


class _MathTextParser:
    """matplotlib.mathtext.MathTextParser, imported at the first parse."""

    def __init__(self, output: str) -> None:
        self._output, self._parser = output, None

    def parse(self, *args: Any, **kw: Any) -> Any:
        if self._parser is None:
            self._parser = _real(_MATHTEXT).MathTextParser(self._output)
        return self._parser.parse(*args, **kw)


def _version(package: str) -> str | None:
    """An installed package's version as its __init__.py states it, read without importing
    it (`__version_info__ = version_info(3, 3, 2, ...)`, pyparsing's form); None if not so."""
    try:
        spec = importlib.util.find_spec(package)
        with open(spec.origin, encoding="utf-8") as f:  # type: ignore[union-attr,arg-type]
            m = re.search(r"^__version_info__ = version_info\((\d+), (\d+), (\d+)",
                          f.read(), re.M)
    except (ImportError, OSError, TypeError, AttributeError, ValueError):
        return None
    return ".".join(m.groups()) if m else None


def _stand_in() -> list[str]:
    """Puts the stand-ins into sys.modules (those of a matplotlib not imported yet); returns
    the names of those to take out again after its import."""
    if "matplotlib" in sys.modules:
        return []
    names = []
    version = _version(_PYPARSING) if _PYPARSING not in sys.modules else None
    if version is not None:
        module = sys.modules[_PYPARSING] = _StandIn(_PYPARSING)
        module.__version__ = version
        names.append(_PYPARSING)
    if _MATHTEXT not in sys.modules:
        module = sys.modules[_MATHTEXT] = _StandIn(_MATHTEXT)
        module.MathTextParser = _MathTextParser  # type: ignore[attr-defined]
        names.append(_MATHTEXT)
    if _FCP not in sys.modules:
        module = sys.modules[_FCP] = _StandIn(_FCP)
        module.parse_fontconfig_pattern = _check_pattern  # type: ignore[attr-defined]
        module.generate_fontconfig_pattern = _deferred(  # type: ignore[attr-defined]
            _FCP, "generate_fontconfig_pattern")
        names.append(_FCP)
    if _PIL not in sys.modules:
        # matplotlib.image, colors and backend_agg import Pillow for what reads or writes
        # image files (imread, imsave, a colormap's PNG in a notebook): never a figure's PNG
        # (pngsave.py). Its parts are imported at their first use.
        pil = sys.modules[_PIL] = _StandIn(_PIL)
        for part in ("Image", "PngImagePlugin", "features"):
            setattr(pil, part, _StandIn(f"{_PIL}.{part}"))
            sys.modules[f"{_PIL}.{part}"] = getattr(pil, part)
            names.append(f"{_PIL}.{part}")
        pil.PngImagePlugin.PngInfo = _deferred(f"{_PIL}.PngImagePlugin", "PngInfo")
        names.append(_PIL)
    if _AGL not in sys.modules:
        try:                 # matplotlib's dependency, not hgreport's: no import statement
            font_tools = importlib.import_module("fontTools")
        except ImportError:
            pass
        else:
            sys.modules[_AGL] = font_tools.agl = _StandIn(_AGL)
    return names


def _stand_ins_out(names: list[str]) -> None:
    """The stand-ins `names` out of sys.modules; rcsetup and font_manager parse font patterns
    with the real parser from now on."""
    for name in names:
        if isinstance(sys.modules.get(name), _StandIn):
            del sys.modules[name]
    for module in map(sys.modules.get, ("matplotlib.rcsetup", "matplotlib.font_manager")):
        for function in ("parse_fontconfig_pattern", "generate_fontconfig_pattern"):
            f = getattr(module, function, None)
            if isinstance(f, types.FunctionType) and f.__module__ == __name__:
                setattr(module, function, _deferred(_FCP, function))


_stood_in = _stand_in()
try:
    import matplotlib  # noqa: E402
    import matplotlib.artist  # noqa: E402
except BaseException:
    _stand_ins_out(_stood_in)
    raise

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
    _stand_ins_out(_stood_in)

__all__ = ["Bbox", "Figure", "FigureCanvasAgg", "FuncFormatter", "Locator", "LogLocator",
           "NullFormatter", "NullLocator", "Patch", "PlaceHolderLayoutEngine", "matplotlib"]
