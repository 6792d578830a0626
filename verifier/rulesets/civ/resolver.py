"""The reference resolver: a pure function of (scene, actions, reading).

One movement phase: blockades are declared (option B), the nations move in their
order of play, then ship conflicts (option A), then landings, then conflicts between
population tokens on land. A decision the case leaves open (a conflict, preventing
a landing, a block) is taken both ways: the run stops where it meets one, and is
run again once with each answer, so the outcome has one branch per way.

Nothing depends on the order the case lists areas, nations or ships: they are
taken in order of name. The order of turns and of the moves within a turn is
part of the actions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TypeVar

from ...kept import Kept, KeptFor
from ...kit.memo import Recent
from ...ruleset import Cause, Decision, Event, Frame, NotedReading, Outcome, Refusal, Ruleset, refused_outcome
from ...ruleset import Resolution as _Resolution
from .model import (
    ASTRONOMY,
    CAPACITY,
    LAND,
    METALWORKING,
    OPEN_SEA,
    Actions,
    Branch,
    Label,
    Nation,
    Result,
    Scene,
    ShipMove,
    ShipState,
    State,
    label_text,
)

Made = TypeVar("Made")

MAX_BRANCHES = 64  # open decisions a case may leave: each doubles the runs


class TooManyBranches(Exception):
    """The case leaves so many decisions open that taking each both ways is not practical."""

    def __init__(self, open_keys: list[tuple[str, str]]):
        super().__init__(open_keys)
        self.open_keys = open_keys


class _Ship:
    """A ship as a run moves it (mutable, never leaves the run)."""

    __slots__ = ("name", "nation", "at", "aboard", "blockading", "blocked_by", "blocks", "sunk", "path")

    def __init__(self, name: str, nation: str, at: str, aboard: list[int]) -> None:
        self.name, self.nation, self.at = name, nation, at
        self.aboard = aboard  # per token: how many areas it has travelled by ship this phase
        self.blockading, self.blocked_by, self.blocks, self.sunk = False, "", "", False
        self.path = [at]



# The runs of one scene (its branches, its readings) end with mostly the same ship states and
# events: each distinct one is made once, and shared (they are immutable values). Bounded as
# ``kept.Kept`` is (all dropped when full), and as safe on two threads; a look-up that finds
# one costs no call besides this one.
_SHIP_STATES: dict[tuple, ShipState] = {}
_EVENTS: dict[tuple, Event] = {}
_SHARED_MOST = 8192


def _shared(kept: dict[tuple, Made], fields: tuple, make: Callable[..., Made]) -> Made:
    """The value ``make(*fields)``, made once while it is kept."""
    found = kept.get(fields)
    if found is None:
        if len(kept) >= _SHARED_MOST:
            kept.clear()
        found = kept[fields] = make(*fields)
    return found


def token_piece(nation: str, area: str) -> str:
    """The provenance key of a nation's tokens in an area."""
    return f"{nation} in {area}"


def token_entry(nation: str) -> str:
    """How a removed population token is written in a removal sequence."""
    return f"{nation} token"


def advantage_entry(nation: str) -> str:
    """A removal absorbed by a point of advantage (reading advantage=phantom)."""
    return f"{nation} advantage"


def fight(sides: dict[str, list[str]], key_of: Callable[[str, int], tuple], *, ends: str = "one-left",
          stop_after: int | None = None, phantoms: dict[str, int] | None = None,
          limit: int | None = None) -> tuple[list[tuple[str, ...]], bool]:
    """The base conflict rule. Each round every side still in removes one piece, the
    sides in ascending order of ``key_of(side, pieces left)``; sides with equal keys
    remove together. Two sides so remove alternately, the weaker first, or together
    when equal. Ends when one side is left (``ends="first-out"``: when any side is
    out), once no more than ``limit`` pieces are left (a land area's population
    limit), or after ``stop_after`` steps when all agree to stop. Returns the steps
    (what was removed together) and whether the players stopped it."""
    phantoms = dict(phantoms or {})
    steps: list[tuple[str, ...]] = []
    started = [n for n in sorted(sides) if sides[n]]
    taken = dict.fromkeys(sides, 0)  # pieces removed from the front of each side's list
    try:
        return _fight(sides, taken, started, key_of, ends, stop_after, phantoms, steps, limit)
    finally:
        for n, count in taken.items():
            del sides[n][:count]


