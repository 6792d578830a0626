"""The shared visual language of every ruleset's diagrams, with no game knowledge.

Pure drawing helpers on Pillow images: a colour-blind-safe palette (Okabe-Ito),
one deterministic font (Pillow's built-in one, so no system fonts), arrows,
collision and push marks, ship glyphs, legends, and panels laid side by side.
Every helper takes pixel coordinates and keyword options; nothing here reads a
clock or a random source, so the same input always gives the same pixels.

Rulesets usually draw at ``supersample`` times the wanted size and call
:func:`finish` at the end, which gives smooth edges without anti-aliasing
support in ``ImageDraw``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Iterable, Sequence

from PIL import Image, ImageDraw, ImageFont

RGB = tuple[int, int, int]
Point = tuple[float, float]

# --- colours ------------------------------------------------------------------

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
ROCK: RGB = (88, 88, 88)
WATER: RGB = (248, 251, 253)
WIND_TINT: RGB = (224, 238, 244)
WIND_INK: RGB = (100, 138, 156)
WHIRL_TINT: RGB = (222, 226, 242)
WHIRL_INK: RGB = (112, 118, 168)
MARK_FILL: RGB = OKABE_ITO["yellow"]
MARK_EDGE: RGB = OKABE_ITO["vermillion"]


def piece_colour(index: int) -> RGB:
    """The colour of the ``index``-th piece (cycles after eight)."""
    return PALETTE[index % len(PALETTE)]


def mix(colour: RGB, other: RGB = PAPER, amount: float = 0.5) -> RGB:
    """``colour`` moved ``amount`` of the way towards ``other`` (faint ghosts, tints)."""
    return tuple(round(a + (b - a) * amount) for a, b in zip(colour, other))  # type: ignore[return-value]


def text_colour_on(fill: RGB) -> RGB:
    """Black or white, whichever reads better on ``fill``."""
    r, g, b = fill
    return INK if (0.299 * r + 0.587 * g + 0.114 * b) > 150 else PAPER


# --- text ---------------------------------------------------------------------


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's built-in font (Aileron, bundled in the wheel) at ``size`` pixels."""
    return ImageFont.load_default(size=max(1, int(size)))


@lru_cache(maxsize=4096)
def text_width(text: str, size: int) -> int:
    """The advance width of ``text`` in pixels."""
    return math.ceil(font(size).getlength(text))


def text(draw: ImageDraw.ImageDraw, xy: Point, content: str, *, size: int = 12, fill: RGB = INK,
         anchor: str = "la", stroke: int = 0, stroke_fill: RGB = PAPER) -> None:
    """Draw ``content`` at ``xy``; ``anchor`` as in Pillow ("mm" centres it)."""
    draw.text(xy, content, font=font(size), fill=fill, anchor=anchor, stroke_width=stroke,
              stroke_fill=stroke_fill)


# --- lines and arrows -----------------------------------------------------------


def unit(dx: float, dy: float) -> Point:
    """The vector (dx, dy) scaled to length 1 (or (0, 0))."""
    n = math.hypot(dx, dy)
    return (dx / n, dy / n) if n else (0.0, 0.0)


def offset_polyline(points: Sequence[Point], distance: float) -> list[Point]:
    """``points`` shifted sideways by ``distance`` (to the right of the direction of
    travel, on screen), with mitred corners, so that parallel tracks of several
    pieces do not hide each other."""
    if not distance or len(points) < 2:
        return list(points)
    normals = []
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        ux, uy = unit(x1 - x0, y1 - y0)
        normals.append((-uy, ux))
    out = []
    for i, (x, y) in enumerate(points):
        n1 = normals[max(i - 1, 0)]
        n2 = normals[min(i, len(normals) - 1)]
        mx, my = n1[0] + n2[0], n1[1] + n2[1]
        dot = mx * n1[0] + my * n1[1]
        if dot < 0.5:  # a sharp turn back: no sensible mitre
            mx, my, dot = n2[0], n2[1], 1.0
        out.append((x + mx * distance / dot, y + my * distance / dot))
    return out


def dashed_line(draw: ImageDraw.ImageDraw, points: Sequence[Point], *, fill: RGB, width: int = 2,
                dash: tuple[float, float] = (6, 4)) -> None:
    """A dashed polyline; the dash pattern continues across corners."""
    on, off = dash
    period = on + off
    phase = 0.0  # distance travelled within the current period
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        length = math.hypot(x1 - x0, y1 - y0)
        if not length:
            continue
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        pos = 0.0
        while pos < length:
            if phase < on:
                run = min(on - phase, length - pos)
                draw.line([(x0 + ux * pos, y0 + uy * pos), (x0 + ux * (pos + run), y0 + uy * (pos + run))],
                          fill=fill, width=width)
            else:
                run = min(period - phase, length - pos)
            pos += run
            phase = (phase + run) % period


