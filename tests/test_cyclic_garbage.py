"""Fuzz and the explorer run with the cyclic collector eased or paused (``kit.collector``): that
is only cheap while resolving, reading answers and comparing them leave no reference cycles.
A cycle made per scene or per answer (a recursive inner function, a run that holds the list of
runs) costs a collection's scan of everything alive; these tests count what is left."""

import gc
import types

import pytest

from verifier import registry
from verifier.adapter import Session, open_implementation
from verifier.explore import search
from verifier.fuzz import run

REFERENCE = "python:verifier.adapters.reference:handle"


def _cyclic_garbage(work) -> int:
    """How many of the objects only the collector could free after ``work(40)`` are verifier's
    own (its functions, and instances of its classes): a cycle holds at least one of them,
    while cycles that other threads of the test process make (xdist's) are left out."""
    work(2)  # first imports, schemas and memos: made once, not per scene
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        work(40)
        gc.collect()
        return sum(1 for item in gc.garbage if _ours(item))
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


def _ours(item) -> bool:
    module = item.__module__ if isinstance(item, types.FunctionType) else type(item).__module__
    return isinstance(module, str) and module.split(".")[0] == "verifier"


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
