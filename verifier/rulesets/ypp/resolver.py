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

import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from ...kit.collector import collector_paused
from ...ruleset import Cause, Decision, Event, Frame, Outcome, Refusal, Ruleset, refused_outcome
from ...ruleset import Resolution as _Resolution
from .model import (
    RAM_VALUES,
    SHIP_TYPES,
    SHOT_SIZES,
    Board,
    Corner,
    Heading,
    Scene,
    Ship,
    SizeClass,
    Tile,
    Token,
    Turn,
    ship_at,
    totals_key,
)

_SIDE = {(t, h): t.side(h) for t in Token for h in Heading}
_CLOCKWISE = {h: h.clockwise() for h in Heading}
_SIZES = {kind: int(size) for kind, size in SHIP_TYPES.items()}
_LABEL = {int(size): size.label for size in SizeClass}  # without IntEnum's call and descriptor
_NO_TOKEN = Token.NONE

# Inside a run a tile is a single int key (see _Grid) rather than an (x, y) tuple: one small
# object instead of three, and no tuple hashing on every lookup. This is only for speed on big
# scenes; ships, events and frames handed out keep (x, y) tuples.
Key = int
# Keys stay exact for y in [-_MARGIN, height + _MARGIN). Claims reach at most two tiles off the
# board (a ship pushed one tile off under the "literal" reading, then claiming one further).
_MARGIN = 4


_STEPS = tuple((h, h.value) for h in Heading)
# Each corner of a whirlpool, from its north-west tile: the corner, the tile a ship there is
# carried through and the one it ends on (the next two corners clockwise), and the way of
# that first step.
_WHIRL = tuple((c.value, c.next().value, c.next().next().value,
                Heading((c.next().value[0] - c.value[0], c.next().value[1] - c.value[1]))) for c in Corner)


class _Grid:
    """A board's terrain with tiles as keys ``(x + _MARGIN) * stride + y + _MARGIN``;
    a step to a neighbour is adding ``delta[heading]``."""

    def __init__(self, board: Board):
        self.stride = stride = board.height + 2 * _MARGIN
        self.x_range = range(_MARGIN * stride, (board.width + _MARGIN) * stride)
        self.y_range = range(_MARGIN, board.height + _MARGIN)
        self.delta = {h: dx * stride + dy for h, (dx, dy) in _STEPS}
        key = self.key
        self.rocks = frozenset([key(t) for t in board.rocks])
        self.wind = {key(t): h for t, h in board.wind}
        self.tiles = _Tiles(stride)  # key -> (x, y), one tuple per tile
        self.whirl: dict[Key, tuple[Heading, Key, Key]] = {}  # tile -> direction, via, dest
        for x, y in board.whirlpools:
            for (cx, cy), (vx, vy), (tx, ty), direction in _WHIRL:
                self.whirl[key((x + cx, y + cy))] = (direction, key((x + vx, y + vy)), key((x + tx, y + ty)))

    def key(self, tile: Tile) -> Key:
        return (tile[0] + _MARGIN) * self.stride + tile[1] + _MARGIN

    def tile(self, key: Key) -> Tile:
        x, y = divmod(key, self.stride)
        return (x - _MARGIN, y - _MARGIN)

    def on_board(self, key: Key) -> bool:
        return key in self.x_range and key % self.stride in self.y_range


class _Tiles(dict[Key, Tile]):
    # The stride, not the grid: a grid and its tiles referring to each other would be a cycle
    # that only the collector frees, once per board the grid cache lets go of.
    def __init__(self, stride: int):
        super().__init__()
        self.stride = stride

    def __missing__(self, key: Key) -> Tile:
        x, y = divmod(key, self.stride)
        tile = self[key] = (x - _MARGIN, y - _MARGIN)
        return tile


@lru_cache(maxsize=8)
def _grid(board: Board) -> _Grid:
    return _Grid(board)


# A moment of a run (_Run.mark): round, each ship's (place, heading, provenance length) in listing
# order, the lengths of the events, decisions, frames and consulted points, and the tiles of more
# than one ship with their names.
_Mark = tuple[int, tuple[tuple[Key, Heading, int], ...], int, int, int, int, tuple[tuple[Key, tuple[str, ...]], ...]]

# One shared value per provenance entry: by round and clause, and by (round, point, option).
_APPLIED: dict[int, dict[str, Cause]] = {}
_CAUSES: dict[tuple, Cause] = {}


def _by_name(ship: _Ship | Ship) -> str:
    return ship.name


# Bump effects.
_STOP, _KNOCK, _PUSH = "stop", "knock", "push"
_MOTION = {("move", False): "going forward", ("move", True): "turning",
           ("wind", False): "blown by wind", ("wind", True): "whirling"}
_EFFECT_WORD = {_KNOCK: "knock", _PUSH: "push"}
_EFFECT_TEXT = {
    _STOP: "neither ship moves",
    _KNOCK: "the standing ship is knocked on, the mover stays",
    _PUSH: "the mover takes the tile, the standing ship is shoved on",
}


# The bump bullets of each phase by number ("bump.1" .. "bump.4"; [0] unused).
_BUMP_CLAUSES = {prefix: tuple(f"{prefix}.{n}" for n in range(5)) for prefix in ("bump", "wind.bump")}
_HEADINGS = tuple(Heading)
# The decisions of bumps, knocks and claims, one shared value per situation (each key starts with
# the kind of decision and holds all its words depend on: phase, step, ships, ways of moving,
# round): every reading of a scene replays its rounds, and with them the same decisions.
_DECISIONS: dict[tuple, Decision] = {}


def _keep_decision(key: tuple, decision: Decision) -> Decision:
    if len(_DECISIONS) > 20_000:
        _DECISIONS.clear()
    _DECISIONS[key] = decision
    return decision

_LETTERS = {(prefix, second): {c: f"{prefix}.{2 if second else 1}{c}" for c in "abcde"}.__getitem__
            for prefix in ("move", "wind") for second in (False, True)}


class _Ship:
    """One ship's working state, kept together so that one lookup finds all of it."""

    __slots__ = ("name", "type", "size", "at", "heading", "prov")

    def __init__(self, ship: Ship, at: Key):
        self.name, self.type, self.at, self.heading = ship.name, ship.type, at, ship.heading
        self.size = _SIZES[ship.type]
        self.prov: list[Cause] = []  # provenance entries, in order


