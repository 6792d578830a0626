"""Colours, the one font, and text: the parts of the visual language every picture shares.

A colour-blind-safe palette (Okabe & Ito), Pillow's built-in font (bundled in the
wheel, so no system fonts and the same pixels on every machine), text measuring,
drawing and greedy word wrap. Colours that belong to one game (a rock, a wind
tile, a whirlpool) live in that ruleset, not here.
"""

from __future__ import annotations

import math
import operator
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

RGB = tuple[int, int, int]
Point = tuple[float, float]
Box = tuple[float, float, float, float]  # left, top, right, bottom, in pixels
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

# Okabe & Ito (2008), "Color Universal Design": distinguishable with every common
# colour-vision deficiency. Ordered for pieces: the strongest, most distinct first;
# yellow last, as it is weak on white and is the fill of the collision mark.
OKABE_ITO: dict[str, RGB] = {
    "blue": (0, 114, 178),
    "orange": (230, 159, 0),
    "bluish green": (0, 158, 115),
    "reddish purple": (204, 121, 167),
    "sky blue": (86, 180, 233),
    "vermillion": (213, 94, 0),
    "black": (0, 0, 0),
    "yellow": (240, 228, 66),
}
PALETTE: tuple[RGB, ...] = (
    OKABE_ITO["blue"], OKABE_ITO["orange"], OKABE_ITO["bluish green"], OKABE_ITO["reddish purple"],
    OKABE_ITO["sky blue"], OKABE_ITO["vermillion"], (90, 90, 90), OKABE_ITO["yellow"],
)

PAPER: RGB = (255, 255, 255)
INK: RGB = (25, 25, 25)
MUTED: RGB = (95, 95, 95)
GRID: RGB = (214, 214, 214)
EDGE: RGB = (60, 60, 60)
PLANE: RGB = (252, 252, 250)  # the play area of a continuous plane (a table)
MARK_FILL: RGB = OKABE_ITO["yellow"]
MARK_EDGE: RGB = OKABE_ITO["vermillion"]


# The smallest text a picture draws, in pixels of the finished picture: the pages never show a
# picture shrunk so far that this would stand under 9 px.
SMALLEST_TEXT = 10


def piece_colour(index: int) -> RGB:
    """The colour of the ``index``-th piece (cycles after eight)."""
    return PALETTE[index % len(PALETTE)]


def colour_name(colour: RGB) -> str:
    """The plain name of a palette colour ("blue", "orange"), for legends that say
    which colour stands for what; "grey" for a colour outside the palette."""
    names = {rgb: name for name, rgb in OKABE_ITO.items()}
    return names.get(colour, "grey")


def mix(colour: RGB, other: RGB = PAPER, amount: float = 0.5) -> RGB:
    """``colour`` moved ``amount`` of the way towards ``other`` (faint ghosts, tints)."""
    r, g, b = (round(a + (o - a) * amount) for a, o in zip(colour, other))
    return (r, g, b)


def text_colour_on(fill: RGB) -> RGB:
    """Black or white, whichever reads better on ``fill``."""
    r, g, b = fill
    return INK if (0.299 * r + 0.587 * g + 0.114 * b) > 150 else PAPER


def _start_key(start: float) -> tuple[int, bool] | float:
    """What of a text's fractional start the rendered bitmap depends on.

    FreeType's pen starts at the whole-pixel origin plus ``start``, counted in 1/64 pixels and
    rounded, and every glyph lands on a whole pixel from there; the bitmap is one pixel wider
    (taller) when the start is past zero. So starts that round to the same 64th give the
    same bitmap. A start within a hair of a rounding boundary (where float32 arithmetic in
    Pillow could round it either way) is kept exact."""
    scaled = start * 64
    if abs(abs(scaled - math.trunc(scaled)) - 0.5) < 1e-3 or 0 < abs(start) < 1e-6 or abs(start) > 1 - 1e-6:
        return start
    return (math.floor(scaled + 0.5), start > 0)


