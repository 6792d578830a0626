"""Drawing cost (issue 15): work that grows about linearly with what a picture holds,
the same pixels as before for everything that was drawable before, and a bound on
pictures too big to read. Growth is checked by counting work (placer comparisons,
function calls), never by wall time."""

from __future__ import annotations

import random
import re

import pytest
from PIL import Image, ImageDraw

from verifier.errors import VerifierError
from verifier.kit import draw as vd
from verifier.kit.bench import count_calls
from verifier.kit.draw.layout import (
    MAX_LEGEND_ROWS,
    PIXEL_BUDGET,
    PictureTooLargeError,
    capped,
    check_budget,
    pixels,
    within_budget,
)
from verifier.kit.draw.plane import shrink_to_budget
from verifier.kit.draw.shapes import polygon_px
from verifier.rulesets.ypp import RULESET
from verifier.rulesets.ypp import animate as ypp_animate
from verifier.rulesets.ypp import draw as ypp_draw
from verifier.rulesets.ypp.bench import big_scene, rock_scene
from verifier.rulesets.ypp.model import Board, Heading, Scene, Ship, Token, Turn
from verifier.rulesets.ypp.resolver import resolve_turn

# --- thick outlines: Pillow's pixels, without a picture-sized mask each ----------------------


def _random_polygon(rng: random.Random, width: int, height: int) -> list[tuple[float, float]]:
    cx, cy = rng.uniform(-30, width + 30), rng.uniform(-30, height + 30)
    r = rng.uniform(1, 60)
    pts = [(cx + rng.uniform(-r, r), cy + rng.uniform(-r, r)) for _ in range(rng.randint(3, 9))]
    if rng.random() < 0.4:  # whole and half pixels, where rounding is most delicate
        pts = [(round(x * 2) / 2, round(y * 2) / 2) for x, y in pts]
    return pts


@pytest.mark.parametrize("mode", ["RGB", "RGBA", "L"])
def test_thick_outlines_have_pillows_pixels(mode):
    rng = random.Random(mode)
    for _ in range(300):
        w, h = rng.randint(20, 300), rng.randint(20, 300)

        def colour():
            return rng.randrange(256) if mode == "L" else tuple(rng.randrange(256) for _ in mode)

        base = Image.new(mode, (w, h), colour())
        ours, pillows = base.copy(), base.copy()
        canvas = ours if rng.random() < 0.5 else ImageDraw.Draw(ours)
        # Several polygons on one picture: the reused mask must come back clean each time.
        for _ in range(rng.randint(1, 4)):
            pts = _random_polygon(rng, w, h)
            fill = rng.choice([None, colour()])
            outline = rng.choice([None, colour(), fill])
            width = rng.randint(1, 7)
            ImageDraw.Draw(pillows).polygon(pts, fill=fill, outline=outline, width=width)
            polygon_px(canvas, pts, fill=fill, outline=outline, width=width)
        assert ours.tobytes() == pillows.tobytes()


def test_thick_outlines_cost_the_polygon_not_the_picture(monkeypatch):
    """Pillow's own polygon makes a picture-sized mask per thick outline; the kit's
    makes one per picture, however many outlines it draws."""
    made: list[tuple[int, int]] = []
    real_new = Image.new

    def counting_new(mode, size, *args, **kwargs):
        made.append(tuple(size))
        return real_new(mode, size, *args, **kwargs)

    tall = Image.new("RGB", (400, 6000), vd.PAPER)
    monkeypatch.setattr(Image, "new", counting_new)
    for k in range(200):
        vd.hull(tall, (200, 15 + k * 29), (1, 0), length=40, beam=16, fill=vd.piece_colour(k), width=2)
    assert made.count((400, 6000)) == 1


# --- the label placer: same places, work per label about constant ---------------------------


class _ScanningPlacer(vd.LabelPlacer):
    """The placer with its index bypassed: every stored item is tested, as before."""

    def _near(self, kind, box):
        items = self.placed if kind in ("labels", "leaders") else getattr(self, kind)
        if kind == "polygons":
            self._polygon_boxes[:] = [(min(p[0] for p in poly), min(p[1] for p in poly),
                                       max(p[0] for p in poly), max(p[1] for p in poly)) for poly in items]
        self.comparisons += len(items)
        return list(range(len(items)))