@dataclass(slots=True, eq=False)
class _Mover:
    ship: _Ship
    turning: bool
    direction: Heading  # direction of step 1, used for bumps and pushes
    via: Key  # the tile claimed in step 1
    dest: Key | None  # the tile claimed in step 2 (turning movers only)
    target: Key = field(init=False)  # the tile claimed in the current step, set as the step starts

    @property
    def name(self) -> str:
        return self.ship.name

    def motion(self, phase: _Phase) -> str:
        return _MOTION[phase.name, self.turning]


@dataclass
class _Phase:
    """Naming for one phase: clause prefixes and event labels."""

    name: str  # "move" or "wind"
    step: str  # clause prefix for the claim cases
    bump: str  # clause prefix for the bump bullets


_MOVE = _Phase("move", "move", "bump")
_WIND = _Phase("wind", "wind", "wind.bump")


class _Run:
    """Mutable working state of one resolution; never escapes the resolver. ``fork`` copies it
    between rounds, so that a resolution under another reading can take up from there."""

    def __init__(self, scene: Scene, reading: Mapping[str, str], record: bool):
        if len(_CAUSES) > 20_000 or len(_APPLIED) > 1000:  # only turns of very many rounds make so many
            _CAUSES.clear()
            _APPLIED.clear()
        self.reading = reading
        self.record = record
        self.grid = grid = _grid(scene.board)
        self.ships = {s.name: _Ship(s, grid.key(s.at)) for s in scene.ships}
        self.by_name = sorted(self.ships.values(), key=_by_name)  # for frames
        self.tiles = grid.tiles
        self.events: list[Event] = []
        self.seen_pairs: set[tuple] = set()  # of this round only: see event()
        self.decisions: list[Decision] = []
        self.consulted: dict[str, None] = {}  # the points that mattered, in order (only ever added to)
        self.pins: dict[str, str] = {}  # every reading point looked up since the round began, with its option
        self.frames: list[Frame] = []
        self.enter(0)
        self.occ: dict[Key, _Ship] | None = None  # see occupancy()
        self.stacked: dict[Key, set[_Ship]] = {}  # tiles with more than one ship ("literal" pushes)
        self.step_no = 0
        self.arrived: set[_Ship] = set()  # in step 2: the ships that moved in step 1 of this phase
        self.state: tuple[tuple[str, Tile, Heading], ...] | None = None  # of the last frame, None once a ship moved
        self.snapshot("start")

    def mark(self) -> _Mark:
        """This moment, at the end of a round: the lists of a run only grow, so their lengths
        and each ship's place, heading and provenance length are enough to take up from here."""
        stacked = tuple([(key, tuple([s.name for s in stack]))
                         for key, stack in self.stacked.items()]) if self.stacked else ()
        return (self.round, tuple([(s.at, s.heading, len(s.prov)) for s in self.ships.values()]), len(self.events),
                len(self.decisions), len(self.frames), len(self.consulted), stacked)

    def taken_up(self, mark: _Mark, reading: Mapping[str, str]) -> _Run:
        """A run at ``mark``, a moment of this one, under ``reading``."""
        round_no, states, events, decisions, frames, consulted, stacked = mark
        run = object.__new__(_Run)
        run.reading, run.record, run.grid, run.tiles = reading, self.record, self.grid, self.tiles
        run.enter(round_no)
        ships = {}
        for ship, (at, heading, noted) in zip(self.ships.values(), states):
            copy = ships[ship.name] = object.__new__(_Ship)
            copy.name, copy.type, copy.size, copy.at, copy.heading = ship.name, ship.type, ship.size, at, heading
            copy.prov = ship.prov[:noted]
        run.ships = ships
        run.by_name = [ships[s.name] for s in self.by_name]
        run.events, run.decisions, run.frames = self.events[:events], self.decisions[:decisions], self.frames[:frames]
        run.consulted = dict.fromkeys(list(self.consulted)[:consulted])
        run.seen_pairs, run.pins = set(), {}
        # The occupancy map is rebuilt as it was kept: the smallest name on each tile.
        run.occ = None
        run.stacked = {key: {ships[name] for name in names} for key, names in stacked}
        run.step_no, run.arrived, run.state = 0, set(), None
        return run

    # --- bookkeeping -------------------------------------------------------

    def enter(self, round_no: int) -> None:
        """Work in round ``round_no`` (0 before the first)."""
        self.round = round_no
        applied = _APPLIED.get(round_no)
        if applied is None:
            applied = _APPLIED[round_no] = {}
        self.applied: dict[str, Cause] = applied

    def snapshot(self, phase: str, step: int = 0) -> None:
        if self.record:
            state = self.state
            if state is None:  # a ship moved or turned since the last frame
                tiles = self.tiles
                state = self.state = tuple([(s.name, tiles[s.at], s.heading) for s in self.by_name])
            self.frames.append(Frame(self.round, phase, step, state))

    def tile(self, key: Key) -> Tile:
        """The (x, y) of ``key``, one tuple per tile and board."""
        return self.tiles[key]

    def note(self, ship: _Ship, clause: str) -> None:
        cause = self.applied.get(clause)
        if cause is None:
            cause = self.applied[clause] = Cause.applied(clause, self.round)
        ship.prov.append(cause)

    def option(self, point: str) -> str:
        """The reading's option for ``point``, pinned: the rest of the round depends on it."""
        option = self.reading[point]
        if point not in self.pins:
            self.pins[point] = option
        return option

    def read(self, point: str) -> str:
        """The reading's option for ``point``; remembers that the point mattered."""
        self.consulted[point] = None
        return self.option(point)

    def note_reading(self, ship: _Ship, point: str) -> None:
        option = self.option(point)
        key = (self.round, point, option)
        cause = _CAUSES.get(key)
        if cause is None:
            cause = _CAUSES[key] = Cause.followed(point, option, self.round)
        ship.prov.append(cause)

    def event(self, kind: str, pieces: tuple[str, ...], phase: _Phase, clause: str, at: Key,
              unordered: bool = False) -> None:
        if unordered:  # always a pair: by name
            if pieces[1] < pieces[0]:
                pieces = (pieces[1], pieces[0])
            key = (self.round, phase.name, kind, pieces)
            if key in self.seen_pairs:
                return
            self.seen_pairs.add(key)
        self.events.append(Event(kind, pieces, self.round, phase.name, clause, "", self.tiles[at], self.step_no))

    def blocked_by_terrain(self, ship: _Ship, tile: Key, phase: _Phase) -> None:
        """Note the edge or rock that stops ``ship`` claiming ``tile``."""
        if not self.grid.on_board(tile):
            self.note(ship, "edge.1")
            self.event("edge", (ship.name,), phase, "edge.1", at=tile)
        else:
            self.note(ship, "rock.1")
            self.event("rock", (ship.name,), phase, "rock.1", at=tile)

    def occupancy(self) -> dict[Key, _Ship]:
        """Tile -> ship on it, built once and then kept up to date by ``place``. Overlaps
        only arise under the "literal" push reading; the smallest name stands for the tile,
        to keep the choice order-free."""
        if self.occ is None:
            occ: dict[Key, _Ship] = {}
            for ship in self.ships.values():
                if ship.at not in occ or ship.name < occ[ship.at].name:
                    occ[ship.at] = ship
            self.occ = occ
        return self.occ

    def place(self, ship: _Ship, tile: Key) -> None:
        """Move ``ship`` to ``tile``, keeping the occupancy map (once built) in step."""
        old = ship.at
        ship.at = tile
        self.state = None
        occ = self.occ
        if occ is None or old == tile:
            return
        stack = self.stacked.get(old)
        if stack is not None:
            stack.discard(ship)
            occ[old] = min(stack, key=_by_name)
            if len(stack) == 1:
                del self.stacked[old]
        elif occ.get(old) is ship:
            del occ[old]
        here = occ.get(tile)
        if here is None:
            occ[tile] = ship
        else:
            self.stacked.setdefault(tile, {here}).add(ship)
            occ[tile] = min(here, ship, key=_by_name)

    # --- bumps -------------------------------------------------------------

    def bump_effect(self, mover: _Mover, other: _Ship, phase: _Phase) -> tuple[str, str]:
        """(effect, clause) of ``mover`` bumping the standing ship ``other``."""
        clauses = _BUMP_CLAUSES[phase.bump]
        motion = (clauses[1], _STOP) if mover.turning else (clauses[2], _KNOCK)
        mine, theirs = mover.ship.size, other.size
        by_class = None
        if mine < theirs:
            by_class = (clauses[3], _STOP)
        elif mine > theirs:
            by_class = (clauses[4], _PUSH)
        if by_class is not None:
            key = ("bump", phase.name, mover.turning, mine, theirs, mover.name, other.name, self.round)
            decision = _DECISIONS.get(key)
            if decision is None:
                moving = mover.motion(phase)
                decision = _keep_decision(key, Decision(
                    "bump", (motion[0], by_class[0]), (_EFFECT_TEXT[motion[1]], _EFFECT_TEXT[by_class[1]]),
                    (mover.name, other.name), self.round,
                    detail=f"{mover.name}, {moving} as a {_LABEL[mine]} ship, "
                           f"bumps the standing {_LABEL[theirs]} ship {other.name}",
                    situation=f"a ship {moving} bumps a standing ship of "
                              f"{'smaller' if mine > theirs else 'larger'} class"))
            self.decisions.append(decision)
        order = self.read("bump") if by_class is not None else None
        if by_class is None or order == "motion-first" or (order == "turn-first" and mover.turning):
            clause, effect = motion
        else:
            clause, effect = by_class
        return effect, clause

    def vacate_decision(self, m: _Mover, other: _Mover, second: bool, phase: _Phase) -> Decision:
        """The decision of ``m`` claiming the tile of ``other``, which is moving too: one
        shared value per phase, step, the two ships and their ways of moving, and round."""
        straight = other.direction is m.direction
        key = ("vacate", phase.name, second, m.name, other.name, m.turning, other.turning, straight, self.round)
        decision = _DECISIONS.get(key)
        if decision is not None:
            return decision
        letter = _LETTERS[phase.step, second]
        name, occupant = m.name, other.name
        if second:
            decision = Decision(
                "vacate", (letter("b"),), ("stop, with a collision",), (name, occupant), self.round,
                detail=f"{occupant} arrived in step 1 but moves on in step 2",
                situation=f"step 2: a ship {m.motion(phase)} claims the tile a ship "
                          f"{other.motion(phase)} reached in step 1 and is leaving")
        else:
            leaving = "straight on" if straight else "across its way"
            decision = Decision(
                "vacate", (), (), (name, occupant), self.round, (letter("b"), letter("c")),
                f"{name} claims the tile of {occupant}, which is moving elsewhere",
                situation=f"step 1: a ship {m.motion(phase)} claims the tile of a ship "
                          f"{other.motion(phase)} that leaves {leaving}")
        return _keep_decision(key, decision)

    def reach_decision(self, m: _Mover, occupant: _Ship, phase: _Phase) -> Decision:
        """The decision of ``m`` reaching, in step 2, a destination that holds ``occupant``,
        which has not moved this phase."""
        size, theirs = m.ship.size, occupant.size
        relation = "smaller" if size > theirs else "larger" if size < theirs else "the same"
        key = ("reach", phase.name, m.name, occupant.name, m.turning, relation, self.round)
        decision = _DECISIONS.get(key)
        if decision is not None:
            return decision
        name = m.name
        return _keep_decision(key, Decision(
            "bump_reach", (_LETTERS[phase.step, True]("b"), f"{phase.bump}.1"),
            ("stop after step 1, with a collision", "a bump: the bump bullets decide"),
            (name, occupant.name), self.round,
            detail=f"the destination of {name} holds the standing ship {occupant.name}",
            situation=f"step 2: a ship {m.motion(phase)} reaches a destination that holds a standing "
                      f"ship of {relation} class"))

    # --- one step of claims ------------------------------------------------

    def step(self, movers: list[_Mover], second: bool, phase: _Phase) -> set[_Mover]:
        """Resolve one claim step for ``movers``; returns the movers that moved."""
        self.step_no = 2 if second else 1
        moving: dict[_Ship, _Mover] = {}
        claims: dict[Key, list[_Mover]] = {}
        for m in movers:
            # Only turning movers, which all have a dest, take a second step.
            target: Key = m.dest if second else m.via  # type: ignore[assignment]
            m.target = target
            moving[m.ship] = m
            claimants = claims.get(target)
            if claimants is None:
                claims[target] = [m]
            else:
                claimants.append(m)
        occ = self.occ
        if occ is None:
            occ = self.occupancy()
        grid = self.grid
        delta = grid.delta
        letter = _LETTERS[phase.step, second]
        x_range, y_range, rocks, stride = grid.x_range, grid.y_range, grid.rocks, grid.stride

        going: set[_Mover] = set()
        # leaver -> what needs it gone: a mover following it in, or a ship to be pushed there
        waits_on: dict[_Ship, list[_Mover | _Ship]] = {}
        pushes: dict[_Ship, list[tuple[_Mover, Key, str, str]]] = {}  # standing -> bumps
        push_into: dict[Key, int] = {}

        # Pass 1: the fixed facts of each claim.
        for m in movers:
            ship = m.ship
            tile = m.target
            if tile in rocks or tile not in x_range or tile % stride not in y_range:
                self.blocked_by_terrain(ship, tile, phase)
                continue
            occupant = occ.get(tile)
            if occupant is not None:
                name, here = ship.name, ship.at
                other = moving.get(occupant)
                if other is not None and other.target == here:
                    self.note(ship, letter("c"))
                    self.event("collision", (name, occupant.name), phase, letter("c"), at=tile, unordered=True)
                    continue
                stands = other is None
                if other is not None:
                    self.decisions.append(self.vacate_decision(m, other, second, phase))
                    vacate = self.read("vacate")
                if not stands and vacate != "follow":
                    self.note_reading(ship, "vacate")
                    stands = vacate == "stationary" or second
                    if not stands:  # "blocked" in step 1: no clause covers it
                        self.event("collision", (name, occupant.name), phase, "vacate=blocked", at=tile,
                                   unordered=True)
                        continue
                way = m.direction
                if stands and second and other is None and occupant not in self.arrived:
                    # A ship that has not moved this phase at the destination: case b of step 2,
                    # or, since a bump is entering "into or through" a standing ship's tile, a bump.
                    # The way of the planned second step (the ship may have been shoved off its path).
                    way = next(h for h in _HEADINGS if m.via + delta[h] == m.dest)
                    self.decisions.append(self.reach_decision(m, occupant, phase))
                    self.note_reading(ship, "bump_reach")
                    if self.read("bump_reach") == "step-1":
                        self.note(ship, letter("b"))
                        self.event("collision", (name, occupant.name), phase, letter("b"), at=tile,
                                   unordered=True)
                        continue
                elif stands and second:
                    self.note(ship, letter("b"))
                    self.event("collision", (name, occupant.name), phase, letter("b"), at=tile, unordered=True)
                    continue
                if stands:
                    self.note(ship, letter("b"))
                    effect, clause = self.bump_effect(m, occupant, phase)
                    self.note(ship, clause)
                    self.note(occupant, clause)
                    self.event("bump", (name, occupant.name), phase, clause, at=tile)
                    if effect != _STOP:
                        to = tile + delta[self.knock_direction(m, way, occupant, clause, effect, phase)]
                        bumps = pushes.get(occupant)
                        if bumps is None:
                            pushes[occupant] = [(m, to, effect, clause)]
                        else:
                            bumps.append((m, to, effect, clause))
                        push_into[to] = push_into.get(to, 0) + 1
                        if effect == _PUSH:
                            going.add(m)
                    continue
                # "follow": judge the claim as if the tile were empty, provided the occupant
                # really leaves (checked in pass 3).
                self.note_reading(ship, "vacate")
                waiting = waits_on.get(occupant)
                if waiting is None:
                    waits_on[occupant] = [m]
                else:
                    waiting.append(m)
            claimants = claims[tile]
            if len(claimants) == 1:
                self.note(ship, letter("a"))
                going.add(m)
                continue
            name = ship.name
            rivals = [c for c in claimants if c is not m]
            stronger = [c for c in rivals if c.ship.size >= ship.size]
            if stronger:
                self.note(ship, letter("d"))
                for c in stronger:
                    self.event("collision", (name, c.name), phase, letter("d"), at=tile, unordered=True)
                continue
            if rivals:
                self.note(ship, letter("e"))
                for c in rivals:
                    self.event("collision", (name, c.name), phase, letter("e"), at=tile, unordered=True)
            else:
                self.note(ship, letter("a"))
            going.add(m)

        push_ok: dict[_Ship, bool] = {}
        if pushes:
            # Pass 2: which pushes can happen. Fixed obstacles are known now; a ship in the way
            # makes the push depend on that ship leaving.
            for standing, bumps in pushes.items():
                to = bumps[0][1]
                reason = None
                if len(bumps) > 1:
                    reason = "bumped from more than one side"
                elif not grid.on_board(to):
                    reason = "the board edge is behind it"
                elif to in rocks:
                    reason = "a rock is behind it"
                elif claims.get(to) or push_into[to] > 1:
                    reason = "another ship claims the tile behind it"
                elif to in occ and occ[to] not in moving:
                    reason = "a ship stands behind it"
                if reason is not None:
                    effects = "+".join(sorted({_EFFECT_WORD[b[2]] for b in bumps}))
                    self.decisions.append(Decision(
                        "push_blocked", (), (), (bumps[0][0].name, standing.name), self.round,
                        tuple(sorted({b[3] for b in bumps})),
                        f"{standing.name} would be pushed to {list(self.tile(to))}, but {reason}",
                        situation=f"{effects}: {reason}"))
                literal = reason is not None and self.read("push_blocked") == "literal"
                if reason is not None and not literal:
                    push_ok[standing] = False
                    for pusher, _, effect, _ in bumps:
                        self.blocked_push(standing, pusher, effect, going)
                    continue
                push_ok[standing] = len(bumps) == 1
                if reason is None and to in occ:
                    waiting = waits_on.get(occ[to])
                    if waiting is None:
                        waits_on[occ[to]] = [standing]
                    else:
                        waiting.append(standing)

        if waits_on:
            # Pass 3: withdraw every mover whose tile stayed taken, and whatever depended on it.
            work = [m for m in moving.values() if m not in going]
            while work:
                gone = work.pop()
                for dependant in waits_on.pop(gone.ship, ()):
                    if isinstance(dependant, _Ship):  # its push waited for ``gone`` to leave
                        standing = dependant
                        if push_ok[standing]:
                            self.decisions.append(Decision(
                                "push_blocked", (), (), (pushes[standing][0][0].name, standing.name), self.round,
                                (pushes[standing][0][3],), f"the ship behind {standing.name} does not leave",
                                situation=f"{_EFFECT_WORD[pushes[standing][0][2]]}: the ship behind does not leave"))
                        if push_ok[standing] and self.read("push_blocked") != "literal":
                            push_ok[standing] = False
                            pusher, _, effect, _ = pushes[standing][0]
                            if self.blocked_push(standing, pusher, effect, going):
                                work.append(pusher)
                    elif dependant in going:
                        going.discard(dependant)
                        self.event("collision", (dependant.name, gone.name), phase, "vacate=follow",
                                   at=dependant.target, unordered=True)
                        work.append(dependant)

        # Apply.
        place = self.place
        for m in going:
            place(m.ship, m.target)
        for standing, bumps in pushes.items():
            if push_ok[standing]:
                pusher, to, _, clause = bumps[0]
                place(standing, to)
                self.event("push", (pusher.name, standing.name), phase, clause, at=to)
        return going

    def knock_direction(self, mover: _Mover, away: Heading, standing: _Ship, clause: str, effect: str,
                        phase: _Phase) -> Heading:
        """Which way a bump sends the standing ship; ``away`` is the way the mover was going.
        A push (bump.4) keeps it in front of the mover, so it goes the mover's way; a knock
        "back" (bump.2) may also mean towards the standing ship's own stern, which differs
        unless it faces the mover."""
        if effect == _PUSH:
            return away
        astern = standing.heading.opposite()
        if astern is away:
            return away
        key = ("knock", clause, away, standing.heading, mover.name, standing.name, self.round, mover.turning)
        decision = _DECISIONS.get(key)
        if decision is None:
            facing = "the same way as the mover goes" if standing.heading is away else "across the mover's way"
            decision = _keep_decision(key, Decision(
                "knock_direction", (clause,),
                (f"knocked {away.name} (away from the mover) or {astern.name} (astern)",),
                (mover.name, standing.name), self.round,
                detail=f"{mover.name} knocks {standing.name} back, and {standing.name} faces {standing.heading.name}",
                situation=f"a ship {mover.motion(phase)} knocks back a standing ship that faces {facing}"))
        self.decisions.append(decision)
        self.note_reading(standing, "knock_direction")
        return away if self.read("knock_direction") == "away" else astern

    # --- ram damage ----------------------------------------------------------

    def blocked_push(self, standing: _Ship, pusher: _Mover, effect: str, going: set[_Mover]) -> bool:
        """Record a push that cannot happen; returns True if the pusher is withdrawn."""
        self.note_reading(standing, "push_blocked")
        self.note_reading(pusher.ship, "push_blocked")
        if effect == _PUSH and pusher in going:
            going.discard(pusher)
            return True
        return False

    # --- phases ------------------------------------------------------------

    def phase(self, movers: list[_Mover], phase: _Phase) -> None:
        """Both steps of a phase."""
        if not movers:
            return
        first = self.step(movers, second=False, phase=phase)
        self.snapshot(phase.name, 1)
        onward = [m for m in movers if m.turning and m in first]
        if onward:
            self.arrived = {m.ship for m in first}
            self.step(onward, second=True, phase=phase)
            self.arrived = set()

    def movement(self, tokens: tuple[tuple[str, Token], ...]) -> None:
        movers: list[_Mover] = []
        turns: list[tuple[_Mover, Heading]] = []  # the turning movers, with their new heading
        delta = self.grid.delta
        ships, note = self.ships, self.note
        for name, token in tokens:
            if token is _NO_TOKEN:
                continue
            ship = ships[name]
            heading = ship.heading
            via = ship.at + delta[heading]
            side = _SIDE[token, heading]
            if side is None:
                note(ship, "token.forward")
                movers.append(_Mover(ship, False, heading, via, None))
            else:
                note(ship, "token.turn")
                mover = _Mover(ship, True, heading, via, via + delta[side])
                movers.append(mover)
                turns.append((mover, side))
        if movers:
            self.phase(movers, _MOVE)
        for m, side in turns:  # a turning ship faces its new way whether or not it moved
            m.ship.heading = side
            note(m.ship, "move.note")
            self.state = None
        self.snapshot("move")

    def wind(self, tokens: tuple[tuple[str, Token], ...]) -> None:
        """The wind phase of the round whose tokens are ``tokens``."""
        grid = self.grid
        if grid.wind or grid.whirl:
            movers = []
            wind, whirl, note = grid.wind, grid.whirl, self.note
            for ship in self.ships.values():
                tile = ship.at
                direction = wind.get(tile)
                if direction is not None:
                    note(ship, "wind.tile")
                    movers.append(_Mover(ship, False, direction, tile + grid.delta[direction], None))
                elif tile in whirl:
                    note(ship, "whirl.tile")
                    movers.append(_Mover(ship, True, *whirl[tile]))
            if movers:
                moved_by_token = {n for n, t in tokens if t is not _NO_TOKEN}
                for m in movers:
                    if m.ship.name in moved_by_token:
                        note(m.ship, "turn.rounds")
                self.phase(movers, _WIND)
                for m in movers:
                    if m.turning:
                        m.ship.heading = _CLOCKWISE[m.ship.heading]
                        note(m.ship, "wind.note")
                        self.state = None
        self.snapshot("wind")


