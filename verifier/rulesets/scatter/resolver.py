"""The scatter reference resolver: a pure function from (shot, roll or all rolls,
reading) to an outcome.

Geometry, exactly: the template starts on the line of attack, ``separation``
inches short of the target's centre, and moves ``min(die, cap)`` inches in a
direction whose unit vector is (0, +-1) or (+-sqrt(3)/2, +-1/2). Its squared
distance to the target's centre is then

    separation^2 - 2 * separation * moved * p + moved^2

where p (1, 1/2, -1/2 or -1) is the forward part of the direction, so it is
rational and is compared with the square of (template radius + base radius)
without rounding. The landing spot itself has an x of the form q*sqrt(3).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction
from functools import lru_cache
from itertools import chain
from typing import Any

from ...kept import Kept
from ...kit.hashed import HashedTuple
from ...ruleset import Cause, Decision, Event, NotedReading, Outcome, Ruleset
from ...ruleset import Resolution as _Resolution
from .exact import PlanePoint, QSqrt3, decimal_text, fraction_text
from .model import ALL_ROLLS, DIE_FACES, MIRROR_DIRECTION, ROLLS, Actions, AllRolls, Landing, Odds, Roll, Shot
from .parse import forget_shots

_HALF = Fraction(1, 2)
_R3_HALF = QSqrt3(Fraction(0), _HALF)  # sqrt(3)/2

# Unit vectors of the six directions, numbered clockwise from straight forward.
_CLOCKWISE = {
    1: PlanePoint(QSqrt3.of(0), QSqrt3.of(1)),
    2: PlanePoint(_R3_HALF, QSqrt3.of(_HALF)),
    3: PlanePoint(_R3_HALF, QSqrt3.of(-_HALF)),
    4: PlanePoint(QSqrt3.of(0), QSqrt3.of(-1)),
    5: PlanePoint(-_R3_HALF, QSqrt3.of(-_HALF)),
    6: PlanePoint(-_R3_HALF, QSqrt3.of(_HALF)),
}
# Forward part of each direction, and how many of the six faces share it.
_FORWARD_PARTS = ((2, 1), (1, 2), (-1, 2), (-2, 1))  # (2 * forward part, faces)
_FOLDED_ONTO = {5: 3, 6: 2}
_SIDE_WORDS = {1: "straight on", 2: "60° to the right", 3: "120° to the right", 4: "straight back",
               5: "120° to the left", 6: "60° to the left"}

PIECES = ("template", "target")
# The rolls of each direction face, by distance die; one face after the other, they are ROLLS.
ROLLS_BY_DIRECTION = {direction: tuple(r for r in ROLLS if r.direction == direction) for direction in DIE_FACES}


def direction_vector(direction: int, side: str) -> PlanePoint:
    """The unit vector of a direction face under the ``side`` reading."""
    if side == "folded":
        return _CLOCKWISE[_FOLDED_ONTO.get(direction, direction)]
    vector = _CLOCKWISE[direction]
    return vector.mirrored() if side == "counterclockwise" else vector


def direction_words(direction: int, side: str) -> str:
    """Where a direction face points under the ``side`` reading, in words."""
    if side == "folded":
        onto = _FOLDED_ONTO.get(direction, direction)
        return _SIDE_WORDS[onto] + (f", folded onto {onto}" if onto != direction else "")
    if side == "counterclockwise":
        return _SIDE_WORDS[{2: 6, 3: 5, 5: 3, 6: 2}.get(direction, direction)]
    return _SIDE_WORDS[direction]


def separation(shot: Shot, reading: Mapping[str, str]) -> Fraction:
    """Inches from where deviation starts to the target's centre."""
    short = shot.short_distance
    if short is None:  # aimed at a target in range
        return Fraction(0)
    if reading["distance"] == "edge":
        return short + shot.base_radius
    return short


def cap(shot: Shot, reading: Mapping[str, str]) -> Fraction:
    """The most the template may move under the reading's ``cap``."""
    return shot.from_attacker / 2 if reading["cap"] == "half-distance" else shot.max_deviation


def start_point(shot: Shot, reading: Mapping[str, str]) -> PlanePoint:
    return PlanePoint(QSqrt3.of(0), QSqrt3.of(-separation(shot, reading)))