def polyline(draw: ImageDraw.ImageDraw, points: Sequence[Point], *, fill: RGB, width: int = 2,
             dash: tuple[float, float] | None = None) -> None:
    """A solid (or, with ``dash``, dashed) polyline with round joints."""
    if len(points) < 2:
        return
    if dash:
        dashed_line(draw, points, fill=fill, width=width, dash=dash)
        return
    draw.line(list(points), fill=fill, width=width, joint="curve")
    r = width / 2
    if r >= 1.5:
        for x, y in (points[0], points[-1]):
            draw.ellipse([x - r + 0.5, y - r + 0.5, x + r - 0.5, y + r - 0.5], fill=fill)


def arrowhead(draw: ImageDraw.ImageDraw, tip: Point, direction: Point, *, size: float, fill: RGB,
              outline: RGB | None = None, spread: float = 0.55) -> None:
    """A filled triangular head with its point at ``tip``, facing ``direction``."""
    ux, uy = unit(*direction)
    bx, by = tip[0] - ux * size, tip[1] - uy * size
    w = size * spread
    draw.polygon([tip, (bx - uy * w, by + ux * w), (bx + uy * w, by - ux * w)], fill=fill, outline=outline)


def arrow(draw: ImageDraw.ImageDraw, points: Sequence[Point], *, fill: RGB, width: int = 2,
          head: float | None = None, dash: tuple[float, float] | None = None) -> None:
    """A polyline ending in an arrowhead; ``dash`` makes the shaft dashed (a plan),
    leaving it solid means something that happened."""
    points = [p for i, p in enumerate(points) if i == 0 or p != points[i - 1]]
    if len(points) < 2:
        return
    head = head if head is not None else max(6.0, width * 3.5)
    (x0, y0), (x1, y1) = points[-2], points[-1]
    ux, uy = unit(x1 - x0, y1 - y0)
    # Stop the shaft inside the head so that its square end does not poke out.
    shaft = list(points[:-1]) + [(x1 - ux * head * 0.6, y1 - uy * head * 0.6)]
    polyline(draw, shaft, fill=fill, width=width, dash=dash)
    arrowhead(draw, (x1, y1), (ux, uy), size=head, fill=fill)


def block_arrow(draw: ImageDraw.ImageDraw, start: Point, end: Point, *, width: float, fill: RGB = PAPER,
                outline: RGB = INK, outline_width: int = 1) -> None:
    """A fat hollow arrow from ``start`` to ``end`` (a push: something was shoved)."""
    ux, uy = unit(end[0] - start[0], end[1] - start[1])
    px, py = -uy, ux
    length = math.hypot(end[0] - start[0], end[1] - start[1])
    head = min(width * 1.1, length * 0.6)
    s, h = width / 2, width
    neck = (end[0] - ux * head, end[1] - uy * head)
    poly = [
        (start[0] + px * s, start[1] + py * s),
        (neck[0] + px * s, neck[1] + py * s),
        (neck[0] + px * h, neck[1] + py * h),
        end,
        (neck[0] - px * h, neck[1] - py * h),
        (neck[0] - px * s, neck[1] - py * s),
        (start[0] - px * s, start[1] - py * s),
    ]
    draw.polygon(poly, fill=fill, outline=outline, width=outline_width)


def circular_arrow(draw: ImageDraw.ImageDraw, centre: Point, radius: float, *, fill: RGB, width: int = 2,
                   clockwise: bool = True, start: float = 200.0, sweep: float = 290.0,
                   head: float | None = None) -> None:
    """An arc with an arrowhead showing a rotation (clockwise on screen by default).
    Angles are in degrees, measured clockwise from east, as Pillow measures them."""
    cx, cy = centre
    head = head if head is not None else max(6.0, width * 3.2)
    box = [cx - radius, cy - radius, cx + radius, cy + radius]
    a0, a1 = (start, start + sweep) if clockwise else (start - sweep, start)
    # Leave room for the head so the arc does not show through it.
    trim = math.degrees(head * 0.6 / radius) if radius else 0
    if clockwise:
        draw.arc(box, a0, a1 - trim, fill=fill, width=width)
        end = math.radians(a1)
        tangent = (-math.sin(end), math.cos(end))
    else:
        draw.arc(box, a0 + trim, a1, fill=fill, width=width)
        end = math.radians(a0)
        tangent = (math.sin(end), -math.cos(end))
    tip = (cx + radius * math.cos(end), cy + radius * math.sin(end))
    arrowhead(draw, tip, tangent, size=head, fill=fill)