_RAMMING = frozenset({"collision", "bump"})
_SHOT_INDEX = {size: i for i, size in enumerate(SHOT_SIZES)}
# The decisions of ram damage, one shared value per (kind, pieces, round, the two ships' types).
_RAM_DECISIONS: dict[tuple, tuple[Decision, ...]] = {}


def _ram_decisions(event: Event, first: _Ship, second: _Ship, differ: bool) -> tuple[Decision, ...]:
    if len(_RAM_DECISIONS) > 20_000:
        _RAM_DECISIONS.clear()
    what = "a collision" if event.kind == "collision" else "a bump"
    unit = Decision("ram_unit", ("ram.1",), ("damage counted in hits of one shot size",), event.pieces, event.round,
                    detail=f"{what} between {event.pieces[0]} and {event.pieces[1]}", situation=f"damage of {what}")
    if not differ:
        return (unit,)
    return unit, Decision(
        "ram_value", ("ram.1",), ("each ship takes one of the two ram values",), event.pieces, event.round,
        detail=f"{what} between {first.type} {first.name} and {second.type} {second.name}",
        situation=f"damage of {what} between ships of different ram values")


MAX_ROUNDS = 4  # moves in a turn


def refusal(turn: Turn) -> Refusal | None:
    """A turn of more rounds than a turn has, refused (the ships given tokens past the last
    round named); None for a turn the rules allow."""
    if len(turn.rounds) <= MAX_ROUNDS:
        return None
    late = turn.rounds[MAX_ROUNDS:]
    pieces = sorted({n for tokens in late for n, t in tokens if t is not Token.NONE} or
                    {n for tokens in late for n, _ in tokens})
    return Refusal("turn.rounds", tuple(pieces), f"a turn has {MAX_ROUNDS} rounds, but tokens are placed for "
                                                 f"{len(turn.rounds)}")