def _fight(sides: dict[str, list[str]], taken: dict[str, int], started: list[str],
           key_of: Callable[[str, int], tuple], ends: str, stop_after: int | None, phantoms: dict[str, int],
           steps: list[tuple[str, ...]], limit: int | None) -> tuple[list[tuple[str, ...]], bool]:
    """``fight`` without moving every list's pieces up at each removal: a side's pieces
    left are ``sides[n][taken[n]:]``, so a conflict of n tokens costs n steps, not n². How
    many each side has left, how many all have and how many sides have any are counted as
    pieces go, not counted again at every step."""
    left = {n: len(sides[n]) - taken[n] for n in started}
    total, alive = sum(left.values()), len(started)
    # It is over once no more than ``floor`` pieces are left, or fewer than ``fewest`` sides have any.
    floor = -1 if limit is None else limit
    fewest = max(len(started), 2) if ends == "first-out" else 2
    while total > floor and alive >= fewest:
        # (key, side) of every side still in, keyed before any removal, in order
        ranked = sorted([(key_of(n, left[n] + phantoms.get(n, 0)), n) for n in started if left[n]])
        groups: list[list[str]] = []
        last = None
        for key, n in ranked:
            if groups and last == key:
                groups[-1].append(n)
            else:
                groups.append([n])
                last = key
        for group in groups:
            if total <= floor or alive < fewest:
                break
            if stop_after is not None and len(steps) >= stop_after:
                return steps, True
            step = []
            for n in group:
                if phantoms.get(n, 0):
                    phantoms[n] -= 1
                    step.append(advantage_entry(n))
                else:
                    step.append(sides[n][taken[n]])
                    taken[n] += 1
                    left[n] -= 1
                    total -= 1
                    alive -= not left[n]
            steps.append(tuple(step))
    return steps, False


_APPLIED: dict[str, Cause] = {}  # one Cause per clause (immutable), not one per time it applies
_FOLLOWED: Kept[tuple[str, str], Cause] = Kept(256)  # and one per reading point and option


class _Setting:
    """What every run of a scene starts from, worked out once per scene: its nations by name
    with their points of advantage, its ships in order of name, the tokens on land, and the
    scene as a state."""

    __slots__ = ("nations", "advantage", "ships", "land", "start")

    def __init__(self, scene: Scene) -> None:
        self.nations = {n.name: n for n in scene.nations}
        self.advantage = {name: n.advantage for name, n in self.nations.items()}
        self.ships = tuple(sorted(scene.ships, key=lambda s: s.name))
        self.land: Counter = Counter()
        for area, nation, count in scene.tokens:
            self.land[(area, nation)] += count
        self.start = start_state(scene)


# Every run of a scene, under every reading, starts from the same setting (by the scene's identity:
# fuzz's reading table and the explorer resolve one scene object again and again).
_SETTINGS: KeptFor[_Setting] = KeptFor(256)


def _setting(scene: Scene) -> _Setting:
    return _SETTINGS.get(scene, lambda: _Setting(scene))


class _Given:
    """The decisions the actions state, by kind and key (read only, shared by a phase's runs)."""

    __slots__ = ("choices", "block", "stop")

    def __init__(self, actions: Actions) -> None:
        self.choices = {"conflict": dict(actions.choices.conflict), "prevent": dict(actions.choices.prevent)}
        self.block = dict(actions.choices.block)
        self.stop = dict(actions.choices.stop)


RawEvent = tuple[str, tuple[str, ...], str, str | None, str, int]  # kind, pieces, clause, at, detail, step