# --- marks ----------------------------------------------------------------------


def starburst(draw: ImageDraw.ImageDraw, centre: Point, radius: float, *, fill: RGB = MARK_FILL,
              outline: RGB = MARK_EDGE, spikes: int = 9, inner: float = 0.55, width: int = 2,
              label: str | None = None, label_size: int | None = None, label_fill: RGB = INK) -> None:
    """A comic-style "bang": where something collided or was stopped. An optional
    short ``label`` (an event number) sits in the middle."""
    cx, cy = centre
    pts = []
    for i in range(spikes * 2):
        r = radius if i % 2 == 0 else radius * inner
        a = math.pi * i / spikes - math.pi / 2
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    draw.polygon(pts, fill=fill, outline=outline, width=width)
    if label:
        text(draw, (cx, cy), label, size=label_size or max(8, int(radius * 0.95)), fill=label_fill, anchor="mm")


def badge(draw: ImageDraw.ImageDraw, centre: Point, label: str, *, size: int, fill: RGB = PAPER,
          outline: RGB = INK, label_fill: RGB = INK, width: int = 1) -> None:
    """A small round tag with a number or letter in it."""
    cx, cy = centre
    r = max(size * 0.75, text_width(label, size) / 2 + size * 0.3)
    draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=fill, outline=outline, width=width)
    text(draw, (cx, cy), label, size=size, fill=label_fill, anchor="mm")


# --- pieces and terrain -------------------------------------------------------------


def hull(draw: ImageDraw.ImageDraw, centre: Point, direction: Point, *, length: float, beam: float,
         fill: RGB, outline: RGB = INK, width: int = 1) -> list[Point]:
    """A boat-shaped hull, pointed bow towards ``direction`` (a screen vector, so
    (0, -1) is up). Scale ``length`` and ``beam`` to show a size class. Returns the
    outline's points."""
    ux, uy = unit(*direction)
    px, py = -uy, ux  # to starboard
    half = length / 2
    shape = [(half, 0.0), (half * 0.45, beam * 0.5), (-half * 0.2, beam * 0.5), (-half, beam * 0.38),
             (-half, -beam * 0.38), (-half * 0.2, -beam * 0.5), (half * 0.45, -beam * 0.5)]
    pts = [(centre[0] + ux * a + px * b, centre[1] + uy * a + py * b) for a, b in shape]
    draw.polygon(pts, fill=fill, outline=outline, width=width)
    return pts


# Fixed radii for a rock's outline: irregular, but the same every time.
_BLOB = (1.0, 0.82, 0.95, 0.78, 0.9, 1.0, 0.8, 0.92, 0.85, 0.97, 0.8)


def blob(draw: ImageDraw.ImageDraw, centre: Point, radius: float, *, fill: RGB = ROCK,
         outline: RGB | None = None, variant: int = 0) -> None:
    """An irregular lump (a rock). ``variant`` rotates the fixed outline so that
    neighbouring rocks do not look stamped."""
    cx, cy = centre
    n = len(_BLOB)
    pts = []
    for i in range(n):
        r = radius * _BLOB[(i + variant) % n]
        a = 2 * math.pi * i / n + variant * 0.7
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    draw.polygon(pts, fill=fill, outline=outline)


# --- legends and layout ------------------------------------------------------------

Glyph = Callable[[ImageDraw.ImageDraw, tuple[float, float, float, float]], None]


@dataclass(frozen=True)
class LegendEntry:
    """One legend row: a glyph (a colour swatch, or a function drawing into a box),
    a name, and a short description in a quieter colour."""

    glyph: RGB | Glyph | None
    name: str
    description: str = ""


