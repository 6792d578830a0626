"""The ruleset registry. Built-in rulesets are listed here; others can register
through the ``verifier.rulesets`` entry-point group."""

from __future__ import annotations

from importlib import import_module
from importlib.metadata import entry_points

from .errors import UnknownRulesetError, did_you_mean, Location
from .ruleset import Ruleset

BUILTIN = {
    "ypp": "verifier.rulesets.ypp:RULESET",
    "scatter": "verifier.rulesets.scatter:RULESET",
}

_loaded: dict[str, Ruleset] = {}


def _targets() -> dict[str, str]:
    targets = dict(BUILTIN)
    for ep in entry_points(group="verifier.rulesets"):
        targets.setdefault(ep.name, ep.value)
    return targets


def names() -> list[str]:
    return sorted(_targets())


def get(key: str, location: Location | None = None) -> Ruleset:
    if key in _loaded:
        return _loaded[key]
    targets = _targets()
    if key not in targets:
        raise UnknownRulesetError(f"unknown ruleset {key!r}; {did_you_mean(key, list(targets))}", location)
    module, _, attr = targets[key].partition(":")
    ruleset = getattr(import_module(module), attr)
    _loaded[key] = ruleset
    return ruleset