def _play_round(run: _Run, turn: Turn, index: int) -> None:
    run.pins = {}
    run.enter(index + 1)
    tokens = turn.rounds[index]
    run.movement(tokens)
    run.wind(tokens)


def _rams(run: _Run) -> bool:
    """Whether ``_finish`` will count ram damage, and so consult the reading."""
    return any(e.kind in _RAMMING and len(e.pieces) == 2 for e in run.events)


class _Damage:
    """The end of a run past its last round, but for the ram damage: the one part of the outcome
    that the options of ram_unit and ram_value change (the ram.1 notes, the decisions and the
    points consulted are the same under every option), so that another reading's end is the
    damage counted again, not the run taken up again."""

    __slots__ = ("after", "events", "rams", "differs", "provenance", "frames", "decisions", "consulted",
                 "key_start")

    def __init__(self, run: _Run, scene: Scene):
        ships = run.ships
        rams = []
        differs = False
        for i, event in enumerate(run.events):
            pieces = event.pieces
            if len(pieces) != 2 or event.kind not in _RAMMING:
                continue
            if event.round != run.round:
                run.enter(event.round)
            first, second = ships[pieces[0]], ships[pieces[1]]
            differ = RAM_VALUES[first.type] != RAM_VALUES[second.type]
            key = (event.kind, pieces, event.round, first.type, second.type)
            decisions = _RAM_DECISIONS.get(key)
            if decisions is None:
                decisions = _RAM_DECISIONS[key] = _ram_decisions(event, first, second, differ)
            run.decisions.extend(decisions)
            run.note(first, "ram.1")
            run.note(second, "ram.1")
            rams.append((i, RAM_VALUES[first.type], RAM_VALUES[second.type], differ))
            differs = differs or differ
        self.differs = differs
        if rams:  # looked up as the resolver would, counting the damage of the first ramming event
            run.consulted["ram_unit"] = None
            if self.differs:
                run.consulted["ram_value"] = None
        events = run.events
        order = sorted(range(len(events)), key=[(e.round, e.phase != "move", e.kind, e.pieces)  # _event_order
                                                for e in events].__getitem__)
        self.events = tuple([events[i] for i in order])  # in the outcome's order
        at = {i: position for position, i in enumerate(order)}
        self.rams = tuple(sorted((at[i], first, second, differ) for i, first, second, differ in rams))
        tiles = run.tiles
        self.after = Scene(scene.board, tuple([_ended(s, tiles[s.at], scene) for s in run.by_name]))
        self.provenance = MappingProxyType({s.name: tuple(s.prov) for s in run.by_name if s.prov})
        self.frames, self.decisions, self.consulted = tuple(run.frames), tuple(run.decisions), frozenset(run.consulted)
        self.key_start: tuple | None = None  # see Resolution.key

    def pins(self, reading: Mapping[str, str]) -> _Pins:
        """The points the ram damage looks up under ``reading``, with their options, in order."""
        if not self.rams:
            return ()
        unit = reading["ram_unit"]
        return (("ram_unit", unit), ("ram_value", reading["ram_value"])) if self.differs else (("ram_unit", unit),)

    def damage(self, pins: _Pins) -> list[tuple[int, tuple[tuple[str, float], ...]]]:
        """The damage of each ramming event under the options ``pins``, by the event's place
        in the outcome, in order."""
        unit = _SHOT_INDEX[pins[0][1]] if pins else 0
        swapped = self.differs and pins[1][1] != "other"
        events = self.events
        found: list[tuple[int, tuple[tuple[str, float], ...]]] = []
        for position, first, second, differ in self.rams:
            a, b = events[position].pieces
            if differ and swapped:
                found.append((position, ((a, first[unit]), (b, second[unit]))))
            else:
                found.append((position, ((a, second[unit]), (b, first[unit]))))
        return found

    def totals(self, pins: _Pins) -> tuple[tuple[str, float], ...]:
        """The items of the outcome's ``damage_totals`` under the options ``pins``, added up
        as it adds them (in the order of the events), without the outcome."""
        unit = _SHOT_INDEX[pins[0][1]] if pins else 0
        swapped = self.differs and pins[1][1] != "other"
        events = self.events
        totals: dict[str, float] = {}
        for position, first, second, differ in self.rams:  # as ``damage`` gives them
            a, b = events[position].pieces
            if differ and swapped:
                x, y = first[unit], second[unit]
            else:
                x, y = second[unit], first[unit]
            totals[a] = totals.get(a, 0.0) + x
            totals[b] = totals.get(b, 0.0) + y
        return totals_key(totals)

    def outcome(self, pins: _Pins, reading: Mapping[str, str]) -> Outcome:
        """The outcome under ``reading``, whose options for the ram damage are ``pins``."""
        events = self.events
        if self.rams:
            damaged = list(events)
            for position, damage in self.damage(pins):
                e = damaged[position]
                damaged[position] = Event(e.kind, e.pieces, e.round, e.phase, e.clause, e.detail, e.at, e.step, damage)
            events = tuple(damaged)
        # As Outcome(...) makes it, without the frozen dataclass's check of each field.
        outcome = object.__new__(Outcome)
        outcome.__dict__.update(after=self.after, events=events, provenance=self.provenance, frames=self.frames,
                                reading=MappingProxyType(dict(reading)), decisions=self.decisions,
                                consulted=self.consulted, unreported=frozenset(), refusal=None)
        return outcome