class _Run:
    def __init__(self, scene: Scene, actions: Actions, reading: Mapping[str, str], assumed: dict,
                 opened: Callable[[dict, tuple[str, str]], None], setting: _Setting, given: _Given):
        self.scene, self.actions, self.reading, self.assumed = scene, actions, reading, assumed
        self.opened = opened
        self.options = scene.options
        self.blockade_areas: frozenset[str] = frozenset()
        self.nations = setting.nations
        self.advantage = setting.advantage
        self.ships = {s.name: _Ship(s.name, s.nation, s.at, [0] * s.aboard) for s in setting.ships}
        self.land: Counter = Counter()
        dict.update(self.land, setting.land)  # a copy (Counter(mapping) first asks whether it is a Mapping)
        self.landing: Counter = Counter()
        self.events: list[RawEvent] = []  # made Events once the branches are numbered (carry_out)
        self.causes: dict[str, dict[object, Cause]] = {}  # per piece, by clause or (point, option), in order
        self.decisions: list[Decision] = []
        self.consulted: set[str] = set()
        self.label: dict[tuple[str, str], str] = {}
        self.removals: dict[str, list[tuple[str, ...]]] = {}
        self.blockade_run: set[str] = set()  # nations whose blockade an enemy ship has tried to run
        self.choices, self.block_choice, self.stop_choice = given.choices, given.block, given.stop

    # --- bookkeeping ---

    def cause(self, piece: str, clause: str) -> None:
        found = self.causes.get(piece)
        if found is None:
            found = self.causes[piece] = {}
        elif clause in found:
            return
        entry = _APPLIED.get(clause)
        if entry is None:
            entry = _APPLIED[clause] = Cause.applied(clause)
        found[clause] = entry

    def follow(self, piece: str, point: str) -> None:
        option = self.reading[point]
        found = self.causes.setdefault(piece, {})
        key = (point, option)
        if key not in found:
            found[key] = _FOLLOWED.get(key, lambda: Cause.followed(point, option))
        self.consulted.add(point)

    def event(self, kind: str, pieces: tuple[str, ...], clause: str, at: str = "", detail: str = "",
              step: int = 0) -> None:
        self.events.append((kind, pieces, clause, at or None, detail, step))

    def yes(self, kind: str, key: str) -> bool:
        """A yes-or-no decision: as the case states it, or as assumed for this branch."""
        given = self.choices[kind].get(key)
        if given is not None:
            return bool(given)
        if (kind, key) not in self.assumed:
            self.open((kind, key))
        self.label[(kind, key)] = self.assumed[(kind, key)]
        return self.assumed[(kind, key)] == "yes"

    def open(self, key: tuple[str, str]) -> None:
        """A decision the case left open, met first on this branch: this run goes on taking it
        "yes", and a run taking it "no" is left to ``opened`` (as if the run had stopped here and
        been run again with each answer, "yes" first: what it did so far is the same either way)."""
        self.opened(self.assumed, key)
        self.assumed = {**self.assumed, key: "yes"}

    def state(self, landing: bool) -> State:
        ships = self.ships.values()
        return State(tuple([_shared(_SHIP_STATES, (s.name, s.nation, s.at, len(s.aboard), s.blockading, s.blocked_by,
                                                   s.sunk), ShipState) for s in ships]),
                     tuple(sorted((a, n, c) for (a, n), c in self.land.items() if c > 0)),
                     tuple(sorted((a, n, c) for (a, n), c in self.landing.items() if c > 0)) if landing else (),
                     tuple((a, tuple(steps)) for a, steps in sorted(self.removals.items())),
                     tuple([(s.name, tuple(s.path)) for s in ships if len(s.path) > 1]))

    # --- the phase ---

    def go(self) -> tuple[State, State]:
        # A blockading ship never moves, so only these areas can hold one (a filter, not the rule).
        self.blockade_areas = frozenset(self.ships[name].at for name in self.actions.blockade)
        for name in sorted(self.actions.blockade):
            self.ships[name].blockading = True
            self.event("blockade", (name,), "B.1", self.ships[name].at)
            self.cause(name, "B.1")
        for turn in self.actions.turns:
            self.turn(turn)
        for ship in self.ships.values():
            if len(ship.path) == 1:  # it entered no area: "up to four" includes none
                self.cause(ship.name, "ship.2")
        self.leftovers()
        moved = self.state(landing=True)
        conflicts = self.ship_conflicts() if "A" in self.options else set()
        self.landings(conflicts)
        self.land_conflicts()
        return moved, self.state(landing=False)

    def turn(self, turn) -> None:
        blockaders = [s for s in self.ships.values() if s.nation == turn.nation and s.blockading]
        moving = {m.ship for m in turn.moves} if blockaders else set()
        for ship in blockaders:
            if ship.name not in moving and ship.name not in turn.lift:
                continue
            self.cause(ship.name, "B.5")
            if turn.nation in self.blockade_run or ship.blocks:
                self.event("held", (ship.name,), "B.5", ship.at, "an enemy ship tried to run the blockade")
            else:
                ship.blockading = False
                self.event("lift", (ship.name,), "B.5", ship.at)
        for move in turn.moves:
            self.move(self.ships[move.ship], move)

    def move(self, ship: _Ship, move) -> None:
        if ship.blockading:
            return
        nation = self.nations[ship.nation]
        last = len(move.path) - 1
        stays_first = move.path[0].area == ship.at  # the first stop may be where it lies: no area entered
        for i, stop in enumerate(move.path):
            if i or not stays_first:
                ship.at = stop.area
                ship.path.append(stop.area)
                ship.aboard = [t + 1 for t in ship.aboard]
                self.cause(ship.name, "ship.2")
                if self.scene.map.area(stop.area).kind == OPEN_SEA:
                    self.cause(ship.name, "ship.3")
                if "B" in self.options and self.meets_blockade(ship, stop.area):
                    return
            for other, wanted in stop.take:
                self.take(ship, self.ships[other], wanted, last - i, nation.allowance)  # every later stop is entered
            if stop.board:  # tokens that moved overland never get here: boarding them is refused (ship.5)
                self.land[(stop.area, ship.nation)] -= stop.board
                ship.aboard += [0] * stop.board
                self.cause(ship.name, "ship.4")
                self.cause(ship.name, "ship.1")
                self.event("board", (ship.name, stop.area), "ship.4", stop.area, str(stop.board))
            if stop.drop and ship.aboard:
                count = min(stop.drop, len(ship.aboard))
                ship.aboard = sorted(ship.aboard)[:len(ship.aboard) - count]
                self.cause(ship.name, "ship.4")
                if "A" in self.options:
                    self.landing[(stop.area, ship.nation)] += count
                    self.cause(ship.name, "A.1")
                    self.cause(token_piece(ship.nation, stop.area), "A.2")
                    self.event("wade", (ship.nation, stop.area), "A.2", stop.area, str(count))
                else:
                    self.land[(stop.area, ship.nation)] += count
                    self.cause(token_piece(ship.nation, stop.area), "ship.4")
                    self.event("land", (ship.nation, stop.area), "ship.4", stop.area, str(count))

    def meets_blockade(self, ship: _Ship, area: str) -> bool:
        """Option B: the ship enters an area where an enemy blockades. Returns whether it is blocked."""
        blockers = [s for s in self.ships.values() if s.at == area and s.blockading and s.nation != ship.nation
                    and not s.sunk] if area in self.blockade_areas else []
        if not blockers:
            return False
        self.blockade_run |= {b.nation for b in blockers}
        free = [b for b in blockers if not b.blocks]
        if not free:
            self.cause(ship.name, "B.3")
            self.event("pass", (ship.name, area), "B.3", area, "every blockader there is already blocking")
            return False
        chosen = self.block_choice.get(ship.name)
        if chosen is not None:
            blocked = chosen == area
        else:
            key = ("block", f"{ship.name}@{area}")
            if key not in self.assumed:
                self.open(key)
            blocked = self.assumed[key] == "yes"
            self.label[("block", ship.name)] = area if blocked else "none"
        self.cause(ship.name, "B.2")
        if not blocked:
            self.event("pass", (ship.name, area), "B.2", area, "the blockader let it pass")
            return False
        blocker = free[0]
        blocker.blocks, ship.blocked_by = ship.name, blocker.name
        self.cause(blocker.name, "B.2")
        if len(blockers) > 1:
            self.cause(ship.name, "B.3")
        self.event("block", (blocker.name, ship.name), "B.2", area)
        return True

    def take(self, ship: _Ship, other: _Ship, wanted: int, entries_left: int, allowance: int) -> None:
        """Option B: a passing friendly ship takes tokens off a blocked ship."""
        if not (other.blocked_by and other.at == ship.at and other.nation == ship.nation and other.aboard):
            self.event("missed", (ship.name, other.name), "B.4", ship.at, "no blocked ship with tokens to take")
            return
        tokens = sorted(other.aboard)[:wanted]
        self.cause(ship.name, "B.4")
        if len(ship.aboard) + len(tokens) > CAPACITY:
            self.cause(ship.name, "B.4a")
            self.event("refused", (ship.name, other.name), "B.4a", ship.at,
                       f"{len(ship.aboard)} aboard and {len(tokens)} more would pass {CAPACITY}")
            return
        if max(tokens) + entries_left > allowance:
            self.cause(ship.name, "B.4b")
            self.event("refused", (ship.name, other.name), "B.4b", ship.at,
                       f"the tokens have gone {max(tokens)} areas; {entries_left} more would pass {allowance}")
            return
        self.cause(ship.name, "B.4a")
        self.cause(ship.name, "B.4b")
        for t in tokens:
            other.aboard.remove(t)
        ship.aboard += tokens
        self.cause(other.name, "B.4")
        self.event("rescue", (ship.name, other.name), "B.4", ship.at, str(len(tokens)))

    def leftovers(self) -> None:
        """Tokens still aboard when the movement ends."""
        for ship in self.ships.values():
            if not ship.aboard:
                continue
            if ship.blocked_by:  # the base rules empty every ship; option B keeps them from landing
                self.decisions.append(Decision(
                    "stranded", ("ship.4", "B.4"), ("the tokens leave the ship", "the tokens may not land"),
                    (ship.name,), detail=f"{ship.name} is blocked with {len(ship.aboard)} tokens aboard"))
                self.follow(ship.name, "stranded")
                if self.reading["stranded"] == "stay":
                    self.event("stranded", (ship.name,), "B.4", ship.at, str(len(ship.aboard)))
                    continue
            self.cause(ship.name, "ship.4")
            self.event("lost", (ship.name,), "ship.4", ship.at, str(len(ship.aboard)))
            ship.aboard = []

    def _ship_key(self, metal: bool) -> Callable[[str, int], tuple]:
        advantage = self.reading["advantage"]

        points = self.advantage

        def key(nation: str, strength: int) -> tuple:
            tier = 1 if metal and METALWORKING in self.nations[nation].advances else 0
            if advantage == "order":
                return (tier, points[nation], strength)
            if advantage == "tiebreak":
                return (tier, strength, points[nation])
            if advantage == "strength":
                return (tier, strength + points[nation])
            return (tier, strength)  # phantom: the advantage is in the strength already
        return key

    def counts(self, ship: _Ship, involved: bool) -> bool:
        """Whether a ship takes part in option A where it lies. A blockader is turned over,
        not an ordinary ship (B.5); the text does not say whether it still fights or
        guards a coast, so where that matters (``involved``) the reading decides."""
        if ship.sunk:
            return False
        if not ship.blockading or not involved:
            return True
        self.decisions.append(Decision("turned", (), (), (ship.name,), near=("A.5", "B.5"),
                                       detail=f"blockader {ship.name} lies in {ship.at}, where option A "
                                              "asks which ships are present"))
        self.follow(ship.name, "turned")
        return self.reading["turned"] == "ship"

    def _involved(self, area: str, nation: str) -> bool:
        """Whether anything of option A happens in ``area`` that a ship of ``nation`` could be part of."""
        others = any(s.at == area and not s.sunk and s.nation != nation for s in self.ships.values())
        return others or any(c and a == area for (a, _), c in self.landing.items())

    def ship_conflicts(self) -> set[str]:
        fought = set()
        by_area: dict[str, list[_Ship]] = {}
        for ship in self.ships.values():
            if self.counts(ship, self._involved(ship.at, ship.nation)) if ship.blockading else not ship.sunk:
                by_area.setdefault(ship.at, []).append(ship)
        crossed: dict[str, dict[str, str]] = {}
        for ship in self.ships.values():
            for area in ship.path[1:-1]:
                if self.scene.map.area(area).kind == OPEN_SEA:
                    crossed.setdefault(area, {}).setdefault(ship.nation, ship.name)
        for area, passing in sorted(crossed.items()):
            if len(passing) > 1:  # ships of several nations went through: never a conflict there
                names = tuple(passing[n] for n in sorted(passing))
                self.event("crossed", names, "A.8", area)
                for p in names:
                    self.cause(p, "A.8")
        for area in sorted(by_area):
            present = by_area[area]
            nations = sorted({s.nation for s in present})
            if len(nations) < 2:
                continue
            pieces = [s.name for s in present]
            for p in pieces:
                self.cause(p, "A.5")
            if not self.yes("conflict", area):
                self.event("declined", (area,), "A.5", area, "no nation wants a conflict")
                continue
            fought.add(area)
            self.event("conflict", (area,), "A.5", area, " v ".join(nations))
            sides = {n: [s.name for s in sorted(present, key=lambda s: (len(s.aboard), s.name)) if s.nation == n]
                     for n in nations}
            advantages = {n: self.advantage[n] for n in nations}
            if any(advantages.values()):
                self.decisions.append(Decision("advantage", (), (), tuple(pieces), near=("A.6",),
                                               detail=f"in {area}: " + ", ".join(
                                                   f"{n} +{a}" for n, a in advantages.items())))
                for p in pieces:
                    self.follow(p, "advantage")
            metal = any(METALWORKING in self.nations[n].advances for n in nations)
            if metal:
                self.decisions.append(Decision("metalworking", ("A.6", "conflict.3"),
                                               ("+1 advantage", "remove after the others"), tuple(pieces),
                                               detail=f"Metalworking in the ship conflict in {area}"))
                for p in pieces:
                    self.follow(p, "metalworking")
                    if self.reading["metalworking"] == "both":
                        self.cause(p, "conflict.3")
            if len(nations) > 2:  # "no tokens of one side remain" does not say which side, with three
                self.decisions.append(Decision("ends", (), (), tuple(pieces), near=("A.7", "conflict.2"),
                                               detail=f"{len(nations)} nations fight in {area}"))
                for p in pieces:
                    self.follow(p, "ends")
                    self.cause(p, "conflict.2")
            phantoms = advantages if self.reading["advantage"] == "phantom" and any(advantages.values()) else None
            steps, stopped = fight(sides, self._ship_key(self.reading["metalworking"] == "both"),
                                   ends=self.reading["ends"], stop_after=self.stop_choice.get(area),
                                   phantoms=phantoms)
            self._record(area, steps, "A.6")
            for p in pieces:
                self.cause(p, "A.6")
                self.cause(p, "conflict.1")
                self.cause(p, "A.7")
            for step in steps:
                for entry in step:
                    if entry in self.ships:
                        self.ships[entry].sunk = True
            if stopped:
                self.event("stopped", (area,), "A.7", area, f"after {len(steps)} removals")
                for p in pieces:
                    self.cause(p, "A.7")
        return fought

    def _record(self, area: str, steps: list[tuple[str, ...]], clause: str) -> None:
        start = len(self.removals.get(area, []))
        self.removals.setdefault(area, []).extend(steps)
        for n, step in enumerate(steps, start + 1):
            self.event("remove", step, clause, area, step=n)

    def landings(self, fought: set[str]) -> None:
        for (area, nation), count in sorted(self.landing.items()):
            if not count:
                continue
            piece = token_piece(nation, area)
            present = {s.nation for s in self.ships.values()
                       if s.at == area and not s.sunk and (not s.blockading or self.reading["turned"] == "ship")}
            others = present - {nation}
            if area in fought:
                self.cause(piece, "A.7")
            if not others:
                clause = "A.7" if area in fought else "A.2"
                self.cause(piece, clause)
                self._land(area, nation, count, clause)
                continue
            self.cause(piece, "A.3")
            if nation in present:
                if area in fought:
                    self.cause(piece, "A.7")
                    self._land(area, nation, count, "A.7")
                    continue
                self.decisions.append(Decision("shielded", (), (), (piece,), near=("A.4", "A.7"),
                                               detail=f"{nation} lands in {area} beside its own and enemy ships, "
                                                      "and no ship conflict took place"))
                self.follow(piece, "shielded")
                if self.reading["shielded"] == "lands":
                    self._land(area, nation, count, "A.3")
                    continue
            clause = "A.7" if area in fought else "A.4"
            self.cause(piece, "A.4")
            if self.yes("prevent", area):
                self.event("prevented", (nation, area), clause, area, str(count))
            else:
                self._land(area, nation, count, clause)

    def _land(self, area: str, nation: str, count: int, clause: str) -> None:
        self.land[(area, nation)] += count
        self.event("land", (nation, area), clause, area, str(count))

    def land_conflicts(self) -> None:
        by_area: dict[str, list[str]] = {}
        for (area, nation), count in sorted(self.land.items()):
            if count > 0:
                by_area.setdefault(area, []).append(nation)
        for area, nations in sorted(by_area.items()):
            if len(nations) < 2:
                continue
            limit = self.scene.map.area(area).limit
            total = sum(self.land[(area, n)] for n in nations)
            if total <= limit:
                self.event("within-limit", (area,), "conflict.4", area, f"{total} tokens, limit {limit}")
                for n in nations:
                    self.cause(token_piece(n, area), "conflict.4")
                continue
            sides = {n: [token_entry(n)] * self.land[(area, n)] for n in nations}

            def key(nation: str, count: int) -> tuple:
                return (1 if METALWORKING in self.nations[nation].advances else 0, count)

            steps, _ = fight(sides, key, ends="one-left", limit=limit)
            self.event("land-conflict", (area,), "conflict.1", area, " v ".join(nations))
            self._record(area, steps, "conflict.1")
            for n in nations:
                piece = token_piece(n, area)
                self.cause(piece, "conflict.4")
                self.cause(piece, "conflict.1")
                if len(nations) > 2:
                    self.cause(piece, "conflict.2")
                if any(METALWORKING in self.nations[m].advances for m in nations):
                    self.cause(piece, "conflict.3")
                self.land[(area, n)] = len(sides[n])