# The key of the starts seen most (whole pixels, half pixels), looked up rather than worked out.
_START_KEYS: dict[float, tuple[int, bool] | float] = {v: _start_key(v) for v in (0.0, 0.25, 0.5, 0.75)}


class _RememberingFont(ImageFont.FreeTypeFont):
    """A FreeType font that keeps the bitmap of each text it renders: pictures draw the same
    labels, legends and names again and again, and rendering glyphs was most of the time
    drawing took. The bitmap is the one Pillow would render (same text, mode, anchor,
    stroke and sub-pixel start, see ``_start_key``; the ink only for colour bitmaps), so the
    pictures do not change."""

    MAX_MASKS = 20_000

    def getmask2(self, text: str | bytes, mode: str = "", direction: str | None = None,
                 features: list[str] | None = None, language: str | None = None, stroke_width: float = 0,
                 anchor: str | None = None, ink: int = 0, start: tuple[float, float] | None = None,
                 *args: Any, **kwargs: Any) -> tuple[Any, tuple[int, int]]:
        where = (_START_KEYS.get(start[0]) or _start_key(start[0]), _START_KEYS.get(start[1]) or _start_key(start[1])) \
            if start is not None else None
        key = (text, mode, direction, tuple(features) if features else None, language, stroke_width, anchor,
               ink if mode == "RGBA" else 0, where, args, tuple(sorted(kwargs.items())))
        masks: dict[tuple[Any, ...], tuple[Any, tuple[int, int]]] = self.__dict__.setdefault("_masks", {})
        found = masks.get(key)
        if found is None:
            if len(masks) >= self.MAX_MASKS:
                masks.clear()
            found = masks[key] = super().getmask2(text, mode, direction, features, language, stroke_width,
                                                       anchor, ink, start, *args, **kwargs)
        return found


@lru_cache(maxsize=64)
def font(size: int) -> Font:
    """Pillow's built-in font (Aileron, bundled in the wheel) at ``size`` pixels."""
    loaded = ImageFont.load_default(size=max(1, int(size)))
    if type(loaded) is ImageFont.FreeTypeFont:  # Pillow without FreeType falls back to a bitmap font
        loaded.__class__ = _RememberingFont  # the font is only loadable from Pillow's bytes, so it is retyped
    return loaded


# By font size: the advance of each character, and the kerning of each pair of characters.
_ADVANCES: dict[int, dict[str, float]] = {}
_KERNING: dict[int, dict[str, float]] = {}


def _advance(content: str, size: int) -> float:
    """``font(size).getlength(content)``, from the lengths of its characters and of its pairs.

    Pillow's basic layout (the one the built-in font is laid out with) adds up each glyph's
    advance and the kerning of each pair, in whole 1/64 pixels, so the sum is the same number
    (sums of such numbers are exact in any order); measuring a label glyph by glyph on every
    trial of a word wrap was most of the time the wrap took."""
    face = font(size)
    if len(content) <= 2 or getattr(face, "layout_engine", None) != ImageFont.Layout.BASIC:
        return face.getlength(content)
    return _pieces(content, size)


def _pieces(content: str, size: int) -> float:
    """The advance of ``content`` as the sum of its characters' advances and its pairs'
    kerning (for the basic layout; see ``_advance``). Each term is a whole number of 1/64
    pixels, so the sum is exact in any order and in any grouping of the text."""
    face = font(size)
    advances = _ADVANCES.setdefault(size, {})
    kerning = _KERNING.setdefault(size, {})
    for char in content:
        if char not in advances:
            advances[char] = face.getlength(char)
    total = sum(map(advances.__getitem__, content))
    if len(content) > 1:
        kerns: list[Any] = list(map(kerning.get, map(operator.add, content[:-1], content[1:])))
        if None in kerns:
            for i, kern in enumerate(kerns):
                if kern is None:
                    pair = content[i:i + 2]
                    kerns[i] = kerning[pair] = face.getlength(pair) - advances[pair[0]] - advances[pair[1]]
        total += sum(kerns)
    return total