def _ended(ship: _Ship, at: Tile, scene: Scene) -> Ship:
    """``ship`` where it ended: the scene's own value where it ends as it began."""
    start = scene.by_name.get(ship.name)
    if start is not None and start.at == at and start.heading is ship.heading:
        return start
    return ship_at(ship.name, ship.type, at, ship.heading)


def _finish(run: _Run, scene: Scene) -> Outcome:
    """The ram damage of every event, and the outcome."""
    damage = _Damage(run, scene)
    return damage.outcome(damage.pins(run.reading), run.reading)


def _event_order(e: Event) -> tuple:
    return e.round, e.phase != "move", e.kind, e.pieces


def _resolve_turn(scene: Scene, turn: Turn, reading: Mapping[str, str], record: bool = True) -> Outcome:
    """Resolve every round of ``turn`` from ``scene`` under ``reading``."""
    run = _Run(scene, reading, record)
    for index in range(len(turn.rounds)):
        _play_round(run, turn, index)
    return _finish(run, scene)


def first_meeting(scene: Scene, turn: Turn, reading: Mapping[str, str]) -> tuple[str, str] | None:
    """The two ships of the first bump or collision among the events ``resolve_turn`` gives (in
    its order), or None where there is none: the rounds after the first one with a meeting are
    not played, nor is the damage counted."""
    if refusal(turn) is not None:
        return None
    names = {s.name for s in scene.ships}
    run = _Run(scene, reading, False)
    for index in range(len(turn.rounds)):
        _play_round(run, turn, index)
        met = [e for e in run.events
               if e.kind in _RAMMING and len(e.pieces) >= 2 and set(e.pieces[:2]) <= names]
        if met:
            first = min(met, key=_event_order)
            return first.pieces[0], first.pieces[1]
    return None