def _dedup(items: list) -> tuple:
    try:
        return tuple(dict.fromkeys(items))  # the first of equal items, in order
    except TypeError:  # an item that cannot be hashed: compared one by one
        pass
    out: list = []
    for item in items:
        if item not in out:
            out.append(item)
    return tuple(out)


# --- actions the rules forbid ----------------------------------------------------------------------

def refusal(scene: Scene, actions: Actions) -> Refusal | None:
    """The first action of the phase that the base ship rules (or a blockade's) forbid, whoever
    blocks whom, as the refusal that cites the clause; None where every action is allowed."""
    for name in actions.blockade:
        if scene.ship(name).aboard:
            return Refusal("B.1", (name,), f"ship {name} has tokens aboard and cannot be turned over as a blockader")
    nations: set[str] = set()
    moved: set[str] = set()
    for turn in actions.turns:
        if turn.nation in nations:
            return Refusal("ship.7", tuple(m.ship for m in turn.moves) or (turn.nation,),
                           f"{turn.nation} has a second turn in one movement phase")
        nations.add(turn.nation)
        for move in turn.moves:
            owner = scene.ship(move.ship).nation
            if owner != turn.nation:
                return Refusal("ship.7", (move.ship,), f"ship {move.ship} belongs to {owner}, not {turn.nation}, "
                                                       "and moves in its owner's turn")
            if move.ship in moved:
                return Refusal("ship.7", (move.ship,), f"ship {move.ship} moves a second time in one phase")
            moved.add(move.ship)
    return _path_refusal(scene, actions)


