"""The reference under every reading, as a decision tree: one scene resolved under the
default reading, then again only where a reading point it consulted (``Outcome.consulted``)
takes another option, point by point. A point outside a resolution's ``consulted`` cannot
change it, so each leaf of the tree, a path of fixed options, stands for every full reading
that agrees with it: one resolve per distinct decision path, not per combination."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from ..ruleset import Outcome, Ruleset

MAX_RESOLVES = 4096  # reference resolves per scene, whatever the ruleset's reading points

Reading = Mapping[str, str]
Path = tuple[tuple[int, str], ...]  # (index of a reading point in the ruleset's order, its option), ascending


@dataclass(frozen=True)
class ReadingTable:
    """The reference outcome key of one scene under every full reading: per leaf of the
    decision tree (``keys``: the options fixed on its path, by point index, and the key),
    the leaves together covering every reading once."""

    order: tuple[str, ...]  # every reading point, in the ruleset's order
    default: tuple[str, ...]
    points: frozenset[str]  # the points some resolution of the scene consulted
    keys: Mapping[Path, Any]
    outcomes: Mapping[Any, Outcome]  # one reference outcome per distinct key

    def leaf(self, reading: Reading) -> Path | None:
        for path in self.keys:
            if all(reading[self.order[i]] == option for i, option in path):
                return path
        return None

    def key(self, reading: Reading) -> Any:
        """The reference key under ``reading``; None where its decision path was past
        MAX_RESOLVES and never resolved, which no answer matches."""
        path = self.leaf(reading)
        return None if path is None else self.keys[path]


def reading_table(ruleset: Ruleset, before: Any, actions: Any) -> ReadingTable:
    order = tuple(p.name for p in ruleset.reading_points)
    index = {name: i for i, name in enumerate(order)}
    options = [tuple(p.options) for p in ruleset.reading_points]
    default = tuple(ruleset.default_reading[p] for p in order)
    points: set[str] = set()
    keys: dict[Path, Any] = {}
    outcomes: dict[Any, Outcome] = {}
    resolves = 0

    def resolved(full: tuple[str, ...]) -> Outcome | None:
        nonlocal resolves
        if resolves >= MAX_RESOLVES:
            return None
        resolves += 1
        return ruleset.resolve(before, actions, MappingProxyType(dict(zip(order, full))))

    # Depth first: a path fixes some points; the resolution under the path (the others at
    # their defaults) is carried down the branch that keeps its options, so each leaf is
    # resolved once.
    stack: list[tuple[dict[int, str], Outcome | None]] = [({}, None)]
    while stack:
        fixed, outcome = stack.pop()
        full = tuple(fixed.get(i, d) for i, d in enumerate(default))
        if outcome is None:
            outcome = resolved(full)
            if outcome is None:
                continue
        points |= {p for p in outcome.consulted if p in index}
        free = sorted(index[p] for p in outcome.consulted if p in index and index[p] not in fixed)
        if not free:
            key = ruleset.outcome_key(outcome)
            keys[tuple(sorted(fixed.items()))] = key
            outcomes.setdefault(key, outcome)
            continue
        point = free[0]
        for option in reversed(options[point]):
            stack.append(({**fixed, point: option}, outcome if option == full[point] else None))
    return ReadingTable(order, default, frozenset(points), MappingProxyType(keys), MappingProxyType(outcomes))
