"""One layout for every picture: panels side by side, one panel per reading,
animation frames, and a stacked column for narrow screens; legends and keys.

The one rule for the legend (:func:`legend_beside`): it goes in a column right of
the panels when that column still fits within the picture's maximum width,
otherwise under the panels. A stacked column and animation frames always have
it underneath, as they are narrow by design.

Rulesets usually draw at ``supersample`` times the wanted size and call
:func:`finish` at the end, which gives smooth edges without anti-aliasing
support in ``ImageDraw``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from ...errors import VerifierError
from .palette import GRID, INK, MUTED, PAPER, RGB, Box, text, text_width, wrap

Glyph = Callable[[ImageDraw.ImageDraw, Box], None]
Panel = tuple[str, Image.Image]  # a panel's title and its picture

MAX_WIDTH = 1150  # the widest a side-by-side picture aims to be, in pixels (before supersampling)
LEGEND_WIDTH = 340  # the legend column beside the panels, in pixels (before supersampling)


# --- legends ---------------------------------------------------------------------------


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
    for (shown, name, desc), h in zip(lines, step):
        mid = y + h / 2
        if shown is not None:
            box = (pad, y + row * 0.15, pad + gw, y + row * 0.85)
            if callable(shown.glyph):
                shown.glyph(draw, box)
            elif shown.glyph is not None:
                inset = (box[3] - box[1]) * 0.15
                draw.rectangle((box[0] + inset * 2, box[1] + inset, box[2] - inset * 2, box[3] - inset),
                               fill=shown.glyph, outline=INK)
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
    cells: list[tuple[Glyph | None, str, float]] = [
        (glyph, label, gw + size * 0.4 + text_width(label, size)) for glyph, label in items]
    if heading:
        cells.insert(0, (None, heading, text_width(heading, size)))
    limit = max_width if max_width else sum(c[2] for c in cells) + size * 1.5 * len(cells) + 2 * pad
    rows: list[list[tuple[Glyph | None, str, float]]] = [[]]
    x = float(pad)
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


# --- where the legend goes -------------------------------------------------------------------


def row_width(panels: Sequence[Panel], gap: float) -> float:
    """How wide ``panels`` are side by side, ``gap`` pixels apart."""
    return sum(img.width for _, img in panels) + gap * max(len(panels) - 1, 0)


def legend_beside(panels: Sequence[Panel], *, gap: float, legend_width: float, max_width: float) -> bool:
    """The one rule for the legend: beside the panels (in a column ``legend_width``
    wide, ``gap`` from the last panel) when that fits within ``max_width``; else
    under them. All widths in the same (supersampled) pixels."""
    return row_width(panels, gap) + gap + legend_width <= max_width


def compose(panels: Sequence[Panel], legends: Sequence[Image.Image] = (), *, beside: bool, title: str | None = None,
            subtitle: str | None = None, size: int = 14, gap: int | None = None, margin: int | None = None,
            rule: RGB | None = GRID) -> Image.Image:
    """Panels side by side with their legends where :func:`legend_beside` said."""
    return side_by_side(panels, title=title, subtitle=subtitle, beside=legends if beside else (),
                        below=() if beside else legends, size=size, gap=gap, margin=margin, rule=rule)


def _headline(title: str | None, subtitle: str | None, size: int, width: float) -> list[tuple[str, int, RGB]]:
    head: list[tuple[str, int, RGB]] = []
    if title:
        head += [(line, round(size * 1.15), INK) for line in wrap(title, round(size * 1.15), width)]
    if subtitle:
        head += [(line, size - 2, MUTED) for line in wrap(subtitle, size - 2, width)]
    return head


def side_by_side(panels: Sequence[Panel], *, title: str | None = None, subtitle: str | None = None,
                 below: Iterable[Image.Image] = (), beside: Iterable[Image.Image] = (), size: int = 14,
                 gap: int | None = None, margin: int | None = None, background: RGB = PAPER,
                 rule: RGB | None = GRID) -> Image.Image:
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
    beside_list, below_list = list(beside), list(below)
    column_w = max((b.width for b in beside_list), default=0)
    column_h = sum(b.height for b in beside_list) + spacing * max(len(beside_list) - 1, 0)
    slots = [img.width for _, img in panels] + ([column_w] if beside_list else [])
    row_w = sum(slots) + gap * max(len(slots) - 1, 0)
    row_h = title_h + max([img.height for _, img in panels] + [column_h])
    inner_w = max([row_w] + [b.width for b in below_list])
    head = _headline(title, subtitle, size, inner_w)
    head_h = sum(round(s * 1.5) for _, s, _ in head) + (spacing if head else 0)
    below_h = sum(b.height + spacing for b in below_list)
    canvas = (inner_w + 2 * margin, margin + head_h + row_h + below_h + margin)
    check_budget(canvas, what="the picture of these panels", budget=DRAWN_PIXEL_BUDGET)
    out = Image.new("RGB", canvas, background)
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
    if beside_list:
        if rule:
            draw.line([(x - gap / 2, y), (x - gap / 2, y + row_h)], fill=rule, width=max(1, size // 14))
        yb = y + title_h
        for img in beside_list:
            out.paste(img, (x, yb))
            yb += img.height + spacing
    y += row_h
    for img in below_list:
        y += spacing
        out.paste(img, (margin, y))
        y += img.height
    return out


def stacked(title: str, subtitle: str | None, panels: Sequence[Panel], legends: Sequence[Image.Image], *,
            width: int, size: int, title_size: int, legend_gap: int | None = None) -> Image.Image:
    """Title, subtitle, each titled panel and each legend one under another, ``width``
    pixels of content wide: the layout for narrow screens (a phone)."""
    legend_gap = size if legend_gap is None else legend_gap
    blocks: list[int | Image.Image | tuple[str, int, RGB]] = [
        (line, title_size, INK) for line in wrap(title, title_size, width)]
    if subtitle:
        blocks += [(line, size, MUTED) for line in wrap(subtitle, size, width)]
    blocks.append(size // 2)
    for name, im in panels:
        blocks += [(line, title_size, INK) for line in wrap(name, title_size, width)]
        blocks += [im, size]
    for legend_image in legends:
        blocks += [legend_image, legend_gap]
    height = 2 * size + sum(_block_height(b) for b in blocks)
    check_budget((width + 2 * size, height), what="the narrow picture", budget=DRAWN_PIXEL_BUDGET)
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


def _block_height(block: int | Image.Image | tuple[str, int, RGB]) -> int:
    if isinstance(block, int):
        return block
    if isinstance(block, Image.Image):
        return block.height
    return round(block[1] * 1.5)


# --- animation frames ------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One frame of an animation before layout: a heading ("Round 2, movement"), a
    sentence on what happens, the panel, and the legend under it (if any)."""

    heading: str
    detail: str
    panel: Image.Image
    legend: Image.Image | None = None


