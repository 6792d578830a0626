"""Civ for the rule pages: the phase step by step (an animation), the case's diagram
stacked for a narrow screen, and the scene in one sentence for alt text."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image

from ...kit import draw as vd
from ...ruleset import AnimationFrame, Outcome
from .draw import FONT, SUPERSAMPLE, _key, _panel, _shown, _view, draw_panels
from .model import LAND, OPEN_SEA, Actions, Scene, ShipState, State, label_text


def draw_stacked(scene: Scene, actions: Actions, panels: Sequence[tuple[str, Outcome | None]], *,
                 title: str | None = None, **options: Any) -> Image.Image:
    """Capability.NARROW: the panels of ``draw_panels`` one under another, for phones."""
    return draw_panels(scene, actions, panels, title=title, stacked=True, **options)


def describe_scene(scene: Scene, actions: Actions) -> str:
    kinds = {k: sum(1 for a in scene.map.areas if a.kind == k) for k in (LAND, "water", OPEN_SEA)}
    moves = [f"{m.ship} goes {' - '.join(st.area for st in m.path)}" for t in actions.turns for m in t.moves]
    ships = ", ".join(f"{sh.name} ({sh.nation}) in {sh.at}" for sh in scene.ships)
    return (f"A map of {len(scene.map.areas)} areas ({kinds[LAND]} land, {kinds['water']} water, {kinds[OPEN_SEA]} "
            f"open sea) with ships {ships}; " + ("; ".join(moves) or "no ship moves") + ".")


# --- Capability.FRAMES: the phase step by step ---------------------------------------------------------


def _after_steps(moved: State, area: str, steps: tuple[tuple[str, ...], ...]) -> State:
    """The state after the movement with the ships of ``steps`` sunk (for animation)."""
    gone = {e for step in steps for e in step}
    ships = tuple(ShipState(sh.name, sh.nation, sh.at, sh.aboard, sh.blockading, sh.blocked_by,
                            sh.sunk or sh.name in gone) for sh in moved.ships)
    return State(ships, moved.land, moved.landing, moved.removals, moved.paths)


def draw_frames(scene: Scene, actions: Actions, outcome: Outcome, *, title: str | None = None,
                supersample: int = SUPERSAMPLE) -> list[AnimationFrame]:
    """Before the phase, after the movement, each removal of a ship conflict, and the end:
    the first branch only where the case leaves decisions open."""
    from . import event_text
    s, fs = supersample, FONT * supersample
    branches = outcome.after.branches
    if not branches:
        return []
    branch = branches[0]
    view = _view(scene, 1)
    start = State(tuple(ShipState(sh.name, sh.nation, sh.at, sh.aboard, sh.name in actions.blockade)
                        for sh in sorted(scene.ships, key=lambda x: x.name)), tuple(sorted(scene.tokens)))
    words = f" ({label_text(branch.choices)})" if len(branches) > 1 else ""
    plan: list[tuple[str, str, State, bool]] = [("Before the phase", "ships and their planned paths", start, True)]
    plan.append(("After the movement", "where the ships stopped; landing tokens wait at the water's edge",
                 branch.moved, False))
    ship_names = {sh.name for sh in scene.ships}
    for area, steps in branch.state.removals:
        sea = [st_ for st_ in steps if all(e in ship_names or e.endswith(" advantage") for e in st_)]
        for k in range(1, len(sea) + 1):
            plan.append((f"Ship conflict in {area}, step {k}", "removed: " + ", ".join(sea[k - 1]),
                         _after_steps(branch.moved, area, tuple(sea[:k])), False))
    said = [event_text(e.kind, e.pieces) for e in outcome.events if e.round == 1 and e.kind in
            ("land", "prevented", "land-conflict", "stranded", "lost", "block", "rescue")]
    plan.append(("End of the phase" + words, "; ".join(said) or "nothing more happens", branch.state, False))
    key = vd.legend(_key(scene, s, _shown(scene, actions, [outcome])), size=fs, padding=0, heading="Key",
                    max_width=vd.LEGEND_WIDTH * s)
    steps_ = [vd.Step(heading, detail, _panel(scene, actions, state, view, paths=paths, ghosts=True), key)
              for heading, detail, state, paths in plan]
    images = vd.frames(steps_, title=title, size=fs, min_width=400 * s, supersample=s)
    return [AnimationFrame(f"{heading}: {detail}", image) for (heading, detail, _, _), image in zip(plan, images)]
