"""Explorer benchmark: the exhaustive two-ship space, and how soon the Hypothesis
search finds each class of finding that the exhaustive run finds."""

from __future__ import annotations

from . import registry
from .explore import exhaustive, search


def run(quick: bool = False, key: str = "ypp", budget: float = 60.0, seed: int = 0) -> list[tuple[str, str]]:
    ruleset = registry.get(key)
    rows: list[tuple[str, str]] = []
    if quick:
        budget = min(budget, 5.0)
        result = search(ruleset, budget=budget, seed=seed, max_examples=200)
        rows.append((f"{key} search: scenes / s", f"{result.examples / max(result.seconds, 1e-9):,.0f}"))
        rows.append((f"{key} search: classes found in {result.seconds:.1f} s", str(len(result.findings))))
        return rows
    space = exhaustive(ruleset)
    rows.append((f"{key} exhaustive: scenes", f"{space.scenes:,}"))
    rows.append((f"{key} exhaustive: total time ({space.workers} processes)", f"{space.seconds:.1f} s"))
    rows.append((f"{key} exhaustive: scenes / s", f"{space.scenes / space.seconds:,.0f}"))
    rows.append((f"{key} exhaustive: finding classes", str(len(space.counts))))
    found = search(ruleset, budget=budget, seed=seed, max_examples=10 ** 7)
    rows.append((f"{key} search: scenes in {found.seconds:.1f} s", f"{found.examples:,}"))
    missed = []
    for fingerprint in space.counts:
        if fingerprint in found.first_seen:
            rows.append((f"  first found: {fingerprint}", f"{found.first_seen[fingerprint]:.2f} s"))
        else:
            missed.append(fingerprint)
            rows.append((f"  first found: {fingerprint}", f"not within {budget:g} s"))
    share = (len(space.counts) - len(missed)) / max(len(space.counts), 1)
    rows.append((f"{key} search recall against exhaustive classes", f"{share:.0%}"))
    slowest = max((found.first_seen[f] for f in space.counts if f in found.first_seen), default=0.0)
    rows.append((f"{key} slowest class to find", f"{slowest:.2f} s"))
    return rows