def _path_refusal(scene: Scene, actions: Actions) -> Refusal | None:
    """Walk every path as written (nobody blocked): the first step the ship rules forbid."""
    land = Counter({(a, n): c for a, n, c in scene.tokens})
    overland = Counter({(a, n): c for a, n, c in scene.overland})
    land.subtract(overland)  # those may not board (ship.5)
    dropped: Counter[tuple[str, str]] = Counter()  # tokens that left a ship this phase, by area and nation
    for turn in actions.turns:
        for move in turn.moves:
            why = _move_refusal(scene, scene.nation(turn.nation), move, land, dropped, overland)
            if why is not None:
                return Refusal(why[0], (move.ship,), why[1])
    return None


def _move_refusal(scene: Scene, nation: Nation, move: ShipMove, land: Counter[tuple[str, str]],
                  dropped: Counter[tuple[str, str]], overland: Counter[tuple[str, str]]) -> tuple[str, str] | None:
    """(clause, reason) of the first step of ``move`` the ship rules forbid, or None; ``land`` and
    ``dropped`` (the tokens on land that may board, those that left a ship) are kept up to date;
    ``overland`` are the tokens that moved over land this phase."""
    ship = scene.ship(move.ship)
    at, entered, aboard, taken = ship.at, 0, ship.aboard, 0
    for s, stop in enumerate(move.path):
        area = scene.map.area(stop.area)
        if not (s == 0 and stop.area == ship.at):
            if stop.area not in scene.map.area(at).touches:
                return "ship.6", f"{stop.area} does not touch {at}, where ship {move.ship} is"
            if not area.navigable:
                return "ship.6", f"ship {move.ship} cannot enter {stop.area}, land without a coast"
            if area.kind == OPEN_SEA and ASTRONOMY not in nation.advances:
                return "ship.3", (f"ship {move.ship} enters open sea {stop.area}, which needs Astronomy; "
                                  f"{nation.name} does not have it")
            entered += 1
            if entered > nation.allowance:
                return "ship.2", f"ship {move.ship} enters a {entered}th area; it moves at most {nation.allowance}"
            at = stop.area
        if (stop.board or stop.drop) and not area.coastal_land:
            kind = "land without a coast" if area.kind == LAND else area.kind
            return "ship.8", f"tokens board and leave ships only on a coast; {stop.area} is {kind}"
        here = (stop.area, nation.name)
        if stop.board > land[here]:
            if stop.board <= land[here] + overland[here]:
                return "ship.5", (f"{stop.board} tokens board in {stop.area}, but {overland[here]} of "
                                  f"{nation.name}'s there moved over land this phase and may board only "
                                  f"{land[here]}")
            if stop.board <= land[here] + dropped[here]:
                return "ship.4", (f"{stop.board} tokens board in {stop.area}, but only {land[here]} of "
                                  f"{nation.name}'s there have not ridden a ship this phase")
            return "ship.4", (f"{stop.board} tokens board in {stop.area}, where {nation.name} has "
                              f"{land[here] + overland[here]}")
        land[here] -= stop.board
        aboard += stop.board
        taken += sum(n for _, n in stop.take)  # whether they come aboard depends on the blockade
        if aboard > CAPACITY:
            return "ship.1", f"ship {move.ship} would carry {aboard} tokens; a ship carries at most {CAPACITY}"
        if stop.drop > aboard + taken:
            return "ship.4", f"ship {move.ship} drops {stop.drop} tokens but carries {aboard + taken}"
        from_own = min(stop.drop, aboard)
        aboard, taken = aboard - from_own, taken - (stop.drop - from_own)
        dropped[here] += stop.drop
    if scene.map.area(at).kind == OPEN_SEA:
        return "ship.3", f"ship {move.ship} ends its move in open sea {at}; no ship may"
    if aboard:
        return "ship.4", (f"ship {move.ship} ends its move with {aboard} tokens aboard; every token must leave the "
                          "ship by the end of the phase")
    return None


