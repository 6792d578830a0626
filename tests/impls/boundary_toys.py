"""Toy implementations that depart from the rules exactly at a boundary, for the boundary
tests of ``verifier fuzz`` (python:boundary_toys:<name>). Each is the reference resolver
with one function of the ruleset swapped while it answers, on its own thread only (the
reference resolves on others at the same time; a ``module:Class`` swaps a method):

- ``touching_overlaps`` (armada): bases that only touch count as overlapping;
- ``tie_by_listing`` (armada): of two overlapped ships at the same range, the one listed
  first in the request takes the damage card;
- ``turn_limit_off`` (armada2k): a step is checked against a turn limit one degree too
  small (the fan of headings it reports is still the rules' own). (One degree too large
  departs the same way past the limit, and exactly at it answers as if touching were
  allowed, which can tip the reading fuzz infers for touching: see issue 26's note);
- ``one_step_too_many`` (armada2k): a move may take one step more than its size allows;
- ``last_step_unchecked`` (armada2k): the last step of a move of several is never checked
  against the other pieces (ships, reefs, flags), so a move goes one step further into a
  piece than the rules allow (its turn and the sea's edge are checked);
- ``tangency_in_doubles`` (scatter): the template's landing is computed in floating point
  and compared with ``<``, so exact tangencies fall either way.
"""

from __future__ import annotations

import importlib
import math
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from verifier.adapters.reference import handle as reference
from verifier.kit.geometry import Contact, classify

_here = threading.local()  # the swaps of the answer being made on this thread
_originals: dict[tuple[str, str], Any] = {}


def _original(module: str, name: str) -> Any:
    """The ruleset's own function (the stand-in put in its place calls it off the toy's thread)."""
    _install(module, name)
    return _originals[(module, name)]


def _install(module: str, name: str) -> None:
    """Put a stand-in in place of ``module``'s ``name`` (once): it calls this thread's swap
    while a toy answers on it, and the original everywhere else. The reference resolves on
    other threads at the same time, so a plain swap would leak into it."""
    if (module, name) in _originals:
        return
    path, _, owner = module.partition(":")
    target = importlib.import_module(path)
    if owner:
        target = getattr(target, owner)
    original = getattr(target, name)

    def stand_in(*args: Any, **kwargs: Any) -> Any:
        swap = getattr(_here, "swaps", {}).get((module, name))
        return (swap or original)(*args, **kwargs)

    _originals[(module, name)] = original
    setattr(target, name, stand_in)


# armada and armada2k keep the outcomes they resolved (their resolvers' memos), which would hand
# the toy's answers to the reference and the reference's to the toy: a toy resolves afresh.
def _fresh(ruleset: str) -> Callable[..., Any]:
    def resolve(scene: Any, actions: Any, reading: Any) -> Any:
        """The reference's resolve without its memo: refused as it refuses, else carried out."""
        from dataclasses import replace
        from types import MappingProxyType

        from verifier.ruleset import Frame, refused_outcome

        resolver = importlib.import_module(f"verifier.rulesets.{ruleset}.resolver")
        refused = resolver.refusal(scene, actions)
        if refused is not None:
            unchanged = resolver.unchanged(scene)
            return replace(refused_outcome(refused, unchanged), reading=MappingProxyType(dict(reading)),
                           frames=(Frame(0, "start", 0, unchanged),))
        return resolver.carry_out(scene, actions, reading)
    return resolve


_AFRESH = {ruleset: {(f"verifier.rulesets.{ruleset}", "resolve"): _fresh(ruleset)}
           for ruleset in ("armada", "armada2k")}


@contextmanager
def _swapped(module: str, name: str, value: Any) -> Iterator[None]:
    ruleset = module.split(".")[2].partition(":")[0]
    swaps = {(module, name): value, **_AFRESH.get(ruleset, {})}
    for where, what in swaps:
        _install(where, what)
    _here.swaps = swaps
    try:
        yield
    finally:
        _here.swaps = {}


def _toy(title: str, swap: Callable[[dict], tuple[str, str, Any]]) -> Callable[[Any], Any]:
    def handle(message: Any) -> Any:
        if isinstance(message, dict) and message.get("type") == "case":
            with _swapped(*swap(message)):
                return reference(message)
        answer = reference(message)
        if isinstance(answer, dict) and answer.get("type") == "hello":
            answer = {**answer, "implementation": {"name": f"boundary toy: {title}"}}
        return answer
    return handle