def attacker_point(shot: Shot, reading: Mapping[str, str]) -> PlanePoint:
    return PlanePoint(QSqrt3.of(0), QSqrt3.of(-separation(shot, reading) - shot.from_attacker))


def land(shot: Shot, roll: Roll, reading: Mapping[str, str]) -> Landing:
    """Where one roll puts the template: the geometry alone, no bookkeeping."""
    # The options are looked up in the order separation, cap and side would look them up.
    distance = reading["distance"] if shot.short_distance is not None else None
    landing = _landed(shot, roll, distance, reading["cap"], _side_for(roll.direction, reading["side"]))
    if landing.touching and reading["touch"] == "hit":  # exactly touching: the touch reading says
        return _touch_hit(landing)
    return landing


def _side_for(direction: int, side: str) -> str:
    """``side`` as far as a direction face's unit vector goes: the faces straight on and straight
    back point the same way under every reading, and 2 and 3 fold onto themselves, so those
    are landed once for every reading that agrees (the landings are equal values)."""
    if direction in (1, 4) or (side == "folded" and direction in (2, 3)):
        return "clockwise"
    return side


@lru_cache(maxsize=4096)
def _landed(shot: Shot, roll: Roll, distance: str | None, capped_by: str, side: str) -> Landing:
    """``placed`` under the reading's options by name: a key of strings hashes far faster than
    one of the fractions the options stand for."""
    reading = {"distance": distance or "centre", "cap": capped_by}
    return _place(shot, roll, separation(shot, reading), cap(shot, reading), side)


# Every reading of a scene lands the same rolls again, most of them with the same start,
# cap and side; the exact arithmetic is the resolver's main cost, so each landing is made once.
@lru_cache(maxsize=2048)
def placed(shot: Shot, roll: Roll, sep: Fraction, limit: Fraction, side: str) -> Landing:
    """The landing from ``sep`` inches short of the base's centre, the move capped at ``limit``,
    the faces turned as the ``side`` reading says: a hit only where the template overlaps
    the base (not where it only touches)."""
    return _place(shot, roll, sep, limit, side)


@lru_cache(maxsize=1024)
def _row(shot: Shot, direction: int, distance: str | None, capped_by: str, side: str) -> tuple[tuple[Landing, ...],
                                                                                                tuple[Any, ...], bool]:
    """The six rolls of one direction face under the options (``side`` as ``_side_for`` gives
    it): their landings (before the touch reading), what they add to the record, in order,
    each part once (``_roll_parts``), and whether any of them touches."""
    reading = {"distance": distance or "centre", "cap": capped_by}
    sep, limit = separation(shot, reading), cap(shot, reading)  # the same for the six
    landings = tuple(_place(shot, roll, sep, limit, side) for roll in ROLLS_BY_DIRECTION[direction])
    folded_side = side if direction in _FOLDED_ONTO else None
    parts: dict[int, tuple[_Note, ...]] = {}
    for landing in landings:
        roll = _rolled(landing)
        capped = roll.distance * limit.denominator > limit.numerator  # landing.capped, in integers
        for part in _roll_parts(shot, roll, capped, landing.touching, folded_side, capped_by if capped else None):
            parts.setdefault(id(part), part)
    return landings, tuple(parts.values()), any(landing.touching for landing in landings)


_DIE = {face: Fraction(face) for face in range(1, 7)}
_ZERO = QSqrt3(Fraction(0), Fraction(0))


# The clockwise face whose unit vector each face takes under each side reading.
_TOWARD = {"clockwise": {face: face for face in DIE_FACES}, "counterclockwise": MIRROR_DIRECTION,
           "folded": {face: _FOLDED_ONTO.get(face, face) for face in DIE_FACES}}
_Spot = tuple[PlanePoint, PlanePoint, Fraction, Fraction, bool, bool]
# A landing's spot (its start, point, squared distances and hit test) depends on the start, the move
# and the way it goes, not on the roll or the readings that lead there: the other side readings
# point the faces along the same six ways, and a cap that does not cut the die moves it alike.
# Keyed by integers, which hash far faster than the fractions they make.
_SPOTS: Kept[tuple[Shot, int, int, int, int, int], _Spot] = Kept(8192)