def legend(entries: Sequence[LegendEntry], *, size: int = 12, heading: str | None = None,
           glyph_width: float | None = None, padding: int | None = None, max_width: int | None = None,
           stacked: bool = False, background: RGB = PAPER) -> Image.Image:
    """A legend box: one entry per row (glyph, name, description), descriptions
    lined up in a column; or, ``stacked``, each description under its name (for a
    narrow column). Descriptions wrap to ``max_width`` if given."""
    pad = padding if padding is not None else size // 2
    row = round(size * 1.6)
    gw = glyph_width if glyph_width is not None else row * 1.4
    gap = size
    name_x = pad + gw + gap
    name_w = 0 if stacked else max((text_width(e.name, size) for e in entries), default=0)
    desc_x = name_x if stacked else name_x + name_w + (gap if name_w else 0)
    # (entry or None for a continuation line, name shown, description line)
    lines: list[tuple[LegendEntry | None, str, str]] = []
    for entry in entries:
        room = (max_width - desc_x - pad) if max_width else None
        parts = wrap(entry.description, size, room) if room and entry.description else [entry.description]
        if stacked:
            lines.append((entry, entry.name, ""))
            lines.extend((None, "", p) for p in parts if p)
        else:
            lines.append((entry, entry.name, parts[0]))
            lines.extend((None, "", p) for p in parts[1:])
    widths = [desc_x + text_width(d, size) + pad for _, _, d in lines]
    widths += [name_x + text_width(n, size) + pad for _, n, _ in lines]
    width = max(widths + [pad * 2 + gw])
    top = pad
    if heading:
        width = max(width, text_width(heading, size) + 2 * pad)
        top += row
    if max_width:
        width = min(width, max_width)
    step = [row if (e is not None or not stacked) else round(size * 1.35) for e, _, _ in lines]
    image = Image.new("RGB", (math.ceil(width), top + sum(step) + pad), background)
    draw = ImageDraw.Draw(image)
    if heading:
        text(draw, (pad, pad + row / 2), heading, size=size, fill=INK, anchor="lm")
    y = top
    for (entry, name, desc), h in zip(lines, step):
        mid = y + h / 2
        if entry is not None:
            box = (pad, y + row * 0.15, pad + gw, y + row * 0.85)
            if callable(entry.glyph):
                entry.glyph(draw, box)
            elif entry.glyph is not None:
                inset = (box[3] - box[1]) * 0.15
                draw.rectangle((box[0] + inset * 2, box[1] + inset, box[2] - inset * 2, box[3] - inset),
                               fill=entry.glyph, outline=INK)
            text(draw, (name_x, mid), name, size=size, fill=INK, anchor="lm")
        if desc:
            text(draw, (desc_x, mid), desc, size=size, fill=MUTED, anchor="lm")
        y += h
    return image


def key_strip(items: Sequence[tuple[Glyph, str]], *, size: int = 12, max_width: int | None = None,
              glyph_width: float | None = None, padding: int | None = None,
              heading: str | None = None, background: RGB = PAPER) -> Image.Image:
    """A flowing row of small glyph + label pairs (the key to the marks), wrapped
    to ``max_width``."""
    pad = padding if padding is not None else size // 2
    row = round(size * 1.6)
    gw = glyph_width if glyph_width is not None else row * 1.5
    cells = [(glyph, label, gw + size * 0.4 + text_width(label, size)) for glyph, label in items]
    if heading:
        cells.insert(0, (None, heading, text_width(heading, size)))
    limit = max_width if max_width else sum(c[2] for c in cells) + size * 1.5 * len(cells) + 2 * pad
    rows: list[list] = [[]]
    x = pad
    for cell in cells:
        if rows[-1] and x + cell[2] > limit - pad:
            rows.append([])
            x = pad
        rows[-1].append(cell)
        x += cell[2] + size * 1.5
    width = max(sum(c[2] for c in r) + size * 1.5 * (len(r) - 1) for r in rows) + 2 * pad
    image = Image.new("RGB", (math.ceil(width), pad * 2 + row * len(rows)), background)
    draw = ImageDraw.Draw(image)
    y = pad
    for r in rows:
        x = pad
        for glyph, label, w in r:
            if glyph is None:
                text(draw, (x, y + row / 2), label, size=size, fill=INK, anchor="lm")
            else:
                glyph(draw, (x, y + row * 0.1, x + gw, y + row * 0.9))
                text(draw, (x + gw + size * 0.4, y + row / 2), label, size=size, fill=MUTED, anchor="lm")
            x += w + size * 1.5
        y += row
    return image


def wrap(content: str, size: int, width: float) -> list[str]:
    """Greedy word wrap of ``content`` to ``width`` pixels."""
    words = content.split(" ")
    lines, line = [], ""
    for word in words:
        trial = f"{line} {word}" if line else word
        if line and text_width(trial, size) > width:
            lines.append(line)
            line = word
        else:
            line = trial
    lines.append(line)
    return lines


