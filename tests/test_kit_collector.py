"""The collector's settings come back as they were after a paused or eased block, even when
the block raises."""

import gc

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
