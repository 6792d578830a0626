"""Armada for the rule pages: the maneuvers step by step (an animation), the case's
diagram stacked for a narrow screen, and the scene in one sentence for alt text.

Each maneuver plays one placement at a time: the tool inserted and the ship set
down at its speed, then every lower speed it had to try, then where it ends with
its damage. One view of the play area serves every frame, so the picture stays
put while it plays."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from PIL import Image

from ...kit import draw as vd
from ...kit.words import count
from ...ruleset import AnimationFrame, Outcome
from .draw import FONT, SUPERSAMPLE, _key, _marks, _notes, _panel, _plan_text, _star, draw_panels, make_view
from .model import Maneuvers, Move, Result, Scene
from .resolver import tool_of


def _partial(outcome: Outcome, result: Result, step: int) -> Outcome:
    return replace(outcome, after=result, events=tuple(e for e in outcome.events if e.step <= step))


def _moments(scene: Scene, outcome: Outcome) -> list[tuple[str, str, Outcome | None]]:
    """(heading, words, outcome so far) for every moment worth a frame."""
    result: Result = outcome.after
    moments: list[tuple[str, str, Outcome | None]] = [("Before", "The ships before the first maneuver.", None)]
    ships = {s.name: s for s in outcome.frames[0].state.ships} if outcome.frames else {
        s.name: s for s in scene.ships}
    moves: list[Move] = []
    for step, move in enumerate(result.moves, 1):
        frame = next((f.state for f in outcome.frames if f.round == step), None)
        for i, attempt in enumerate(move.attempts[:-1]):
            trial = replace(move, attempts=move.attempts[:i + 1], end=attempt.pose, closest=(), damaged=(),
                            distances=(), alternative=None)
            shown = dict(ships)
            shown[move.ship] = shown[move.ship].at(attempt.pose)
            what = (", ".join(attempt.ships + attempt.squadrons) or "nothing")
            words = (f"{move.ship} is set down at speed {attempt.speed}" if attempt.speed else
                     f"{move.ship} yaws in place") + f": it would overlap {what}"
            if attempt.tool and not attempt.ships:
                words = f"{move.ship} at speed {attempt.speed} would overlap the tool"
            moments.append((f"Maneuver {step}, speed {attempt.speed}", words,
                            _partial(outcome, Result(tuple(shown[n] for n in sorted(shown)),
                                                     tuple(moves) + (trial,)), step - 1)))
        if frame is not None:
            ships = {s.name: s for s in frame.ships}
        else:
            ships[move.ship] = ships[move.ship].at(move.end)
        moves.append(move)
        words = f"{move.ship} ends at speed {move.speed}"
        if move.damaged:
            words += f"; {' and '.join(move.damaged)} take a damage card"
        if move.destroyed:
            words += "; it is destroyed"
        moments.append((f"Maneuver {step}: {move.ship}", words,
                        _partial(outcome, Result(tuple(ships[n] for n in sorted(ships)), tuple(moves)), step)))
    return moments


def draw_frames(scene: Scene, maneuvers: Maneuvers, outcome: Outcome, *, title: str | None = None,
                supersample: int = SUPERSAMPLE) -> list[AnimationFrame]:
    s = supersample
    tool_model = tool_of(scene, outcome.reading or {"tool": "model-a"})
    view = make_view(scene, [outcome.after], tool_model, target_px=360, supersample=s)
    steps = []
    words_of = []
    for heading, words, partial in _moments(scene, outcome):
        marks = _marks(scene, partial, view) if partial is not None else []
        panel = _panel(scene, maneuvers, partial, view, marks, tool_model, {})
        steps.append(vd.Step(heading, words, panel))
        words_of.append(f"{heading}: {words}")
    images = vd.frames(steps, title=title, size=FONT * s, min_width=420 * s, supersample=s)
    return [AnimationFrame(w, im) for w, im in zip(words_of, images)]


def draw_stacked(scene: Scene, maneuvers: Maneuvers, panels: Sequence[tuple[str, Outcome | None]], *,
                 title: str | None = None, supersample: int = SUPERSAMPLE) -> Image.Image:
    s, fs = supersample, FONT * supersample
    outcomes = [o for _, o in panels if o is not None]
    tool_model = tool_of(scene, outcomes[0].reading if outcomes else {"tool": "model-a"})
    view = make_view(scene, [o.after for o in outcomes], tool_model, target_px=340, supersample=s)
    images = []
    drawn: dict[str, vd.RGB] = {}
    for name, outcome in panels:
        marks = _marks(scene, outcome, view) if outcome is not None else []
        images.append((name, _panel(scene, maneuvers, outcome, view, marks, tool_model, drawn)))
    width = max(im.width for _, im in images)
    legends = [vd.legend(_key(s, drawn), size=fs, padding=0, heading="Key", max_width=width, stacked=True),
               vd.legend([vd.LegendEntry(None, "", _plan_text(scene, m)) for m in maneuvers], size=fs, padding=0,
                         heading="Maneuvers", max_width=width, stacked=True)]
    for name, outcome in panels:
        if outcome is None:
            continue
        marks = _marks(scene, outcome, view)
        entries = [vd.LegendEntry(_star(s, str(n)), "", words) for n, (_, words) in enumerate(marks, 1)]
        entries += [vd.LegendEntry(None, "", words) for words in _notes(outcome)]
        heading = "What happened" + (f" ({name})" if len(outcomes) > 1 else "")
        legends.append(vd.legend(entries or [vd.LegendEntry(None, "", "no overlap, no damage")], size=fs, padding=0,
                                 heading=heading, max_width=width, stacked=True))
    image = vd.stacked(title or "Armada", None, images, legends, width=width, size=fs,
                       title_size=round(FONT * 1.15) * s, supersample=s)
    return image


def describe_scene(scene: Scene, maneuvers: Maneuvers) -> str:
    ships = ", ".join(f"{s.name} ({s.owner}'s {s.type.name}, {s.type.size} base) at [{s.pose.x:g}, {s.pose.y:g}] "
                      f"facing {s.pose.heading:g}" for s in scene.ships)
    extra = []
    if scene.squadrons:
        extra.append(count(len(scene.squadrons), "squadron"))
    if scene.obstacles:
        extra.append(count(len(scene.obstacles), "obstacle"))
    plans = "; ".join(_plan_text(scene, m) for m in maneuvers)
    return (f"A {scene.width:g} by {scene.height:g} mm play area with {ships}"
            + (f", and {', '.join(extra)}" if extra else "") + f". Maneuvers: {plans}.")


__all__ = ["draw_frames", "draw_stacked", "describe_scene", "draw_panels"]
