"""Scene generation that depends on the seed alone.

Hypothesis now and then draws a literal constant found in the source of the modules that
happen to be imported (the "local constants" pool; only modules outside site-packages
count, so an editable install of this package feeds it). Which of our modules are loaded
differs between a command, a test run and a script, so the same seed gave different scenes
in different processes. While generating, the pool is pinned to empty, and the drawing
caches built from it are dropped on the way in and out."""
from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from .kit.choices import RandomChoices, scene_random
from .ruleset import Capability


@contextmanager
def seed_only_generation() -> Iterator[None]:
    try:
        from hypothesis.internal.conjecture import providers
        from hypothesis.internal.constants_ast import Constants
    except ImportError:  # a Hypothesis without the pool: nothing to pin
        yield
        return
    original: Any = getattr(providers, "_get_local_constants", None)
    cache: Any = getattr(providers, "CONSTANTS_CACHE", None)
    if original is None or cache is None:
        yield
        return
    empty = Constants()
    providers._get_local_constants = lambda: empty
    cache.cache.clear()
    try:
        yield
    finally:
        providers._get_local_constants = original
        cache.cache.clear()


def each_scene(strategy: Any, visit: Callable[..., None], *, seed: int, examples: int,
               deadline: float, stop: Callable[[], bool] | None = None) -> bool:
    """Hand ``visit`` every (before, actions) that ``strategy`` draws for ``seed`` (every
    (before, actions, visit) of ``scene_strategy``), up to ``examples`` of them or until
    ``time.perf_counter()`` passes ``deadline`` (or ``stop`` says so); True when it
    stopped early. The same seed and count give the same scenes in any process."""
    from hypothesis import HealthCheck, Phase, Verbosity, given, settings
    from hypothesis import seed as hyp_seed

    class OutOfTime(Exception):
        pass

    @hyp_seed(seed)
    @settings(max_examples=examples, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck), verbosity=Verbosity.quiet, derandomize=False,
              report_multiple_bugs=False)
    @given(strategy)
    def probe(example: tuple[Any, ...]) -> None:
        if time.perf_counter() > deadline or (stop is not None and stop()):
            raise OutOfTime
        visit(*example)

    try:
        with seed_only_generation():
            probe()
    except OutOfTime:
        return True
    return False


# The share of generated scenes that explore and fuzz move onto a ruleset's boundaries by default.
BOUNDARY_SHARE = 0.3


def scene_strategy(ruleset: Any, boundary_share: float = BOUNDARY_SHARE, features: frozenset[str] | None = None) -> Any:
    """The ruleset's strategy with ``boundary_share`` of its scenes moved onto its boundaries
    (where it declares Capability.BOUNDARIES), each example (before, actions, visit): the
    ``kit.boundary.Visit`` of a scene built on a boundary, None for one left as drawn. With
    a share of 0 the scenes are exactly those the strategy draws. ``features``: the optional
    rules an implementation supports (None: all), for a ruleset whose strategy takes them."""
    from .kit.boundary import on_boundaries

    boundaries = tuple(ruleset.boundaries()) if ruleset.supports(Capability.BOUNDARIES) else ()
    strategy = ruleset.strategy() if features is None or not ruleset.features else ruleset.strategy(features)
    return on_boundaries(strategy, boundaries, boundary_share if boundaries else 0.0, tagged=True)


# --- scenes from a seed, without Hypothesis (Capability.SCENES) ---------------------------

def builds_scenes(ruleset: Any) -> bool:
    """Whether the ruleset builds its scenes from choices, so they can be drawn from a seed."""
    return bool(ruleset.supports(Capability.SCENES))


def seeded_scene(ruleset: Any, seed: int, index: int, boundary_share: float = BOUNDARY_SHARE,
                 features: frozenset[str] | None = None, boundaries: tuple[Any, ...] | None = None) -> tuple[Any, ...]:
    """Scene ``index`` of ``seed`` as (before, actions, visit), the ruleset's scene built from a
    ``random.Random`` seeded by the two numbers alone (``kit.choices``): the same in every
    process, whatever was imported or drawn before. ``boundary_share`` of them are moved onto a
    boundary, as ``scene_strategy`` moves them (one chosen at random, then the others in turn,
    then a few further scenes); ``visit`` is the ``kit.boundary.Visit``, None for a scene left
    as built. ``boundaries``: the ruleset's, where the caller has them already."""
    random = scene_random(seed, index)
    choose = RandomChoices(random)
    wanted = features if features is not None and ruleset.features else None
    before, actions = ruleset.scene(choose, wanted)
    if boundaries is None:
        boundaries = tuple(ruleset.boundaries()) if ruleset.supports(Capability.BOUNDARIES) else ()
    if not boundaries or not boundary_share or random.random() >= boundary_share:
        return before, actions, None
    from .kit.boundary import ATTEMPTS, SIDE_WEIGHT, SIDES, land  # here: the kit's geometry loads numpy and shapely
    # Every (boundary, side) pair in turn from one chosen at random, each side as often as its
    # weight says: over many scenes each pair is tried first about equally often, and a scene
    # depends on its seed and index alone (no count of what other scenes visited).
    weighted = [(i, side) for side in SIDES for i in range(len(boundaries)) for _ in range(SIDE_WEIGHT[side])]
    first = random.randrange(len(weighted))
    order = list(dict.fromkeys(weighted[first:] + weighted[:first]))
    drawn = before, actions
    for attempt in range(ATTEMPTS + 1):
        if attempt:
            drawn = ruleset.scene(choose, wanted)
        for i, side in order:
            landed = land(boundaries[i], *drawn, side, choose)
            if landed is not None:
                (moved_before, moved_actions), visit = landed
                return moved_before, moved_actions, visit
    return before, actions, None


def each_generated_scene(ruleset: Any, visit: Callable[[Any, Any, Any], None], *, seed: int, examples: int,
                         deadline: float, boundary_share: float = BOUNDARY_SHARE,
                         stop: Callable[[], bool] | None = None, features: frozenset[str] | None = None) -> bool:
    """Hand ``visit`` each (before, actions, visit) the ruleset generates for ``seed``, up to
    ``examples`` of them or until ``time.perf_counter()`` passes ``deadline`` (or ``stop``
    says so); True when it stopped early. Scenes built from the seed (``seeded_scene``)
    where the ruleset builds them from choices, else drawn by Hypothesis
    (``scene_strategy``); either way the same seed gives the same scenes in any process."""
    if not builds_scenes(ruleset):
        return each_scene(scene_strategy(ruleset, boundary_share, features), visit, seed=seed, examples=examples,
                          deadline=deadline, stop=stop)
    boundaries = tuple(ruleset.boundaries()) if ruleset.supports(Capability.BOUNDARIES) else ()
    for index in range(examples):
        if time.perf_counter() > deadline or (stop is not None and stop()):
            return True
        visit(*seeded_scene(ruleset, seed, index, boundary_share, features, boundaries))
    return False
