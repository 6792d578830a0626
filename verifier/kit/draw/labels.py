"""Label placement that never lets a label cover another label, a marker or a box.

A :class:`LabelPlacer` keeps what a panel already holds: markers (circles), boxes
(die faces, verdicts, a scale bar), polygons, lines, and the labels it placed.
Each new label goes to the first free spot among fixed candidates around its
anchor: beside it first (upper right, as a map labels a town), then further out
ring by ring, with a leader line back to the anchor once it had to move far.
Nothing is random: the same calls give the same places. A label that finds no
free spot is not placed (:meth:`LabelPlacer.place` returns None), so the caller
can say it elsewhere.

Also here: plane-geometry helpers for pixel shapes (point in polygon, segments
and boxes, box overlaps) and :func:`interior_point`, a good place for a region's
name.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from PIL import ImageDraw

from .palette import INK, MUTED, PAPER, RGB, Box, Point, text, text_box

# Candidate directions, in degrees on the page, counter-clockwise from east, in the
# order a map labels a town: upper right, lower right, upper left, lower left, then
# right, left, above and below.
AROUND: tuple[float, ...] = (35, -35, 145, -145, 0, 180, 90, -90)
_COMPASS16: tuple[float, ...] = tuple(k * 22.5 for k in range(16))


# --- geometry in pixels ------------------------------------------------------------------


def boxes_overlap(a: Box, b: Box) -> bool:
    """Whether two boxes share any area (touching edges do not count)."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def grow(box: Box, by: float) -> Box:
    """``box`` grown by ``by`` pixels on every side."""
    return (box[0] - by, box[1] - by, box[2] + by, box[3] + by)


def box_circle_distance(box: Box, centre: Point) -> float:
    """How far ``centre`` is from the nearest point of ``box`` (0 inside it)."""
    nx = min(max(centre[0], box[0]), box[2])
    ny = min(max(centre[1], box[1]), box[3])
    return math.hypot(nx - centre[0], ny - centre[1])


def segment_distance(p: Point, a: Point, b: Point) -> float:
    """The distance from ``p`` to the segment ``a``-``b``."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = dx * dx + dy * dy
    t = 0.0 if n == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / n))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def segments_cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Whether segments ``a``-``b`` and ``c``-``d`` intersect (touching counts)."""
    # Segments whose boxes stand apart neither cross nor come within the touching tolerance.
    if (max(a[0], b[0]) < min(c[0], d[0]) - 1e-6 or max(c[0], d[0]) < min(a[0], b[0]) - 1e-6
            or max(a[1], b[1]) < min(c[1], d[1]) - 1e-6 or max(c[1], d[1]) < min(a[1], b[1]) - 1e-6):
        return False
    d1, d2, d3, d4 = _cross(c, d, a), _cross(c, d, b), _cross(a, b, c), _cross(a, b, d)
    if d1 * d2 < 0 and d3 * d4 < 0:
        return True
    return (segment_distance(a, c, d) < 1e-9 or segment_distance(b, c, d) < 1e-9
            or segment_distance(c, a, b) < 1e-9 or segment_distance(d, a, b) < 1e-9)


def segment_meets_box(a: Point, b: Point, box: Box, margin: float = 0.0) -> bool:
    """Whether the segment ``a``-``b`` passes through ``box`` grown by ``margin`` (a
    quick, slightly generous "comes within ``margin`` of it"; Liang-Barsky clipping)."""
    x0, y0, x1, y1 = box[0] - margin, box[1] - margin, box[2] + margin, box[3] + margin
    if max(a[0], b[0]) < x0 or min(a[0], b[0]) > x1 or max(a[1], b[1]) < y0 or min(a[1], b[1]) > y1:
        return False
    dx, dy = b[0] - a[0], b[1] - a[1]
    t0, t1 = 0.0, 1.0
    for p, q in ((-dx, a[0] - x0), (dx, x1 - a[0]), (-dy, a[1] - y0), (dy, y1 - a[1])):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return False
    return True


