"""Scatter's own resolutions for fuzz's reading table give what plain resolves give."""

from __future__ import annotations

from itertools import product
from random import Random

from verifier.fuzz import reading_table
from verifier.kit.boundary import SIDES, SeededChoices
from verifier.kit.choices import RandomChoices
from verifier.ruleset import NotedReading, Outcome, Resolution
from verifier.rulesets.scatter import RULESET, resolver
from verifier.rulesets.scatter.boundaries import place_touching
from verifier.rulesets.scatter.strategies import scene
from verifier.testing import PlainResolutions, assert_same_table


def _scenes(count: int) -> list:
    """Drawn scenes, and as many moved onto the template's tangency with the base (or a hair off it)."""
    found = []
    for index in range(count):
        before, actions = scene(RandomChoices(Random(index)))
        found.append((before, actions))
        choose = SeededChoices(Random(index))
        placed = place_touching(before, actions, SIDES[index % 3], choose)
        if placed is not None:
            found.append(placed)
    return found


def test_the_reading_table_of_scatter_resolutions_is_the_table_of_plain_resolves():
    touched = capped = 0
    for before, actions in _scenes(150):
        resolver.clear_caches()
        own = reading_table(RULESET, before, actions)
        resolver.clear_caches()
        plain = reading_table(PlainResolutions(RULESET), before, actions)
        assert_same_table(own, plain)
        touched += "touch" in own.points
        capped += "cap" in own.points
    assert touched > 30 and capped > 30


def test_every_reading_gives_the_consulted_points_key_and_outcome_of_a_plain_resolve():
    """Against the generic resolution, and against the resolver's work done afresh under a
    reading that notes the order of its look-ups (the outcomes ``resolve`` keeps are that work)."""
    points = RULESET.reading_points
    for before, actions in _scenes(40):
        for options in product(*(p.options for p in points)):
            reading = dict(zip((p.name for p in points), options))
            own = RULESET.resolution(before, actions, reading)
            plain = Resolution(RULESET, before, actions, reading)
            assert own.consulted == plain.consulted
            assert own.key() == plain.key() and hash(own.key()) == hash(plain.key())
            noted = NotedReading(reading)
            after, events, provenance, decisions, consulted = resolver._resolved(before, actions, noted)
            fresh = Outcome(after, events, provenance, reading=reading, decisions=decisions, consulted=consulted)
            assert own.outcome() == plain.outcome() == fresh
            assert own.consulted == tuple(p for p in noted.asked if p in consulted)