@lru_cache(maxsize=4096)
def text_width(content: str, size: int) -> int:
    """The advance width of ``content`` in pixels."""
    return math.ceil(_advance(content, size))


_MEASURE = ImageDraw.Draw(Image.new("L", (1, 1)))


@lru_cache(maxsize=4096)
def _ink(content: str, size: int, anchor: str) -> Box:
    if "\n" in content:
        left, top, right, bottom = _MEASURE.multiline_textbbox((0, 0), content, font=font(size), anchor=anchor)
    else:
        left, top, right, bottom = font(size).getbbox(content, anchor=anchor)
    return (float(left), float(top), float(right), float(bottom))


def text_box(xy: Point, content: str, *, size: int, anchor: str = "la", stroke: int = 0) -> Box:
    """The box the ink of ``content`` covers when drawn at ``xy`` with ``anchor``
    (as :func:`text` draws it), grown by the ``stroke``."""
    left, top, right, bottom = _ink(content, int(size), anchor)
    return (xy[0] + left - stroke, xy[1] + top - stroke, xy[0] + right + stroke, xy[1] + bottom + stroke)


def text(draw: ImageDraw.ImageDraw, xy: Point, content: str, *, size: int = 12, fill: RGB = INK,
         anchor: str = "la", stroke: int = 0, stroke_fill: RGB = PAPER, align: str = "left") -> None:
    """Draw ``content`` at ``xy``; ``anchor`` as in Pillow ("mm" centres it). Lines
    broken with "\\n" are aligned by ``align`` ("left", "center", "right")."""
    face = font(size)
    if "\n" in content or type(face) is not _RememberingFont or draw.fontmode != "L" or draw.palette is not None \
            or not (isinstance(fill, tuple) and isinstance(stroke_fill, tuple)) or len(anchor) != 2:
        draw.text(xy, content, font=face, fill=fill, anchor=anchor, stroke_width=stroke, stroke_fill=stroke_fill,
                  align=align)
        return
    # One line in a grey-level font mode: what ImageDraw.text does, without its per-call set-up
    # (a text object, a split into lines, the inks looked up again), which cost as much as drawing.
    x, y = xy
    start = (math.modf(x)[0], math.modf(y)[0])
    ink = draw.draw.draw_ink(fill)
    if stroke:
        stroke_ink = draw.draw.draw_ink(stroke_fill)
        mask, offset = face.getmask2(content, "L", None, None, None, stroke, anchor, stroke_ink, start,
                                     stroke_filled=True)
        draw.draw.draw_bitmap((int(x) + offset[0], int(y) + offset[1]), mask, stroke_ink)
        if ink == stroke_ink:
            return
    mask, offset = face.getmask2(content, "L", None, None, None, 0, anchor, ink, start, stroke_filled=True)
    draw.draw.draw_bitmap((int(x) + offset[0], int(y) + offset[1]), mask, ink)


def wrap(content: str, size: int, width: float) -> list[str]:
    """Greedy word wrap of ``content`` to ``width`` pixels."""
    # Each trial line is measured from the line so far plus the word (the sum is exact, see
    # ``_pieces``): measuring every trial from scratch made the wrap quadratic in a line's words.
    basic = getattr(font(size), "layout_engine", None) == ImageFont.Layout.BASIC
    lines: list[str] = []
    line = ""
    advance: float | None = None  # of ``line``, where known
    for word in content.split(" "):
        trial = f"{line} {word}" if line else word
        trial_advance = None
        if line:
            if basic and len(trial) > 2:
                if advance is None:
                    advance = _pieces(line, size)
                trial_advance = advance + _pieces(" " + word, size) + _pieces(line[-1] + " ", size) \
                    - _pieces(line[-1], size) - _pieces(" ", size)
                wide = math.ceil(trial_advance) > width
            else:
                wide = text_width(trial, size) > width
        else:
            wide = False
        if line and wide:
            lines.append(line)
            line, advance = word, None
        else:
            line, advance = trial, trial_advance
    lines.append(line)
    return lines
