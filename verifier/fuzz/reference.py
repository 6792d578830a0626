"""The reference under every reading: one scene resolved once per combination of the
reading points its outcome consults (a point outside ``Outcome.consulted`` cannot change
it), not once per full reading."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from ..ruleset import Outcome, Ruleset

MAX_RESOLVES = 4096  # reference resolves per scene, whatever the ruleset's reading points

Reading = Mapping[str, str]


@dataclass(frozen=True)
class ReadingTable:
    """The reference outcome key of one scene under every full reading, stored per
    combination of the reading points that matter to it (``points``); the others
    are left at their defaults."""

    order: tuple[str, ...]  # every reading point, in the ruleset's order
    default: tuple[str, ...]
    points: frozenset[str]
    keys: Mapping[tuple[str, ...], Any]
    outcomes: Mapping[Any, Outcome]  # one reference outcome per distinct key

    def project(self, reading: Reading) -> tuple[str, ...]:
        return tuple(reading[p] if p in self.points else d for p, d in zip(self.order, self.default))

    def key(self, reading: Reading) -> Any:
        """The reference key under ``reading``; None where that combination was past
        MAX_RESOLVES and never resolved, which no answer matches."""
        return self.keys.get(self.project(reading))


def reading_table(ruleset: Ruleset, before: Any, actions: Any) -> ReadingTable:
    order = tuple(p.name for p in ruleset.reading_points)
    options = {p.name: tuple(p.options) for p in ruleset.reading_points}
    default = tuple(ruleset.default_reading[p] for p in order)
    points: set[str] = set()
    keys: dict[tuple[str, ...], Any] = {}
    outcomes: dict[Any, Outcome] = {}
    while True:
        relevant = [p for p in order if p in points]
        grown: set[str] = set()
        for combo in itertools.product(*(options[p] for p in relevant)):
            chosen = dict(zip(relevant, combo))
            full = tuple(chosen.get(p, d) for p, d in zip(order, default))
            if full in keys:
                continue
            outcome = ruleset.resolve(before, actions, MappingProxyType(dict(zip(order, full))))
            keys[full] = ruleset.outcome_key(outcome)
            outcomes.setdefault(keys[full], outcome)
            grown |= set(outcome.consulted) - points
            if len(keys) >= MAX_RESOLVES:
                grown = set()
                break
        if not grown:
            return ReadingTable(order, default, frozenset(points), MappingProxyType(keys),
                                MappingProxyType(outcomes))
        points |= grown