def frames(steps: Sequence[Step], *, title: str | None = None, size: int = 12, min_width: int = 400,
           supersample: int = 1) -> list[Image.Image]:
    """Every step as a picture of one common size (an animated picture needs that),
    so that the panel stays put while it plays: the ``title`` (if any), "n/N" and
    the step's heading, its detail in a quieter colour, the panel centred, and the
    legend underneath. ``size`` and ``min_width`` are in supersampled pixels;
    each frame is shrunk by ``supersample`` at the end."""
    big = round(size * 1.15)
    pad = size
    inner = max([st.panel.width for st in steps] + [st.legend.width for st in steps if st.legend is not None]
                + [min_width])
    heads = []
    for n, st in enumerate(steps, 1):
        heading = f"{n}/{len(steps)}  {st.heading}"
        head = [(line, big, INK) for line in wrap(title, big, inner)] if title else []
        head += [(line, size if title else big, INK) for line in wrap(heading, size if title else big, inner)]
        head += [(line, size, MUTED) for line in wrap(st.detail, size, inner)] if st.detail else []
        heads.append(head)
    head_h = max((sum(round(s * 1.5) for _, s, _ in head) for head in heads), default=0) + pad // 2
    panel_h = max((st.panel.height for st in steps), default=0)
    legend_h = max([st.legend.height for st in steps if st.legend is not None] + [0])
    width = inner + 2 * pad
    height = pad + head_h + panel_h + (pad + legend_h if legend_h else 0) + pad
    check_budget((width, height * len(steps)), what=f"the {len(steps)} frames", budget=DRAWN_PIXEL_BUDGET)
    out = []
    for st, head in zip(steps, heads):
        image = Image.new("RGB", (width, height), PAPER)
        draw = ImageDraw.Draw(image)
        y = pad
        for line, s, colour in head:
            text(draw, (pad, y + round(s * 1.5) / 2), line, size=s, fill=colour, anchor="lm")
            y += round(s * 1.5)
        image.paste(st.panel, (pad + (inner - st.panel.width) // 2, pad + head_h))
        if st.legend is not None:
            image.paste(st.legend, (pad, pad + head_h + panel_h + pad))
        out.append(finish(image, supersample))
    return out


def finish(image: Image.Image, supersample: int = 1) -> Image.Image:
    """Shrink an image drawn at ``supersample`` times the wanted size (smooths edges)."""
    return image.reduce(supersample) if supersample > 1 else image


# --- bounds on a picture ---------------------------------------------------------------------

PIXEL_BUDGET = 8_000_000  # the most pixels a finished picture may hold (about 2,800 x 2,800)
MAX_LEGEND_ROWS = 40  # the most rows one legend lists before it sums up the rest


class PictureTooLargeError(VerifierError):
    """A picture would need more pixels than :data:`PIXEL_BUDGET` (or the budget given):
    drawing it would take more memory and time than any reader can use. The message
    says how big it would be, the limit, and what to do instead."""


def pixels(size: tuple[float, float], supersample: int = 1) -> int:
    """How many pixels a picture of ``size`` (drawn ``supersample`` times over) will
    hold once finished."""
    s = max(1, int(supersample))
    return math.ceil(size[0] / s) * math.ceil(size[1] / s)


def within_budget(size: tuple[float, float], *, supersample: int = 1, budget: int = PIXEL_BUDGET) -> bool:
    """Whether a picture of ``size`` (in drawn pixels) stays within ``budget`` finished pixels."""
    return pixels(size, supersample) <= budget


MAX_SUPERSAMPLE = 4  # the most times over any ruleset draws a picture before shrinking it
DRAWN_PIXEL_BUDGET = PIXEL_BUDGET * MAX_SUPERSAMPLE ** 2  # pixels of one canvas while drawing
PIECE_BUDGET = 400  # the most pieces (ships, areas) one picture draws one by one, unless a ruleset says


def panel_budget(panels: int) -> int:
    """The finished pixels each of ``panels`` panels of one picture may hold, so that the
    picture they make together stays within :data:`PIXEL_BUDGET`."""
    return PIXEL_BUDGET // (max(1, panels) + 1)


def check_pieces(count: int, *, what: str, advice: str = "", budget: int = PIECE_BUDGET) -> None:
    """Refuse (with :class:`PictureTooLargeError`) before drawing ``count`` pieces one by one
    when that is more than ``budget``: such a picture takes minutes and says nothing a reader
    can see. ``what`` names the pieces ("20,000 tokens"); ``advice`` what to do instead."""
    if count > budget:
        raise PictureTooLargeError(f"{what} is more than the {budget:,} pieces a picture draws"
                                   + (f"; {advice}" if advice else ""))


def check_budget(size: tuple[float, float], *, what: str = "the picture", advice: str = "",
                 supersample: int = 1, budget: int = PIXEL_BUDGET) -> None:
    """Refuse (with :class:`PictureTooLargeError`) before drawing ``what`` if it would
    exceed ``budget`` finished pixels; ``advice`` says what to do instead."""
    if within_budget(size, supersample=supersample, budget=budget):
        return
    s = max(1, int(supersample))
    w, h = math.ceil(size[0] / s), math.ceil(size[1] / s)
    raise PictureTooLargeError(
        f"{what} would be {w:,} x {h:,} pixels ({w * h:,}), more than the {budget:,} a picture may hold"
        + (f"; {advice}" if advice else ""))


def capped(entries: Sequence[LegendEntry], *, limit: int = MAX_LEGEND_ROWS, noun: str = "rows",
           hint: str = "") -> list[LegendEntry]:
    """At most ``limit`` legend rows: the first ``limit`` of ``entries`` and, when some
    are left out, a last row saying how many ``noun`` were (and ``hint``, where to
    find them), so that a legend's size stays bounded however many things a scene has."""
    if len(entries) <= limit:
        return list(entries)
    left = len(entries) - limit
    return [*entries[:limit], LegendEntry(None, f"... and {left:,} more {noun}", hint)]


# --- a refused action --------------------------------------------------------------------

REFUSED_INK: RGB = (213, 94, 0)  # Okabe & Ito's vermillion, the colour of marks that something went wrong


def refusal_band(image: Image.Image, words: str, *, size: int = 12) -> Image.Image:
    """``image`` with a band under it that marks the action drawn as refused: a vermillion rule
    and ``words`` (which clause refused what, and why), wrapped to the picture's width."""
    pad = max(4, size // 2)
    lines = wrap(words, size, max(40, image.width - 2 * pad - 8))
    height = pad * 2 + 4 + len(lines) * (size + 4)
    band = Image.new("RGB", (image.width, image.height + height), PAPER)
    band.paste(image.convert("RGB"), (0, 0))
    draw = ImageDraw.Draw(band)
    top = image.height
    draw.rectangle((0, top, image.width - 1, top + 3), fill=REFUSED_INK)
    draw.rectangle((0, top + 4, 5, top + height - 1), fill=REFUSED_INK)
    for n, line in enumerate(lines):  # one sentence, one colour, however many lines it wraps to
        text(draw, (pad + 8, top + 4 + pad + n * (size + 4)), line, size=size, fill=REFUSED_INK)
    return band
