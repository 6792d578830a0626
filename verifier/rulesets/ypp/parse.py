"""The YPP parts of a case file: JSON Schemas, and parsing into value types with
precise errors for scenes that cannot exist."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...errors import SceneError, did_you_mean
from ...ruleset import Outcome
from ...source import Located
from .model import SHIP_TYPES, Board, Heading, Scene, Tile, Token, Turn, ship_at

# Enum members by name or value, and their names and values, as plain dicts: Enum's metaclass and
# descriptors cost more than a dict look-up, once per ship and token of every request.
_HEADING_OF = dict(Heading.__members__)
_HEADING_NAME = {h: h.name for h in Heading}
_TOKEN = {t.value: t for t in Token}
_TOKEN_VALUE = {t: t.value for t in Token}

_TILE = {"type": "array", "items": {"type": "integer", "minimum": 0}, "minItems": 2, "maxItems": 2,
         "description": "[x, y]: x counts east from 0, y counts south from 0"}
_ANY_TILE = {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2,
             "description": "[x, y]; may be off the board in the outcome of a reading that breaks the rules"}
_HEADING = {"enum": [h.name for h in Heading]}
_NAME = {"type": "string", "minLength": 1}

BEFORE_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["board", "ships"],
    "properties": {
        "board": {
            "type": "object",
            "additionalProperties": False,
            "required": ["size"],
            "properties": {
                "size": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 100000},
                         "minItems": 2, "maxItems": 2, "description": "[width, height] in tiles"},
                "rocks": {"type": "array", "items": _TILE, "uniqueItems": True},
                "wind": {
                    "type": "array",
                    "items": {"type": "object", "additionalProperties": False, "required": ["at", "toward"],
                              "properties": {"at": _TILE, "toward": _HEADING}},
                },
                "whirlpools": {"type": "array", "items": _TILE, "uniqueItems": True,
                               "description": "the north-west tile of each 2x2 clockwise whirlpool"},
            },
        },
        "ships": {
            "type": "object",
            "minProperties": 1,
            "additionalProperties": {
                "type": "object", "additionalProperties": False, "required": ["type", "at", "heading"],
                "properties": {"type": {"type": "string", "description": "a ship type from seed 000's table"},
                               "at": _TILE, "heading": _HEADING},
            },
        },
    },
}

ACTIONS_SCHEMA = {
    "type": "array",
    "description": "one mapping per round: ship name -> token; a turn has four rounds at most, so tokens for a "
                   "fifth are refused (turn.rounds)",
    "items": {"type": "object", "additionalProperties": {"enum": [t.value for t in Token]}},
}

EVENT_KINDS = {"collision": 2, "bump": 2, "push": 2, "rock": 1, "edge": 1}

EXPECT_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["events"],
    "properties": {
        "ships": {
            "type": "object",
            "description": "where listed ships end; ships not listed are expected not to move",
            "additionalProperties": {
                "type": "object", "additionalProperties": False, "required": ["at", "heading"],
                "properties": {"at": _ANY_TILE, "heading": _HEADING},
            },
        },
        "events": {
            "type": "array",
            "items": {
                "type": "object", "additionalProperties": False, "required": ["kind", "ships"],
                "properties": {
                    "kind": {"enum": list(EVENT_KINDS)},
                    "ships": {"type": "array", "items": _NAME, "minItems": 1, "maxItems": 2},
                    "round": {"type": "integer", "minimum": 1, "maximum": 4},
                },
            },
        },
        "damage": {
            "type": "object",
            "description": "optional: the ram damage each ship takes over the turn (clause ram.1), in hits of "
                           "the reading's shot size; when given, ships not listed are expected to take none",
            "additionalProperties": {"type": "number", "minimum": 0},
        },
        "states": {
            "type": "array",
            "description": "optional: where ships stand at moments of the turn, as an answer's 'states' give them "
                           "(without 'phase' the end of the round; 'step' 0, the default, the end of the phase); "
                           "checked against the reference resolver, and compared with an implementation's states "
                           "instead of the reference's",
            "items": {
                "type": "object", "additionalProperties": False, "required": ["round", "ships"],
                "properties": {
                    "round": {"type": "integer", "minimum": 1, "maximum": 4},
                    "phase": {"enum": ["move", "wind"]},
                    "step": {"type": "integer", "minimum": 0, "maximum": 2},
                    "ships": {"type": "object", "additionalProperties": {
                        "type": "object", "additionalProperties": False, "required": ["at", "heading"],
                        "properties": {"at": _ANY_TILE, "heading": _HEADING}}},
                },
            },
        },
    },
}


@dataclass(frozen=True)
class ExpectedEvent:
    kind: str
    ships: tuple[str, ...]
    round: int
    index: int  # position in the case's list, for locating mismatches


@dataclass(frozen=True)
class Expectation:
    ships: tuple[tuple[str, Tile, Heading], ...]
    events: tuple[ExpectedEvent, ...]
    damage: tuple[tuple[str, float], ...] | None = None  # ship -> total ram damage, where the case says


def _tile(value: list[int]) -> Tile:
    return (value[0], value[1])


def _ship_name(doc: Located, path: tuple, name: Any, known: dict, what: str) -> str:
    if name not in known:
        raise doc.error(path, f"{what} {name!r} is not a ship in this scene; {did_you_mean(name, list(known))}",
                        SceneError)
    return name


def parse_before(doc: Located, path: tuple) -> Scene:
    data = doc.at(path)
    board_data = data["board"]
    width, height = board_data["size"]
    bpath = path + ("board",)

    def inside(tile: Tile, where: tuple, what: str) -> None:
        if not (tile[0] < width and tile[1] < height):
            raise doc.error(where, f"{what} at {list(tile)} is off the {width}x{height} board "
                                   f"(x must be below {width}, y below {height})", SceneError)

    rocks = []
    for i, value in enumerate(board_data.get("rocks", [])):
        tile = _tile(value)
        inside(tile, bpath + ("rocks", i), "the rock")
        rocks.append(tile)

    whirl_tiles: dict[Tile, int] = {}
    whirlpools = []
    for i, value in enumerate(board_data.get("whirlpools", [])):
        origin = _tile(value)
        where = bpath + ("whirlpools", i)
        if origin[0] + 1 >= width or origin[1] + 1 >= height:
            raise doc.error(where, f"the whirlpool at {list(origin)} covers 2x2 tiles and does not fit on "
                                   f"the {width}x{height} board", SceneError)
        for dx in (0, 1):
            for dy in (0, 1):
                tile = (origin[0] + dx, origin[1] + dy)
                if tile in whirl_tiles:
                    raise doc.error(where, f"this whirlpool overlaps whirlpool {whirl_tiles[tile] + 1} at "
                                           f"{list(tile)}", SceneError)
                if tile in rocks:
                    raise doc.error(where, f"this whirlpool covers the rock at {list(tile)}", SceneError)
                whirl_tiles[tile] = i
        whirlpools.append(origin)

    wind = {}
    for i, item in enumerate(board_data.get("wind", [])):
        tile = _tile(item["at"])
        where = bpath + ("wind", i, "at")
        inside(tile, where, "the wind tile")
        if tile in wind:
            raise doc.error(where, f"{list(tile)} already has a wind", SceneError)
        if tile in rocks:
            raise doc.error(where, f"{list(tile)} is a rock and cannot also be a wind tile", SceneError)
        if tile in whirl_tiles:
            raise doc.error(where, f"{list(tile)} is part of a whirlpool and cannot also be a wind tile",
                            SceneError)
        wind[tile] = _HEADING_OF[item["toward"]]

    ships = []
    taken: dict[Tile, str] = {}
    rock_set = frozenset(rocks)
    for name, spec in data["ships"].items():
        where = path + ("ships", name)
        if not isinstance(name, str):
            raise doc.error(where, f"ship names must be text; quote {name!r}", SceneError, key=True)
        kind = spec["type"]
        if kind not in SHIP_TYPES:
            extra = " (the war galleon is missing from seed 000's table)" if kind == "war galleon" else ""
            raise doc.error(where + ("type",), f"unknown ship type {kind!r}{extra}; "
                                               f"{did_you_mean(kind, list(SHIP_TYPES))}", SceneError)
        tile = _tile(spec["at"])
        inside(tile, where + ("at",), f"ship {name!r}")
        if tile in rock_set:
            raise doc.error(where + ("at",), f"ship {name!r} is on the rock at {list(tile)}", SceneError)
        if tile in taken:
            raise doc.error(where + ("at",), f"ships {taken[tile]!r} and {name!r} are both on tile {list(tile)}; "
                                             "only one ship fits on a tile", SceneError)
        taken[tile] = name
        ships.append(ship_at(name, kind, tile, _HEADING_OF[spec["heading"]]))

    board = Board(width, height, rock_set, tuple(sorted(wind.items())), tuple(sorted(whirlpools)))
    return Scene(board, tuple(sorted(ships, key=lambda s: s.name)))


def parse_actions(doc: Located, path: tuple, scene: Scene) -> Turn:
    data = doc.at(path)
    known = dict(scene.by_name)
    rounds = []
    for i, tokens in enumerate(data or []):
        entries = []
        for name, token in tokens.items():
            _ship_name(doc, path + (i, name), name, known, "token holder")
            found = _TOKEN.get(token) if type(token) is str else None
            entries.append((name, Token(token) if found is None else found))
        rounds.append(tuple(sorted(entries)))
    return Turn(tuple(rounds))


def parse_expect(doc: Located, path: tuple, scene: Scene, turn: Turn, off_board_ok: bool = False) -> Expectation:
    """``off_board_ok``: the expectation records what some reading does, even where it
    breaks the rules (as in a finding's list of outcomes)."""
    data = doc.at(path)
    known = dict(scene.by_name)
    ships = []
    for name, spec in (data.get("ships") or {}).items():
        where = path + ("ships", name)
        _ship_name(doc, where, name, known, "expected ship")
        tile = _tile(spec["at"])
        if not scene.board.on_board(tile) and not off_board_ok:
            raise doc.error(where + ("at",), f"expected position {list(tile)} is off the board", SceneError)
        ships.append((name, tile, Heading[spec["heading"]]))
    events = []
    for i, item in enumerate(data["events"]):
        where = path + ("events", i)
        kind = item["kind"]
        names = tuple(item["ships"])
        if len(names) != EVENT_KINDS[kind]:
            raise doc.error(where + ("ships",), f"a {kind} event names {EVENT_KINDS[kind]} ship"
                                                f"{'s' if EVENT_KINDS[kind] > 1 else ''}, not {len(names)}",
                            SceneError)
        for j, name in enumerate(names):
            _ship_name(doc, where + ("ships", j), name, known, "event ship")
        round_no = item.get("round", 1)
        if round_no > max(1, len(turn.rounds)):
            raise doc.error(where + ("round",), f"round {round_no} is past the last round of this turn "
                                                f"({len(turn.rounds)})", SceneError)
        events.append(ExpectedEvent(kind, names, round_no, i))
    damage = None
    if "damage" in data:
        for name in data["damage"]:
            _ship_name(doc, path + ("damage", name), name, known, "damaged ship")
        damage = tuple(sorted((name, float(amount)) for name, amount in data["damage"].items()))
    return Expectation(tuple(sorted(ships)), tuple(events), damage)


# --- the writer: scenes and outcomes as case data (Capability.FINDINGS) --------------------


def case_data(scene: Scene, turn: Turn) -> tuple[dict, list]:
    b = scene.board
    board: dict[str, Any] = {"size": [b.width, b.height]}
    if b.rocks:
        board["rocks"] = [list(t) for t in sorted(b.rocks)]
    if b.wind:
        board["wind"] = [{"at": list(t), "toward": _HEADING_NAME[d]} for t, d in b.wind]
    if b.whirlpools:
        board["whirlpools"] = [list(t) for t in b.whirlpools]
    ships = {s.name: {"type": s.type, "at": list(s.at), "heading": _HEADING_NAME[s.heading]} for s in scene.ships}
    actions = [{n: _TOKEN_VALUE[t] for n, t in r} or {s.name: "none" for s in scene.ships[:1]} for r in turn.rounds]
    return {"board": board, "ships": ships}, actions


def expect_data(scene: Scene, outcome: Outcome) -> dict:
    before = scene.by_name
    ships = {s.name: {"at": list(s.at), "heading": s.heading.name} for s in outcome.after.ships
             if (s.at, s.heading) != (before[s.name].at, before[s.name].heading)}
    events = [{"kind": e.kind, "ships": list(e.pieces), **({"round": e.round} if e.round != 1 else {})}
              for e in outcome.events]
    data: dict[str, Any] = {"ships": ships, "events": events} if ships else {"events": events}
    totals = outcome.damage_totals()
    if totals:
        data["damage"] = dict(totals)
    return data