def start_state(scene: Scene) -> State:
    """The scene as a state: where every ship lies with what aboard, and the tokens on land."""
    return State(tuple(ShipState(s.name, s.nation, s.at, s.aboard) for s in sorted(scene.ships, key=lambda s: s.name)),
                 tuple(sorted((a, n, c) for a, n, c in scene.tokens)))


def unchanged(scene: Scene) -> Result:
    """The result of a phase whose action is refused: one branch, nothing moved."""
    start = start_state(scene)
    return Result((Branch((), start, start),))


# A case is resolved under the default reading when it is parsed (to count its branches) and
# again when it is resolved, and fuzz parses each scene several times over: the outcomes of the
# last scenes resolved are kept, by scene and reading. Only under a plain mapping: a reading
# that is a view of something else may note which points are looked up, which a kept outcome
# would not do. A call with a branch limit must still refuse a phase with too many branches,
# whatever was resolved before it: it is handed a kept outcome only where that has no more
# branches than the limit. (The resolver refuses exactly then: it counts the branches found
# and still pending, which only grows, and ends as the number of branches.)
_KEPT: Recent[Outcome] = Recent(256)
# The same outcomes by scene and actions alone, each with the options the resolver looked up, in
# the order it first looked them up. A reading that notes its look-ups (fuzz's reading table
# resolves the scene the adapter has just resolved under the default reading) is asked those
# points in that order while its options agree: the resolver would have asked the same (it is a
# pure function, so what it looks up next depends only on what it found so far), so where all
# agree the kept outcome is its outcome, and where one differs the points asked so far are the
# first ones it asks anyway.
_LOOKED_UP: Recent[list[tuple[tuple[tuple[str, str], ...], Outcome]]] = Recent(256)


