"""The reference under every reading, as a decision tree: one scene resolved under the
default reading, then again only where a reading point it consulted (``Outcome.consulted``)
takes another option, point by point. A point outside a resolution's ``consulted`` cannot
change it, so each leaf of the tree, a path of fixed options, stands for every full reading
that agrees with it: one resolve per distinct decision path, not per combination."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType
from typing import Any

from ..kit.collector import collector_paused
from ..ruleset import Outcome, Resolution, Ruleset

MAX_RESOLVES = 4096  # reference resolves per scene, whatever the ruleset's reading points

Reading = Mapping[str, str]
Path = tuple[tuple[int, str], ...]  # (index of a reading point in the ruleset's order, its option), ascending


def outcome_data(ruleset: Ruleset, outcome: Outcome) -> dict[str, Any]:
    """The outcome's JSON form; a refusal as the one field that says which clause refused."""
    if outcome.refusal is not None:
        return {"refused": outcome.refusal.clause or "?"}
    return ruleset.outcome_json(outcome)


@dataclass(frozen=True)
class ReadingTable:
    """The reference outcome key of one scene under every full reading: per leaf of the
    decision tree (``keys``: the options fixed on its path, by point index, and the key),
    the leaves together covering every reading once."""

    order: tuple[str, ...]  # every reading point, in the ruleset's order
    default: tuple[str, ...]
    points: frozenset[str]  # the points some resolution of the scene consulted
    keys: Mapping[Path, Any]
    outcomes: Mapping[Any, Outcome]  # one reference outcome per distinct key, made when first asked for
    default_key: Any = None  # the key under the default reading, where the walk that made the table knows it

    @cached_property
    def fixed_points(self) -> tuple[str, ...]:
        """The points some leaf fixes, in the ruleset's order: readings that agree on these share a leaf."""
        return tuple(self.order[i] for i in sorted({i for path in self.keys for i, _ in path}))

    @cached_property
    def _tree(self) -> _Split | Path | None:
        """The leaves as a tree to walk down (see ``_branched``)."""
        return _branched(list(self.keys), frozenset())

    def leaf(self, reading: Reading) -> Path | None:
        """The one leaf whose path ``reading`` agrees with (None: none, past MAX_RESOLVES)."""
        node = self._tree
        while isinstance(node, _Split):
            node = node.below.get(reading[self.order[node.point]])
        if node is None or any(reading[self.order[i]] != option for i, option in node):
            return None
        return node

    @cached_property
    def key_ids(self) -> tuple[dict[Path, int], dict[Any, int]]:
        """Each leaf's key as a small number (equal keys, the same number), and the numbers by
        key: a key may be a large value (fractions, nested tuples), hashed each time it is
        looked up, so those who compare the leaves of one scene many times compare numbers."""
        ids: dict[Any, int] = {}
        return {path: ids.setdefault(key, len(ids)) for path, key in self.keys.items()}, ids

    @cached_property
    def default_reading(self) -> dict[str, str]:
        return dict(zip(self.order, self.default))

    def key(self, reading: Reading) -> Any:
        """The reference key under ``reading``; None where its decision path was past
        MAX_RESOLVES and never resolved, which no answer matches."""
        if self.default_key is not None and reading == self.default_reading:  # most asked for: no tree walked
            return self.default_key
        path = self.leaf(reading)
        return None if path is None else self.keys[path]


class _Outcomes(Mapping[Any, Outcome]):
    """A reading table's outcomes, one per distinct key, each made from its resolution
    when first asked for: most answers are held against one of them (the one under the
    reading the request names), and a ruleset whose resolution knows its key before its
    outcome (ypp's) need not make the others."""

    __slots__ = ("_by_key", "_made")

    def __init__(self, by_key: dict[Any, Resolution]) -> None:
        self._by_key = by_key
        self._made: dict[Any, Outcome] = {}

    def __getitem__(self, key: Any) -> Outcome:
        made = self._made.get(key)
        if made is None:
            made = self._made[key] = self._by_key[key].outcome()
        return made

    def __contains__(self, key: object) -> bool:
        return key in self._by_key

    def __iter__(self) -> Iterator[Any]:
        return iter(self._by_key)

    def __len__(self) -> int:
        return len(self._by_key)


