"""Armada 2000 for the rule pages: the actions one at a time (an animation), the case's
diagram stacked for a narrow screen, and the scene in one sentence for alt text."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image

from verifier.kit import draw as vd
from verifier.ruleset import AnimationFrame, Outcome

from ...kit import words as kw
from .draw import FONT, SUPERSAMPLE, _boxes, _panel, _parts
from .model import Actions, Scene


def draw_stacked(scene: Scene, actions: Actions, panels: Sequence[tuple[str, Outcome | None]], *,
                 title: str | None = None, supersample: int = SUPERSAMPLE) -> Image.Image:
    """The same panels and legends one under the other, for a narrow screen."""
    s, fs = supersample, FONT * supersample
    images, legends, subtitle = _parts(scene, actions, panels, s, 360 * s)
    width = max([im.width for _, im in images] + [lg.width for lg in legends])
    image = vd.stacked(title or "Armada 2K", subtitle, images, legends, width=width, size=fs,
                       title_size=round(FONT * 1.15) * s, supersample=s)
    return image


def describe_scene(before: Scene, actions: Actions) -> str:
    fleets = ", ".join(f"{p}: " + ", ".join(f"{s.name} ({s.size})" for s in before.ships if s.player == p)
                       for p in before.players)
    said = []
    for a in actions:
        said.append({"move": f"{a.ship} moves {kw.count(len(a.steps), 'step')}", "fire": f"{a.ship} fires {a.side} at "
                     f"{a.target}", "fan": f"which way {a.ship} may step", "range": f"what {a.ship} can hit",
                     "setup": "the set-up is checked", "end": "the turn ends"}[a.kind])
    area = (f"a circle {2 * before.area.radius:g} inches across" if before.area.is_circle else "a polygon")
    return f"Armada 2K on {area}; fleets {fleets}. " + ("; ".join(said) or "Nothing happens") + "."


# --- Capability.FRAMES: the actions one at a time ------------------------------------------------


def _action_words(action: Any) -> str:
    return {"move": f"{action.ship} moves {kw.count(len(action.steps), 'step')}",
            "fire": f"{action.ship} fires {action.side} at {action.target}",
            "fan": f"which way may {action.ship} step?", "range": f"what can {action.ship} hit?",
            "setup": "the set-up is checked", "end": "the turn passes"}.get(action.kind, action.kind)


def _upto(outcome: Outcome, count: int) -> Outcome:
    """The outcome as it stood after the first ``count`` actions."""
    return Outcome(outcome.frames[count].state, tuple(e for e in outcome.events if e.step <= count),
                   outcome.provenance, outcome.frames[:count + 1], outcome.reading)


def draw_frames(scene: Scene, actions: Actions, outcome: Outcome, *, title: str | None = None,
                supersample: int = SUPERSAMPLE) -> list[AnimationFrame]:
    """The start, then the scene after each action, all of one size; nothing for fewer than two
    actions, or for an answer read from JSON (it has no frames)."""
    if len(actions) < 2 or len(outcome.frames) != len(actions) + 1:
        return []
    from . import event_text
    s, fs = supersample, FONT * supersample
    view = vd.fit(_boxes(scene, actions, [outcome]), target_px=340, margin=0.6, scale_range=(40, 110), min_span=5,
                  supersample=s, pad=(0, 6 * s, 10 * s, 0), tick_size=10 * s)
    steps, words = [], []
    for count in range(len(actions) + 1):
        marks: list[tuple[str, str]] = []
        if count == 0:
            panel = _panel(scene, (), None, view, marks, outcome)
            heading, detail = "start", f"{len(actions)} actions follow"
        else:
            panel = _panel(scene, actions[:count], _upto(outcome, count), view, marks, outcome)
            heading = f"action {count}: {_action_words(actions[count - 1])}"
            said = [event_text(e.kind, e.pieces, e.detail) for e in outcome.events if e.step == count]
            detail = "; ".join(said) or "nothing happens"
        steps.append(vd.Step(heading, detail, panel, None))
        words.append(f"{heading}: {detail}" if count else heading)
    images = vd.frames(steps, title=title, size=fs, min_width=400 * s, supersample=s)
    return [AnimationFrame(w, image) for w, image in zip(words, images)]
