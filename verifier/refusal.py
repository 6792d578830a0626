"""Refusals drawn: the picture of a scene whose action the rules forbid, the same for every
ruleset: the ruleset's own drawing of the scene (nothing moved) with a band under it that
names the refusing clause, the pieces and the reason."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .ruleset import Outcome, Refusal, Ruleset


def refusal_words(refusal: Refusal) -> str:
    """What the band says: "REFUSED by move.3 (Falcon): ..."."""
    return "REFUSED" + str(refusal)[len("refused"):]


def draw_outcome(ruleset: Ruleset, before: Any, actions: Any, outcome: Outcome, title: str) -> Any:
    """The case's picture: the ruleset's drawing, and for a refused action the band that marks it.
    An outcome with nothing after it (an implementation's refusal, which sends no state) is drawn
    with the scene as it was, where the ruleset can say what that is (``Ruleset.unchanged``)."""
    from .kit.draw.layout import refusal_band
    refusal = outcome.refusal
    if refusal is None:
        return ruleset.draw(before, actions, outcome, title=title)
    if outcome.after is None:
        outcome = replace(outcome, after=ruleset.unchanged(before, actions))
    return refusal_band(ruleset.draw(before, actions, outcome, title=title), refusal_words(refusal))
