"""kit.hashed: an outcome key that keeps its hash is still the plain tuple to everyone else."""

from __future__ import annotations

import copy
import pickle
from fractions import Fraction

from verifier.kit.hashed import HashedTuple


def test_a_hashed_tuple_is_equal_to_and_hashed_as_the_plain_tuple():
    plain = ("all", ((1, 2, (Fraction(1, 3), Fraction(0)), True), (2, 5, (Fraction(-7, 2), Fraction(1)), False)))
    key = HashedTuple(plain)
    assert key == plain and plain == key
    assert hash(key) == hash(plain) == hash(key)  # the second time from what was kept
    assert {plain: "found"}[key] == "found" and key in {plain} and plain in {key}
    assert repr(key) == repr(plain)


def test_a_hashed_tuple_travels_as_the_plain_tuple():
    """A string's hash differs from process to process: a kept hash must not be pickled."""
    key = HashedTuple(("roll", 3, 4))
    hash(key)
    for moved in (pickle.loads(pickle.dumps(key)), copy.deepcopy(key), copy.copy(key)):
        assert type(moved) is tuple and moved == ("roll", 3, 4)


def test_a_kept_hash_is_the_hash_of_the_fields_and_does_not_travel():
    """civ's scenes keep their hash: equal values hash alike whether worked out or kept, and a
    pickled or copied scene carries no hash from this process."""
    from verifier.rulesets.civ.explore import HUB
    from verifier.rulesets.civ.model import Actions, Nation, Scene, Ship

    def scene() -> Scene:
        return Scene(HUB, frozenset({"A"}), (Nation("Crete"),), (Ship("c1", "Crete", "Hub"),),
                     (("North Coast", "Crete", 2),))

    first, second = scene(), scene()
    assert hash(first) == hash(first) == hash(second) == hash((HUB, frozenset({"A"}), (Nation("Crete"),),
                                                               (Ship("c1", "Crete", "Hub"),),
                                                               (("North Coast", "Crete", 2),), ()))
    assert {first: "found"}[second] == "found" and hash(Actions()) == hash(Actions())
    for moved in (pickle.loads(pickle.dumps(first)), copy.deepcopy(first), copy.copy(first)):
        assert moved == first and "_kept_hash" not in moved.__dict__ and hash(moved) == hash(first)
