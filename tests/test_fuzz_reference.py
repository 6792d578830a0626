"""The reference under every reading is a decision tree: one resolve per leaf."""

import itertools

import pytest

from verifier import registry
from verifier.fuzz import reading_table


class CountingResolves:
    """A ruleset that counts its resolves and otherwise is the one it wraps."""

    def __init__(self, ruleset):
        self.ruleset, self.resolves = ruleset, 0

    def resolve(self, before, actions, reading):
        self.resolves += 1
        return self.ruleset.resolve(before, actions, reading)

    def __getattr__(self, name):
        return getattr(self.ruleset, name)


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
        # Fewer resolves than the combinations of the points the scene consults.
        combinations = 1
        for point in ruleset.reading_points:
            if point.name in table.points:
                combinations *= len(point.options)
        assert len(table.keys) <= combinations
    assert branched > 0
