"""One drawing options type for every ruleset: each drawing either honours an option of
``DrawOptions`` (the picture changes) or refuses it with UnsupportedOptionError, a sentence
naming the option and the ruleset. None is dropped without a word."""

from __future__ import annotations

from pathlib import Path

import pytest

from verifier import registry
from verifier.case import load_case
from verifier.errors import UnsupportedError
from verifier.ruleset import (
    DRAW_OPTION_NAMES,
    DRAWING_METHODS,
    Capability,
    DrawOptions,
    Ruleset,
    UnsupportedOptionError,
)

CASES = Path(__file__).resolve().parent.parent / "cases"

# A value other than the default for each option; places are ypp tiles (only ypp honours them).
ASKED = {
    "title": "A title asked for by the test",
    "subtitle": "A subtitle asked for by the test",
    "legend": False,
    "font_size": 17,
    "supersample": 1,
    "max_width": 300,
    "highlight": ((0, 0),),
    "arrows": (((0, 0), (2, 0)),),
}

METHODS = {"draw": None, "draw_readings": Capability.FINDINGS, "draw_frames": Capability.FRAMES,
           "draw_narrow": Capability.NARROW}


def _first_case(rs: Ruleset):
    """The first bundled case of ``rs`` whose resolution animates (any case without frames)."""
    first = None
    for path in sorted((CASES / rs.key).rglob("*.yaml")):
        case = load_case(path)
        outcome = rs.resolve(case.before, case.actions, case.readings)
        first = first or (case, outcome)
        if not rs.supports(Capability.FRAMES) or rs.draw_frames(case.before, case.actions, outcome):
            return case, outcome
    assert first is not None
    return first


def _picture(rs: Ruleset, method: str, case, outcome, options: DrawOptions):
    panels = [("Before", None), ("After", outcome)]
    if method == "draw":
        return rs.draw(case.before, case.actions, outcome, options)
    if method == "draw_readings":
        return rs.draw_readings(case.before, case.actions, panels, options)
    if method == "draw_narrow":
        return rs.draw_narrow(case.before, case.actions, panels, options)
    return rs.draw_frames(case.before, case.actions, outcome, options)[0].image


def test_every_option_is_listed_with_a_value_to_ask_for():
    assert set(ASKED) == set(DRAW_OPTION_NAMES) and set(METHODS) == set(DRAWING_METHODS)
    assert all(DrawOptions(**{name: value}).asked() == {name: value} for name, value in ASKED.items())
    assert DrawOptions().asked() == {}


@pytest.mark.parametrize("key", ["armada", "armada2k", "civ", "scatter", "ypp"])
def test_each_drawing_honours_or_refuses_each_option(key):
    rs = registry.get(key)
    case, outcome = _first_case(rs)
    for method, capability in METHODS.items():
        if capability is not None and not rs.supports(capability):
            continue
        honoured = rs.draw_options.get(method, frozenset())
        assert "title" in honoured and honoured <= set(DRAW_OPTION_NAMES), f"{key}.{method}: {sorted(honoured)}"
        plain = _picture(rs, method, case, outcome, DrawOptions())
        for name, value in ASKED.items():
            options = DrawOptions(**{name: value})
            if name in honoured:
                asked = _picture(rs, method, case, outcome, options)
                assert asked.tobytes() != plain.tobytes() or asked.size != plain.size, \
                    f"{key}.{method} says it honours {name} but draws the same picture"
            else:
                with pytest.raises(UnsupportedOptionError) as refused:
                    _picture(rs, method, case, outcome, options)
                message = str(refused.value)
                assert f"{name!r}" in message and f"{key!r}" in message and method in message, message


def test_options_may_be_named_by_keyword_and_unknown_names_are_refused():
    rs = registry.get("armada")
    case, outcome = _first_case(rs)
    by_keyword = rs.draw(case.before, case.actions, outcome, title="Named")
    by_options = rs.draw(case.before, case.actions, outcome, DrawOptions(title="Named"))
    assert by_keyword.tobytes() == by_options.tobytes()
    with pytest.raises(UnsupportedOptionError, match=r"'tile', which is not a drawing option"):
        rs.draw(case.before, case.actions, outcome, tile=48)
    with pytest.raises(UnsupportedOptionError, match=r"ruleset 'armada' cannot honour the drawing option 'highlight'"):
        rs.draw(case.before, case.actions, outcome, highlight=((0, 0),))


def test_an_unsupported_option_is_an_unsupported_error():
    """Commands that already say UnsupportedError in one line say this one too."""
    assert issubclass(UnsupportedOptionError, UnsupportedError)


def test_a_highlight_outlines_ypp_tiles():
    rs = registry.get("ypp")
    case, outcome = _first_case(rs)
    plain = rs.draw(case.before, case.actions, outcome)
    outlined = rs.draw(case.before, case.actions, outcome, highlight=((0, 0),))
    assert outlined.tobytes() != plain.tobytes() or outlined.size != plain.size
