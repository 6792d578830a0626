"""Scatter for the rule pages: a shot step by step (an animation), the case's
diagram stacked for a narrow screen, and the scene in one sentence for alt text.

One roll plays in three steps: where the shot put the template, the deviation
roll (the six direction faces at the rolled distance, the rolled one dark), and
where the template lands, hit or miss. The 36 rolls play one direction face at a
time, so that a newcomer sees how the chance is counted: the aimed template and
the hit zone, then the six distances of direction 1, of direction 2, ..., with a
running count, and last every roll with the exact chance.

Built from the pieces of :mod:`verifier.rulesets.scatter.draw`, over one view of
the table for every frame, laid out by the drawing kit's one layout for frames and
for the stacked column, so the picture stays put while it plays. Nothing here
reads a clock or a random source.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from ...kit import draw as vd
from ...ruleset import AnimationFrame, Outcome
from .clauses import PUBLISHED_READING
from .draw import (
    _aim_words,
    _cap_words,
    _contact_words,
    _fit,
    _interest,
    _key_entries,
    _panel_after,
    _panel_before,
    _panel_odds,
    _spot_groups,
    panel_parts,
)
from .exact import decimal_text, fraction_text
from .model import DIE_FACES, Actions, AllRolls, Landing, Odds, Roll, Shot
from .resolver import direction_words


def _rolls(rolls: Sequence[Roll]) -> str:
    return ", ".join(f"{r.distance}-{r.direction}" for r in rolls) or "none"


def _steps_one_roll(shot: Shot, roll: Roll, outcome: Outcome, reading, view: vd.PlaneView,
                    placers: list[vd.LabelPlacer] | None = None):
    """(words, heading, detail, panel) for each step of one roll."""
    landing: Landing = outcome.after
    moved = decimal_text(landing.moved, 2)
    aim = _aim_words(shot, reading)
    return [
        (f"aimed: {aim}", "Aimed: where the shot put the template",
         f"The shot missed, so the template will deviate. Aimed {aim}.",
         _panel_before(shot, roll, reading, view, rose=False, placers=placers)),
        (f"deviation roll: distance {roll.distance}, direction {roll.direction}, the template moves {moved} in "
         f"{direction_words(roll.direction, reading['side'])}",
         f"Deviation roll: distance {roll.distance}, direction {roll.direction}",
         f"The distance die says {roll.distance} in; the direction die picks face {roll.direction} of the six "
         f"around the template ({direction_words(roll.direction, reading['side'])}): it moves {moved} in, "
         f"{_cap_words(shot, landing, reading)}.",
         _panel_before(shot, roll, reading, view, placers=placers)),
        (f"landing: {'hit' if landing.hit else 'miss'}, {_contact_words(landing, reading)}",
         f"Landing: {'HIT' if landing.hit else 'MISS'}",
         f"The template's centre ends at [{decimal_text(landing.point.floats()[0], 2)}, "
         f"{decimal_text(landing.point.floats()[1], 2)}]; {_contact_words(landing, reading)}.",
         _panel_after(shot, landing, reading, view, placers=placers)),
    ]


def _steps_odds(shot: Shot, odds: Odds, reading, view: vd.PlaneView, placers: list[vd.LabelPlacer] | None = None):
    steps = [("aimed: the template before any roll, and the hit zone",
              "Aimed: the template before any roll",
              f"Aimed {_aim_words(shot, reading)}. A roll hits when it puts the template's "
              f"centre inside the dashed blue circle (template radius + base radius, "
              f"{decimal_text(shot.reach, 2)} in). Each of the 36 rolls of the two dice is equally likely.",
              _panel_odds(shot, odds, reading, view, 0, None, placers=placers))]
    so_far = 0
    for face in DIE_FACES:
        mine = [landing for landing in odds.landings if landing.rolled.direction == face]
        hits = [landing.rolled for landing in mine if landing.hit]
        so_far += len(hits)
        words = direction_words(face, reading["side"])
        steps.append((f"direction {face} ({words}): {len(hits)} of its 6 distances hit, {so_far} so far",
                      f"Direction {face}: distances 1 to 6",
                      f"Face {face} sends the template {words}; the distance die moves it 1 to 6 in along that "
                      f"line. {len(hits)} of these 6 rolls hit ({_rolls(hits)}); {so_far} of the "
                      f"{6 * face} rolls so far.",
                      _panel_odds(shot, odds, reading, view, face, face, placers=placers)))
    chance = f"{odds.hits}/36" + (f" = {fraction_text(odds.probability)}" if odds.probability.denominator != 36
                                  else "")
    steps.append((f"every roll: {odds.hits} of 36 hit, a chance of {chance}",
                  f"Every roll: {odds.hits} of 36 hit",
                  f"The exact chance of a hit is {chance} ({float(odds.probability):.1%}). Hitting rolls "
                  f"(distance-direction): {_rolls(odds.hit_rolls)}.",
                  _panel_odds(shot, odds, reading, view, 6, None, placers=placers)))
    return steps


def draw_frames(shot: Shot, actions: Actions, outcome: Outcome, *, title: str | None = None, supersample: int = 2,
                font_size: int = 12, target_px: float = 420, legend: bool = True,
                placers: list[vd.LabelPlacer] | None = None) -> list[AnimationFrame]:
    """The shot step by step: (words, image) pairs, all of one size. ``title`` goes
    on top of every frame. Each frame's label placer is appended to ``placers`` if
    given (what it blocked and where every label went)."""
    s = max(1, int(supersample))
    reading = outcome.reading or PUBLISHED_READING
    if not isinstance(outcome.after, (Landing, Odds)):
        return []  # an answer read from JSON without the geometry: nothing to play
    view = _fit(_interest(shot, actions, reading, outcome), s, target_px=target_px)
    if isinstance(outcome.after, Odds):
        steps = _steps_odds(shot, outcome.after, reading, view, placers)
        groups = [group for _, group in _spot_groups(outcome.after)]
        key = _key_entries(s, True, groups)
    else:
        roll = actions if isinstance(actions, Roll) else outcome.after.rolled
        steps = _steps_one_roll(shot, roll, outcome, reading, view, placers)
        key = _key_entries(s, False, [outcome.after])
    fs = font_size * s
    inner = max([panel.width for *_, panel in steps] + [400 * s])
    legend_img = vd.legend(key, size=fs, padding=0, max_width=inner, heading="Key") if legend else None
    images = vd.frames([vd.Step(heading, detail, panel, legend_img) for _, heading, detail, panel in steps],
                       title=title, size=fs, min_width=400 * s, supersample=s)
    return [AnimationFrame(words, image) for (words, *_), image in zip(steps, images)]


def describe_scene(shot: Shot, actions: Actions) -> str:
    """One sentence on the shot, for alt text: template, base, where it was aimed, the roll."""
    if shot.on_target:
        aim = (f"aimed at a target in range {decimal_text(shot.from_attacker, 2)} inches from the attacker, so "
               f"deviation starts on the target's centre")
    else:
        short = f"{decimal_text(shot.short or 0, 3)} inches"
        if shot.short_plus_base_radius:
            short += f" plus the base radius ({decimal_text(shot.base_radius, 2)} in)"
        aim = (f"fired at the weapon's range of {decimal_text(shot.from_attacker, 2)} inches, falling {short} "
               f"short of the target, where deviation starts")
    if isinstance(actions, AllRolls):
        roll = "every one of the 36 rolls of the two deviation dice is tried"
    else:
        roll = (f"the deviation dice roll {actions.distance} for the distance in inches and {actions.direction} "
                f"for the direction")
    return (f"A {shot.aoe}-inch AOE template against a {shot.base} mm base "
            f"({decimal_text(shot.base_radius * 2, 2)} inches across), {aim}; {roll}.")


def draw_stacked(shot: Shot, actions: Actions, panels: Sequence[tuple[str, Outcome | None]], *,
                 title: str | None = None, subtitle: str | None = None, supersample: int = 2, font_size: int = 12,
                 width: int = 380) -> Image.Image:
    """The panels of the case's diagram one under the other, the legends below, about
    ``width`` pixels wide: the same picture for a narrow screen."""
    s = max(1, int(supersample))
    panels = list(panels)
    outcomes = [p for p in panels if p[1] is not None]
    if isinstance(actions, AllRolls) and len(outcomes) == 1:
        panels = outcomes  # as the wide diagram: the 36 landing spots say it all
    fs = font_size * s
    inner = width * s - 2 * fs
    images, legends, title, subtitle = panel_parts(shot, actions, panels, title=title, subtitle=subtitle,
                                                   supersample=s, font_size=font_size, legend_width=inner // s,
                                                   target_px=inner / s - 48)  # room for the inch numbers
    inner = max([img.width for _, img in images] + [inner])
    big = round(font_size * 1.15) * s
    image = vd.stacked(title, subtitle, images, legends, width=inner, size=fs, title_size=big, legend_gap=fs,
                       supersample=s)
    return image
