"""The drawing kit (verifier.kit.draw): plane view, primitives, label placement, layout."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest
from PIL import Image, ImageDraw

from verifier.kit import draw as vd
from verifier.snapshots import png_bytes


def disjoint(a: vd.Box, b: vd.Box) -> bool:
    return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


def box_clear_of_circle(box: vd.Box, centre: vd.Point, radius: float) -> bool:
    nx = min(max(centre[0], box[0]), box[2])
    ny = min(max(centre[1], box[1]), box[3])
    return math.hypot(nx - centre[0], ny - centre[1]) >= radius - 1e-9


# --- plane view ---------------------------------------------------------------------------


def test_plane_view_maps_world_corners_to_pixels():
    view = vd.PlaneView(-2, -1, 8, 4, scale=10, left=30, top=5, right=7, bottom=20)
    assert view.size == (30 + 100 + 7, 5 + 50 + 20)
    # +y is north: the top-left pixel of the window is the world's (x0, y1).
    assert view.px((-2, 4)) == (30, 5)
    assert view.px((8, 4)) == (130, 5)
    assert view.px((-2, -1)) == (30, 55)
    assert view.px((8, -1)) == (130, 55)
    assert view.area == (30, 5, 130, 55)
    assert view.world(view.px((3.25, 1.5))) == pytest.approx((3.25, 1.5))
    assert view.length(2.5) == 25
    # A tile board grows south.
    south = vd.PlaneView(0, 0, 5, 5, scale=20, y_up=False)
    assert south.px((0, 0)) == (0, 0) and south.px((5, 5)) == (100, 100) and south.px((1, 2)) == (20, 40)


def test_fit_keeps_all_content_inside_with_margins():
    circles = [((0.0, 0.0), 0.6), ((-3.2, -7.5), 1.5), ((5.1, 2.2), 0.3)]
    polygon = vd.rotated_rect((2.0, -3.0), 1.0, 4.0, 30.0)
    boxes = [vd.circle_box(c, r) for c, r in circles] + [vd.points_box(polygon)]
    view = vd.fit(boxes, target_px=300, margin=0.5, snap=1.0, supersample=2, pad=(4, 6, 6, 0), tick_size=20)
    left, top, right, bottom = view.area
    assert view.supersample == 2
    assert view.x0 == math.floor(view.x0) and view.y1 == math.ceil(view.y1)  # whole units at the edges
    for c, r in circles:
        x, y = view.px(c)
        radius = view.length(r)
        margin = view.length(0.5) - 1e-6
        assert left + margin <= x - radius and x + radius <= right - margin
        assert top + margin <= y - radius and y + radius <= bottom - margin
    for corner in polygon:
        x, y = view.px(corner)
        assert left < x < right and top < y < bottom
    # Room for the numbers left of and under the window, inside the picture.
    assert left >= 4 + vd.text_width("-8", 20) and view.size[1] - bottom >= 20


def test_fit_honours_the_minimum_span_and_the_scale_range():
    tiny = [vd.circle_box((0, 0), 0.1)]
    view = vd.fit(tiny, target_px=400, margin=0, min_span=7, snap=1, scale_range=(18, 56))
    assert (view.x0, view.x1) == (-4, 4) and view.scale == 400 / 8
    assert vd.fit(tiny, target_px=1000, margin=0, min_span=7, scale_range=(18, 56)).scale == 56
    assert vd.fit(tiny, target_px=10, margin=0, min_span=7, scale_range=(18, 56), supersample=3).scale == 18 * 3


def test_grid_numbers_every_unit_or_every_other():
    for scale, expected in ((30, 1), (15, 2)):
        view = vd.PlaneView(0, 0, 10, 2, scale=scale, left=30, bottom=20)
        image = Image.new("RGB", view.size, vd.PAPER)
        vd.grid(ImageDraw.Draw(image), view, step=1.0, size=10)
        # Crop the number row under x = 1: ink there only when every unit is numbered.
        x = round(view.px((1, 0))[0])
        row = image.crop((x - 3, round(view.area[3]) + 3, x + 3, view.size[1]))
        inked = row.getextrema()[0][0] < 200
        assert inked == (expected == 1)


def test_scale_bar_is_as_long_as_its_world_length():
    view = vd.PlaneView(0, 0, 100, 50, scale=4)
    image = Image.new("RGB", view.size, vd.PAPER)
    box = vd.scale_bar(ImageDraw.Draw(image), view, 25, "25 mm", size=10)
    assert box[2] - box[0] == pytest.approx(100 + 2 * 2)


# --- primitives -----------------------------------------------------------------------------


def flat(points):
    return [v for p in points for v in p]


def test_rotated_rectangle_corners():
    # Heading 0 is north: the length runs along +y.
    assert flat(vd.rotated_rect((0, 0), 2, 4, 0)) == pytest.approx(flat([(-1, 2), (1, 2), (1, -2), (-1, -2)]))
    # Heading 90 is east, clockwise from north: the length runs along +x, the front is east.
    corners = vd.rotated_rect((10, 5), 2, 4, 90)
    assert flat(corners) == pytest.approx(flat([(12, 6), (12, 4), (8, 4), (8, 6)]))
    corners = vd.rotated_rect((0, 0), 2, 2 * math.sqrt(2), 45)
    front_left, front_right = corners[0], corners[1]
    assert front_left[0] + front_right[0] == pytest.approx(2)  # the front faces north-east
    assert all(math.hypot(*c) == pytest.approx(math.sqrt(1 + 2)) for c in corners)
    # On the page (y down), heading 0 is still up.
    assert vd.rotated_rect((0, 0), 2, 4, 0, y_up=False)[0] == pytest.approx((-1, -2))


@pytest.mark.parametrize("heading", [0, 37, 90, 200, 315])
@pytest.mark.parametrize("half", [10, 45, 90, 135])
def test_sector_contains_its_mid_ray_and_not_the_opposite(heading, half):
    outline = vd.sector((3, -2), 10, heading, half)
    ahead = vd.heading_vector(heading)
    for r in (0.5, 5, 9.5):
        assert vd.point_in_polygon((3 + ahead[0] * r, -2 + ahead[1] * r), outline)
        assert not vd.point_in_polygon((3 - ahead[0] * r, -2 - ahead[1] * r), outline)
    # Just inside and just outside the edge rays.
    for side in (-1, 1):
        inside = vd.heading_vector(heading + side * (half - 3))
        outside = vd.heading_vector(heading + side * (half + 3))
        assert vd.point_in_polygon((3 + inside[0] * 6, -2 + inside[1] * 6), outline)
        assert not vd.point_in_polygon((3 + outside[0] * 6, -2 + outside[1] * 6), outline)


def test_arc_wedge_leaves_out_the_inner_disc():
    outline = vd.sector((0, 0), 10, 0, 30, inner=4)
    assert vd.point_in_polygon((0, 7), outline)
    assert not vd.point_in_polygon((0, 2), outline)
    assert not vd.point_in_polygon((0, 11), outline)


def test_translucent_fill_blends_the_two_colours():
    for mode in ("RGB", "RGBA"):
        image = Image.new(mode, (40, 40), (255, 255, 255) if mode == "RGB" else (255, 255, 255, 255))
        vd.circle(image, (20, 20), 12, fill=(0, 114, 178), alpha=128)
        vd.polygon(image, [(0, 0), (8, 0), (8, 8), (0, 8)], fill=(200, 0, 0), alpha=64)
        r, g, b = image.getpixel((20, 20))[:3]
        assert 0 < r < 255 and 114 < g < 255 and 178 < b < 255
        assert (r, g, b) == pytest.approx((127, 184, 216), abs=2)
        r, g, b = image.getpixel((4, 4))[:3]
        assert r == 255 or 200 < r < 255
        assert 0 < g < 255 and g == pytest.approx(255 * 0.75, abs=2)
        assert image.getpixel((39, 39))[:3] == (255, 255, 255)  # outside: untouched


def _primitives() -> bytes:
    view = vd.PlaneView(-5, -5, 5, 5, scale=12, left=10, top=10, right=10, bottom=10, supersample=2)
    image = Image.new("RGBA", view.size, vd.PAPER + (255,))
    draw = ImageDraw.Draw(image)
    vd.grid(draw, view, step=1)
    vd.rect(image, (1, 1), 1.5, 3, 30, fill=vd.OKABE_ITO["blue"], alpha=120, outline=vd.INK, view=view)
    vd.wedge(image, (-2, -2), 3, 200, 40, inner=1, fill=vd.OKABE_ITO["orange"], alpha=90, view=view)
    vd.circle(image, (2, -3), 1.2, outline=vd.MUTED, dash=(4, 3), width=2, view=view)
    vd.polyline(image, [(-4, 4), (-1, 3), (0, 4.5)], fill=vd.INK, dash=(5, 3), view=view)
    vd.arrow(image, [(-4, -4), (4, -4.5)], fill=vd.INK, view=view)
    placer = vd.LabelPlacer(bounds=view.area)
    vd.region(image, [(-4, 0), (-1, 0), (-1, 3), (-4, 3)], "Thrace", placer=placer, fill=(230, 230, 210),
              size=12, view=view)
    return png_bytes(vd.finish(image.convert("RGB"), 2))


def test_drawing_the_same_primitives_twice_gives_identical_bytes():
    assert _primitives() == _primitives()


def test_shapely_like_geometries_are_read_by_their_exterior():
    class Ring:
        coords = [(0.0, 0.0), (4.0, 0.0), (4.0, 3.0), (0.0, 0.0)]

    class Polygon:
        exterior = Ring()

    assert vd.points_of(Polygon()) == [(0.0, 0.0), (4.0, 0.0), (4.0, 3.0)]


# --- labels -------------------------------------------------------------------------------------


def test_fifty_crowded_labels_never_overlap_and_never_cover_markers_or_boxes():
    placer = vd.LabelPlacer(bounds=(0, 0, 800, 800), gap=2)
    markers = [((400 + 30 * math.cos(k), 400 + 30 * math.sin(k)), 8.0) for k in range(7)]
    boxes = [(380, 380, 420, 420), (450, 390, 480, 470)]
    for centre, radius in markers:
        placer.block_circle(centre, radius)
    for box in boxes:
        placer.block_box(box)
    placed = []
    for i in range(50):
        anchor = (400 + (i % 5) * 3, 400 + (i % 7) * 2)
        label = placer.place(anchor, f"label {i}" + "x" * (i % 4), size=12, clearance=10, rings=30)
        if label is not None:
            placed.append(label)
    # So many labels on one spot cannot all get a leader that crosses no other label:
    # the first ones fence the spot in, and the rest are left out rather than drawn
    # over something.
    assert len(placed) >= 15
    assert [p.box for p in placed] == placer.label_boxes
    for a, b in itertools.combinations(placed, 2):
        assert disjoint(a.box, b.box), (a, b)
        for label, other in ((a, b), (b, a)):
            if label.leader is not None:
                assert not vd.segment_meets_box(*label.leader, other.box), (label, other)
    for label in placed:
        box = label.box
        assert 0 <= box[0] and box[2] <= 800 and 0 <= box[1] and box[3] <= 800
        assert all(box_clear_of_circle(box, c, r) for c, r in markers)
        assert all(disjoint(box, other) for other in boxes)


def test_labels_without_leaders_fill_a_crowd_completely():
    placer = vd.LabelPlacer(bounds=(0, 0, 800, 800), gap=2)
    placer.block_circle((400, 400), 20)
    placed = [placer.place((400, 400), f"n{i}", size=12, clearance=20, rings=40, leader_after=99) for i in range(50)]
    assert all(p is not None for p in placed)
    boxes = [p.box for p in placed if p is not None]
    assert all(disjoint(a, b) for a, b in itertools.combinations(boxes, 2))
    assert all(box_clear_of_circle(b, (400, 400), 20) for b in boxes)


def test_placement_is_deterministic_and_prefers_the_first_free_spot():
    def run():
        placer = vd.LabelPlacer(gap=1)
        placer.block_circle((100, 100), 10)
        first = placer.place((100, 100), "first", size=12, clearance=10)
        second = placer.place((100, 100), "second", size=12, clearance=10)
        return first, second

    one, two = run(), run()
    assert one == two
    first, second = one
    assert first.box[0] >= 100 and first.box[3] <= 100  # up and to the right of the marker, by its corner
    assert disjoint(first.box, second.box)
    assert first.leader is None


def test_a_label_that_must_move_far_gets_a_leader_and_one_with_no_room_is_not_placed():
    placer = vd.LabelPlacer(bounds=(0, 0, 300, 300))
    for x in range(0, 300, 20):
        for y in range(0, 300, 20):
            if math.hypot(x - 150, y - 150) < 80:
                placer.block_circle((x, y), 12)
    far = placer.place((150, 150), "far", size=12, clearance=12, rings=20)
    assert far is not None and far.leader is not None
    assert far.leader[0] == pytest.approx((150 + 12 * math.cos(math.radians(0)), 150), abs=30)
    boxed = vd.LabelPlacer(bounds=(0, 0, 40, 20))
    assert boxed.place((20, 10), "much too long a label", size=12) is None
    assert boxed.placed == []
    # A shorter wording is tried when the first has no room.
    wide = vd.LabelPlacer(bounds=(0, 0, 120, 120))
    placed = wide.place((10, 60), "from the attacker, 14 in", size=12, shorter=("attacker\n14 in",))
    assert placed is not None and placed.content == "attacker\n14 in"


def test_region_label_lies_inside_the_region():
    # An L-shaped area: its centroid lies outside it, in the notch.
    shape = [(0, 0), (100, 0), (100, 20), (20, 20), (20, 100), (0, 100)]
    assert not vd.point_in_polygon(vd.centroid(shape), shape)
    point = vd.interior_point(shape)
    assert vd.point_in_polygon(point, shape)
    image = Image.new("RGB", (120, 120), vd.PAPER)
    placer = vd.LabelPlacer()
    placed = vd.region(image, shape, "Ak", placer=placer, fill=(220, 230, 240), size=10)
    assert placed is not None
    assert vd.box_in_polygon(placed.box, shape)
    # A convex region keeps its name at the middle.
    square = [(0, 0), (60, 0), (60, 60), (0, 60)]
    placed = vd.region(Image.new("RGB", (80, 80)), square, "Crete", placer=vd.LabelPlacer(), size=10)
    assert placed is not None and vd.box_in_polygon(placed.box, square)
    assert ((placed.box[0] + placed.box[2]) / 2, (placed.box[1] + placed.box[3]) / 2) == pytest.approx((30, 30),
                                                                                                       abs=2)


# --- layout ------------------------------------------------------------------------------------


def test_one_rule_for_the_legend_and_equal_frames():
    panels = [("a", Image.new("RGB", (380, 300))), ("b", Image.new("RGB", (380, 300)))]
    assert vd.legend_beside(panels, gap=24, legend_width=340, max_width=1150)
    assert not vd.legend_beside(panels, gap=24, legend_width=340, max_width=1100)
    steps = [vd.Step("one", "short", Image.new("RGB", (300, 200))),
             vd.Step("two", "a much longer detail " * 8, Image.new("RGB", (300, 200)), Image.new("RGB", (200, 50)))]
    frames = vd.frames(steps, title="A title", size=12, min_width=320)
    assert len({f.size for f in frames}) == 1


# --- a ruleset's picture --------------------------------------------------------------------------


def test_scatter_36_roll_figure_labels_cover_no_marker_box_or_label():
    from verifier.rulesets.scatter.clauses import SEED_READING
    from verifier.rulesets.scatter.draw import draw_case
    from verifier.rulesets.scatter.model import AllRolls, Shot
    from verifier.rulesets.scatter.resolver import resolve

    worked = Shot(3, 30, Fraction(12), Fraction(5, 2))  # the figure in docs/images/scatter-36-rolls.png
    placers: list[vd.LabelPlacer] = []
    draw_case(worked, AllRolls(), resolve(worked, AllRolls(), SEED_READING), placers=placers)
    assert len(placers) == 1
    placer = placers[0]
    labels = [p for p in placer.placed if p.content]
    faces = [p for p in placer.placed if not p.content]
    assert len(faces) == 4  # 1, 2/6, 3/5, 4 under the seed's fold
    assert sum(p.content == "x2" for p in labels) == 12  # every folded spot is counted
    for a, b in itertools.combinations(placer.placed, 2):
        assert disjoint(a.box, b.box), (a, b)
    # Words and faces keep off every marker: the landing spots, the base, the aimed
    # template's centre. (A face may sit on a disc in a picture where its ray ends on
    # one; here none does.)
    for p in placer.placed:
        assert all(disjoint(p.box, other) for other in placer.boxes), p
        assert all(box_clear_of_circle(p.box, c, r) for c, r in placer.circles), p


def test_the_unit_rides_on_the_last_x_number_and_stays_inside_the_picture():
    from PIL import Image, ImageDraw

    from verifier.kit import draw as vd
    view = vd.PlaneView(0, 0, 5, 3, 40, left=20, top=0, right=0, bottom=20)
    image = Image.new("RGB", view.size, vd.PAPER)
    vd.axis_labels(ImageDraw.Draw(image), view, xs=[(0, "0"), (5, "5")], size=10, fill=vd.INK, unit="in")
    row = image.crop((0, 3 * 40, image.width, image.height)).convert("L")
    inked = [x for x in range(row.width) if any(row.getpixel((x, y)) < 128 for y in range(row.height))]
    last_word = [x for x in inked if x > view.px((2.5, 0))[0]]
    # All of "5 in" is drawn, moved left so that none of it falls past the right edge.
    assert last_word and max(last_word) < image.width - 1
    assert max(last_word) - min(last_word) + 1 >= vd.text_width("5 in", 10) - 3


# One case of each ruleset, with marks, damage and legends of every kind it draws.
TEXT_CASES = ["armada/navigate.yaml", "armada2k/fire-large-sinks-on-third-hit.yaml",
              "civ/refused/over-capacity.yaml", "scatter/derived-cap-seed-max.yaml",
              "ypp/bump-4-larger-turner-class-first.yaml"]


@pytest.mark.parametrize("name", TEXT_CASES, ids=lambda n: n.split("/")[0])
def test_no_picture_draws_text_smaller_than_the_kits_smallest(name, monkeypatch):
    """The pages show a picture no smaller than keeps SMALLEST_TEXT at 9 px; so no text in a
    finished picture (its size over the supersampling) may be smaller than it."""
    from conftest import CASES

    from verifier.case import load_case
    from verifier.kit.draw import labels, layout, palette, plane, shapes
    sizes: list[int] = []
    reduced: list[int] = []
    real_text, real_finish = palette.text, layout.finish

    def text(draw, xy, content, *, size=12, **kwargs):
        sizes.append(size)
        return real_text(draw, xy, content, size=size, **kwargs)

    def finish(image, supersample=1):
        reduced.append(supersample)
        return real_finish(image, supersample)

    for module in (palette, labels, layout, plane, shapes, vd):
        if hasattr(module, "text"):
            monkeypatch.setattr(module, "text", text)
    monkeypatch.setattr(layout, "finish", finish)
    monkeypatch.setattr(vd, "finish", finish)
    case = load_case(CASES / name)
    outcome = case.ruleset.resolve(case.before, case.actions, case.readings)
    for draw in (lambda: case.ruleset.draw(case.before, case.actions, outcome, title=case.title),
                 lambda: case.ruleset.draw_narrow(case.before, case.actions, [("Before", None), ("After", outcome)],
                                                  title=case.title)):
        sizes.clear()
        reduced.clear()
        draw()
        assert sizes and reduced
        assert min(sizes) / reduced[-1] >= vd.SMALLEST_TEXT, (name, min(sizes), reduced[-1])


def test_backdrop_paints_once_per_key_and_hands_out_equal_copies():
    painted = []

    def paint(image):
        painted.append(image.size)
        vd.polygon(image, [(2, 2), (30, 4), (12, 25)], fill=vd.PALETTE[0], outline=vd.INK, width=3)
        return "inside"

    fresh = Image.new("RGB", (40, 30), vd.PAPER)
    paint(fresh)
    first, said = vd.backdrop(("test", 1), (40, 30), paint)
    again, said_again = vd.backdrop(("test", 1), (40, 30), paint)
    assert painted == [(40, 30), (40, 30)] and said == said_again == "inside"  # the second came from the first
    assert first.tobytes() == again.tobytes() == fresh.tobytes()
    first.putpixel((0, 0), (1, 2, 3))  # a copy: drawing on it leaves the kept one alone
    assert vd.backdrop(("test", 1), (40, 30), paint)[0].getpixel((0, 0)) == vd.PAPER
    vd.backdrop(("test", 2), (40, 30), paint)
    assert len(painted) == 3  # another key is painted afresh
