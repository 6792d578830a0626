"""The collector's settings come back as they were after a paused or eased block, even when
the block raises."""

import gc
import weakref

import pytest

from verifier.kit.collector import collector_eased, collector_paused


def test_paused_turns_the_collector_off_and_back_on():
    assert gc.isenabled()
    with pytest.raises(RuntimeError), collector_paused():
        assert not gc.isenabled()
        raise RuntimeError
    assert gc.isenabled()


def test_paused_leaves_a_collector_that_was_off_off():
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_eased_freezes_what_was_there_and_restores_the_thresholds():
    threshold = gc.get_threshold()
    kept = [object() for _ in range(10)]
    with pytest.raises(RuntimeError), collector_eased():
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold()[0] >= 20_000
        raise RuntimeError
    assert gc.get_threshold() == threshold
    assert gc.get_freeze_count() == 0
    assert kept


class _Node:
    def __init__(self) -> None:
        self.other: object = self


def test_eased_freezes_what_outlives_a_collection_and_frees_its_cycles_after_the_block():
    with collector_eased():
        frozen = gc.get_freeze_count()
        cycle = _Node()
        gone = weakref.ref(cycle)
        gc.collect(0)
        assert gc.get_freeze_count() > frozen  # the survivors: not looked at again in the block
        del cycle  # garbage now, but frozen: the collector leaves it until the block ends
        gc.collect()
        assert gone() is not None
    assert gc.get_freeze_count() == 0
    gc.collect()
    assert gone() is None


def test_eased_blocks_nest_and_the_outer_one_restores_everything():
    threshold = gc.get_threshold()
    callbacks = list(gc.callbacks)
    with collector_eased():
        with collector_eased():
            pass
        assert gc.get_freeze_count() > 0  # the inner block's end leaves the outer one's freeze
        assert gc.get_threshold()[0] >= 20_000
    assert gc.get_threshold() == threshold
    assert gc.get_freeze_count() == 0
    assert gc.callbacks == callbacks
