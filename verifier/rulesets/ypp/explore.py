"""What the explorer needs from YPP: comparable outcome keys, the transforms
that must not change an outcome (renaming, rotating, mirroring), invariants,
simpler variants of a scene for shrinking, the exhaustive two-ship space, and
turning a scene back into case data."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from itertools import product
from typing import Any

from ...kept import KeptFor
from ...ruleset import Outcome, Transform
from . import strategies
from .model import Board, Corner, Heading, Scene, Ship, Token, Turn, ship_at, totals_key
from .resolver import resolve_turn
from .spaces import SPACES, shard, space_scenes
from .strategies import TYPES_BY_CLASS

OutcomeKey = tuple


_HEADING_NAMES = {h: h.name for h in Heading}
_ORDERED = frozenset({"bump", "push"})  # events whose pieces are in order: who did it to whom


def outcome_key(outcome: Outcome) -> OutcomeKey:
    ships = tuple(sorted([(s.name, s.at, _HEADING_NAMES.get(s.heading) or s.heading.name)
                          for s in outcome.after.ships]))
    events: dict[tuple, int] = {}
    totals: dict[str, float] = {}  # as Outcome.damage_totals adds them up
    for e in outcome.events:
        pieces = e.pieces
        if e.kind not in _ORDERED and len(pieces) > 1 and not (len(pieces) == 2 and pieces[0] <= pieces[1]):
            pieces = tuple(sorted(pieces))
        key = (e.round, e.phase, e.kind, pieces)
        events[key] = events.get(key, 0) + 1
        for piece, amount in e.damage:
            totals[piece] = totals.get(piece, 0.0) + amount
    return ships, tuple(sorted(events.items())), totals_key(totals)


def _rename_key(key: OutcomeKey, names: dict[str, str]) -> OutcomeKey:
    ships, events, damage = key
    renamed: dict[tuple, int] = {}
    for (r, phase, kind, pieces), count in events:
        pieces = tuple([names[p] for p in pieces])
        if kind not in _ORDERED and len(pieces) > 1:
            pieces = tuple(sorted(pieces))
        event = (r, phase, kind, pieces)
        renamed[event] = renamed.get(event, 0) + count
    return (tuple(sorted([(names[n], at, h) for n, at, h in ships])), tuple(sorted(renamed.items())),
            tuple(sorted([(names[n], d) for n, d in damage])))


def _mirror_heading(d: Heading) -> Heading:
    return {Heading.E: Heading.W, Heading.W: Heading.E}.get(d, d)


_TURNED = {h: h.clockwise() for h in Heading}
_MIRRORED = {h: _mirror_heading(h) for h in Heading}
_SWAPPED = {Token.LEFT: Token.RIGHT, Token.RIGHT: Token.LEFT}  # left and right, mirrored
# A heading's name, turned a quarter clockwise or mirrored east-west: outcome keys name headings.
_TURNED_NAME = {h.name: t.name for h, t in _TURNED.items()}
_MIRRORED_NAME = {h.name: m.name for h, m in _MIRRORED.items()}


def _map_key(key: OutcomeKey, tile: Callable, heading_names: Mapping[str, str]) -> OutcomeKey:
    ships, events, damage = key
    return tuple(sorted([(n, tile(at), heading_names[h]) for n, at, h in ships])), events, damage


def _by_name(ship: Ship) -> str:
    return ship.name


def _quiet_key(scene: Scene, turn: Turn) -> Callable[[Mapping[str, str]], OutcomeKey]:
    """The outcome key of a transformed scene, resolved without the frames the key leaves out."""
    return lambda reading: outcome_key(resolve_turn(scene, turn, reading, record=False))


def transforms(scene: Scene, turn: Turn) -> list[Transform]:
    ships = scene.ships
    # Order: rename every ship so that the listing order reverses.
    last = len(ships) - 1
    renamed = {s.name: f"{chr(ord('a') + last - i)}{s.name}" for i, s in enumerate(ships)}
    reordered = Scene(scene.board, tuple(sorted([ship_at(renamed[s.name], s.type, s.at, s.heading) for s in ships],
                                                key=_by_name)))
    retold = Turn(tuple([tuple(sorted([(renamed[n], t) for n, t in r])) for r in turn.rounds]))
    found = [Transform("order", "reversed listing", reordered, retold, lambda key: _rename_key(key, renamed),
                       _quiet_key(reordered, retold))]
    # Symmetry: a quarter turn clockwise, (x, y) -> (h-1-y, x).
    b = scene.board
    h = b.height

    def rot(t: tuple[int, int]) -> tuple[int, int]:
        return (h - 1 - t[1], t[0])

    rotated = Board(b.height, b.width, frozenset([(h - 1 - y, x) for x, y in b.rocks]),
                    tuple(sorted([((h - 1 - y, x), _TURNED[d]) for (x, y), d in b.wind])),
                    tuple(sorted([(h - 2 - y, x) for x, y in b.whirlpools])))
    turned = Scene(rotated, tuple([ship_at(s.name, s.type, (h - 1 - s.at[1], s.at[0]), _TURNED[s.heading])
                                   for s in ships]))
    found.append(Transform("symmetry", "quarter turn", turned, turn, lambda key: _map_key(key, rot, _TURNED_NAME),
                           _quiet_key(turned, turn)))
    # Symmetry: mirror east-west, swapping left and right. Whirlpools turn one way only, so a
    # mirrored whirlpool is a different board; skip boards that have one.
    if not b.whirlpools:
        w = b.width

        def mir(t: tuple[int, int]) -> tuple[int, int]:
            return (w - 1 - t[0], t[1])

        mirrored = Board(b.width, b.height, frozenset([(w - 1 - x, y) for x, y in b.rocks]),
                         tuple(sorted([((w - 1 - x, y), _MIRRORED[d]) for (x, y), d in b.wind])), ())
        flipped = Scene(mirrored, tuple([ship_at(s.name, s.type, (w - 1 - s.at[0], s.at[1]), _MIRRORED[s.heading])
                                         for s in ships]))
        flipped_turn = Turn(tuple([tuple([(n, _SWAPPED.get(t, t)) for n, t in r]) for r in turn.rounds]))
        found.append(Transform("symmetry", "mirror", flipped, flipped_turn,
                               lambda key: _map_key(key, mir, _MIRRORED_NAME), _quiet_key(flipped, flipped_turn)))
    return found


def scene(choose: Any) -> tuple[Scene, Turn]:
    return strategies.scene(choose)


def strategy() -> Any:
    from .strategies import scenes_and_turns
    return scenes_and_turns()


_FREE: KeptFor[frozenset[tuple[int, int]]] = KeptFor(64)  # by board: its tiles without a rock
_BREACHES: KeptFor[tuple[tuple[str, tuple[str, ...], str], ...]] = KeptFor(16)  # by frames


def _free_tiles(board: Board) -> frozenset[tuple[int, int]]:
    return _FREE.get(board, lambda: frozenset((x, y) for x in range(board.width) for y in range(board.height)
                                              if (x, y) not in board.rocks))


def invariant_breaches(scene: Scene, turn: Turn, outcome: Outcome) -> list[tuple[str, tuple[str, ...], str]]:
    """(invariant, ships, detail) for every breach seen in any frame of the outcome. The
    readings that change only the ram damage share their frames with the default's, and so
    their breaches: worked out once per frames."""
    return list(_BREACHES.get(outcome.frames, lambda: _breaches(scene, outcome),
                              given=(scene, len(outcome.after.ships))))


def _breaches(scene: Scene, outcome: Outcome) -> tuple[tuple[str, tuple[str, ...], str], ...]:
    board = scene.board
    rocks = board.rocks
    free = _free_tiles(board)
    breaches: dict[tuple[str, tuple[str, ...]], str] = {}
    previous: tuple | None = None
    names: tuple = ()
    places: tuple = ()
    for moment in outcome.frames:
        frame = moment.state
        if frame == previous:
            continue  # nothing moved since the last frame: it shows nothing new
        was_names, was_places = names, places
        names, places = (tuple(zip(*frame))[:2] if frame else ((), ()))
        if places == was_places and names == was_names:
            previous = frame  # only headings changed: every place was checked at the last frame
            continue
        if len(set(places)) != len(places) or not free.issuperset(places):
            label = str(moment)
            tiles: dict[Any, str] = {}
            for name, at, _ in frame:
                if at in tiles:
                    breaches.setdefault(("two ships on one tile", tuple(sorted((tiles[at], name)))),
                                        f"{label}: {list(at)}")
                tiles[at] = name
                if not board.on_board(at):
                    breaches.setdefault(("ship off the board", (name,)), f"{label}: {list(at)}")
                elif at in rocks:
                    breaches.setdefault(("ship on a rock", (name,)), f"{label}: {list(at)}")
        if previous is not None:
            # Two ships that swap tiles both move: only ships that moved are paired.
            if names == was_names:  # the same ships in the same order: only two that swapped tiles can pass
                steps = [(there, at) for at, there in zip(places, was_places) if at != there]
                swapped = len(steps) > 1 and not set(steps).isdisjoint([(at, there) for there, at in steps])
                moved: list[str] = ([name for name, at, there in zip(names, places, was_places) if at != there]
                                    if swapped else [])
            elif len(frame) == len(previous):
                moved = [name for (name, at, _), (was, there, _) in zip(frame, previous) if name != was or at != there]
            else:
                moved = list(names)
            if len(moved) > 1:
                before = {n: at for n, at, _ in previous}
                after = {n: at for n, at, _ in frame}
                for a, b in product(moved, moved):
                    if (a < b and a in before and b in before and before[a] == after[b] and before[b] == after[a]
                            and before[a] != before[b]):
                        breaches.setdefault(("ships pass through each other", (a, b)), str(moment))
        previous = frame
    if len(outcome.after.ships) != len(scene.ships):
        breaches[("ship lost", ())] = f"{len(scene.ships)} ships before, {len(outcome.after.ships)} after"
    return tuple([(kind, ships, detail) for (kind, ships), detail in sorted(breaches.items())])


def simpler(scene: Scene, turn: Turn) -> Iterator[tuple[Scene, Turn]]:
    """Strictly simpler variants, simplest changes first, for greedy shrinking."""
    b = scene.board
    # Fewer rounds; or start where the first round ends.
    for i in range(len(turn.rounds)):
        if len(turn.rounds) > 1:
            yield scene, Turn(turn.rounds[:i] + turn.rounds[i + 1:])
    if len(turn.rounds) > 1:
        from . import RULESET
        first = resolve_turn(scene, Turn(turn.rounds[:1]), RULESET.default_reading, record=False)
        tiles = [s.at for s in first.after.ships]
        if len(set(tiles)) == len(tiles):
            yield first.after, Turn(turn.rounds[1:])
    # Fewer ships.
    if len(scene.ships) > 1:
        for ship in scene.ships:
            yield (Scene(b, tuple(s for s in scene.ships if s is not ship)),
                   Turn(tuple(tuple((n, t) for n, t in r if n != ship.name) for r in turn.rounds)))
    # Less terrain.
    for rock in sorted(b.rocks):
        yield Scene(Board(b.width, b.height, b.rocks - {rock}, b.wind, b.whirlpools), scene.ships), turn
    for item in b.wind:
        yield Scene(Board(b.width, b.height, b.rocks, tuple(w for w in b.wind if w != item), b.whirlpools),
                    scene.ships), turn
    for pool in b.whirlpools:
        yield Scene(Board(b.width, b.height, b.rocks, b.wind, tuple(p for p in b.whirlpools if p != pool)),
                    scene.ships), turn
    # Fewer tokens, and forward instead of a turn.
    for i, r in enumerate(turn.rounds):
        for j, (name, token) in enumerate(r):
            rounds = list(turn.rounds)
            rounds[i] = r[:j] + r[j + 1:]
            yield scene, Turn(tuple(rounds))
            if token in (Token.LEFT, Token.RIGHT):
                rounds[i] = r[:j] + ((name, Token.FORWARD),) + r[j + 1:]
                yield scene, Turn(tuple(rounds))
    # Smaller classes.
    for ship in scene.ships:
        index = TYPES_BY_CLASS.index(ship.type) if ship.type in TYPES_BY_CLASS else len(TYPES_BY_CLASS)
        if index > 0:
            smaller = Ship(ship.name, TYPES_BY_CLASS[index - 1] if index < len(TYPES_BY_CLASS) else "sloop",
                           ship.at, ship.heading)
            yield Scene(b, tuple(smaller if s is ship else s for s in scene.ships)), turn
    # A smaller board: drop an empty outer row or column.
    for dx, dy, dw, dh in ((1, 0, -1, 0), (0, 1, 0, -1), (0, 0, -1, 0), (0, 0, 0, -1)):
        if b.width + dw < 2 or b.height + dh < 2:
            continue
        cropped = _crop(scene, dx, dy, b.width + dw, b.height + dh)
        if cropped is not None:
            yield cropped, turn


def _crop(scene: Scene, dx: int, dy: int, width: int, height: int) -> Scene | None:
    b = scene.board

    def move(t):
        return (t[0] - dx, t[1] - dy)

    def inside(t):
        return 0 <= t[0] < width and 0 <= t[1] < height

    if not all(inside(move(s.at)) for s in scene.ships):
        return None
    if not all(inside(move(p)) and inside(move((p[0] + 1, p[1] + 1))) for p in b.whirlpools):
        return None
    board = Board(width, height, frozenset(move(t) for t in b.rocks if inside(move(t))),
                  tuple((move(t), d) for t, d in b.wind if inside(move(t))), tuple(move(p) for p in b.whirlpools))
    return Scene(board, tuple(Ship(s.name, s.type, move(s.at), s.heading) for s in scene.ships))


# --- the exhaustive two-ship space -------------------------------------------

def _offsets(radius: int) -> list[tuple[int, int]]:
    return sorted((dx, dy) for dx in range(-radius, radius + 1) for dy in range(-radius, radius + 1)
                  if 0 < abs(dx) + abs(dy) <= radius)


EXHAUSTIVE_SPACES = {
    "two-ships": "two ships within 3 tiles of each other on an open board, every heading, token and class: "
                 "98,304 scenes",
    "terrain": "two ships within 2 tiles, small and large classes, with one rock, wind tile or whirlpool "
               "around the first: 143,360 scenes",
    **{name: space.summary for name, space in SPACES.items()},  # reduced by symmetry: spaces.py
}


def exhaustive_shard(name: str, index: int, count: int) -> Iterator[tuple[Scene, Turn, int]] | None:
    """The spaces reduced by symmetry enumerate only their shard; the others are left to the
    default (every count-th scene of exhaustive_space)."""
    return shard(name, index, count) if name in SPACES else None


def exhaustive_space(name: str = "two-ships", radius: int = 3) -> tuple[int, Iterator[tuple[Scene, Turn]]]:
    """Every placement of two ships A and B within ``radius`` tiles (Manhattan) of each
    other, with every heading, token and size class, for one round, on an open board with
    room to move: 24 x 16 x 16 x 16 = 98,304 scenes.

    In the "terrain" space, one feature is added around A instead: a rock on a neighbour of A,
    a wind tile under A (each direction), or a whirlpool with A in each corner; to keep it
    to seconds, B stays within 2 tiles and the classes are small and large only."""
    size = 2 * radius + 5
    centre = (size // 2, size // 2)
    types: tuple[str, ...] = TYPES_BY_CLASS
    if name in SPACES:
        return space_scenes(name)
    if name not in EXHAUSTIVE_SPACES:
        raise KeyError(name)
    boards: list[Board] = [Board(size, size)]
    if name == "terrain":
        radius, types = 2, (TYPES_BY_CLASS[0], TYPES_BY_CLASS[2])
        boards = [Board(size, size, frozenset({h.ahead(centre)})) for h in Heading]
        boards += [Board(size, size, wind=((centre, d),)) for d in Heading]
        boards += [Board(size, size, whirlpools=((centre[0] - c.value[0], centre[1] - c.value[1]),)) for c in Corner]
    offsets = _offsets(radius)
    headings, tokens = list(Heading), list(Token)
    placements = sum(1 for b in boards for dx, dy in offsets if (centre[0] + dx, centre[1] + dy) not in b.rocks)
    total = placements * (len(types) * 4 * 4) ** 2

    def scenes():
        for board in boards:
            for dx, dy in offsets:
                other = (centre[0] + dx, centre[1] + dy)
                if other in board.rocks:
                    continue
                for ta, tb in product(types, types):
                    for ha, hb in product(headings, headings):
                        scene = Scene(board, (Ship("A", ta, centre, ha), Ship("B", tb, other, hb)))
                        for ka, kb in product(tokens, tokens):
                            yield scene, Turn(((("A", ka), ("B", kb)),))

    return total, scenes()
