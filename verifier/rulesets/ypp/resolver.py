"""The YPP reference resolver: a pure function from (scene, turn, reading) to outcome.

Each round has two phases, movement then wind. Both use the same two-step claim
procedure from seed 000 ("Collision rules"): a straight mover (forward token or
wind) has one step, a turning mover (left/right token or whirlpool) has two.

Within a step every decision is simultaneous. Claims are fixed at the start of
the step; the only thing that can change is whether a ship really leaves its
tile. We therefore start from "everyone who may move, moves" and withdraw
movers whose condition fails, propagating along a worklist. Withdrawals only
cause further withdrawals, so the result is the unique greatest fixpoint: it
does not depend on the order ships are listed or visited, and the work is
linear in the number of ships.
"""

from __future__ import annotations

import gc
from collections import defaultdict
from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping

from ...ruleset import Decision, Event, Outcome
from .model import Board, Heading, Scene, Ship, SizeClass, Tile, Token, Turn

# Enum.value is a property in 3.11 (two of them per Heading.ahead); look the steps up once.
_DELTA = {h: h.value for h in Heading}
_SIDE = {(t, h): t.side(h) for t in Token for h in Heading}


def _ahead(heading: Heading, tile: Tile) -> Tile:
    dx, dy = _DELTA[heading]
    return (tile[0] + dx, tile[1] + dy)


# Bump effects.
_STOP, _KNOCK, _PUSH = "stop", "knock", "push"
_MOTION = {("move", False): "going forward", ("move", True): "turning",
           ("wind", False): "blown by wind", ("wind", True): "whirling"}
_EFFECT_TEXT = {
    _STOP: "neither ship moves",
    _KNOCK: "the standing ship is knocked on, the mover stays",
    _PUSH: "the mover takes the tile, the standing ship is shoved on",
}


@dataclass(slots=True)
class _Mover:
    name: str
    turning: bool
    direction: Heading  # direction of step 1, used for bumps and pushes
    via: Tile  # the tile claimed in step 1
    dest: Tile | None  # the tile claimed in step 2 (turning movers only)


@dataclass
class _Phase:
    """Naming for one phase: clause prefixes and event labels."""

    name: str  # "move" or "wind"
    step: str  # clause prefix for the claim cases
    bump: str  # clause prefix for the bump bullets


_MOVE = _Phase("move", "move", "bump")
_WIND = _Phase("wind", "wind", "wind.bump")