class _Looking(dict[str, str]):
    """A plain reading that keeps the points looked up in it, first look-up first, with their
    options (``dict(...)`` of it copies it without looking anything up)."""

    def __init__(self, reading: Mapping[str, str]) -> None:
        super().__init__(reading)
        self.looked: dict[str, str] = {}

    def __getitem__(self, point: str) -> str:
        option = dict.__getitem__(self, point)
        self.looked.setdefault(point, option)
        return option


def _looked_up(scene: Scene, actions: Actions, reading: Mapping[str, str], max_branches: int | None) -> Outcome:
    looking = _Looking(reading)
    outcome = _resolve(scene, actions, looking, max_branches)
    _LOOKED_UP.get((scene, actions), list).append((tuple(looking.looked.items()), outcome))
    return outcome


def resolve(scene: Scene, actions: Actions, reading: Mapping[str, str], max_branches: int | None = None) -> Outcome:
    """The phase's outcome (the same outcome whatever ``max_branches``, which only refuses a
    case with more branches than that, raising TooManyBranches)."""
    if type(reading) not in (dict, MappingProxyType):
        if max_branches is None:
            for looked, outcome in list(_LOOKED_UP.peek((scene, actions)) or ()):
                if all(reading[point] == option for point, option in looked):
                    return _with_reading(outcome, reading)
        return _resolve(scene, actions, reading, max_branches)
    key = (scene, actions, tuple(sorted(reading.items())))
    if max_branches is not None:
        kept = _KEPT.peek(key)
        if kept is not None and (kept.refusal is not None or len(kept.after.branches) <= max_branches):
            return kept
        _KEPT.forget(key)
    # Only a case read from data (parse counts its branches) keeps its look-ups: that is the
    # scene fuzz's reading table meets next; the explorer's readings would pay for nothing.
    return _KEPT.get(key, lambda: _resolve(scene, actions, reading, max_branches) if max_branches is None
                     else _looked_up(scene, actions, reading, max_branches))