def _place(shot: Shot, roll: Roll, sep: Fraction, limit: Fraction, side: str) -> Landing:
    die = roll.distance
    moved = _DIE[die] if die * limit.denominator <= limit.numerator else limit
    start, point, distance_squared, start_squared, hit, touching = _kept_spot(shot, sep, moved,
                                                                              _TOWARD[side][roll.direction])
    return Landing(roll, start, point, moved, limit, distance_squared, start_squared, shot.reach, hit, touching)


def _kept_spot(shot: Shot, sep: Fraction, moved: Fraction, toward: int) -> _Spot:
    return _SPOTS.get((shot, sep.numerator, sep.denominator, moved.numerator, moved.denominator, toward),
                      lambda: _spot(shot, sep, moved, toward))


def _spot(shot: Shot, sep: Fraction, moved: Fraction, toward: int) -> _Spot:
    x, y, top, bottom, hit, touching = _spot_numbers(shot, sep, moved, toward)
    start, start_squared = _start(sep)
    point = PlanePoint(QSqrt3(_ZERO.rational, x), QSqrt3(y, _ZERO.root3))
    return start, point, Fraction(top, bottom), start_squared, hit, touching


def _spot_numbers(shot: Shot, sep: Fraction, moved: Fraction,
                  toward: int) -> tuple[Fraction, Fraction, int, int, bool, bool]:
    """The spot's x (a multiple of sqrt(3)) and y, its squared distance as a numerator and a
    denominator, whether it hits (not where it only touches) and whether it touches."""
    # In integers where it can be: each exact fraction made costs a reduction. The clockwise
    # face's unit vector is (x * sqrt(3), p) with x and p rational (x is 0 or +-1/2, p the
    # forward part), so the spot is (x * moved * sqrt(3), moved * p - sep), and
    # |spot|^2 = sep^2 - 2 sep moved p + moved^2, as the sideways sqrt(3)/2 squares to 3/4 and
    # completes p^2 + 3/4 = 1.
    a, b = sep.numerator, sep.denominator
    vector = _CLOCKWISE[toward]
    forward, sideways = vector.y.rational, vector.x.root3
    c, d = moved.numerator, moved.denominator
    e, f = forward.numerator, forward.denominator
    x = Fraction(sideways.numerator * c, sideways.denominator * d)
    y = Fraction(e * c * b - a * f * d, f * d * b)
    top, bottom = a * a * d * d * f - 2 * a * b * c * d * e + c * c * b * b * f, b * b * d * d * f
    reach = shot.reach
    g, h = reach.numerator, reach.denominator
    ahead = top * h * h - g * g * bottom  # the sign of |spot|^2 - reach^2
    return x, y, top, bottom, ahead < 0, ahead == 0


# What the outcome key takes of a spot: its point's key (``PlanePoint.key``), whether it hits
# (not where it only touches) and whether it touches. The reading table needs no more, and
# most of the spots it keys never become a landing.
_Mark = tuple[tuple, bool, bool]
_MARKS: Kept[tuple[Shot, int, int, int, int, int], _Mark] = Kept(8192)


def _kept_mark(shot: Shot, sep: Fraction, moved: Fraction, toward: int) -> _Mark:
    return _MARKS.get((shot, sep.numerator, sep.denominator, moved.numerator, moved.denominator, toward),
                      lambda: _mark(shot, sep, moved, toward))


def _mark(shot: Shot, sep: Fraction, moved: Fraction, toward: int) -> _Mark:
    x, y, _, _, hit, touching = _spot_numbers(shot, sep, moved, toward)
    return HashedTuple((_ZERO.rational, x, y, _ZERO.root3)), hit, touching


@lru_cache(maxsize=256)
def _start(sep: Fraction) -> tuple[PlanePoint, Fraction]:
    """Where the template starts, ``sep`` inches short of the base's centre, and that distance squared."""
    return PlanePoint(_ZERO, QSqrt3(-sep, _ZERO.root3)), sep * sep


def clear_caches() -> None:
    """Forget the landings, notes and shots read that are kept (for benchmarks that time a resolution afresh)."""
    for made in (placed, _landed, _row, _row_entries, _all_entries, _spots_toward, _moves, _caps_differ, _start,
                 _touch_hit, _roll_parts, _shot_part, _side_part, _cap_part, _end_part, _applied, _followed):
        made.cache_clear()
    _MARKS.clear()
    _SPOTS.clear()
    _SHOTS.clear()
    forget_shots()