class _Run:
    """Mutable working state of one resolution; never escapes ``resolve_turn``."""

    def __init__(self, scene: Scene, reading: Mapping[str, str], record: bool):
        self.board = scene.board
        self.reading = reading
        self.record = record
        self.types = {s.name: s.type for s in scene.ships}
        self.size = {s.name: int(s.size) for s in scene.ships}
        self.pos: dict[str, Tile] = {s.name: s.at for s in scene.ships}
        self.head: dict[str, Heading] = {s.name: s.heading for s in scene.ships}
        self.events: list[Event] = []
        self.seen_pairs: set[tuple] = set()
        self.prov: dict[str, list[str]] = defaultdict(list)
        self.decisions: list[Decision] = []
        self.consulted: set[str] = set()
        self.frames: list[tuple[str, Mapping[str, tuple[Tile, Heading]]]] = []
        self.round = 0
        self.occ: dict[Tile, str] | None = None  # see occupancy()
        self.stacked: dict[Tile, set[str]] = {}  # tiles with more than one ship ("literal" pushes)
        self.tags: dict[tuple, str] = {}  # one shared string per provenance entry text
        self.step_no = 0
        self.snapshot("start")

    # --- bookkeeping -------------------------------------------------------

    def snapshot(self, label: str) -> None:
        if self.record:
            self.frames.append((label, {n: (p, self.head[n]) for n, p in self.pos.items()}))

    def note(self, ship: str, clause: str) -> None:
        key = (self.round, clause)
        text = self.tags.get(key)
        if text is None:
            text = self.tags[key] = f"r{self.round} {clause}"
        self.prov[ship].append(text)

    def read(self, point: str) -> str:
        """The reading's option for ``point``; remembers that the point mattered."""
        self.consulted.add(point)
        return self.reading[point]

    def note_reading(self, ship: str, point: str) -> None:
        key = (self.round, None, point)
        text = self.tags.get(key)
        if text is None:
            text = self.tags[key] = f"r{self.round} reading {point}={self.reading[point]}"
        self.prov[ship].append(text)

    def event(self, kind: str, pieces: tuple[str, ...], phase: _Phase, clause: str, at: Tile,
              unordered: bool = False) -> None:
        if unordered:
            key = (self.round, phase.name, kind, tuple(sorted(pieces)))
            if key in self.seen_pairs:
                return
            self.seen_pairs.add(key)
            pieces = tuple(sorted(pieces))
        self.events.append(Event(kind, pieces, self.round, phase.name, clause, at=at, step=self.step_no))

    def blocked_by_terrain(self, ship: str, tile: Tile, phase: _Phase) -> bool:
        if not self.board.on_board(tile):
            self.note(ship, "edge.1")
            self.event("edge", (ship,), phase, "edge.1", at=tile)
            return True
        if tile in self.board.rocks:
            self.note(ship, "rock.1")
            self.event("rock", (ship,), phase, "rock.1", at=tile)
            return True
        return False

    def occupancy(self) -> dict[Tile, str]:
        """Tile -> ship on it, built once and then kept up to date by ``place``. Overlaps
        only arise under the "literal" push reading; the smallest name stands for the tile,
        to keep the choice order-free."""
        if self.occ is None:
            occ: dict[Tile, str] = {}
            for name, tile in self.pos.items():
                if tile not in occ or name < occ[tile]:
                    occ[tile] = name
            self.occ = occ
        return self.occ

    def place(self, name: str, tile: Tile) -> None:
        """Move ``name`` to ``tile``, keeping the occupancy map (once built) in step."""
        old = self.pos[name]
        self.pos[name] = tile
        occ = self.occ
        if occ is None or old == tile:
            return
        stack = self.stacked.get(old)
        if stack is not None:
            stack.discard(name)
            occ[old] = min(stack)
            if len(stack) == 1:
                del self.stacked[old]
        elif occ.get(old) == name:
            del occ[old]
        here = occ.get(tile)
        if here is None:
            occ[tile] = name
        else:
            self.stacked.setdefault(tile, {here}).add(name)
            occ[tile] = min(here, name)

    # --- bumps -------------------------------------------------------------

    def bump_effect(self, mover: _Mover, other: str, phase: _Phase) -> tuple[str, str]:
        """(effect, clause) of ``mover`` bumping the standing ship ``other``."""
        motion = (f"{phase.bump}.1", _STOP) if mover.turning else (f"{phase.bump}.2", _KNOCK)
        mine, theirs = self.size[mover.name], self.size[other]
        by_class = None
        if mine < theirs:
            by_class = (f"{phase.bump}.3", _STOP)
        elif mine > theirs:
            by_class = (f"{phase.bump}.4", _PUSH)
        if by_class is not None:
            self.decisions.append(Decision(
                "bump", (motion[0], by_class[0]), (_EFFECT_TEXT[motion[1]], _EFFECT_TEXT[by_class[1]]),
                (mover.name, other), self.round,
                detail=f"{mover.name}, {_MOTION[phase.name, mover.turning]} as a {SizeClass(mine).label} ship, "
                       f"bumps the standing {SizeClass(theirs).label} ship {other}"))
        order = self.read("bump") if by_class is not None else None
        if by_class is None or order == "motion-first" or (order == "turn-first" and mover.turning):
            clause, effect = motion
        else:
            clause, effect = by_class
        return effect, clause

    # --- one step of claims ------------------------------------------------

    def step(self, movers: list[_Mover], second: bool, phase: _Phase) -> set[str]:
        """Resolve one claim step for ``movers``; returns the names that moved."""
        self.step_no = 2 if second else 1
        target = {m.name: (m.dest if second else m.via) for m in movers}
        moving = {m.name: m for m in movers}
        occ = self.occupancy()
        claims: dict[Tile, list[str]] = defaultdict(list)
        for m in movers:
            claims[target[m.name]].append(m.name)
        letter = {c: f"{phase.step}.{2 if second else 1}{c}" for c in "abcde"}.__getitem__

        going: set[str] = set()
        waits_on: dict[str, list[str]] = defaultdict(list)  # leaver -> what needs it gone
        pushes: dict[str, list[tuple[str, Tile, str, str]]] = defaultdict(list)  # standing -> bumps
        push_into: dict[Tile, int] = defaultdict(int)

        # Pass 1: the fixed facts of each claim.
        for m in movers:
            name, here, tile = m.name, self.pos[m.name], target[m.name]
            if self.blocked_by_terrain(name, tile, phase):
                continue
            occupant = occ.get(tile)
            if occupant is not None:
                other = moving.get(occupant)
                if other is not None and target[occupant] == here:
                    self.note(name, letter("c"))
                    self.event("collision", (name, occupant), phase, letter("c"), at=tile, unordered=True)
                    continue
                standing = other is None
                if not standing:
                    if second:
                        self.decisions.append(Decision(
                            "vacate", (letter("b"),), ("stop, with a collision",), (name, occupant), self.round,
                            detail=f"{occupant} arrived in step 1 but moves on in step 2"))
                    else:
                        self.decisions.append(Decision(
                            "vacate", (), (), (name, occupant), self.round, (letter("b"), letter("c")),
                            f"{name} claims the tile of {occupant}, which is moving elsewhere"))
                    vacate = self.read("vacate")
                if not standing and vacate != "follow":
                    self.note_reading(name, "vacate")
                    standing = vacate == "stationary" or second
                    if not standing:  # "blocked" in step 1: no clause covers it
                        self.event("collision", (name, occupant), phase, "vacate=blocked", at=tile,
                                   unordered=True)
                        continue
                if standing and second:
                    self.note(name, letter("b"))
                    self.event("collision", (name, occupant), phase, letter("b"), at=tile, unordered=True)
                    continue
                if standing:
                    self.note(name, letter("b"))
                    effect, clause = self.bump_effect(m, occupant, phase)
                    self.note(name, clause)
                    self.note(occupant, clause)
                    self.event("bump", (name, occupant), phase, clause, at=tile)
                    if effect != _STOP:
                        to = _ahead(m.direction, tile)
                        pushes[occupant].append((name, to, effect, clause))
                        push_into[to] += 1
                        if effect == _PUSH:
                            going.add(name)
                    continue
                # "follow": judge the claim as if the tile were empty, provided the occupant
                # really leaves (checked in pass 3).
                self.note_reading(name, "vacate")
                waits_on[occupant].append(name)
            rivals = [c for c in claims[tile] if c != name]
            stronger = [c for c in rivals if self.size[c] >= self.size[name]]
            if stronger:
                self.note(name, letter("d"))
                for c in stronger:
                    self.event("collision", (name, c), phase, letter("d"), at=tile, unordered=True)
                continue
            if rivals:
                self.note(name, letter("e"))
                for c in rivals:
                    self.event("collision", (name, c), phase, letter("e"), at=tile, unordered=True)
            else:
                self.note(name, letter("a"))
            going.add(name)

        # Pass 2: which pushes can happen. Fixed obstacles are known now; a ship in the way
        # makes the push depend on that ship leaving.
        push_ok: dict[str, bool] = {}
        for standing, bumps in pushes.items():
            to = bumps[0][1]
            reason = None
            if len(bumps) > 1:
                reason = "bumped from more than one side"
            elif not self.board.on_board(to):
                reason = "the board edge is behind it"
            elif to in self.board.rocks:
                reason = "a rock is behind it"
            elif claims.get(to) or push_into[to] > 1:
                reason = "another ship claims the tile behind it"
            elif to in occ and occ[to] not in moving:
                reason = "a ship stands behind it"
            if reason is not None:
                self.decisions.append(Decision(
                    "push_blocked", (), (), (bumps[0][0], standing), self.round, tuple(sorted({b[3] for b in bumps})),
                    f"{standing} would be pushed to {list(to)}, but {reason}"))
            literal = reason is not None and self.read("push_blocked") == "literal"
            if reason is not None and not literal:
                push_ok[standing] = False
                for pusher, _, effect, _ in bumps:
                    self.blocked_push(standing, pusher, effect, going)
                continue
            push_ok[standing] = len(bumps) == 1
            if reason is None and to in occ:
                waits_on[occ[to]].append(f"push:{standing}")

        # Pass 3: withdraw every mover whose tile stayed taken, and whatever depended on it.
        work = [n for n in moving if n not in going]
        while work:
            gone = work.pop()
            for dependant in waits_on.pop(gone, ()):
                if dependant.startswith("push:"):
                    standing = dependant[5:]
                    if push_ok[standing]:
                        self.decisions.append(Decision(
                            "push_blocked", (), (), (pushes[standing][0][0], standing), self.round,
                            (pushes[standing][0][3],), f"the ship behind {standing} does not leave"))
                    if push_ok[standing] and self.read("push_blocked") != "literal":
                        push_ok[standing] = False
                        pusher, _, effect, _ = pushes[standing][0]
                        if self.blocked_push(standing, pusher, effect, going):
                            work.append(pusher)
                elif dependant in going:
                    going.discard(dependant)
                    self.event("collision", (dependant, gone), phase, "vacate=follow", at=target[dependant],
                               unordered=True)
                    work.append(dependant)

        # Apply.
        for name in going:
            self.place(name, target[name])
        for standing, bumps in pushes.items():
            if push_ok[standing]:
                pusher, to, _, clause = bumps[0]
                self.place(standing, to)
                self.event("push", (pusher, standing), phase, clause, at=to)
        return going

    def blocked_push(self, standing: str, pusher: str, effect: str, going: set[str]) -> bool:
        """Record a push that cannot happen; returns True if the pusher is withdrawn."""
        self.note_reading(standing, "push_blocked")
        self.note_reading(pusher, "push_blocked")
        if effect == _PUSH and pusher in going:
            going.discard(pusher)
            return True
        return False

    # --- phases ------------------------------------------------------------

    def phase(self, movers: list[_Mover], phase: _Phase) -> set[str]:
        """Both steps of a phase. Returns the names of the turning movers (for facings)."""
        if not movers:
            return set()
        first = self.step(movers, second=False, phase=phase)
        self.snapshot(f"r{self.round} {phase.name} step 1")
        onward = [m for m in movers if m.turning and m.name in first]
        if onward:
            self.step(onward, second=True, phase=phase)
        return {m.name for m in movers if m.turning}

    def movement(self, turn: Turn, index: int) -> None:
        movers = []
        for name, token in turn.rounds[index]:
            if token is Token.NONE:
                continue
            heading = self.head[name]
            via = _ahead(heading, self.pos[name])
            side = _SIDE[token, heading]
            self.note(name, "token.forward" if side is None else "token.turn")
            movers.append(_Mover(name, side is not None, heading, via,
                                 _ahead(side, via) if side is not None else None))
        turners = self.phase(movers, _MOVE)
        for name, token in turn.rounds[index]:
            if name in turners:
                self.head[name] = _SIDE[token, self.head[name]]
                self.note(name, "move.note")
        self.snapshot(f"r{self.round} move")

    def wind(self, moved_by_token: set[str]) -> None:
        board = self.board
        movers = []
        if board.wind or board.whirlpools:
            wind_at, whirl_at = board.wind_at, board.whirl_at
            for name, tile in self.pos.items():
                direction = wind_at.get(tile)
                if direction is not None:
                    self.note(name, "wind.tile")
                    movers.append(_Mover(name, False, direction, _ahead(direction, tile), None))
                elif tile in whirl_at:
                    self.note(name, "whirl.tile")
                    via, dest = board.whirl_path(tile)
                    direction = Heading((via[0] - tile[0], via[1] - tile[1]))
                    movers.append(_Mover(name, True, direction, via, dest))
        for m in movers:
            if m.name in moved_by_token:
                self.note(m.name, "turn.rounds")
        whirlers = self.phase(movers, _WIND)
        for name in whirlers:
            self.head[name] = self.head[name].clockwise()
            self.note(name, "wind.note")
        self.snapshot(f"r{self.round} wind")


