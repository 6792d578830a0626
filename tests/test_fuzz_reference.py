"""The reference under every reading is a decision tree: one resolve per leaf."""

import itertools

import pytest

from verifier import registry
from verifier.fuzz import reading_table


class CountingResolves:
    """A ruleset that counts its resolves, and the resolutions the reading table has it make
    (the first of a scene, and each under another option), and otherwise is the one it wraps."""

    def __init__(self, ruleset):
        self.ruleset, self.resolves = ruleset, 0

    def resolve(self, before, actions, reading):
        self.resolves += 1
        return self.ruleset.resolve(before, actions, reading)

    def resolution(self, before, actions, reading):
        self.resolves += 1
        return CountedResolution(self, self.ruleset.resolution(before, actions, reading))

    def __getattr__(self, name):
        return getattr(self.ruleset, name)


class CountedResolution:
    def __init__(self, counting, resolution):
        self.counting, self.resolution = counting, resolution
        self.consulted = resolution.consulted

    def outcome(self):
        return self.resolution.outcome()

    def key(self):
        return self.resolution.key()

    def under(self, point, reading):
        self.counting.resolves += 1
        return CountedResolution(self.counting, self.resolution.under(point, reading))


@pytest.mark.parametrize("key", ["ypp", "armada2k"])
def test_each_decision_path_is_resolved_once_and_the_leaves_cover_every_reading_once(key):
    ruleset = registry.get(key)
    size, scenes = ruleset.exhaustive_space(next(iter(ruleset.exhaustive_spaces())))
    readings = ruleset.all_readings()
    branched = 0
    for before, actions in itertools.islice(scenes, 0, None, max(1, size // 60)):
        counting = CountingResolves(ruleset)
        table = reading_table(counting, before, actions)
        assert counting.resolves == len(table.keys)
        branched += len(table.keys) > 1
        covering = [sum(all(r[table.order[i]] == o for i, o in path) for path in table.keys) for r in readings]
        assert covering == [1] * len(readings)
        # The leaf found by walking down the tree is the one leaf each reading agrees with.
        agreeing = [next(path for path in table.keys if all(r[table.order[i]] == o for i, o in path))
                    for r in readings]
        assert [table.leaf(r) for r in readings] == agreeing
        # Fewer resolves than the combinations of the points the scene consults.
        combinations = 1
        for point in ruleset.reading_points:
            if point.name in table.points:
                combinations *= len(point.options)
        assert len(table.keys) <= combinations
    assert branched > 0


def test_a_reading_whose_leaf_was_never_resolved_has_no_leaf_and_no_key():
    from types import MappingProxyType

    from verifier.fuzz.reference import ReadingTable

    ruleset = registry.get("ypp")
    size, scenes = ruleset.exhaustive_space(next(iter(ruleset.exhaustive_spaces())))
    table = next(t for t in (reading_table(ruleset, b, a) for b, a in scenes) if len(t.keys) > 2)
    dropped = next(iter(table.keys))
    cut = ReadingTable(table.order, table.default, table.points,
                       MappingProxyType({p: k for p, k in table.keys.items() if p != dropped}), table.outcomes)
    for reading in ruleset.all_readings():
        inside = all(reading[table.order[i]] == o for i, o in dropped)
        assert (cut.leaf(reading) is None) == inside and (cut.key(reading) is None) == inside
        if not inside:
            assert cut.key(reading) == table.key(reading)