# --- one scene under many readings ----------------------------------------------
# The explorer and fuzz resolve one scene under many readings. A round looks the reading up
# only at its decision points, and is a function of the state it starts from and the options
# it looked up; so a resolution under another reading can take up from the end of the last
# round whose looked-up options it shares, and one that shares them all has the same outcome.

_Pins = tuple[tuple[str, str], ...]  # points looked up, with their options, in the order first looked up


class _Node:
    """A moment in the resolutions of one scene: where it is (``mark`` of ``run``; None at the
    start, and where what follows looks nothing up); and what follows, under each
    combination of options of the next round or of the ram damage (an _End)."""

    __slots__ = ("run", "mark", "next", "damage")

    def __init__(self, run: _Run | None = None, mark: _Mark | None = None):
        self.run, self.mark = run, mark
        self.damage: _Damage | None = None  # past the last round: the end but for the ram damage
        self.next: list[tuple[_Pins, _Node | _End]] = []

    def follow(self, reading: Mapping[str, str]) -> tuple[_Pins, _Node | _End] | None:
        """What follows under ``reading``, with the options it was reached by. Every pin list
        of ``next`` starts with the same point and the lists agree until a point they give
        different options, so the points looked up here are those the resolution itself
        would look up first, in its order."""
        for entry in self.next:
            for point, option in entry[0]:
                if reading[point] != option:
                    break
            else:
                return entry
        return None