def _resolve_turn(scene: Scene, turn: Turn, reading: Mapping[str, str], record: bool = True) -> Outcome:
    """Resolve every round of ``turn`` from ``scene`` under ``reading``."""
    run = _Run(scene, reading, record)
    for index in range(len(turn.rounds)):
        run.round = index + 1
        run.movement(turn, index)
        run.wind({n for n, t in turn.rounds[index] if t is not Token.NONE})
    after = Scene(scene.board, tuple(Ship(n, run.types[n], run.pos[n], run.head[n])
                                     for n in sorted(run.pos)))
    events = tuple(sorted(run.events, key=lambda e: (e.round, e.phase != "move", e.kind, e.pieces)))
    provenance = MappingProxyType({n: tuple(v) for n, v in sorted(run.prov.items())})
    frames = tuple((label, tuple(sorted((n, p, h) for n, (p, h) in state.items())))
                   for label, state in run.frames)
    return Outcome(after, events, provenance, frames, MappingProxyType(dict(reading)), tuple(run.decisions),
                   frozenset(run.consulted))


def resolve_turn(scene: Scene, turn: Turn, reading: Mapping[str, str], record: bool = True) -> Outcome:
    """Resolve every round of ``turn`` from ``scene`` under ``reading``."""
    # The run builds many small objects and no reference cycles: the cyclic collector
    # only costs time here (it rescans every live object as the outcome grows).
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _resolve_turn(scene, turn, reading, record)
    finally:
        if enabled:
            gc.enable()
