"""Which sources an explorer report's results (``code_digest``) and an exhaustive space's
recorded findings (``bench.analysis_digest``) are keyed by: a change to the drawing, the
pages or another command leaves both valid; a change to a resolver or the analysis does not."""

import pytest

from verifier import bench
from verifier.findings import code_digest, other_rulesets, outside_results, ruleset_package, sources_digest
from verifier.registry import get as get_ruleset


@pytest.mark.parametrize("relative", [
    "docs/page.py", "kit/draw/layout.py", "rulesets/ypp/draw.py", "rulesets/civ/animate.py",
    "fuzz/engine.py", "adapter/session.py", "adapters/reference.py", "check.py", "bench.py",
    "rulesets/armada/bench.py", "pytest_plugin.py",
])
def test_drawing_pages_and_other_commands_are_outside_the_results(relative):
    assert outside_results(relative)


@pytest.mark.parametrize("relative", [
    "explore.py", "generation.py", "findings.py", "ruleset.py", "kit/geometry.py",
    "rulesets/ypp/resolver.py", "rulesets/ypp/clauses.py", "rulesets/scatter/explore.py",
])
def test_the_search_the_analysis_and_the_resolvers_are_in_the_results(relative):
    assert not outside_results(relative)


def test_code_digest_is_the_sources_digest_of_what_results_depend_on():
    assert code_digest() == sources_digest(outside_results)
    assert code_digest() != sources_digest(lambda relative: False)


def test_analysis_digest_leaves_out_the_search_half_of_explore():
    whole = sources_digest(lambda relative: outside_results(relative) or relative in bench._NOT_ANALYSIS)
    assert bench.analysis_digest() != whole  # explore.py counted only up to its search mark
    assert bench.analysis_digest() == sources_digest(
        lambda relative: outside_results(relative) or relative in bench._NOT_ANALYSIS,
        cut={"explore.py": bench.SEARCH_MARK})
    assert bench.analysis_digest() != code_digest()


def test_a_bundled_rulesets_digest_leaves_out_the_other_rulesets():
    ypp = get_ruleset("ypp")
    assert ruleset_package(ypp) == "ypp"
    assert other_rulesets("ypp")("rulesets/civ/resolver.py")
    assert not other_rulesets("ypp")("rulesets/ypp/resolver.py")
    assert not other_rulesets("ypp")("rulesets/__init__.py")
    assert not other_rulesets(None)("rulesets/civ/resolver.py")
    assert code_digest(ypp) == sources_digest(lambda r: outside_results(r) or other_rulesets("ypp")(r))
    assert code_digest(ypp) not in (code_digest(), code_digest(get_ruleset("civ")))
    assert bench.analysis_digest("ypp") != bench.analysis_digest("civ")
