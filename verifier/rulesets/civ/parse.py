"""The JSON Schemas of a civ case's parts, and the parser: the schema checks shapes,
the parser the scenes that cannot exist (a ship with six tokens, one ending in open
sea, an area touching an area the map lacks, an advance nobody has heard of).

A case defines its own map or names one of ``cases/civ/maps/<name>.json``, looked up
next to the case file first (``maps/`` beside it), then in the repository's folder.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection
from pathlib import Path
from typing import Any

from shapely.geometry import Polygon

from ...errors import CaseError, SceneError, did_you_mean
from ...kept import Kept, KeptFor
from ...ruleset import Outcome
from ...source import Located, file_problem, load_file
from .clauses import READING_POINTS
from .model import (
    ADVANCES,
    AREA_KINDS,
    CAPACITY,
    LAND,
    MAX_SHIPS,
    OPEN_SEA,
    OPTIONS,
    Actions,
    Area,
    BranchExpect,
    Choices,
    Expectation,
    Map,
    Nation,
    Scene,
    Ship,
    ShipMove,
    ShipState,
    Stop,
    Turn,
)
from .resolver import MAX_BRANCHES, TooManyBranches, resolve

FACTS = "facts.md (civ), Ships"
_DEFAULTS = {p.name: p.default for p in READING_POINTS}
# A bound on the verifier's work rather than a rule: a land conflict removes one token a step.
MAX_LAND_TOKENS = 10_000
MAPS_FOLDER = Path(__file__).resolve().parents[3] / "cases" / "civ" / "maps"

_NAME = {"type": "string", "minLength": 1}
_XY = {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2}
_COUNT = {"type": "integer", "minimum": 0}
AREA_SCHEMA = {
    "type": "object", "additionalProperties": False, "required": ["kind", "at"],
    "properties": {
        "kind": {"enum": list(AREA_KINDS), "description": "land, water (coastal water) or open-sea"},
        "coast": {"type": "boolean", "description": "land only: whether it has a coast ships may enter"},
        "limit": {"type": "integer", "minimum": 0,
                  "description": "land only, and required there: its population limit (base rule 24)"},
        "touches": {"type": "array", "items": _NAME, "uniqueItems": True,
                    "description": "the areas it touches; touching is mutual, so listing it once is enough"},
        "at": {**_XY, "description": "where to draw it (not a rule)"},
        "shape": {"type": "array", "items": _XY, "minItems": 3, "description": "its outline, for drawing only"},
    },
}
MAP_SCHEMA = {
    "type": "object", "additionalProperties": False, "required": ["areas"],
    "properties": {"name": {"type": "string"}, "note": {"type": "string"},
                   "areas": {"type": "object", "minProperties": 1, "additionalProperties": AREA_SCHEMA}},
}
BEFORE_SCHEMA = {
    "type": "object", "additionalProperties": False, "required": ["map", "nations", "ships"],
    "properties": {
        "map": {**MAP_SCHEMA, "type": ["string", "object"],
                "description": "a map under cases/civ/maps/ by name, or the case's own map"},
        "options": {"type": "array", "items": {"enum": list(OPTIONS)}, "uniqueItems": True,
                    "description": "the source's options in play: A naval battles, B blockades"},
        "nations": {"type": "object", "minProperties": 1, "additionalProperties": {
            "type": "object", "additionalProperties": False,
            "properties": {"advances": {"type": "array", "items": {"type": "string"}, "uniqueItems": True}}}},
        "ships": {"type": "object", "additionalProperties": {
            "type": "object", "additionalProperties": False, "required": ["nation", "at"],
            "properties": {"nation": _NAME, "at": _NAME, "tokens": {**_COUNT, "description": "aboard"}}}},
        "tokens": {"type": "object", "description": "land area -> nation -> population tokens there",
                   "additionalProperties": {"type": "object", "additionalProperties": _COUNT}},
        "overland": {"type": "object", "description": "land area -> nation -> how many of its tokens there "
                                                      "already moved overland this phase (they may not board)",
                     "additionalProperties": {"type": "object", "additionalProperties": _COUNT}},
    },
}
_STOP = {"type": ["string", "object"], "minLength": 1, "additionalProperties": False, "required": ["at"],
         "description": "an area, or an area with what happens there",
         "properties": {"at": _NAME, "board": {**_COUNT, "description": "tokens from this area's land onto the ship"},
                        "drop": {**_COUNT, "description": "tokens off the ship onto this area"},
                        "take": {"type": "object", "additionalProperties": _COUNT,
                                 "description": "blocked friendly ship -> tokens taken off it (option B)"}}}
_YES_NO = {"type": "object", "additionalProperties": {"type": "boolean"}}
ACTIONS_SCHEMA = {
    "type": "object", "additionalProperties": False,
    "properties": {
        "blockade": {"type": "array", "items": _NAME, "uniqueItems": True,
                     "description": "ships turned over to blockade at the start of the phase (option B)"},
        "turns": {"type": "array", "description": "the nations' turns in the order of play", "items": {
            "type": "object", "additionalProperties": False, "required": ["nation"],
            "properties": {
                "nation": _NAME,
                "moves": {"type": "array", "items": {
                    "type": "object", "additionalProperties": False, "required": ["ship", "path"],
                    "properties": {"ship": _NAME, "path": {"type": "array", "items": _STOP, "minItems": 1}}}},
                "lift": {"type": "array", "items": _NAME, "uniqueItems": True,
                         "description": "blockaders turned back without moving"}}}},
        "choices": {"type": "object", "additionalProperties": False, "properties": {
            "conflict": {**_YES_NO, "description": "area -> whether a nation there wants a ship conflict"},
            "prevent": {**_YES_NO, "description": "area -> whether the enemy prevents the landing there"},
            "block": {"type": "object", "additionalProperties": _NAME,
                      "description": "ship -> the area where a blockader blocks it, or none"},
            "stop": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0},
                     "description": "area -> removal steps after which all agree to end the conflict"}}},
    },
}
_SHIP_END = {"type": ["string", "object"], "pattern": "^sunk$", "additionalProperties": False, "required": ["at"],
             "description": "sunk, or where the ship ends",
             "properties": {"at": _NAME, "tokens": _COUNT, "blockading": {"type": "boolean"}, "blocked_by": _NAME}}
_STEP = {"type": ["string", "array"], "minLength": 1, "items": _NAME, "minItems": 1, "uniqueItems": True,
         "description": "a piece removed, or a list of pieces removed together"}
_EVENT = {"type": "object", "required": ["kind", "pieces"],
          "properties": {"kind": _NAME, "pieces": {"type": "array", "items": _NAME}}}
_BRANCH_PROPERTIES = {
    "ships": {"type": "object", "additionalProperties": _SHIP_END,
              "description": "ships that move, sink or change; the others must end as they began"},
    "land": {"type": "object", "additionalProperties": {"type": "object", "additionalProperties": _COUNT},
             "description": "land area -> every nation's tokens there at the end; other areas keep theirs"},
    "removals": {"type": "object", "additionalProperties": {"type": "array", "items": _STEP},
                 "description": "area -> the removals of its conflict in order (a list: removed together)"},
    "events": {"type": "array", "items": {**_EVENT, "additionalProperties": False}},
}
WHEN_SCHEMA = {"type": "object", "additionalProperties": False, "properties": {
    "conflict": _YES_NO, "prevent": _YES_NO, "block": {"type": "object", "additionalProperties": _NAME}}}
EXPECT_SCHEMA = {
    "type": "object", "additionalProperties": False,
    "properties": {
        **_BRANCH_PROPERTIES,
        "branches": {"type": "array", "minItems": 1, "description": "one per way of taking the open decisions",
                     "items": {"type": "object", "additionalProperties": False, "required": ["when"],
                               "properties": {"when": WHEN_SCHEMA, **_BRANCH_PROPERTIES}}},
    },
}



def _known(doc: Located, path: tuple, name: Any, names: Collection[str], what: str) -> str:
    """``name``, refused unless it is one of ``names`` (pass a set where there are many)."""
    if not isinstance(name, str) or name not in names:
        raise doc.error(path, f"{name!r} is not {what} of this scene; {did_you_mean(str(name), sorted(names))}",
                        SceneError)
    return str(name)


def _text_keys(doc: Located, path: tuple, data: dict) -> None:
    for key in data:
        if not isinstance(key, str):
            raise doc.error(path + (key,), f"names must be text; quote {key!r}", SceneError, key=True)


# --- the map --------------------------------------------------------------------------------------


MAP_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")


def _map_problem(file: Path, root: Path) -> str | None:
    """Why ``file`` is not read as a map, as a case file is not: it is no regular file, or
    it (or a folder on the way, such as a linked ``maps/``) leads out of ``root``."""
    problem = file_problem(file)
    if problem:
        return problem
    if not file.resolve().is_relative_to(root.resolve()):
        return (f"a link out of {root}, which is refused; a map must sit inside the case's folder or cases/civ/maps "
                "(copy the file in instead)")
    return None


def _map_file(doc: Located, path: tuple, name: str) -> Path:
    if not MAP_NAME.fullmatch(name):
        raise doc.error(path, f"a map's name is up to 64 letters, digits, '-' or '_' (the file maps/NAME.json), "
                              f"not {name[:60]!r}" + ("..." if len(name) > 60 else ""), SceneError)
    case_folder = Path(doc.file).parent
    here = case_folder / "maps"
    places = [(here, case_folder)] + ([(MAPS_FOLDER, MAPS_FOLDER)] if here.resolve() != MAPS_FOLDER else [])
    for folder, root in places:
        candidate = folder / f"{name}.json"
        if candidate.exists() or candidate.is_symlink():
            problem = _map_problem(candidate, root)
            if problem:
                raise doc.error(path, f"map {name!r}: {candidate}: {problem}", SceneError)
            return candidate
    folders = [folder for folder, _ in places]
    known = sorted({p.stem for f in folders if f.is_dir() and not f.is_symlink() for p in f.glob("*.json")})
    raise doc.error(path, f"no map named {name!r} in {' or '.join(str(f) for f in folders)}; "
                          f"{did_you_mean(name, known)}", SceneError)


# Maps read before, by the ``repr`` of their data (as ``KeptByData`` keeps them): fuzz's scenes are
# drawn on a few maps, and each request carries its map written out.
_MAPS: Kept[str, Map] = Kept(64)


def parse_map(doc: Located, path: tuple, text: str | None = None) -> Map:
    """The map at ``path``; ``text``: the ``repr`` of its data, where the caller has it."""
    data = doc.at(path)
    if isinstance(data, str):
        file = _map_file(doc, path, data)
        mdoc = load_file(file)
        from ...schema import validate
        if not isinstance(mdoc.data, dict):
            raise mdoc.error((), f"a map file holds one object (name, areas), not {type(mdoc.data).__name__}",
                             SceneError)
        problems = validate(mdoc, MAP_SCHEMA, ())
        if problems:
            first = problems[0]
            raise type(first)(first.message if len(first.message) <= 300 else first.message[:300] + "...",
                              first.location)
        inner = parse_map(mdoc, ())
        return Map(data, inner.areas)
    return _MAPS.get(repr(data) if text is None else text, lambda: _read_map(doc, path, data))


def _read_map(doc: Located, path: tuple, data: dict) -> Map:
    _text_keys(doc, path + ("areas",), data["areas"])
    names = list(data["areas"])
    touches: dict[str, set[str]] = {n: set() for n in names}
    for name, spec in data["areas"].items():
        where = path + ("areas", name)
        if "coast" in spec and spec["kind"] != LAND:
            raise doc.error(where + ("coast",), f"only land has a coast or not; {name!r} is {spec['kind']}",
                            SceneError)
        if "limit" in spec and spec["kind"] != LAND:
            raise doc.error(where + ("limit",), f"only land has a population limit; {name!r} is {spec['kind']}",
                            SceneError, key=True)
        if "limit" not in spec and spec["kind"] == LAND:
            raise doc.error(where, f"land area {name!r} needs its population limit (limit: N, the number printed "
                                   "on the board; facts.md (civ), Conflict (base rule 24))", SceneError, key=True)
        for i, other in enumerate(spec.get("touches", [])):
            if other == name:
                raise doc.error(where + ("touches", i), f"area {name!r} cannot touch itself", SceneError)
            _known(doc, where + ("touches", i), other, touches, "an area")
            touches[name].add(other)
            touches[other].add(name)
    areas = []
    for name, spec in data["areas"].items():
        if "shape" in spec and not Polygon(spec["shape"]).is_valid:
            raise doc.error(path + ("areas", name, "shape"), f"the outline of {name!r} crosses itself; list its "
                                                             "corners in order around it", SceneError)
        areas.append(Area(name, spec["kind"], bool(spec.get("coast", False)), tuple(sorted(touches[name])),
                          (float(spec["at"][0]), float(spec["at"][1])),
                          tuple((float(x), float(y)) for x, y in spec.get("shape", ())), int(spec.get("limit", 0))))
    return Map(str(data.get("name", "")), tuple(sorted(areas, key=lambda a: a.name)))


# --- the scene ------------------------------------------------------------------------------------


# Fuzz reads each scene it sends more than once (the request, the expectation it restates): kept
# as ``KeptByData`` keeps what it reads, by the ``repr`` of the map's data and of the rest (where
# among the keys the map stands is all the two leave out, and the reader never looks at it).
_PARSED: Kept[tuple[str, str], Scene] = Kept(512)


def parse_scene(doc: Located, path: tuple) -> Scene:
    """The scene at ``path``; one that defines its own map, read before from the same data, is
    given again. One that names a map file is read afresh: the file may have changed."""
    data = doc.at(path)
    if isinstance(data, dict) and isinstance(data.get("map"), dict):
        map_text = repr(data["map"])
        key = (map_text, repr({name: part for name, part in data.items() if name != "map"}))
        return _PARSED.get(key, lambda: _parse_scene(doc, path, map_text))
    return _parse_scene(doc, path)


def _parse_scene(doc: Located, path: tuple, map_text: str | None = None) -> Scene:
    data = doc.at(path)
    game_map = parse_map(doc, path + ("map",), map_text)
    areas = frozenset(game_map.names)
    nations = []
    _text_keys(doc, path + ("nations",), data["nations"])
    for name, spec in data["nations"].items():
        advances = spec.get("advances", [])
        for i, advance in enumerate(advances):
            if advance not in ADVANCES:
                raise doc.error(path + ("nations", name, "advances", i),
                                f"{advance!r} is not an advance these rules know; "
                                f"{did_you_mean(advance, list(ADVANCES))}", SceneError)
        nations.append(Nation(name, frozenset(advances)))
    nation_names = frozenset(n.name for n in nations)
    ships = []
    _text_keys(doc, path + ("ships",), data["ships"])
    for name, spec in data["ships"].items():
        where = path + ("ships", name)
        if name in nation_names or name in areas:
            raise doc.error(where, f"ship {name!r} has the name of a nation or an area; give it its own",
                            SceneError, key=True)
        nation = _known(doc, where + ("nation",), spec["nation"], nation_names, "a nation")
        at = _known(doc, where + ("at",), spec["at"], areas, "an area")
        area = game_map.area(at)
        if not area.navigable:
            raise doc.error(where + ("at",), f"ship {name!r} is in {at!r}, land without a coast; ships are only "
                                             f"in water, open sea or a coast's water portion", SceneError)
        if area.kind == OPEN_SEA:
            raise doc.error(where + ("at",), f"ship {name!r} is in open sea {at!r}, where no ship may end a move "
                                             f"({FACTS})", SceneError)
        aboard = int(spec.get("tokens", 0))
        if aboard > CAPACITY:
            raise doc.error(where + ("tokens",), f"ship {name!r} has {aboard} tokens aboard; a ship carries at most "
                                                 f"{CAPACITY} ({FACTS})", SceneError)
        ships.append(Ship(name, nation, at, aboard))
    for nation, count in Counter(s.nation for s in ships).items():
        if count > MAX_SHIPS:
            raise doc.error(path + ("ships",), f"nation {nation!r} has {count} ships; a nation has at most "
                                               f"{MAX_SHIPS} ({FACTS})", SceneError)
    tokens, on_land = [], 0
    for area_name, counts in (data.get("tokens") or {}).items():
        where = path + ("tokens", area_name)
        _known(doc, where, area_name, areas, "an area")
        if game_map.area(area_name).kind != LAND:
            raise doc.error(where, f"population tokens stand on land; {area_name!r} is "
                                   f"{game_map.area(area_name).kind}", SceneError, key=True)
        for nation, count in counts.items():
            _known(doc, where + (nation,), nation, nation_names, "a nation")
            if count:
                tokens.append((area_name, nation, int(count)))
            on_land += int(count)
            if on_land > MAX_LAND_TOKENS:
                raise doc.error(where + (nation,), f"the scene would hold more than {MAX_LAND_TOKENS:,} tokens on "
                                                   f"land, the most a case may hold (a conflict is fought token "
                                                   f"by token)", SceneError)
    held = {(a, n): c for a, n, c in tokens}
    overland = []
    for area_name, counts in (data.get("overland") or {}).items():
        where = path + ("overland", area_name)
        _known(doc, where, area_name, areas, "an area")
        for nation, count in counts.items():
            _known(doc, where + (nation,), nation, nation_names, "a nation")
            if count > held.get((area_name, nation), 0):
                raise doc.error(where + (nation,), f"{count} {nation} tokens in {area_name!r} moved overland, but "
                                                   f"before.tokens gives {nation} {held.get((area_name, nation), 0)} "
                                                   "there; the overland ones are among those", SceneError)
            if count:
                overland.append((area_name, nation, int(count)))
    return Scene(game_map, frozenset(data.get("options", [])), tuple(nations), tuple(ships), tuple(tokens),
                 tuple(sorted(overland)))


# --- the actions ----------------------------------------------------------------------------------


def _stop(item: Any) -> Stop:
    if isinstance(item, str):
        return Stop(item)
    return Stop(item["at"], int(item.get("board", 0)), int(item.get("drop", 0)),
                tuple((str(k), int(v)) for k, v in (item.get("take") or {}).items()))


# Fuzz reads each scene's actions again with the scene read before (the request, the expectation
# it restates): by that scene (``parse_scene`` gives the same one again) and the actions' data.
_ACTIONS: KeptFor[Actions] = KeptFor(512)


def forget_scenes() -> None:
    """Forget the scenes and actions read (a read afresh resolves the phase again to count its branches)."""
    _PARSED.clear()
    _ACTIONS.clear()


def parse_actions(doc: Located, path: tuple, scene: Scene) -> Actions:
    return _ACTIONS.get(scene, lambda: _parse_actions(doc, path, scene), repr(doc.at(path)))


def _parse_actions(doc: Located, path: tuple, scene: Scene) -> Actions:
    data = doc.at(path) or {}
    ship_names = frozenset(s.name for s in scene.ships)
    nation_names = frozenset(n.name for n in scene.nations)
    areas = frozenset(scene.map.names)
    blockade = tuple(_known(doc, path + ("blockade", i), s, ship_names, "a ship")
                     for i, s in enumerate(data.get("blockade", [])))
    if blockade and "B" not in scene.options:
        raise doc.error(path + ("blockade",), "blockades are option B, which this scene does not play "
                                              "(before.options)", SceneError)
    # A blockader with tokens aboard, a second turn, another nation's ship, a ship moving twice and the
    # steps the ship rules forbid are actions the rules refuse (resolver.refusal), not impossible scenes.
    turns = []
    for t, turn in enumerate(data.get("turns", [])):
        where = path + ("turns", t)
        nation = _known(doc, where + ("nation",), turn["nation"], nation_names, "a nation")
        moves = []
        for m, move in enumerate(turn.get("moves", [])):
            mwhere = where + ("moves", m)
            ship = _known(doc, mwhere + ("ship",), move["ship"], ship_names, "a ship")
            stops = tuple(_stop(item) for item in move["path"])
            for s, stop in enumerate(stops):
                swhere = mwhere + ("path", s) + (("at",) if not isinstance(move["path"][s], str) else ())
                _known(doc, swhere, stop.area, areas, "an area")
                for other, _ in stop.take:
                    _known(doc, mwhere + ("path", s, "take", other), other, ship_names, "a ship")
                    if "B" not in scene.options:
                        raise doc.error(mwhere + ("path", s, "take"), "taking tokens off a blocked ship is option "
                                                                      "B, which this scene does not play",
                                        SceneError)
            moves.append(ShipMove(ship, stops))
        lift = tuple(_known(doc, where + ("lift", i), s, list(blockade), "a blockading ship")
                     for i, s in enumerate(turn.get("lift", [])))
        turns.append(Turn(nation, tuple(moves), lift))
    actions = Actions(blockade, tuple(turns), _choices(doc, path + ("choices",), data.get("choices") or {}, scene))
    paths = {m.ship: {st.area for st in m.path} for t in actions.turns for m in t.moves}
    for ship, area in actions.choices.block:
        if area != "none" and area not in paths.get(ship, ()):
            raise doc.error(path + ("choices", "block", ship), f"ship {ship!r} is never in {area!r} this phase, so "
                                                                 "it cannot be blocked there", SceneError)
    _check_branches(doc, path, scene, actions)
    return actions


def _check_branches(doc: Located, path: tuple, scene: Scene, actions: Actions) -> None:
    """Every decision the case leaves open is taken both ways; refuse a case that leaves too many."""
    try:
        resolve(scene, actions, dict(_DEFAULTS), max_branches=MAX_BRANCHES)
    except TooManyBranches as error:
        named = ", ".join(f"{kind} {key}" for kind, key in error.open_keys[:6])
        raise doc.error(path, f"the case leaves so many decisions open that the outcome would have more than "
                              f"{MAX_BRANCHES} branches ({named}, ...); state some in actions.choices",
                        SceneError) from None


def _choices(doc: Located, path: tuple, data: dict, scene: Scene) -> Choices:
    areas, ships = frozenset(scene.map.names), frozenset(s.name for s in scene.ships)
    for kind in ("conflict", "prevent", "stop"):
        for area in data.get(kind, {}):
            _known(doc, path + (kind, area), area, areas, "an area")
    for ship, area in data.get("block", {}).items():
        _known(doc, path + ("block", ship), ship, ships, "a ship")
        if area != "none":
            _known(doc, path + ("block", ship), area, areas | {"none"}, "an area")
    return Choices(tuple(sorted((k, bool(v)) for k, v in data.get("conflict", {}).items())),
                   tuple(sorted((k, bool(v)) for k, v in data.get("prevent", {}).items())),
                   tuple(sorted((k, str(v)) for k, v in data.get("block", {}).items())),
                   tuple(sorted((k, int(v)) for k, v in data.get("stop", {}).items())))


# --- the expectation ------------------------------------------------------------------------------


def _label(doc: Located, path: tuple, data: dict, scene: Scene) -> tuple:
    out = []
    for kind in ("conflict", "prevent"):
        for area, value in (data.get(kind) or {}).items():
            out.append((kind, _known(doc, path + (kind, area), area, scene.map.names, "an area"),
                        "yes" if value else "no"))
    for ship, area in (data.get("block") or {}).items():
        _known(doc, path + ("block", ship), ship, [s.name for s in scene.ships], "a ship")
        out.append(("block", ship, str(area)))
    return tuple(sorted(out))


def _branch(doc: Located, path: tuple, data: dict, scene: Scene, when: tuple) -> BranchExpect:
    ship_names, areas = frozenset(s.name for s in scene.ships), frozenset(scene.map.names)
    nations = [n.name for n in scene.nations]
    ships = []
    for name, spec in (data.get("ships") or {}).items():
        _known(doc, path + ("ships", name), name, ship_names, "a ship")
        nation = scene.ship(name).nation
        if spec == "sunk":
            ships.append((name, ShipState(name, nation, scene.ship(name).at, sunk=True)))
            continue
        at = _known(doc, path + ("ships", name, "at"), spec["at"], areas, "an area")
        blocker = spec.get("blocked_by", "")
        if blocker:
            _known(doc, path + ("ships", name, "blocked_by"), blocker, ship_names, "a ship")
        ships.append((name, ShipState(name, nation, at, int(spec.get("tokens", 0)), bool(spec.get("blockading")),
                                      blocker)))
    land = []
    for area, counts in (data.get("land") or {}).items():
        _known(doc, path + ("land", area), area, areas, "an area")
        for nation in counts:
            _known(doc, path + ("land", area, nation), nation, nations, "a nation")
        land.append((area, tuple(sorted((n, int(c)) for n, c in counts.items()))))
    removals = []
    for area, steps in (data.get("removals") or {}).items():
        _known(doc, path + ("removals", area), area, areas, "an area")
        removals.append((area, tuple(tuple(step) if isinstance(step, list) else (step,) for step in steps)))
    events = tuple((e["kind"], tuple(e["pieces"])) for e in data.get("events", []))
    return BranchExpect(when, tuple(ships), tuple(land), tuple(removals), events)


def parse_expect(doc: Located, path: tuple, scene: Scene) -> Expectation:
    data = doc.at(path)
    if "branches" in data:
        extra = [k for k in data if k != "branches"]
        if extra:
            raise doc.error(path + (extra[0],), "with branches, every branch says what it expects; "
                                                f"move {extra[0]!r} into them", CaseError, key=True)
        branches = tuple(_branch(doc, path + ("branches", i), b, scene,
                                 _label(doc, path + ("branches", i, "when"), b["when"], scene))
                         for i, b in enumerate(data["branches"]))
        labels = [b.when for b in branches]
        for i, label in enumerate(labels):
            if labels.index(label) != i:
                raise doc.error(path + ("branches", i, "when"), "two branches with the same decisions", CaseError)
        return Expectation(branches, False)
    return Expectation((_branch(doc, path, data, scene, ()),), True)


# --- the writer: scenes and outcomes as case data (Capability.FINDINGS) --------------------


def _n(value: float) -> float | int:
    return int(value) if float(value).is_integer() else value


def map_data(game_map: Map, inline: bool = False) -> dict | str:
    """A map as a case writes it: by name where it has one (unless ``inline``), else its areas."""
    if game_map.name and not inline:
        return game_map.name
    areas = {a.name: {"kind": a.kind, **({"coast": a.coast, "limit": a.limit} if a.kind == LAND else {}),
                      "touches": list(a.touches), "at": [_n(v) for v in a.at],
                      **({"shape": [[_n(x), _n(y)] for x, y in a.shape]} if a.shape else {})}
             for a in game_map.areas}
    return {**({"name": game_map.name} if game_map.name else {}), "areas": areas}


def _stop_data(stop: Stop) -> Any:
    if not (stop.board or stop.drop or stop.take):
        return stop.area
    return {"at": stop.area, **({"board": stop.board} if stop.board else {}),
            **({"drop": stop.drop} if stop.drop else {}), **({"take": dict(stop.take)} if stop.take else {})}


def case_data(scene: Scene, actions: Actions) -> tuple[dict, dict]:
    tokens: dict[str, dict[str, int]] = {}
    for area, nation, count in scene.tokens:
        tokens.setdefault(area, {})[nation] = count
    overland: dict[str, dict[str, int]] = {}
    for area, nation, count in scene.overland:
        overland.setdefault(area, {})[nation] = count
    before = {"map": map_data(scene.map), "options": sorted(scene.options),
              "nations": {n.name: ({"advances": sorted(n.advances)} if n.advances else {}) for n in scene.nations},
              "ships": {s.name: {"nation": s.nation, "at": s.at, **({"tokens": s.aboard} if s.aboard else {})}
                        for s in scene.ships},
              **({"tokens": tokens} if tokens else {}), **({"overland": overland} if overland else {})}
    c = actions.choices
    choices = {k: dict(v) for k, v in (("conflict", c.conflict), ("prevent", c.prevent), ("block", c.block),
                                       ("stop", c.stop)) if v}
    data: dict[str, Any] = {}
    if actions.blockade:
        data["blockade"] = list(actions.blockade)
    if actions.turns:
        data["turns"] = [{"nation": t.nation, **({"moves": [{"ship": m.ship, "path": [_stop_data(s) for s in m.path]}
                                                             for m in t.moves]} if t.moves else {}),
                          **({"lift": list(t.lift)} if t.lift else {})} for t in actions.turns]
    if choices:
        data["choices"] = choices
    return before, data


def _branch_data(scene: Scene, outcome: Outcome, number: int, state) -> dict:
    ships: dict[str, Any] = {}
    for ship in state.ships:
        start = scene.ship(ship.name)
        if ship.sunk:
            ships[ship.name] = "sunk"
        elif (ship.at, ship.aboard, ship.blockading, ship.blocked_by) != (start.at, start.aboard, False, ""):
            ships[ship.name] = {"at": ship.at, **({"tokens": ship.aboard} if ship.aboard else {}),
                                **({"blockading": True} if ship.blockading else {}),
                                **({"blocked_by": ship.blocked_by} if ship.blocked_by else {})}
    start_land: dict[str, dict[str, int]] = {}
    for area, nation, count in scene.tokens:
        start_land.setdefault(area, {})[nation] = count
    land = {}
    for area in sorted(set(start_land) | {a for a, _, _ in state.land}):
        got = state.land_of(area)
        if got != start_land.get(area, {}):
            land[area] = {n: got.get(n, 0) for n in sorted(set(got) | set(start_land.get(area, {})))}
    out: dict[str, Any] = {}
    if ships:
        out["ships"] = ships
    if land:
        out["land"] = land
    if state.removals:
        out["removals"] = {area: [step[0] if len(step) == 1 else list(step) for step in steps]
                           for area, steps in state.removals}
    out["events"] = [{"kind": e.kind, "pieces": list(e.pieces)} for e in outcome.events
                     if e.round == number and e.kind != "remove"]
    return out


def expect_data(scene: Scene, outcome: Outcome) -> dict:
    branches = outcome.after.branches
    if len(branches) == 1:
        return _branch_data(scene, outcome, 1, branches[0].state)
    out = []
    for number, branch in enumerate(branches, 1):
        when: dict[str, dict[str, Any]] = {}
        for kind, key, value in branch.choices:
            when.setdefault(kind, {})[key] = (value == "yes") if kind in ("conflict", "prevent") else value
        out.append({"when": when, **_branch_data(scene, outcome, number, branch.state)})
    return {"branches": out}
