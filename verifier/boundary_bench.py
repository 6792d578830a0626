"""The ``boundaries`` suite of ``verifier bench``: for every ruleset that names boundaries,
how many scenes a second the kit builds on them (on, just below and just above, from the
ruleset's own generated scenes), and how long the explorer's search at the default
boundary share takes to its first finding from a boundary scene."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from . import registry
from .ruleset import BenchSettings, BenchSuite, Capability

SECONDS = 3.0  # per ruleset, for building scenes
QUICK_SECONDS = 0.5
SEARCH_BUDGET = 30.0  # seconds the search may take to find something on a boundary
QUICK_SEARCH_BUDGET = 5.0


def building(ruleset: Any, seconds: float, seed: int = 0) -> dict[str, Any]:
    """Scenes built on the ruleset's boundaries in ``seconds``: drawn scenes, each moved onto
    every boundary on a side drawn with it; how many were built, how many drawn scenes could
    not be moved onto a given boundary, and the rate per boundary."""
    from hypothesis import strategies as st

    from .generation import each_scene
    from .kit.boundary import SIDES, land
    from .kit.choices import HypothesisChoices

    boundaries = tuple(ruleset.boundaries())
    built = dict.fromkeys((b.name for b in boundaries), 0)
    tried = dict.fromkeys((b.name for b in boundaries), 0)
    spent = dict.fromkeys((b.name for b in boundaries), 0.0)

    @st.composite
    def attempts(draw: Any) -> tuple[Any, Any]:
        before, actions = draw(ruleset.strategy())
        side = draw(st.sampled_from(SIDES))
        for boundary in boundaries:
            start = time.perf_counter()
            landed = land(boundary, before, actions, side, HypothesisChoices(draw))
            spent[boundary.name] += time.perf_counter() - start
            tried[boundary.name] += 1
            built[boundary.name] += landed is not None
        return before, actions

    start = time.perf_counter()
    each_scene(attempts(), lambda before, actions: None, seed=seed, examples=10 ** 6, deadline=start + seconds)
    total = sum(spent.values())
    return {
        "scenes_built": sum(built.values()), "seconds": round(total, 3),
        "per_second": round(sum(built.values()) / total, 1) if total else None,
        "boundaries": {name: {"built": built[name], "tried": tried[name],
                              "per_second": round(built[name] / spent[name], 1) if spent[name] else None}
                       for name in built},
    }


def first_finding(ruleset: Any, budget: float, seed: int = 0) -> dict[str, Any]:
    """The explorer's search at the default share: seconds and scenes to its first finding
    from a boundary scene (None if none came within ``budget``)."""
    from .explore import search
    from .generation import BOUNDARY_SHARE

    result = search(ruleset, budget=budget, seed=seed, max_examples=10 ** 6)
    from_boundaries = sorted((result.first_seen[f], f, visit) for f, visit in result.from_boundaries.items())
    first = from_boundaries[0] if from_boundaries else None
    return {"share": BOUNDARY_SHARE, "scenes": result.examples, "seconds": round(result.seconds, 2),
            "on_boundaries": result.boundaries.get("on_boundaries", 0),
            "findings": len(result.findings), "from_boundaries": len(result.from_boundaries),
            "first_seconds": round(first[0], 3) if first else None,
            "first": f"{first[1]} from {first[2]}" if first else None}


def run(settings: BenchSettings) -> Mapping[str, Any]:
    from .kit.bench import progress

    figures: dict[str, Any] = {}
    for ruleset in registry.all_rulesets():
        if not (ruleset.supports(Capability.BOUNDARIES) and ruleset.supports(Capability.SEARCH)):
            continue
        progress(f"building {ruleset.key} boundary scenes ...")
        built = building(ruleset, QUICK_SECONDS if settings.quick else SECONDS)
        progress(f"searching {ruleset.key} for a first finding on a boundary ...")
        figures[ruleset.key] = {"building": built,
                                "search": first_finding(ruleset, QUICK_SEARCH_BUDGET if settings.quick
                                                        else SEARCH_BUDGET)}
    return figures


def table(figures: Mapping[str, Any]) -> str:
    from .kit.bench import format_rows

    rows = []
    for key, entry in figures.items():
        built, found = entry["building"], entry["search"]
        rows.append((f"{key} boundary scenes built", f"{built['per_second']}/s",
                     f"{built['scenes_built']} in {built['seconds']} s: "
                     + ", ".join(f"{n} {b['built']}/{b['tried']}" for n, b in built["boundaries"].items())))
        first = f"{found['first_seconds']} s" if found["first_seconds"] is not None else "none"
        rows.append((f"{key} first boundary finding", first,
                     f"{found['from_boundaries']} of {found['findings']} findings from boundaries in "
                     f"{found['scenes']} scenes ({found['on_boundaries']} on boundaries)"
                     + (f"; first {found['first']}" if found["first"] else "")))
    return format_rows(rows)


def suite() -> BenchSuite:
    return BenchSuite("boundaries", "scenes built per second on every ruleset's boundaries, and the seconds the "
                                    "explorer takes to its first finding from a boundary scene", run, table)