def _with_reading(outcome: Outcome, reading: Mapping[str, str]) -> Outcome:
    """``outcome`` under ``reading``: ``dataclasses.replace`` without its look at every field."""
    copy = object.__new__(Outcome)
    copy.__dict__.update(outcome.__dict__)
    copy.__dict__["reading"] = MappingProxyType(dict(reading))
    return copy


class Resolution(_Resolution):
    """A resolution as fuzz's reading table walks it (see ``verifier.ruleset.Resolution``): the
    first through ``resolve``, and those under another option at a point it consulted straight
    through the resolver. The outcomes ``resolve`` keeps by the scene's value are the default
    reading's (parse's), and such a reading differs from the default at a point the default
    resolution looked up, so none of them is its outcome: the scene is not compared with
    theirs by value (and a kept outcome would only have been the same outcome)."""

    def under(self, point: str, reading: dict[str, str]) -> _Resolution:
        return _Fresh(self.ruleset, self.before, self.actions, reading)


class _Fresh(Resolution):
    """A resolution made by the resolver, not looked up among the kept ones."""

    def __init__(self, ruleset: Ruleset, before: Scene, actions: Actions, reading: dict[str, str]) -> None:
        self.ruleset, self.before, self.actions = ruleset, before, actions
        noted = NotedReading(reading)
        self._outcome = outcome = _resolve(before, actions, noted, None)
        consulted = outcome.consulted
        # as the generic Resolution orders them: first looked up first, then any consulted but never looked up
        self.consulted = tuple([p for p in noted.asked if p in consulted] +
                               [p for p in reading if p in consulted and p not in noted.asked])


# Whether the rules refuse the actions depends on the scene and actions alone, and fuzz resolves
# one scene under reading after reading: each is checked once, by the actions' identity.
_REFUSALS: KeptFor[Refusal | None] = KeptFor(256)


def _resolve(scene: Scene, actions: Actions, reading: Mapping[str, str], max_branches: int | None) -> Outcome:
    refused = _REFUSALS.get(actions, lambda: refusal(scene, actions), scene)
    if refused is not None:
        outcome = refused_outcome(refused, unchanged(scene))
        return Outcome(outcome.after, (), outcome.provenance, (Frame(0, "start", 0, start_state(scene)),),
                       MappingProxyType(dict(reading)), refusal=refused)
    return carry_out(scene, actions, reading, max_branches)


def carry_out(scene: Scene, actions: Actions, reading: Mapping[str, str], max_branches: int | None = None) -> Outcome:
    """What the phase does, with no check that the rules allow its actions (``refusal``): the
    resolver's work once nothing is refused. A toy implementation that ignores the prohibitions
    answers with it."""
    setting, given = _setting(scene), _Given(actions)
    pending: list[dict] = [{}]
    runs: list[tuple[Label, _Run, State, State]] = []
    finished = 0  # len(runs), counted apart: a run holds ``opened``, which must not hold the runs (a cycle)

    def opened(assumed: dict, key: tuple[str, str]) -> None:
        """The run assuming ``assumed`` meets the open decision ``key``: it goes on taking it "yes",
        one taking it "no" waits (and counts, with the one going on, towards ``max_branches``)."""
        pending.append({**assumed, key: "no"})
        if max_branches is not None and len(pending) + 1 + finished > max_branches:
            raise TooManyBranches(sorted({k for p in pending for k in p} | {key}))

    while pending:
        run = _Run(scene, actions, reading, pending.pop(), opened, setting, given)
        moved, after = run.go()
        label = tuple(sorted((kind, key, value) for (kind, key), value in run.label.items()))
        runs.append((label, run, moved, after))
        finished += 1
    runs.sort(key=lambda r: r[0])
    several = len(runs) > 1
    events: list[Event] = []
    # Per piece, its causes by the key each run keeps them under (a clause, or a point and its
    # option): equal keys are equal causes, so the branches' causes are merged by key.
    causes: dict[str, dict[object, Cause]] = {}
    decisions: list[Decision] = []
    consulted: set[str] = set()
    frames = [Frame(0, "start", 0, setting.start)]
    branches = []
    for b, (label, run, moved, after) in enumerate(runs, 1):
        tag = label_text(label) if several else ""
        number = b if several else 1
        events += [_shared(_EVENTS, (*raw, number, tag), _made_event) for raw in run.events]
        for piece, found in run.causes.items():
            known = causes.get(piece)
            if known is None:
                causes[piece] = found  # the run is done with it
            else:
                for key, entry in found.items():
                    known.setdefault(key, entry)
        decisions += run.decisions
        consulted |= run.consulted
        frames += [Frame(b, "move", 0, moved), Frame(b, "end", 0, after)]
        branches.append(Branch(label, after, moved))
    return Outcome(Result(tuple(branches)), tuple(events), {k: tuple(causes[k].values()) for k in sorted(causes)},
                   tuple(frames), MappingProxyType(dict(reading)), _dedup(decisions), frozenset(consulted))


def _made_event(kind: str, pieces: tuple[str, ...], clause: str, at: str | None, detail: str, step: int,
                number: int, tag: str) -> Event:
    """The event a run noted (``RawEvent``), as the outcome's branch ``number`` (labelled ``tag``) has it."""
    return Event(kind, pieces, number, tag, clause, detail, at, step)