@lru_cache(maxsize=4096)
def _touch_hit(landing: Landing) -> Landing:
    return replace(landing, hit=True)


def hit_count(shot: Shot, reading: Mapping[str, str]) -> int:
    """How many of the 36 rolls hit, in integer arithmetic (the fast path of the odds).

    Everything is scaled by a common denominator, so the squared distance of each
    roll is an integer polynomial; mirror-image faces share a forward part and so
    are counted together."""
    sep, limit, reach = separation(shot, reading), cap(shot, reading), shot.reach
    scale = math.lcm(sep.denominator, limit.denominator, reach.denominator)
    s = sep.numerator * (scale // sep.denominator)
    reach_sq = (reach.numerator * (scale // reach.denominator)) ** 2
    most = limit.numerator * (scale // limit.denominator)
    touch_hits = reading["touch"] == "hit"
    hits = 0
    for die in range(1, 7):
        m = min(die * scale, most)
        base = s * s + m * m
        for twice_forward, faces in _FORWARD_PARTS:
            d = base - twice_forward * s * m
            if d < reach_sq or (touch_hits and d == reach_sq):
                hits += faces
    return hits


def probability(shot: Shot, reading: Mapping[str, str]) -> Fraction:
    """The exact chance that the deviating template hits, over all 36 rolls."""
    return Fraction(hit_count(shot, reading), 36)


# --- the outcome, with events, provenance and decision points -------------------------


@lru_cache(maxsize=256)
def _applied(clause: str) -> Cause:
    return Cause.applied(clause)


@lru_cache(maxsize=256)
def _followed(point: str, option: str) -> Cause:
    return Cause.followed(point, option)


class _Record:
    """Collects what one resolution noted; never escapes ``resolve``. A cause is known by a
    key of strings (its clause, or its point and option), which hashes faster than the cause."""

    def __init__(self, reading: Mapping[str, str]):
        self.reading = reading
        self.seen: dict[str, dict[Any, Cause]] = {piece: {} for piece in PIECES}
        self.decisions: dict[tuple, Decision] = {}
        self.consulted: set[str] = set()
        self.done: dict[int, tuple[_Note, ...]] = {}  # the parts played, by identity (kept: ids stay theirs)

    def note(self, piece: str, clause: str) -> None:
        self.seen[piece].setdefault(clause, _applied(clause))

    def play(self, parts: tuple[tuple[_Note, ...], ...]) -> None:
        """What the parts add, in order. A part played before adds nothing again (every entry
        is kept only the first time), so each is played once: a roll's parts are shared with
        the other rolls of the shot (``_roll_parts``)."""
        done, reading, seen, decisions, consulted = self.done, self.reading, self.seen, self.decisions, self.consulted
        for part in parts:
            if id(part) in done:
                continue
            done[id(part)] = part
            for kind, piece, key, value in part:
                if kind == "note":
                    seen[piece].setdefault(key, value)
                elif kind == "consult":
                    consulted.add(key)
                    option = reading[key]
                    causes = seen[piece]
                    if (key, option) not in causes:
                        causes[(key, option)] = _followed(key, option)
                else:
                    decisions.setdefault(key, value)


# ("note", piece, clause, its cause), ("consult", piece, point, None) or ("decide", "", key, Decision)
_Note = tuple[str, str, Any, Any]


@lru_cache(maxsize=2048)
def _roll_parts(shot: Shot, roll: Roll, capped: bool, touching: bool, side: str | None,
                capped_by: str | None) -> tuple[tuple[_Note, ...], ...]:
    """What one roll adds to the record, in order, as parts that depend on less than the roll:
    the same for every reading that agrees on the options it depends on (``side`` for a
    direction that folds, ``capped_by`` for a capped move). Each part is made once and shared
    (by the shot, the direction face, the distance die, the end), so that a record plays each
    only once however many rolls share it."""
    return (_shot_part(shot), _side_part(roll.direction, side), _cap_part(shot, roll.distance),
            _end_part(capped, capped_by, touching))


def _note(piece: str, clause: str) -> _Note:
    return ("note", piece, clause, _applied(clause))


def _consult(point: str, piece: str) -> _Note:
    return ("consult", piece, point, None)


def _decide(decision: Decision) -> _Note:
    return ("decide", "", (decision.point, decision.applicable, decision.prescriptions, decision.near), decision)


@lru_cache(maxsize=512)
def _shot_part(shot: Shot) -> tuple[_Note, ...]:
    """The sizes, the aim and the dice: the same for every roll of the shot."""
    notes = [_note("template", "aoe.size"), _note("target", "base.size")]
    short = shot.short_distance
    if short is None:
        notes.append(_note("template", "aim.target"))
    else:
        notes += [_note("template", "aim.short"), _consult("distance", "template"), _decide(Decision(
            "distance", (), (), PIECES, near=("aim.short",),
            detail=f"the shot fell {decimal_text(short, 3)} inches short; the text does not say "
                   f"whether that runs to the base's centre or to its edge"))]
    return tuple(notes + [_note("template", "dev.dist"), _note("template", "dev.dir")])


@lru_cache(maxsize=64)
def _side_part(direction: int, side: str | None) -> tuple[_Note, ...]:
    """Which way the direction face points (``side``: the reading's, for a face that folds)."""
    if direction in (1, 4):
        return ()
    notes = [_consult("side", "template")]
    if direction in _FOLDED_ONTO:
        notes.append(_decide(Decision(
            "side", ("dev.dir", "dev.fold"),
            (f"direction {direction} goes {_SIDE_WORDS[direction]}",
             f"direction {direction} goes where {_FOLDED_ONTO[direction]} goes, "
             f"{_SIDE_WORDS[_FOLDED_ONTO[direction]]}"),
            PIECES, detail=f"direction {direction}: the prose and the code put it on opposite sides")))
        if side == "folded":
            notes.append(_note("template", "dev.fold"))
    else:
        notes.append(_decide(Decision(
            "side", ("dev.dir",), (f"direction {direction} goes to one side",), PIECES,
            detail=f"direction {direction}: nothing says which side of the line of attack it is")))
    return tuple(notes)


@lru_cache(maxsize=1024)
def _cap_part(shot: Shot, die: int) -> tuple[_Note, ...]:
    """Whether the two caps move the template apart for this distance die."""
    half, maximum = shot.from_attacker / 2, shot.max_deviation
    by_half, by_max = min(Fraction(die), half), min(Fraction(die), maximum)
    if by_half == by_max:
        return ()
    return (_consult("cap", "template"), _decide(Decision(
        "cap", ("dev.cap", "dev.max"),
        (f"the template moves {decimal_text(by_half, 3)} inches",
         f"the template moves {decimal_text(by_max, 3)} inches"),
        PIECES, detail=f"a {die} on the distance die, {decimal_text(shot.from_attacker, 3)} inches from "
                       f"the attacker, with a maximum of {decimal_text(maximum, 3)}")))


@lru_cache(maxsize=16)
def _end_part(capped: bool, capped_by: str | None, touching: bool) -> tuple[_Note, ...]:
    """The cap that cut the move down, if one did, and the hit test."""
    notes = [_note("template", "dev.cap" if capped_by == "half-distance" else "dev.max")] if capped else []
    notes.append(_note("target", "hit.overlap"))
    if touching:
        notes += [_consult("touch", "target"), _decide(Decision(
            "touch", (), (), PIECES, near=("hit.overlap",),
            detail="the template's edge exactly meets the base's edge"))]
    return tuple(notes)


def _hit_event(landing: Landing) -> Event:
    what = "touches" if landing.touching else ("overlaps" if landing.hit else "clears")
    detail = (f"centre distance {landing.centre_distance:.4f} in, template + base radius "
              f"{float(landing.reach):.4f} in: {what} the base")
    return Event("hit" if landing.hit else "miss", PIECES, clause="hit.overlap", detail=detail)


def _all_rolls(shot: Shot, reading: Mapping[str, str], record: _Record) -> Odds:
    """The 36 landings, and what they add to ``record``: a face of six rolls at a time
    (``_row``). The options are looked up as ``land`` looks them up for the first roll (the
    distance, the cap, the side), and the touch only where a roll touches."""
    distance = reading["distance"] if shot.short_distance is not None else None
    capped_by, side = reading["cap"], reading["side"]
    rows = [_row(shot, direction, distance, capped_by, _side_for(direction, side)) for direction in DIE_FACES]
    touch_hits = any(touches for _, _, touches in rows) and reading["touch"] == "hit"
    landings: list[Landing] = []
    for row, parts, touches in rows:
        landings += [_touch_hit(landing) if landing.touching else landing for landing in row] if (
            touches and touch_hits) else row
        record.play(parts)
    return Odds(tuple(landings))


# Fuzz resolves the shot it drew and the equal one the adapter read: the memos above, keyed by
# shot, compare a shot met under another object field by field (exact fractions, slowly) at every
# look-up. Each resolution takes the first of equal shots instead, which the memos know by identity.
_SHOTS: Kept[Shot, Shot] = Kept(512)


# An outcome less its reading: after, events, provenance, decisions and consulted points.
_Made = tuple[Odds | Landing, tuple[Event, ...], dict[str, tuple[Cause, ...]], tuple[Decision, ...], frozenset[str]]


def resolve(shot: Shot, actions: Actions, reading: Mapping[str, str]) -> Outcome:
    shot = _SHOTS.get(shot, lambda: shot)
    after, events, provenance, decisions, consulted = _resolved(shot, actions, reading)
    return Outcome(after=after, events=events, provenance=provenance, reading=reading, decisions=decisions,
                   consulted=consulted)


def _resolved(shot: Shot, actions: Actions, reading: Mapping[str, str]) -> _Made:
    """What ``resolve`` gives under ``reading``, but the reading itself."""
    events: tuple[Event, ...]
    after: Odds | Landing
    record = _Record(reading)
    if isinstance(actions, AllRolls):
        odds = after = _all_rolls(shot, reading, record)
        hits, probability = odds.hits, odds.probability
        events = (Event("odds", PIECES, clause="odds.36",
                        detail=f"{hits}/36" + (f" = {fraction_text(probability)}" if probability.denominator != 36
                                               else "")),)
        record.note("target", "odds.36")
    else:
        landing = land(shot, actions, reading)
        events = ()
        if landing.capped:
            events += (Event("capped", ("template",), clause="dev.cap" if reading["cap"] == "half-distance"
                             else "dev.max", detail=f"the die says {actions.distance}, the template moves "
                                                    f"{decimal_text(landing.moved, 3)}"),)
        events += (_hit_event(landing),)
        after = landing
        side = reading["side"] if actions.direction in _FOLDED_ONTO else None
        record.play(_roll_parts(shot, actions, landing.capped, landing.touching, side,
                                reading["cap"] if landing.capped else None))
    return (after, events, {piece: tuple(causes.values()) for piece, causes in record.seen.items()},
            tuple(record.decisions.values()), frozenset(record.consulted))


def _rolled(landing: Landing) -> Roll:
    assert landing.roll is not None  # a landing from land() always has its roll
    return landing.roll


# --- every reading at once: fuzz's reading table --------------------------------------


_Entry = tuple[int, int, tuple, bool]  # a landing's part of the outcome key (explore._landing_key)


@lru_cache(maxsize=512)
def _moves(shot: Shot, distance: str | None, capped_by: str) -> tuple[Fraction, tuple[Fraction, ...]]:
    """Where deviation starts and how far each distance die moves the template, under the options."""
    reading = {"distance": distance or "centre", "cap": capped_by}
    sep, limit = separation(shot, reading), cap(shot, reading)
    return sep, tuple(_DIE[die] if die * limit.denominator <= limit.numerator else limit for die in DIE_FACES)


@lru_cache(maxsize=1024)
def _spots_toward(shot: Shot, distance: str | None, capped_by: str,
                  toward: int) -> tuple[tuple[tuple, bool, bool], ...]:
    """Each distance die's spot moving along clockwise face ``toward`` under the options: its
    point's key, whether it hits (not where it only touches) and whether it touches. Faces
    that point the same way under other side readings share them."""
    sep, moves = _moves(shot, distance, capped_by)
    return tuple(_kept_mark(shot, sep, moved, toward) for moved in moves)


@lru_cache(maxsize=2048)
def _row_entries(shot: Shot, direction: int, distance: str | None, capped_by: str,
                 side: str) -> tuple[tuple[_Entry, ...], tuple[_Entry, ...] | None]:
    """The outcome key's entries of the six rolls of one direction face under the options (``side``
    as ``_side_for`` gives it), in distance order: what ``_row`` lands, read off the spots without
    making the landings; and where one of them touches, the entries under the touch reading "hit"."""
    spots = _spots_toward(shot, distance, capped_by, _TOWARD[side][direction])
    entries = tuple((die, direction, key, hit) for die, (key, hit, _) in zip(DIE_FACES, spots))
    if not any(touching for _, _, touching in spots):
        return entries, None
    return entries, tuple((die, direction, key, True) if touching else entry
                          for die, entry, (key, _, touching) in zip(DIE_FACES, entries, spots))


@lru_cache(maxsize=1024)
def _all_entries(shot: Shot, distance: str | None, capped_by: str,
                 side: str) -> tuple[tuple[_Entry, ...], tuple[_Entry, ...] | None]:
    """The outcome key's entries of all 36 rolls under the options, sorted by roll (distance die
    first, as ``explore.outcome_key`` sorts them: the rows of ``_row_entries`` turned on their
    side); and where one of them touches, the entries under the touch reading "hit"."""
    rows = [_row_entries(shot, direction, distance, capped_by, _side_for(direction, side))
            for direction in DIE_FACES]
    entries = tuple(chain.from_iterable(zip(*[row for row, _ in rows])))
    if all(touched is None for _, touched in rows):
        return entries, None
    return entries, tuple(chain.from_iterable(zip(*[row if touched is None else touched for row, touched in rows])))


@lru_cache(maxsize=512)
def _caps_differ(shot: Shot) -> bool:
    """Whether the two caps move the template apart for some distance die (``_cap_part``)."""
    return any(_cap_part(shot, die) for die in DIE_FACES)


class Resolution(_Resolution):
    """A shot resolved under one full reading as fuzz's reading table walks it (see
    ``verifier.ruleset.Resolution``): the points consulted and the outcome key are worked out
    from the landing spots alone, which the readings of a scene share, and the outcome is
    resolved only when asked for (the table asks for few). They are what ``resolve`` gives:
    the points in the order it first looks them up (distance, cap, side, touch), each where
    its record consults it; the key as ``explore.outcome_key`` makes it."""

    def __init__(self, ruleset: Ruleset, before: Shot, actions: Actions, reading: dict[str, str],
                 shot: Shot | None = None) -> None:
        self.ruleset, self.before, self.actions, self.reading = ruleset, before, actions, reading
        self._shot = shot = _SHOTS.get(before, lambda: before) if shot is None else shot
        short = shot.short_distance is not None
        distance = reading["distance"] if short else None
        if isinstance(actions, AllRolls):
            entries, touched = _all_entries(shot, distance, reading["cap"], reading["side"])
            touches = touched is not None
            self._key = HashedTuple(("all", touched if touched is not None and reading["touch"] == "hit"
                                     else entries))
            capped, turned = _caps_differ(shot), True
        else:
            # As ``land`` lands it: the faces point along the same clockwise face under every
            # side reading that ``_side_for`` makes the same.
            sep, moves = _moves(shot, distance, reading["cap"])
            point, hit, touches = _kept_mark(shot, sep, moves[actions.distance - 1],
                                             _TOWARD[reading["side"]][actions.direction])
            if touches and reading["touch"] == "hit":
                hit = True
            self._key = HashedTuple(("roll", actions.distance, actions.direction, point, hit))
            capped, turned = bool(_cap_part(shot, actions.distance)), actions.direction not in (1, 4)
        self.consulted = tuple(point for point, asked in (("distance", short), ("cap", capped), ("side", turned),
                                                          ("touch", touches)) if asked)

    def outcome(self) -> Outcome:
        return self.ruleset.resolve(self.before, self.actions, NotedReading(self.reading))

    def key(self) -> HashedTuple:
        return self._key

    def under(self, point: str, reading: dict[str, str]) -> Resolution:
        return Resolution(self.ruleset, self.before, self.actions, reading, self._shot)


__all__ = ["ALL_ROLLS", "resolve", "land", "probability", "hit_count", "separation", "cap",
           "direction_vector", "direction_words", "start_point", "attacker_point"]