def point_in_polygon(point: Point, polygon: Sequence[Point]) -> bool:
    """Whether ``point`` lies inside ``polygon`` (even-odd rule)."""
    x, y = point
    inside = False
    n = len(polygon)
    for i in range(n):
        (x0, y0), (x1, y1) = polygon[i], polygon[(i + 1) % n]
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


def polygon_box_overlap(polygon: Sequence[Point], box: Box) -> bool:
    """Whether ``polygon`` and ``box`` share any area (or an edge crosses the box)."""
    if not polygon:
        return False
    corners = _corners(box)
    if any(point_in_polygon(c, polygon) for c in corners):
        return True
    if any(box[0] < p[0] < box[2] and box[1] < p[1] < box[3] for p in polygon):
        return True
    return any(segments_cross(p, q, c, d) for p, q in _edges(polygon) for c, d in _edges(corners))


def box_in_polygon(box: Box, polygon: Sequence[Point]) -> bool:
    """Whether ``box`` lies wholly inside ``polygon``."""
    corners = _corners(box)
    if not all(point_in_polygon(c, polygon) for c in corners):
        return False
    return not any(segments_cross(p, q, c, d) for p, q in _edges(polygon) for c, d in _edges(corners))


def _corners(box: Box) -> list[Point]:
    return [(box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3])]


def _edges(points: Sequence[Point]) -> list[tuple[Point, Point]]:
    return [(points[i], points[(i + 1) % len(points)]) for i in range(len(points))]


def centroid(polygon: Sequence[Point]) -> Point:
    """The area centroid of a polygon (the mean of its corners if it has no area)."""
    area = cx = cy = 0.0
    for (x0, y0), (x1, y1) in _edges(polygon):
        c = x0 * y1 - x1 * y0
        area += c
        cx += (x0 + x1) * c
        cy += (y0 + y1) * c
    if abs(area) < 1e-12:
        n = max(len(polygon), 1)
        return (sum(p[0] for p in polygon) / n, sum(p[1] for p in polygon) / n)
    return (cx / (3 * area), cy / (3 * area))


def edge_distance(point: Point, polygon: Sequence[Point]) -> float:
    """How far ``point`` is from the nearest edge of ``polygon``."""
    return min(segment_distance(point, a, b) for a, b in _edges(polygon))


def interior_point(polygon: Sequence[Point], *, samples: int = 16) -> Point:
    """A point well inside ``polygon``, for its name: the centroid if it lies inside
    and well clear of the edges, otherwise the point farthest from every edge on a
    grid over the polygon, refined once around the best cell (an approximate pole
    of inaccessibility)."""
    pts = [(float(x), float(y)) for x, y in polygon]
    if len(pts) < 3:
        return centroid(pts)
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    x0, y0, x1, y1 = min(xs), min(ys), max(xs), max(ys)
    centre = centroid(pts)
    centre_d = edge_distance(centre, pts) if point_in_polygon(centre, pts) else -1.0
    if centre_d >= 0.25 * min(x1 - x0, y1 - y0):
        return centre
    best, best_d = centre, centre_d
    for _ in range(2):
        cell_w, cell_h = (x1 - x0) / samples, (y1 - y0) / samples
        for j in range(samples):
            for i in range(samples):
                p = (x0 + cell_w * (i + 0.5), y0 + cell_h * (j + 0.5))
                if point_in_polygon(p, pts):
                    d = edge_distance(p, pts)
                    if d > best_d + 1e-9:
                        best, best_d = p, d
        x0, x1, y0, y1 = best[0] - cell_w, best[0] + cell_w, best[1] - cell_h, best[1] + cell_h
    return best


# --- a spatial index -------------------------------------------------------------------------

_CELL = 64.0  # pixels a side of one cell of the placer's index
_WIDE = 1024  # an item covering more cells than this is kept in one list tested every time