@dataclass(frozen=True)
class _Split:
    point: int  # the index of a point every leaf below fixes
    below: dict[str, _Split | Path | None]  # per option of it, the leaves that fix that option


def _branched(paths: list[Path], taken: frozenset[int]) -> _Split | Path | None:
    """``paths`` (leaves that agree on the points ``taken``) as a tree to walk down: one path
    alone, or a split on a point every path fixes (besides ``taken``), a subtree per option.
    Such a point exists: the tree's own branching point nearest the root below which all of
    ``paths`` lie is fixed by each of them and not among ``taken``, and since the leaves
    cover disjoint sets of readings, splitting on any point they all fix loses none."""
    return _split([(path, dict(path)) for path in paths], taken)


def _split(leaves: list[tuple[Path, dict[int, str]]], taken: frozenset[int]) -> _Split | Path | None:
    """``_branched`` of the leaves, each with its options by point."""
    if not leaves:
        return None
    if len(leaves) == 1:
        return leaves[0][0]
    common = set(leaves[0][1]).intersection(*[fixed for _, fixed in leaves[1:]])
    common.difference_update(taken)
    point = min(common)
    below: dict[str, list[tuple[Path, dict[int, str]]]] = {}
    for leaf in leaves:
        group = below.get(leaf[1][point])
        if group is None:
            below[leaf[1][point]] = [leaf]
        else:
            group.append(leaf)
    taken = taken | {point}
    return _Split(point, {option: _split(group, taken) for option, group in below.items()})


def reading_table(ruleset: Ruleset, before: Any, actions: Any) -> ReadingTable:
    with collector_paused():
        return _reading_table(ruleset, before, actions)


def _reading_table(ruleset: Ruleset, before: Any, actions: Any) -> ReadingTable:
    order = tuple(p.name for p in ruleset.reading_points)
    index = {name: i for i, name in enumerate(order)}
    options = {p.name: tuple(p.options) for p in ruleset.reading_points}
    default = tuple(p.default for p in ruleset.reading_points)
    points: set[str] = set()
    keys: dict[Path, Any] = {}
    resolutions: dict[Any, Resolution] = {}  # the first of each key, whose outcome the table gives
    resolves = 0

    # Depth first: a path fixes some points; the resolution under the path (the others at
    # their defaults) is carried down the branch that keeps its options, so each leaf is
    # resolved once. A resolution branches first on the point the resolver consulted first
    # (fewer leaves than any fixed order: a later point is only branched on where the
    # earlier choice leads to it); one under another option of that point is the one it
    # branched from, resolved again with that option (``Resolution.under``).
    # Each entry: the points fixed, with their options; the full reading; the resolution
    # under it, or (None) the one to resolve again from and the point whose option changed.
    stack: list[tuple[dict[str, str], dict[str, str], Resolution | None, tuple[Resolution, str] | None]]
    default_reading = dict(zip(order, default))
    default_key = None
    stack = [({}, default_reading, None, None)]
    while stack:
        fixed, reading, known, parent = stack.pop()
        if known is None:
            if resolves >= MAX_RESOLVES:
                continue
            resolves += 1
            known = ruleset.resolution(before, actions, reading) if parent is None else \
                parent[0].under(parent[1], reading)
        consulted = known.consulted
        points.update(consulted)
        for point in consulted:
            if point not in fixed:
                break
        else:  # a leaf
            keys[tuple(sorted([(index[p], option) for p, option in fixed.items()]))] = key = known.key()
            if reading is default_reading:  # every option on its path is the default (the dict is passed down)
                default_key = key
            if key not in resolutions:
                resolutions[key] = known
            continue
        taken = reading[point]
        for option in reversed(options[point]):
            if option == taken:
                stack.append(({**fixed, point: option}, reading, known, None))
            else:
                stack.append(({**fixed, point: option}, {**reading, point: option}, None, (known, point)))
    return ReadingTable(order, default, frozenset(points), MappingProxyType(keys), _Outcomes(resolutions), default_key)
