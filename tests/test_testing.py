"""The ruleset contract suite (verifier.testing, shipped with the package) over every
registered ruleset and its bundled cases. The out-of-tree ruleset in tests/plugins runs it
through the shipped entry, as another package would (tests/test_registry.py)."""

from __future__ import annotations

from conftest import CASES

from verifier import registry
from verifier.testing import *  # noqa: F403  the suite's tests and their parametrisation

CONTRACT_RULESETS = registry.names()
CONTRACT_CASES = [CASES]

# Breaches of the contract this suite found that are not fixed yet, by ruleset. Strict:
# once one is fixed its test passes, fails as XPASS, and the entry must go.
CONTRACT_KNOWN_BREACHES: dict[str, str] = {}