class _Grid:
    """A uniform grid over the page: each item is filed under every cell its box
    touches (edges included), so a box can only meet items filed under the cells it
    touches. Keeps a placer's work per label about constant however much the page
    holds. ``synced`` is how many items of the placer's list are filed."""

    def __init__(self) -> None:
        self.cells: dict[tuple[int, int], list[int]] = {}
        self.wide: list[int] = []
        self.synced = 0

    def add(self, index: int, box: Box) -> None:
        if not all(math.isfinite(v) for v in box):
            self.wide.append(index)
            return
        i0, j0, i1, j1 = _cell_range(box)
        if (i1 - i0 + 1) * (j1 - j0 + 1) > _WIDE:
            self.wide.append(index)
            return
        for j in range(j0, j1 + 1):
            for i in range(i0, i1 + 1):
                self.cells.setdefault((i, j), []).append(index)

    def near(self, box: Box) -> list[int]:
        """The items that may meet ``box``, each once, in the order they were filed."""
        if not self.cells:
            return list(self.wide)  # filed in order, each once
        if not all(math.isfinite(v) for v in box):
            return sorted({k for found in self.cells.values() for k in found} | set(self.wide))
        i0, j0, i1, j1 = _cell_range(box)
        if (i1 - i0 + 1) * (j1 - j0 + 1) > _WIDE:
            return sorted({k for found in self.cells.values() for k in found} | set(self.wide))
        cells = self.cells
        if i0 == i1 and j0 == j1 and not self.wide:  # one cell: its list is already in order, each once
            return list(cells.get((i0, j0), ()))
        found: set[int] = set(self.wide)
        for j in range(j0, j1 + 1):
            for i in range(i0, i1 + 1):
                here = cells.get((i, j))
                if here:
                    found.update(here)
        return sorted(found)


def _cell_range(box: Box) -> tuple[int, int, int, int]:
    return (math.floor(box[0] / _CELL), math.floor(box[1] / _CELL), math.floor(box[2] / _CELL),
            math.floor(box[3] / _CELL))


def _segment_box(a: Point, b: Point, margin: float = 0.0) -> Box:
    return (min(a[0], b[0]) - margin, min(a[1], b[1]) - margin, max(a[0], b[0]) + margin, max(a[1], b[1]) + margin)


def _polygon_bounds(poly: Sequence[Point]) -> Box:
    xs, ys = [p[0] for p in poly], [p[1] for p in poly]
    return (min(xs), min(ys), max(xs), max(ys))


# --- placement ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Placed:
    """A label where the placer put it: draw ``content`` at ``xy`` with anchor "mm"
    (a box placed with :meth:`LabelPlacer.place_box` is centred on ``xy``). ``box``
    is the space it holds (ink, stroke and a small gap); ``leader`` runs from the
    anchor to the label when it had to move far."""

    content: str
    xy: Point
    box: Box
    size: int
    stroke: int = 0
    leader: tuple[Point, Point] | None = None
    align: str = "left"  # of the lines of a label broken with "\\n": towards the anchor


