"""The ruleset registry: every ruleset, built in or not, is found through the
``verifier.rulesets`` entry-point group. The core keeps no list of its own."""

from __future__ import annotations

import copyreg
import sys
from typing import TYPE_CHECKING, Any

from .errors import Location, UnknownRulesetError, VerifierError, did_you_mean

if TYPE_CHECKING:  # the metadata reader and the value types are imported when first needed, not at start
    from importlib.metadata import EntryPoint

    from .ruleset import Ruleset

GROUP = "verifier.rulesets"

_loaded: dict[str, Ruleset] = {}
# The entry points found for one sys.path: reading every installed distribution's metadata took
# about 20 ms, and a command's parser asks for the names several times before any work starts.
_found: tuple[tuple[str, ...], dict[str, EntryPoint]] | None = None


class BrokenRulesetError(VerifierError):
    """An installed ruleset's entry point cannot be loaded, or does not give a Ruleset."""


def _entry_points() -> dict[str, EntryPoint]:
    global _found
    path = tuple(sys.path)
    if _found is not None and _found[0] == path:
        return _found[1]
    from importlib.metadata import entry_points
    found: dict[str, EntryPoint] = {}
    for ep in entry_points(group=GROUP):
        found.setdefault(ep.name, ep)  # the first installed distribution wins, as pip orders them
    _found = (path, found)
    return found


def names() -> list[str]:
    return sorted(_entry_points())


def get(key: str, location: Location | None = None) -> Ruleset:
    if key in _loaded:
        return _loaded[key]
    from .ruleset import Ruleset
    found = _entry_points()
    if key not in found:
        raise UnknownRulesetError(f"unknown ruleset {key!r}; {did_you_mean(key, list(found))}", location)
    ep = found[key]
    try:
        ruleset = ep.load()
    except Exception as exc:
        raise BrokenRulesetError(f"ruleset {key!r} ({ep.value}) cannot be loaded: {type(exc).__name__}: {exc}") \
            from exc
    if not isinstance(ruleset, Ruleset):
        raise BrokenRulesetError(f"ruleset {key!r} ({ep.value}) is a {type(ruleset).__name__}, not a Ruleset")
    if ruleset.key != key:
        raise BrokenRulesetError(f"entry point {key!r} ({ep.value}) gives a ruleset whose key is {ruleset.key!r}; "
                                 "the two must be the same")
    _loaded[key] = ruleset
    copyreg.pickle(type(ruleset), _by_key)
    return ruleset


def _by_key(ruleset: Ruleset) -> Any:
    """How a ruleset pickles: a registered one crosses to a worker process by its key and
    comes back as the same object there, so cases loaded in workers still name the
    registry's ruleset; any other instance of the class pickles as usual."""
    if is_registered(ruleset):
        return get, (ruleset.key,)
    return object.__reduce_ex__(ruleset, 2)


def is_registered(ruleset: Ruleset) -> bool:
    """Whether ``ruleset`` is the one the registry gives for its key (already loaded)."""
    return _loaded.get(ruleset.key) is ruleset


def all_rulesets() -> list[Ruleset]:
    return [get(key) for key in names()]