def side_by_side(panels: Sequence[tuple[str, Image.Image]], *, title: str | None = None,
                 subtitle: str | None = None, below: Iterable[Image.Image] = (),
                 beside: Iterable[Image.Image] = (), size: int = 14, gap: int | None = None,
                 margin: int | None = None, background: RGB = PAPER, rule: RGB | None = GRID) -> Image.Image:
    """Lay ``panels`` (title, image) left to right, each under its own title, with
    an optional caption (``title``, then ``subtitle`` in a quieter colour) on top,
    further images (legends) in a column to the right (``beside``) and stacked
    underneath (``below``). Any number of panels: a before and an after, or one
    after per reading."""
    gap = gap if gap is not None else size * 2
    margin = margin if margin is not None else size
    spacing = size // 2
    line_h = round(size * 1.5)
    titles = [wrap(name, size, img.width) for name, img in panels]
    title_h = line_h * max((len(t) for t in titles), default=0)
    beside, below = list(beside), list(below)
    column_w = max((b.width for b in beside), default=0)
    column_h = sum(b.height for b in beside) + spacing * max(len(beside) - 1, 0)
    slots = [img.width for _, img in panels] + ([column_w] if beside else [])
    row_w = sum(slots) + gap * max(len(slots) - 1, 0)
    row_h = title_h + max([img.height for _, img in panels] + [column_h])
    inner_w = max([row_w] + [b.width for b in below])
    head: list[tuple[str, int, RGB]] = []
    if title:
        head += [(line, round(size * 1.15), INK) for line in wrap(title, round(size * 1.15), inner_w)]
    if subtitle:
        head += [(line, size - 2, MUTED) for line in wrap(subtitle, size - 2, inner_w)]
    head_h = sum(round(s * 1.5) for _, s, _ in head) + (spacing if head else 0)
    below_h = sum(b.height + spacing for b in below)
    out = Image.new("RGB", (inner_w + 2 * margin, margin + head_h + row_h + below_h + margin), background)
    draw = ImageDraw.Draw(out)
    y = margin
    for line, s, colour in head:
        text(draw, (margin, y + round(s * 1.5) / 2), line, size=s, fill=colour, anchor="lm")
        y += round(s * 1.5)
    y += spacing if head else 0
    x = margin
    for i, ((_, img), lines) in enumerate(zip(panels, titles)):
        if rule and i:
            draw.line([(x - gap / 2, y), (x - gap / 2, y + row_h)], fill=rule, width=max(1, size // 14))
        for k, line in enumerate(lines):
            text(draw, (x, y + line_h * k + line_h / 2), line, size=size, fill=INK, anchor="lm")
        out.paste(img, (x, y + title_h))
        x += img.width + gap
    if beside:
        if rule:
            draw.line([(x - gap / 2, y), (x - gap / 2, y + row_h)], fill=rule, width=max(1, size // 14))
        yb = y + title_h
        for img in beside:
            out.paste(img, (x, yb))
            yb += img.height + spacing
    y += row_h
    for img in below:
        y += spacing
        out.paste(img, (margin, y))
        y += img.height
    return out


def column(title: str, subtitle: str | None, panels: Sequence[tuple[str, Image.Image]],
           legends: Sequence[Image.Image], *, width: int, size: int, title_size: int,
           legend_gap: int | None = None) -> Image.Image:
    """Title, subtitle, each titled panel and each legend one under another, ``width``
    pixels of content wide: the layout for narrow screens."""
    legend_gap = size if legend_gap is None else legend_gap
    blocks: list = [(line, title_size, INK) for line in wrap(title, title_size, width)]
    if subtitle:
        blocks += [(line, size, MUTED) for line in wrap(subtitle, size, width)]
    blocks.append(size // 2)
    for name, im in panels:
        blocks += [(line, title_size, INK) for line in wrap(name, title_size, width)]
        blocks += [im, size]
    for legend_image in legends:
        blocks += [legend_image, legend_gap]
    height = size + sum(b if isinstance(b, int) else (b.height if isinstance(b, Image.Image) else round(b[1] * 1.5))
                        for b in blocks) + size
    image = Image.new("RGB", (width + 2 * size, height), PAPER)
    draw = ImageDraw.Draw(image)
    y = size
    for b in blocks:
        if isinstance(b, int):
            y += b
        elif isinstance(b, Image.Image):
            image.paste(b, (size, y))
            y += b.height
        else:
            line, line_size, colour = b
            text(draw, (size, y + round(line_size * 1.5) / 2), line, size=line_size, fill=colour, anchor="lm")
            y += round(line_size * 1.5)
    return image


def finish(image: Image.Image, supersample: int = 1) -> Image.Image:
    """Shrink an image drawn at ``supersample`` times the wanted size (smooths edges)."""
    return image.reduce(supersample) if supersample > 1 else image