@dataclass
class LabelPlacer:
    """Places labels so that none covers another, a marker, a box, a polygon or a
    line it was told about. ``bounds`` (a pixel box) keeps labels inside the panel;
    ``gap`` pixels stay free around each label."""

    bounds: Box | None = None
    gap: float = 2.0
    circles: list[tuple[Point, float]] = field(default_factory=list)
    boxes: list[Box] = field(default_factory=list)
    polygons: list[list[Point]] = field(default_factory=list)
    lines: list[tuple[Point, Point, float]] = field(default_factory=list)
    placed: list[Placed] = field(default_factory=list)
    # How many stored items boxes have been tested against: the placer's work, for cost tests.
    comparisons: int = field(default=0, init=False, compare=False)
    _grids: dict[str, _Grid] = field(default_factory=dict, init=False, repr=False, compare=False)
    _polygon_boxes: list[Box] = field(default_factory=list, init=False, repr=False, compare=False)

    # -- what is already there --

    def block_circle(self, centre: Point, radius: float) -> None:
        """A round marker (a disc, a landing spot): no label may cover it."""
        self.circles.append(((float(centre[0]), float(centre[1])), float(radius)))

    def block_box(self, box: Box) -> None:
        """A box (a die face, a verdict, a scale bar): no label may cover it."""
        self.boxes.append(box)

    def block_polygon(self, points: Iterable[Point]) -> None:
        """A polygon (a ship's base, an obstacle): no label may cover it."""
        self.polygons.append([(float(x), float(y)) for x, y in points])

    def block_line(self, points: Sequence[Point], width: float = 1.0) -> None:
        """A line or path ``width`` pixels wide: no label may cross it."""
        for a, b in itertools.pairwise(points):
            self.lines.append((a, b, width / 2))

    def block_ring(self, centre: Point, radius: float, width: float = 1.0) -> None:
        """The rim of a circle (a dashed outline): labels may sit inside or outside it,
        not across it."""
        n = max(12, min(96, int(radius / 2)))
        pts = [(centre[0] + radius * math.cos(2 * math.pi * k / n), centre[1] + radius * math.sin(2 * math.pi * k / n))
               for k in range(n + 1)]
        self.block_line(pts, width)

    @property
    def label_boxes(self) -> list[Box]:
        """The boxes of every label placed so far, in order."""
        return [p.box for p in self.placed]

    def is_free(self, box: Box, *, ignore_circle: tuple[Point, float] | None = None) -> bool:
        """Whether ``box`` is inside the bounds and covers nothing known."""
        if self.bounds is not None:
            b = self.bounds
            if box[0] < b[0] or box[1] < b[1] or box[2] > b[2] or box[3] > b[3]:
                return False
        boxes = self.boxes
        if any(boxes_overlap(box, boxes[k]) for k in self._near("boxes", box)):
            return False
        placed = self.placed
        if any(boxes_overlap(box, placed[k].box) for k in self._near("labels", box)):
            return False
        for k in self._near("circles", box):
            circle = self.circles[k]
            if circle != ignore_circle and box_circle_distance(box, circle[0]) < circle[1]:
                return False
        for k in self._near("polygons", box):
            if boxes_overlap(box, self._polygon_boxes[k]) and polygon_box_overlap(self.polygons[k], box):
                return False
        lines = self.lines
        if any(segment_meets_box(lines[k][0], lines[k][1], box, lines[k][2]) for k in self._near("lines", box)):
            return False
        for k in self._near("leaders", box):
            leader = placed[k].leader
            if leader is not None and segment_meets_box(*leader, box):
                return False
        return True

    def _near(self, kind: str, box: Box) -> list[int]:
        """Indices of the items of one kind ("boxes", "labels", "circles", "polygons",
        "lines", "leaders") that may meet ``box``; files any items added since the
        last call first (the lists are public, so they are read, never trusted)."""
        grid = self._grids.get(kind)
        items: Sequence[object] = self.placed if kind in ("labels", "leaders") else getattr(self, kind)
        if not items:  # nothing of this kind (often): nothing to file or to test
            if grid is not None and grid.synced:
                del self._grids[kind]  # the list was emptied: filed again from scratch when it fills
            return []
        if grid is None or grid.synced > len(items):
            grid = self._grids[kind] = _Grid()
            if kind == "polygons":
                self._polygon_boxes.clear()
        for k in range(grid.synced, len(items)):
            if kind == "boxes":
                grid.add(k, self.boxes[k])
            elif kind == "labels":
                grid.add(k, self.placed[k].box)
            elif kind == "leaders":
                leader = self.placed[k].leader
                if leader is not None:
                    grid.add(k, _segment_box(*leader))
            elif kind == "circles":
                (cx, cy), r = self.circles[k]
                grid.add(k, (cx - r, cy - r, cx + r, cy + r))
            elif kind == "polygons":
                bounds = _polygon_bounds(self.polygons[k])
                self._polygon_boxes.append(bounds)
                grid.add(k, bounds)
            else:
                a, b, half = self.lines[k]
                grid.add(k, _segment_box(a, b, half))
        grid.synced = len(items)
        found = grid.near(box)
        self.comparisons += len(found)
        return found

    # -- placing --

    def place(self, anchor: Point, content: str, *, size: int, stroke: int = 0, clearance: float = 0.0,
              angles: Sequence[float] = AROUND, rings: int = 8, step: float | None = None,
              on_anchor: bool = False, leader_after: int = 2, widen_after: int = 1,
              inside: Sequence[Point] | None = None, ignore: tuple[Point, float] | None = None,
              shorter: Sequence[str] = (), hug: bool = False) -> Placed | None:
        """Put ``content`` (drawn at ``size`` with a ``stroke``) near ``anchor``.

        Candidates are tried in a fixed order: on the anchor itself if
        ``on_anchor``; then ``clearance`` pixels out (the radius of the marker
        being labelled) in each of ``angles`` (degrees counter-clockwise from
        east on the page), the label's nearest side or corner touching that
        point, as a map labels a town (with ``hug``, the label is instead
        centred on that ray, just far enough out to keep ``clearance``: for
        short labels that must sit square to something); then ring after ring
        further out (``step`` pixels apart), where more and more directions
        join in from ring ``widen_after`` on. From ring ``leader_after`` on, a
        leader line joins the label to its anchor. ``inside`` keeps the label
        within a polygon (a region's name). ``ignore`` is a blocked circle the
        label may overlap (the marker it names, when ``on_anchor``).

        ``shorter`` are the same words shortened or broken onto two lines with
        "\\n": a shorter wording beside the anchor beats the full one far away,
        so every wording is first tried in the preferred directions without a
        leader, and only then anywhere. Returns None, and places nothing, when
        no wording fits anywhere."""
        wordings = [(words, text_box((0.0, 0.0), words, size=size, anchor="mm", stroke=stroke))
                    for words in (content, *shorter)]
        near = min(rings, leader_after - 1)
        passes = [(near, rings + 1), (rings, widen_after)] if shorter and near >= 0 else [(rings, widen_after)]
        for limit, widen in passes:
            for words, ink in wordings:
                placed = self._place(anchor, ink, words, size, stroke, clearance=clearance, angles=angles,
                                     rings=limit, step=step, on_anchor=on_anchor, leader_after=leader_after,
                                     widen_after=widen, inside=inside, ignore=ignore, hug=hug)
                if placed is not None:
                    return placed
        return None

    def place_box(self, anchor: Point, width: float, height: float, *, clearance: float = 0.0,
                  angles: Sequence[float] = AROUND, rings: int = 8, step: float | None = None,
                  on_anchor: bool = False, leader_after: int = 2, widen_after: int = 1,
                  inside: Sequence[Point] | None = None, ignore: tuple[Point, float] | None = None,
                  hug: bool = False) -> Placed | None:
        """As :meth:`place`, for a box ``width`` by ``height`` pixels that the caller
        draws itself (a tag, a die face) centred on the returned ``xy``."""
        ink = (-width / 2, -height / 2, width / 2, height / 2)
        return self._place(anchor, ink, "", 0, 0, clearance=clearance, angles=angles, rings=rings, step=step,
                           on_anchor=on_anchor, leader_after=leader_after, widen_after=widen_after, inside=inside,
                           ignore=ignore, hug=hug)

    def place_disc(self, anchor: Point, radius: float, *, rings: int = 6, leader_after: int = 3) -> Placed:
        """Where a round mark of ``radius`` (a numbered badge, a bang) goes: on ``anchor``
        where that covers nothing known, else the nearest free spot around it (with a
        leader back to the anchor once it had to move far), else on the anchor all the
        same. The spot is kept, so the marks and labels placed after keep clear of it;
        ``xy`` of the result is the mark's centre."""
        spot = self.place_box(anchor, 2 * radius, 2 * radius, on_anchor=True, hug=True, rings=rings,
                              step=max(radius * 0.6, 1.0), leader_after=leader_after)
        if spot is None:
            ax, ay = float(anchor[0]), float(anchor[1])
            spot = Placed("", (ax, ay), (ax - radius, ay - radius, ax + radius, ay + radius), 0)
            self.placed.append(spot)
        self.block_circle(spot.xy, radius)
        return spot

    def _place(self, anchor: Point, ink: Box, content: str, size: int, stroke: int, *, clearance: float,
               angles: Sequence[float], rings: int, step: float | None, on_anchor: bool, leader_after: int,
               widen_after: int, inside: Sequence[Point] | None, ignore: tuple[Point, float] | None,
               hug: bool) -> Placed | None:
        pad = self.gap
        left, top, right, bottom = ink[0] - pad, ink[1] - pad, ink[2] + pad, ink[3] + pad
        w, h = right - left, bottom - top
        step = step if step is not None else max(h * 0.8, 1.0)
        ax, ay = float(anchor[0]), float(anchor[1])
        out: dict[float, float] = {}  # per direction, how far out a hugging label sits

        def candidates() -> Iterator[tuple[Point, Point, int]]:
            """(box centre, direction, ring), in the order they are tried."""
            if on_anchor:
                yield (ax, ay), (0.0, 0.0), 0
            for ring in range(rings + 1):
                spread = list(angles)
                if ring >= widen_after:
                    # Further out there is room for more directions: 16, then 8 more a ring, up to 48.
                    n = min(48, 16 + 8 * max(0, ring - widen_after - 1))
                    spread += [a for a in _COMPASS16 if a not in angles]
                    finer = [k * 360 / n for k in range(n)]
                    spread += [a for a in finer if a not in _COMPASS16 and a not in angles]
                for degrees in spread:
                    rad = math.radians(degrees)
                    ux, uy = math.cos(rad), -math.sin(rad)
                    if hug:
                        if degrees not in out:
                            out[degrees] = _hug(ux, uy, w / 2, h / 2, clearance)
                        t = out[degrees] + ring * step
                        yield (ax + ux * t, ay + uy * t), (ux, uy), ring
                        continue
                    # The side or corner of the box nearest the anchor touches the point.
                    t = clearance + ring * step
                    hx = 0.0 if ux > 0.38 else (1.0 if ux < -0.38 else 0.5)
                    vy = 0.0 if uy > 0.38 else (1.0 if uy < -0.38 else 0.5)
                    yield (ax + ux * t + (0.5 - hx) * w, ay + uy * t + (0.5 - vy) * h), (ux, uy), ring

        for (cx, cy), (ux, uy), ring in candidates():
            centred = (ux, uy) == (0.0, 0.0)
            bx0, by0 = cx - w / 2, cy - h / 2
            box = (bx0, by0, bx0 + w, by0 + h)
            if inside is not None and not box_in_polygon(box, inside):
                continue
            if not self.is_free(box, ignore_circle=ignore):
                continue
            leader = None
            if ring >= leader_after and not centred:
                start = (ax + ux * clearance, ay + uy * clearance)
                end = _nearest_on_box(start, grow(box, -pad))
                if any(segment_meets_box(start, end, self.placed[k].box)
                       for k in self._near("labels", _segment_box(start, end))):
                    continue  # a leader may cross a marker, never another label
                leader = (start, end)
            align = "center" if centred or abs(ux) < 0.38 else ("left" if ux > 0 else "right")
            placed = Placed(content, (bx0 - left, by0 - top), box, size, stroke, leader, align)
            self.placed.append(placed)
            return placed
        return None

    def draw(self, draw: ImageDraw.ImageDraw, placed: Placed | None, *, fill: RGB = INK,
             stroke_fill: RGB = PAPER, leader: RGB = MUTED, leader_width: int = 1) -> None:
        """Draw a placed label (and its leader line); nothing if it was not placed."""
        if placed is None:
            return
        if placed.leader is not None:
            draw.line(list(placed.leader), fill=leader, width=leader_width)
        text(draw, placed.xy, placed.content, size=placed.size, fill=fill, anchor="mm", stroke=placed.stroke,
             stroke_fill=stroke_fill, align=placed.align)


def _hug(ux: float, uy: float, half_w: float, half_h: float, clearance: float) -> float:
    """How far along (ux, uy) a box of these half sizes must be centred to keep
    ``clearance`` pixels from the origin: it then touches the circle of that radius."""
    def clear(t: float) -> bool:
        cx, cy = ux * t, uy * t
        return box_circle_distance((cx - half_w, cy - half_h, cx + half_w, cy + half_h), (0.0, 0.0)) >= clearance
    lo, hi = 0.0, clearance + half_w + half_h
    if clear(lo):
        return lo
    for _ in range(24):
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if clear(mid) else (mid, hi)
    return hi


def _nearest_on_box(point: Point, box: Box) -> Point:
    return (min(max(point[0], box[0]), box[2]), min(max(point[1], box[1]), box[3]))
