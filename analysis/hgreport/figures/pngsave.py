# SPDX-License-Identifier: GPL-2.0-or-later
"""Saving a figure: a PNG drawn once on a canvas with room around the figure, cropped to what
it draws and written here (rows with PNG's "up" filter, zlib); other formats through savefig."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ..base import safeout
from . import figure
from .layout import tight_bbox
from .mpl import Bbox, PlaceHolderLayoutEngine, matplotlib
from .style import DPI

# Room around the figure, in inches (left, bottom, right, top), that save() draws a PNG into:
# what reaches past the figure's edges (legends to the right or below the axes, tick labels of
# axes near an edge) is drawn there, then the image is cropped to what was drawn. A figure with
# a text or legend past this room too is saved the measuring way (tight_bbox), never cut.
ROOM_IN = (1.5, 2.5, 6.0, 1.5)


def save(fig: Any, path: Path) -> Path:
    """Writes the figure to `path` (PNG, or the format its suffix names) at DPI, cropped to
    what it draws plus savefig.pad_inches, as savefig's bbox_inches="tight" crops. A PNG is
    drawn once (_draw_cropped); a figure with a layout engine, or another format, through
    savefig with tight_bbox's box."""
    png = path.suffix.lower() in (".png", "")
    image = _draw_cropped(fig) if png else None
    with safeout.open_out(path, "wb") as f:       # never through a planted link
        if image is not None:
            f.write(png_bytes(image, DPI))
        else:
            box = tight_bbox(fig)
            fig.savefig(f, format=path.suffix.lstrip(".") or "png", dpi=DPI,
                        bbox_inches="tight" if box is None else box)
    for hook in figure.SAVE_HOOKS:
        hook(fig, path)
    return path


def _draw_cropped(fig: Any) -> np.ndarray | None:
    """The figure drawn once at DPI on a canvas ROOM_IN larger than the figure on each side,
    cropped to the pixels that differ from the background, padded by savefig.pad_inches: the
    image savefig(bbox_inches="tight") writes, less its measuring pass over every artist's
    extent (about a quarter of a small figure's time: analysis/README.md#performance). The
    crop follows ink, not text boxes: a margin may be a pixel or two narrower. None when the
    figure has a layout engine (laid out at draw time), or a text or legend that reaches past
    the canvas (_outside: measured as the draw ends, from the layout the draw made)."""
    engine = fig.get_layout_engine()
    if isinstance(engine, PlaceHolderLayoutEngine):
        fig.set_layout_engine(None)           # tight_layout() was done: nothing at draw time
    elif engine is not None:
        return None
    w, h = fig.get_size_inches()
    left, bottom, right, top = ROOM_IN
    sink = _Sink()
    outside: list[bool] = []
    cid = fig.canvas.mpl_connect("draw_event", lambda ev: outside.append(_outside(fig, ev)))
    try:
        fig.savefig(sink, format="rgba", dpi=DPI,
                    bbox_inches=Bbox.from_extents(-left, -bottom, w + right, h + top))
    finally:
        fig.canvas.mpl_disconnect(cid)
    if outside != [False]:
        return None
    rgba = np.asarray(fig.canvas.get_renderer().buffer_rgba()) if sink.view is None \
        else sink.view
    px = rgba.view(np.uint32).reshape(rgba.shape[:2])
    ink = px != px[0, 0]
    rows, cols = np.flatnonzero(ink.any(axis=1)), np.flatnonzero(ink.any(axis=0))
    if not len(rows):
        return None
    y0, y1, x0, x1 = rows[0], rows[-1] + 1, cols[0], cols[-1] + 1
    if y0 == 0 or x0 == 0 or y1 == px.shape[0] or x1 == px.shape[1]:
        return None
    pad = int(round(matplotlib.rcParams["savefig.pad_inches"] * DPI))
    y0, x0 = max(0, y0 - pad), max(0, x0 - pad)
    y1, x1 = min(px.shape[0], y1 + pad), min(px.shape[1], x1 + pad)
    out = rgba[y0:y1, x0:x1]           # a view of the canvas: png_bytes reads it in place
    return out[..., :3] if (out[..., 3] == 255).all() else out


def _outside(fig: Any, event: Any) -> bool:
    """Whether a text or legend of the figure (titles, labels, texts and annotations, legends:
    what may lie away from the axes) reaches past the canvas just drawn, or touches its edge."""
    renderer = event.renderer
    texts = [*fig.texts, *fig.legends,
             *(getattr(fig, k, None) for k in ("_suptitle", "_supxlabel", "_supylabel"))]
    for ax in fig.axes:
        texts += [*ax.texts, ax.get_legend(), ax.xaxis.label, ax.yaxis.label, ax.title,
                  *(getattr(ax, k, None) for k in ("_left_title", "_right_title"))]
    width, height = renderer.get_canvas_width_height()
    for t in texts:
        if t is None or not t.get_visible() or (hasattr(t, "get_text") and not t.get_text()):
            continue                  # an empty label is drawn nowhere (and placed at 0, 0)
        box = t.get_window_extent(renderer)
        if box.x0 <= 0 or box.y0 <= 0 or box.x1 >= width or box.y1 >= height:
            return True
    return False


class _Sink:
    """A file for savefig(format="rgba"): keeps a view of the canvas' buffer it is given
    instead of copying it."""

    def __init__(self) -> None:
        self.view: np.ndarray | None = None

    def write(self, b: Any) -> int:
        m = memoryview(b)
        self.view = np.asarray(m) if m.ndim == 3 else None
        return m.nbytes

    def seek(self, *_: Any) -> int:     # what matplotlib asks of a file object
        return 0


# zlib's level: 3 deflates a report's figures (RGB) in half the time of 6 and to about the
# size they had at 6 as RGBA (PIL's default, before save() wrote them itself).
PNG_LEVEL = 3


def png_bytes(image: np.ndarray, dpi: float, level: int = PNG_LEVEL) -> bytes:
    """A PNG of an RGB or RGBA uint8 image (rows top to bottom): each row with the "up"
    filter (its difference from the row above: a figure's rows repeat), deflated at `level`,
    its resolution in a pHYs chunk."""
    import struct
    import zlib
    h, w, c = image.shape
    raw = np.empty((h, w * c + 1), np.uint8)      # `image` may be a view (no copy of it made)
    raw[:, 0] = 2                                  # filter type 2: up
    raw[0, 0] = 0                                  # the first row has nothing above it
    pixels = raw[:, 1:].reshape(h, w, c)           # a view of raw, row by row
    pixels[0] = image[0]
    for k in range(c):      # a channel at a time: numpy runs the (h, w, 3) strided subtraction
        # 3 bytes per inner loop (3.6x slower); uint8: modulo 256, as PNG defines
        np.subtract(image[1:, :, k], image[:-1, :, k], out=pixels[1:, :, k])

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data)))
    ppm = int(round(dpi / 0.0254))
    return b"".join((b"\x89PNG\r\n\x1a\n",
                     chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2 if c == 3 else 6, 0, 0, 0)),
                     chunk(b"pHYs", struct.pack(">IIB", ppm, ppm, 1)),
                     chunk(b"IDAT", zlib.compress(raw, level)),
                     chunk(b"IEND", b"")))
