"""Step-by-step frames of a YPP turn, for animated pictures on the rule pages.

A turn of several rounds, or a turn whose ships pass through two tiles, is hard
to follow from one before/after picture. These frames walk through it: the
start with the planned moves, then the board after each claim step of each
round ("round 2, movement, step 1"), with the tracks so far and the marks of
what happened, numbered as in the case's diagram.

Built from the pieces of :mod:`verifier.rulesets.ypp.draw`, over the same
window of the board as the case's diagram, so that both read the same way, and
laid out by the drawing kit's one layout for frames and for the stacked column.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from PIL import Image

from ...kit import draw as vd
from ...kit.draw.layout import check_budget
from ...ruleset import AnimationFrame, Event, Frame, Outcome
from .draw import (
    State,
    _counted,
    _crowded,
    _event_words,
    _fit_view,
    _happened_legend,
    _headline,
    _interest,
    _key_items,
    _Mark,
    _marks,
    _panel,
    _parts,
    _plan,
    _ship_legend,
    _states,
    _Style,
    _summary_note,
    _tags,
    _View,
)
from .model import Scene, Ship, Token, Turn

_PHASE = {"move": "movement", "wind": "wind and whirlpools"}

# What happens in each kind of frame, for someone who has not read the rules yet.
_HINT = {
    ("move", 1): "every moving ship claims the tile straight ahead of it",
    ("move", 2): "turning ships claim the tile to their side and face their new direction",
    ("move", 0): "ships move by their tokens",
    ("wind", 1): "wind and whirlpools carry the ships on them one tile",
    ("wind", 2): "whirlpools carry their ships on to the opposite corner and turn them",
    ("wind", 0): "wind and whirlpools carry the ships on them",
}


_MAX_LISTED = 8  # events a frame's words list one by one; more are counted by kind


def _in_phase(frame: Frame) -> bool:
    """Whether ``frame`` is a moment of a movement or wind phase (not the start or the added end)."""
    return frame.round > 0 and frame.phase in _PHASE


def _second_step(scene: Scene, turn: Turn, state: State, round_no: int, phase: str) -> bool:
    """Whether any ship claims a second tile in this phase (a turn, or a whirlpool)."""
    if phase == "move":
        if round_no > len(turn.rounds):
            return False
        return any(turn.token(round_no - 1, name) in (Token.LEFT, Token.RIGHT) for name in state)
    whirl_at = scene.board.whirl_at
    return any(tile in whirl_at for tile, _ in state.values())


def _event_frame(event: Event, moments: Sequence[Frame]) -> int:
    """The index of the frame in which ``event`` happens: the end of its first claim
    step, or the end of its phase."""
    phase = [i for i, f in enumerate(moments) if (f.round, f.phase) == (event.round, event.phase)]
    end = next((i for i in reversed(phase) if moments[i].step == 0), len(moments) - 1)
    step1 = next((i for i in phase if moments[i].step == 1), None)
    if step1 is None:
        return end
    step = event.step  # 0: the ruleset did not record it; guess from the kind and clause
    if step == 0:
        step = 1 if event.kind in ("bump", "push") or event.clause[:6] in ("move.1", "wind.1") else 2
    return step1 if step == 1 else end


def _view(scene: Scene, turn: Turn, states: Sequence[tuple[Frame, State]], marks: Sequence[_Mark], *, tile: int,
          margin: int, whole_board: int, max_panel: int, s: int) -> _View:
    """The window and tile size of the case's diagram (as ``draw_panels`` picks them)
    over the given states and marks (of one outcome or several)."""
    interest = _interest(scene, _plan(scene, turn), [states], [marks])
    return _fit_view(scene.board, interest, tile=tile, margin=margin, whole_board=whole_board, max_panel=max_panel,
                     s=s)


def frame_label(frame: Frame, rounds: int, turners: bool) -> str:
    """Words for a frame: "round 2 of 4, movement, step 1"."""
    if not _in_phase(frame):
        return "start: the ships and their planned moves" if frame.is_start else frame.phase
    of = f" of {rounds}" if rounds > 1 else ""
    step = ", step 1" if frame.step == 1 else (", step 2" if turners else "")
    return f"round {frame.round}{of}, {_PHASE[frame.phase]}{step}"


def draw_frames(scene: Scene, turn: Turn, outcome: Outcome, *, tile: int = 48, title: str | None = None,
                margin: int = 1, whole_board: int = 12, max_panel: int = 400, supersample: int = 2,
                font_size: int = 12, legend: bool = True) -> list[AnimationFrame]:
    """One picture per step of the turn that changed something, with words saying what it shows.

    The first frame is the start with the planned moves; each later one shows the
    board after one claim step of one round, with the tracks so far and the
    events up to then. Steps that changed nothing are left out. All frames have
    the same size (an animated picture needs that). ``title`` goes on top of
    every frame.
    """
    s = max(1, int(supersample))
    states = _states(scene, outcome)
    moments = [f for f, _ in states]
    marks = _marks(scene, turn, outcome, states)
    event_at = [_event_frame(m.event, moments) for m in marks]
    view = _view(scene, turn, states, marks, tile=tile, margin=margin, whole_board=whole_board,
                 max_panel=max_panel, s=s)
    check_budget(view.size, supersample=s, what="each frame's board", advice="draw it with a smaller tile or max_panel")
    style = _Style(s, font_size * s, _crowded(view, s, scene.ships))
    colours = {ship.name: vd.piece_colour(i) for i, ship in enumerate(scene.ships)}
    tags = _tags([ship.name for ship in scene.ships])
    plans = _plan(scene, turn)
    rounds = len(turn.rounds)

    def turners_in(index: int) -> bool:
        """Whether frame ``index`` ends a phase in which some ship claimed a second tile."""
        moment = moments[index]
        if not _in_phase(moment):
            return False
        first = next((k for k, f in enumerate(moments) if (f.round, f.phase) == (moment.round, moment.phase)), index)
        return _second_step(scene, turn, states[max(first - 1, 0)][1], moment.round, moment.phase)

    recorded = [replace(f, state=tuple(sorted((nm, p, h) for nm, (p, h) in st.items()))) for f, st in states]
    kept = [0]
    for i in range(1, len(states)):
        if states[i][1] != states[kept[-1]][1] or i in event_at:
            kept.append(i)

    fs = style.font
    legend_img = _ship_legend(scene, turn, colours, tags, s, size=fs, width=None, stacked=False, heading=None,
                              brief=True, crowded=style.crowded) if legend else None
    words_of, steps = [], []
    for i in kept:
        moment, state = states[i]
        words = frame_label(moment, rounds, turners_in(i))
        if i == 0:
            panel = _panel(scene, turn, None, view, style, colours, tags, plans, None, (), ())
        else:
            after = Scene(scene.board, tuple(Ship(sh.name, sh.type, *state[sh.name]) for sh in scene.ships))
            upto = tuple(recorded[:i + 1])
            partial = replace(outcome, after=after, frames=upto,
                              events=tuple(m.event for m, at in zip(marks, event_at) if at <= i))
            shown = [m for m, at in zip(marks, event_at) if at <= i]
            panel = _panel(scene, turn, partial, view, style, colours, tags, plans, shown, (), ())
        now = [m for m, at in zip(marks, event_at) if at == i]
        if now and (style.crowded or len(now) > _MAX_LISTED):
            detail = ", ".join(words for _, words in _counted(now))
        elif now:
            detail = "; ".join(f"{m.number}: {_event_words(m.event, m)}" for m in now)
        elif _in_phase(moment):
            detail = _HINT.get((moment.phase, 1 if moment.step == 1 else (2 if turners_in(i) else 0)), "")
        elif i == 0:
            if not any(token is not Token.NONE for r in turn.rounds for _, token in r):
                detail = "no ship plays a token: only wind and whirlpools move them"
            elif style.crowded:
                detail = "too many ships to draw each one's planned moves; verifier show lists every token"
            else:
                detail = ("dashed arrows show each ship's tokens, numbered by round" if rounds > 1
                          else "dashed arrows show each ship's token")
        else:
            detail = ""
        words_of.append(words + (f": {detail}" if detail else ""))
        steps.append(vd.Step(f"{words[:1].upper()}{words[1:]}", detail, panel, legend_img))

    # One layout for every frame, so that the board stays put while the animation plays.
    images = vd.frames(steps, title=title, size=fs, min_width=400 * s, supersample=s)
    return [AnimationFrame(words, image) for words, image in zip(words_of, images)]


def describe_scene(scene: Scene, turn: Turn) -> str:
    """One sentence on the scene: the board, and each ship with its tokens, for alt text."""
    board = scene.board
    terrain = []
    if board.rocks:
        terrain.append(f"{len(board.rocks)} rock{'s' if len(board.rocks) != 1 else ''}")
    if board.wind:
        terrain.append(f"{len(board.wind)} wind tile{'s' if len(board.wind) != 1 else ''}")
    if board.whirlpools:
        terrain.append(f"{len(board.whirlpools)} whirlpool{'s' if len(board.whirlpools) != 1 else ''}")
    listed = ", ".join(terrain[:-1]) + " and " + terrain[-1] if len(terrain) > 1 else "".join(terrain)
    where = f"a {board.width}x{board.height} board" + (f" with {listed}" if terrain else "")
    ships = []
    table = turn.by_round
    for ship in scene.ships:
        tokens = [played.get(ship.name, Token.NONE) for played in table]
        if all(t is Token.NONE for t in tokens):
            plays = "does not move"
        elif len(tokens) == 1:
            plays = f"plays {tokens[0].value}"
        else:
            plays = "plays " + ", ".join(t.value for t in tokens)
        ships.append(f"{ship.name} ({ship.type}, at {list(ship.at)} facing {ship.heading.name}) {plays}")
    return f"On {where}: " + "; ".join(ships) + "."


def draw_stacked(scene: Scene, turn: Turn, panels: Sequence[tuple[str, Outcome | None]], *, title: str | None = None,
                 subtitle: str | None = None, tile: int = 48, margin: int = 1, whole_board: int = 12,
                 max_panel: int = 356, supersample: int = 2, font_size: int = 12, width: int = 380) -> Image.Image:
    """The panels of :func:`draw_panels` one under the other, with the legend at the
    bottom, about ``width`` pixels wide: the same picture for a narrow screen."""
    s = max(1, int(supersample))
    parts = _parts(scene, turn, panels, tile=tile, margin=margin, whole_board=whole_board, max_panel=max_panel, s=s,
                   font_size=font_size)
    images, view, style, colours, tags = parts.images, parts.view, parts.style, parts.colours, parts.tags
    outcomes, all_marks = parts.outcomes, parts.marks
    fs = style.font
    inner = max([im.width for _, im in images] + [width * s - 2 * fs])
    present = {m.kind for ms in all_marks for m in ms}
    legends = [vd.key_strip(_key_items(view, style, present, bool(outcomes)), size=fs, max_width=inner, padding=0,
                               heading="Key"),
               _ship_legend(scene, turn, colours, tags, s, size=fs, width=inner, stacked=True,
                            crowded=style.crowded)]
    named = [name for name, outcome in panels if outcome is not None]
    for name, marks in zip(named, all_marks):
        heading = "What happened" if len(outcomes) == 1 else f"What happened ({name})"
        legends.append(_happened_legend(marks, heading, s, size=fs, width=inner, stacked=True,
                                        crowded=style.crowded))
    title, subtitle = _headline(turn, outcomes, title, subtitle)
    if style.crowded:
        subtitle = f"{subtitle}. {_summary_note(scene, all_marks)}" if subtitle else _summary_note(scene, all_marks)
    big = round(font_size * 1.15) * s
    image = vd.stacked(title, subtitle, images, legends, width=inner, size=fs, title_size=big, legend_gap=fs // 2,
                       supersample=s)
    return image