class _End:
    """The end of a resolution: the end of its rounds with the ram damage counted under the
    options ``pins``. The outcome is made when first asked for (the reading table keeps
    only one outcome per key), under the reading of whoever asks."""

    __slots__ = ("damage", "pins", "made", "key")

    def __init__(self, damage: _Damage, pins: _Pins):
        self.damage, self.pins = damage, pins
        self.made: Outcome | None = None
        self.key: Any = None  # the outcome's key, once asked for (Resolution.key)

    def outcome(self, reading: Mapping[str, str], scene: Scene) -> Outcome:
        """The outcome under ``reading`` (which agrees with ``pins``), on ``scene``'s board."""
        made = self.made
        if made is None:
            made = self.made = self.damage.outcome(self.pins, reading)
            return _with_reading(made, None, scene)
        return _with_reading(made, reading, scene)


_MEMO: OrderedDict[tuple[Scene, Turn], _Node] = OrderedDict()
_MEMO_SIZE = 8  # scenes, most recently resolved kept
_MEMO_LOCK = threading.Lock()
_MEMO_SHIPS = 64  # a bigger scene is resolved afresh: few readings of it are asked for


def _with_reading(outcome: Outcome, reading: Mapping[str, str] | None, scene: Scene) -> Outcome:
    """``outcome`` under ``reading`` (None: its own), on ``scene``'s own board object: an equal
    scene resolved first may have a board whose set of rocks iterates in another order.
    ``dataclasses.replace`` without its look at every field."""
    board = scene.board
    if reading is None and outcome.after.board is board:
        return outcome
    copy = object.__new__(Outcome)
    copy.__dict__.update(outcome.__dict__)
    if reading is not None:
        copy.__dict__["reading"] = MappingProxyType(dict(reading))
    if outcome.after.board is not board:
        copy.__dict__["after"] = Scene(board, outcome.after.ships)
    return copy


def _root(scene: Scene, turn: Turn) -> _Node | None:
    """The tree of the resolutions of ``scene`` and ``turn``; None where they are not taken up."""
    if (refusal(turn) is not None or len(scene.ships) > _MEMO_SHIPS
            or len({s.at for s in scene.ships}) < len(scene.ships)):  # ships that share a tile: not taken up
        return None
    # By value: the in-process adapter parses each request afresh, into equal but new objects.
    key = (scene, turn)
    with _MEMO_LOCK:  # the in-process adapter may resolve on its own thread
        try:
            node = _MEMO.get(key)
        except TypeError:  # a scene built by hand with a list where the model has a tuple
            return None
        if node is None:
            node = _MEMO[key] = _Node()
            if len(_MEMO) > _MEMO_SIZE:
                _MEMO.popitem(last=False)
        else:
            _MEMO.move_to_end(key)
    return node