def _ships_under(board: Any, mover: str, base: Any) -> tuple[str, ...]:
    """The ships a base meets, touching ones too."""
    return tuple(n for n in board.near(base) if n != mover and classify(base, board.ships[n].base) is not Contact.APART)


touching_overlaps = _toy("touching counts as overlapping",
                         lambda message: ("verifier.rulesets.armada.resolver:_Board", "ships_under", _ships_under))


def _listing_tie(message: dict) -> tuple[str, str, Any]:
    listed = list(message["before"]["ships"])
    original = _original("verifier.rulesets.armada.resolver", "_closest")

    def closest(board, base, candidates, reading, log, mover, step):
        chosen, ranges = original(board, base, candidates, {**reading, "closest-tie": "both"}, log, mover, step)
        return (min(chosen, key=listed.index),), ranges

    return "verifier.rulesets.armada.resolver", "_closest", closest


tie_by_listing = _toy("a tie in range goes to the ship listed first", _listing_tie)


def _limit_off(message: dict) -> tuple[str, str, Any]:
    from dataclasses import replace

    from verifier.rulesets.armada2k.geometry import old_piece_limit
    from verifier.rulesets.armada2k.model import ANGLE_TOLERANCE

    original = _original("verifier.rulesets.armada2k.resolver", "check_step")

    def check(ship, heading, world, exclude):
        """The step's meeting with the old piece judged against a limit one degree smaller."""
        found = original(ship, heading, world, exclude)
        limit = old_piece_limit(ship, world.reading) - 1.0
        turn = abs((heading - ship.heading + 180.0) % 360.0 - 180.0)
        old = Contact.APART if turn < limit - ANGLE_TOLERANCE else (
            Contact.TOUCHING if turn <= limit + ANGLE_TOLERANCE else Contact.OVERLAPPING)
        return replace(found, old=old)

    return "verifier.rulesets.armada2k.resolver", "check_step", check


turn_limit_off = _toy("the turn limit one degree off", _limit_off)


def _last_step(message: dict) -> tuple[str, str, Any]:
    from dataclasses import replace

    original = _original("verifier.rulesets.armada2k.resolver", "check_step")
    steps = {a["move"]: len(a.get("steps") or ()) for a in message["actions"] if "move" in a}
    taken: dict[str, int] = {}

    def check(ship, heading, world, exclude):
        """The step as the rules check it, but the last of several meets no other piece."""
        taken[ship.name] = taken.get(ship.name, 0) + 1
        found = original(ship, heading, world, exclude)
        if steps.get(ship.name, 0) > 1 and taken[ship.name] == steps[ship.name]:
            return replace(found, overlapping=(), touching=())
        return found

    return "verifier.rulesets.armada2k.resolver", "check_step", check


last_step_unchecked = _toy("the last step of a move goes unchecked", _last_step)


def _one_more(message: dict) -> tuple[str, str, Any]:
    from dataclasses import replace

    from verifier.rulesets.armada2k.model import MAX_STEPS

    original = _original("verifier.rulesets.armada2k.resolver", "refusal")

    def refusal(scene, actions):
        """The reference's refusals, judged as if each move of one step more than its size
        allows were a step shorter."""
        def most(action):
            return MAX_STEPS[scene.ship(action.ship).size]

        return original(scene, tuple(replace(a, steps=a.steps[:most(a)])
                                     if a.kind == "move" and len(a.steps) == most(a) + 1 else a for a in actions))

    return "verifier.rulesets.armada2k.resolver", "refusal", refusal


one_step_too_many = _toy("one step more than the size allows", _one_more)


def _doubles(message: dict) -> tuple[str, str, Any]:
    from verifier.rulesets.scatter import resolver

    original = _original("verifier.rulesets.scatter.resolver", "land")

    def land(shot, roll, reading):
        exact = original(shot, roll, reading)
        vx, vy = resolver.direction_vector(roll.direction, reading["side"]).floats()
        moved = float(exact.moved)
        x, y = moved * vx, -float(resolver.separation(shot, reading)) + moved * vy
        distance = math.sqrt(x * x + y * y)
        reach = shot.aoe / 2 + shot.base / 25.4 / 2
        hit = distance < reach or (distance == reach and reading["touch"] == "hit")
        return type(exact)(exact.roll, exact.start, exact.point, exact.moved, exact.cap, exact.distance_squared,
                           exact.start_distance_squared, exact.reach, hit, distance == reach)

    return "verifier.rulesets.scatter.resolver", "land", land


tangency_in_doubles = _toy("a tangency judged in doubles", _doubles)
