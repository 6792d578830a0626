"""Fuzz and the explorer run with the cyclic collector eased or paused (``kit.collector``): that
is only cheap while resolving, reading answers and comparing them leave no reference cycles.
A cycle made per scene or per answer (a recursive inner function, a run that holds the list of
runs) costs a collection's scan of everything alive; these tests count what is left."""

import gc

import pytest

from verifier import registry
from verifier.adapter import Session, open_implementation
from verifier.explore import search
from verifier.fuzz import run

REFERENCE = "python:verifier.adapters.reference:handle"


def _cyclic_garbage(work) -> int:
    work(2)  # first imports, schemas and memos: made once, not per scene
    gc.collect()
    gc.disable()
    try:
        work(40)
        return gc.collect()
    finally:
        gc.enable()


@pytest.mark.parametrize("key", registry.names())
def test_fuzzing_through_the_in_process_adapter_leaves_no_cycles(key):
    ruleset = registry.get(key)

    def fuzz(scenes: int) -> None:
        with Session(open_implementation(REFERENCE)) as session:
            assert len(run(ruleset, session, examples=scenes, budget=600.0, seed=scenes).trials) == scenes

    assert _cyclic_garbage(fuzz) == 0


@pytest.mark.parametrize("key", registry.names())
def test_the_explorers_search_leaves_no_cycles(key):
    ruleset = registry.get(key)

    def explore(scenes: int) -> None:
        assert search(ruleset, budget=600.0, seed=scenes, max_examples=scenes).examples == scenes

    assert _cyclic_garbage(explore) == 0