def _crowd(placer: vd.LabelPlacer, labels: int, seed: int = 3) -> list[vd.Placed | None]:
    """Markers, boxes, polygons, lines and rings at constant density on a page whose area
    grows with ``labels``, then one label per marker."""
    rng = random.Random(seed)
    side = 90 * labels ** 0.5
    anchors = [(rng.uniform(0, side), rng.uniform(0, side)) for _ in range(labels)]
    for x, y in anchors:
        placer.block_circle((x, y), 6)
    for _ in range(labels // 4):
        x, y = rng.uniform(0, side), rng.uniform(0, side)
        placer.block_box((x, y, x + 20, y + 12))
        placer.block_polygon([(x + 30, y), (x + 44, y + 5), (x + 36, y + 16)])
        placer.block_line([(x, y + 40), (x + 60, y + 55), (x + 70, y + 90)], width=3)
    placer.block_ring((side / 2, side / 2), 120, width=2)
    return [placer.place(a, f"label {k}", size=12, clearance=6, rings=6) for k, a in enumerate(anchors)]


def test_indexed_placer_puts_every_label_where_the_scanning_one_does():
    for labels in (5, 60, 250):
        fast, slow = vd.LabelPlacer(bounds=(0, 0, 2000, 2000)), _ScanningPlacer(bounds=(0, 0, 2000, 2000))
        assert _crowd(fast, labels) == _crowd(slow, labels)
        assert fast.placed == slow.placed


def test_placer_work_grows_linearly():
    work = {}
    for labels in (200, 800):
        placer = vd.LabelPlacer()
        placed = _crowd(placer, labels)
        assert sum(p is not None for p in placed) > labels * 0.8
        work[labels] = placer.comparisons
    # Four times the labels at the same density: about four times the comparisons (a
    # scan of everything placed so far would make it about sixteen).
    assert work[800] / work[200] < 5.5, work


def test_placer_follows_items_added_to_its_lists_directly():
    placer = vd.LabelPlacer()
    first = placer.place((100, 100), "first", size=12)
    assert first is not None
    placer.boxes.append(first.box)  # a caller may fill the public lists itself
    placer.placed.clear()
    second = placer.place((100, 100), "first", size=12)
    assert second is not None and second.box != first.box


# --- ypp: work that grows linearly, a summary for crowded boards -----------------------------


def _resolved(ships: int):
    big = big_scene(ships)
    return big.scene, big.turn, resolve_turn(big.scene, big.turn, RULESET.default_reading, record=True)


def test_ypp_drawing_work_grows_linearly():
    calls = {}
    for ships in (150, 600):
        scene, turn, outcome = _resolved(ships)
        calls[ships] = count_calls(lambda scene=scene, turn=turn, outcome=outcome:
                                   RULESET.draw(scene, turn, outcome))
    assert calls[600] / calls[150] < 5.0, calls  # linear growth gives about 4


def test_crowded_board_gets_a_bounded_summary_drawing():
    scene, turn, outcome = _resolved(600)
    image = RULESET.draw(scene, turn, outcome)
    assert image.width <= 1200 and image.height <= 1200  # was tens of thousands of pixels tall
    frames = RULESET.draw_frames(scene, turn, outcome)
    assert len(frames) <= 17 and all(f.image.height <= 1200 for f in frames)
    counted = [f.words for f in frames if re.search(r"\d+ collisions", f.words)]
    assert counted, [f.words for f in frames]
    narrow = RULESET.draw_narrow(scene, turn, [("Before", None), ("After", outcome)])
    assert narrow.height <= 2000


def test_ship_and_event_legends_end_with_what_they_left_out():
    entries = [vd.LegendEntry(None, f"ship {k}") for k in range(MAX_LEGEND_ROWS + 25)]
    rows = capped(entries, noun="ships", hint="see the text")
    assert rows[:MAX_LEGEND_ROWS] == entries[:MAX_LEGEND_ROWS]
    assert len(rows) == MAX_LEGEND_ROWS + 1
    assert rows[-1].name == "... and 25 more ships" and rows[-1].description == "see the text"
    assert capped(entries[:3]) == entries[:3]


def test_a_spread_out_fleet_is_drawn_ship_by_ship_with_a_capped_legend():
    """Sixty ships far apart are not crowded: hulls stay legible, the legend lists
    forty ships and says how many it left out."""
    ships = tuple(Ship(f"s{k:02d}", "sloop", (20 * (k % 10), 20 * (k // 10)), Heading.E) for k in range(60))
    scene = Scene(Board(200, 200, frozenset(), (), ()), ships)
    turn = Turn(((tuple((s.name, Token.FORWARD) for s in ships)),))
    outcome = resolve_turn(scene, turn, RULESET.default_reading, record=True)
    image = RULESET.draw(scene, turn, outcome)
    assert image.height < 2500
    options = dict(tile=48, margin=1, whole_board=12, max_panel=480, s=2, font_size=12)
    assert not ypp_draw._parts(scene, turn, [("After", outcome)], **options).style.crowded
    big, big_turn, big_outcome = _resolved(250)
    assert ypp_draw._parts(big, big_turn, [("After", big_outcome)], **options).style.crowded

    legend = ypp_draw._ship_legend(scene, turn, {s.name: vd.piece_colour(i) for i, s in enumerate(ships)}, None, 1,
                                   size=12, width=None, stacked=False)
    full = ypp_draw._ship_legend(Scene(scene.board, ships[:MAX_LEGEND_ROWS]), turn,
                                 {s.name: vd.piece_colour(i) for i, s in enumerate(ships)}, None, 1, size=12,
                                 width=None, stacked=False)
    assert legend.height == full.height + round(12 * 1.6)  # forty rows and the one that sums up the rest


def test_numbered_tags_match_the_one_by_one_search():
    def searched(names):
        tags, used = {}, set()
        for name in names:
            words = [w for w in re.split(r"[\s_-]+", name) if w] or [name]
            candidates = [(words[0][0] + words[-1][0]).upper() if len(words) > 1 else name[:1].upper(),
                          name[:1].upper(), name[:2].upper(), "".join(w[0] for w in words[:3]).upper()]
            tag = next((c for c in candidates if c and c not in used), None)
            n = 1
            while tag is None:
                n += 1
                if (c := f"{name[:1].upper()}{n}") not in used:
                    tag = c
            tags[name] = tag
            used.add(tag)
        return tags

    rng = random.Random(11)
    for _ in range(300):
        names = sorted({"".join(rng.choice("sS2 3_-ab") for _ in range(rng.randint(1, 4)))
                        for _ in range(rng.randint(1, 40))})
        names = [n for n in names if n.strip(" _-")]
        assert ypp_draw._tags(names) == searched(names)


# --- the pixel budget ---------------------------------------------------------------------


def test_pixel_budget_refuses_with_the_size_the_limit_and_what_to_do():
    assert within_budget((2000, 2000)) and within_budget((4000, 4000), supersample=2)
    assert not within_budget((4000, 4000))
    with pytest.raises(PictureTooLargeError) as caught:
        check_budget((9000, 3000), what="the board", advice="draw a smaller window")
    message = str(caught.value)
    assert isinstance(caught.value, VerifierError)
    assert "the board would be 9,000 x 3,000 pixels" in message
    assert f"{PIXEL_BUDGET:,}" in message and message.endswith("draw a smaller window")


def test_ypp_refuses_a_board_drawn_past_the_budget_before_allocating_it():
    scene, turn = rock_scene(2_000)
    outcome = resolve_turn(scene, turn, RULESET.default_reading)
    with pytest.raises(PictureTooLargeError, match="smaller tile or max_panel"):
        ypp_draw.draw_case(scene, turn, outcome, tile=48, max_panel=100_000)
    with pytest.raises(PictureTooLargeError, match="each frame's board would be"):
        ypp_animate.draw_frames(scene, turn, outcome, tile=48, max_panel=100_000)


def test_long_rock_list_draws_within_the_default_bounds():
    scene, turn = rock_scene(20_000)
    outcome = resolve_turn(scene, turn, RULESET.default_reading)
    image = RULESET.draw(scene, turn, outcome)
    assert within_budget(image.size)


def test_a_vast_plane_is_drawn_smaller_to_stay_within_the_budget():
    boxes = [vd.circle_box((0, 0), 1), vd.circle_box((1000, 600), 1)]  # 1000 inches apart, as in a hostile case
    fitted = vd.fit(boxes, target_px=400, scale_range=(18, 56), supersample=2, tick_size=20)
    assert within_budget(fitted.size, supersample=2)  # fit itself stays within the budget
    # What fit would make without the budget: 18 px an inch at least, tens of thousands of pixels.
    view = vd.PlaneView(fitted.x0, fitted.y0, fitted.x1, fitted.y1, 36.0, fitted.left, fitted.top, fitted.right,
                        fitted.bottom, True, 2)
    assert not within_budget(view.size, supersample=2)
    shrunk = shrink_to_budget(view)
    assert shrunk.scale == fitted.scale
    assert within_budget(shrunk.size, supersample=2)
    assert (shrunk.x0, shrunk.y0, shrunk.x1, shrunk.y1) == (view.x0, view.y0, view.x1, view.y1)
    assert (shrunk.left, shrunk.bottom) == (view.left, view.bottom) and shrunk.scale < view.scale
    # Close to the budget, not needlessly small.
    assert pixels(shrunk.size, 2) > PIXEL_BUDGET * 0.6
    small = vd.fit([vd.circle_box((0, 0), 3)], supersample=2, tick_size=20)
    assert shrink_to_budget(small) is small
    with pytest.raises(PictureTooLargeError, match="margins of this view alone"):
        shrink_to_budget(vd.PlaneView(0, 0, 10, 10, 20, left=5000, bottom=5000), budget=1000)