def _walk(scene: Scene, turn: Turn, trace: list[_Node], asked: dict[str, int],
          reading: Mapping[str, str]) -> _End | None:
    """The resolution under ``reading`` from ``trace[-1]``, the node where round
    ``len(trace)`` begins (past the last round: where the ram damage is counted), taken up
    from the rounds the tree holds and played where it holds none: its end. ``trace`` is
    extended by the nodes passed, and ``asked`` by the points looked up, in order, each with
    the index in ``trace`` of the node it was looked up at. None: a resolution that failed
    part way left the tree without a run to take up."""
    node = trace[-1]
    done = len(trace) - 1
    while (entry := node.follow(reading)) is not None:
        pins, following = entry
        for point, _ in pins:
            asked.setdefault(point, done)
        if isinstance(following, _End):
            return following
        node, done = following, done + 1
        trace.append(node)
    if done and node.run is None:  # never where a resolution finished
        return None
    rounds = len(turn.rounds)
    damage = node.damage if done == rounds else None
    if damage is None:
        with collector_paused():
            if node.run is None:
                run = _Run(scene, reading, True)
            else:
                assert node.mark is not None
                run = node.run.taken_up(node.mark, reading)
            for index in range(done, rounds):
                _play_round(run, turn, index)
                following = _Node(run, run.mark()) if index + 1 < rounds or _rams(run) else _Node()
                pins = tuple(run.pins.items())
                node.next.append((pins, following))
                for point, _ in pins:
                    asked.setdefault(point, index)
                node = following
                trace.append(node)
            damage = node.damage = _Damage(run, scene)
    pins = damage.pins(reading)
    for point, _ in pins:
        asked.setdefault(point, rounds)
    end = _End(damage, pins)
    node.next.append((pins, end))
    return end


def resolve(scene: Scene, turn: Turn, reading: Mapping[str, str]) -> Outcome:
    """``resolve_turn``, taking up from the rounds of an earlier resolution of an equal scene
    and turn that ``reading`` agrees with where they looked the reading up."""
    root = _root(scene, turn)
    end = None if root is None else _walk(scene, turn, [root], {}, reading)
    if end is None:
        return resolve_turn(scene, turn, reading)
    return end.outcome(reading, scene)


class Resolution(_Resolution):
    """A resolution (see ``verifier.ruleset.Resolution``) along the tree of rounds of its
    scene: under another option of a point it is taken up at the node where it first looked
    that point up, and no outcome is copied but the one the table keeps."""

    def __init__(self, ruleset: Ruleset, scene: Scene, turn: Turn, reading: dict[str, str], trace: list[_Node],
                 asked: dict[str, int], end: _End) -> None:
        self.ruleset, self.before, self.actions = ruleset, scene, turn
        self.reading, self.trace, self.asked, self.end = reading, trace, asked, end
        consulted = end.damage.consulted
        first = [p for p in asked if p in consulted]
        if len(first) < len(consulted):  # not in ypp's resolver; as the generic Resolution has it
            first += [p for p in reading if p in consulted and p not in asked]
        self.consulted = tuple(first)

    @staticmethod
    def of(ruleset: Ruleset, scene: Scene, turn: Turn, reading: dict[str, str]) -> _Resolution:
        """The resolution under ``reading``; one that resolves afresh where the tree is not kept."""
        root = _root(scene, turn)
        if root is not None:
            trace: list[_Node] = [root]
            asked: dict[str, int] = {}
            end = _walk(scene, turn, trace, asked, reading)
            if end is not None:
                return Resolution(ruleset, scene, turn, reading, trace, asked, end)
        return _Resolution(ruleset, scene, turn, reading)

    def outcome(self) -> Outcome:
        return self.end.outcome(self.reading, self.before)

    def key(self) -> Any:
        """The outcome's key. Most ends of a scene's tree are the same rounds with the ram
        damage counted otherwise; that changes only the key's damage totals (the last of
        ``explore.outcome_key``'s parts), so the rest is taken once per end of the rounds. The
        key is kept with the end: readings that differ only where no resolution looked share it."""
        end = self.end
        key = end.key
        if key is not None:
            return key
        damage = end.damage
        if not damage.rams:
            key = self.ruleset.outcome_key(self.outcome())
        elif damage.key_start is None:
            key = self.ruleset.outcome_key(self.outcome())
            damage.key_start = key[:-1]
        else:
            key = (*damage.key_start, damage.totals(end.pins))
        end.key = key
        return key

    def under(self, point: str, reading: dict[str, str]) -> _Resolution:
        at = self.asked[point]  # the rounds before it looked up the same options under ``reading``
        trace = self.trace[:at + 1]
        asked = {p: i for p, i in self.asked.items() if i < at}
        end = _walk(self.before, self.actions, trace, asked, reading)
        if end is None:
            return _Resolution(self.ruleset, self.before, self.actions, reading)
        return Resolution(self.ruleset, self.before, self.actions, reading, trace, asked, end)


def resolve_turn(scene: Scene, turn: Turn, reading: Mapping[str, str], record: bool = True) -> Outcome:
    """Resolve every round of ``turn`` from ``scene`` under ``reading``; a turn the rules do not
    allow is refused."""
    refused = refusal(turn)
    if refused is not None:
        start = tuple(sorted((s.name, s.at, s.heading) for s in scene.ships))
        return replace(refused_outcome(refused, scene), frames=(Frame(0, "start", 0, start),),
                       reading=MappingProxyType(dict(reading)))
    return carry_out(scene, turn, reading, record)


def carry_out(scene: Scene, turn: Turn, reading: Mapping[str, str], record: bool = True) -> Outcome:
    """Every round of ``turn``, with no check that the rules allow so many (``refusal``): the
    resolver's work once nothing is refused. A toy implementation that ignores the prohibitions
    answers with it."""
    with collector_paused():
        return _resolve_turn(scene, turn, reading, record)
