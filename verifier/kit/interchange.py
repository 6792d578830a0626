"""Reading another implementation's answer, for the checks every ruleset makes."""

from __future__ import annotations

from collections.abc import Iterable

from ..errors import ImplementationError


def require_every_piece(given: Iterable[str], pieces: Iterable[str], *, who: str = "the answer",
                        noun: str = "ship") -> None:
    """Raise ImplementationError, naming what is missing and what is unknown, unless ``given``
    (the names an answer lists) are exactly the scene's ``pieces``."""
    named, wanted = set(given), set(pieces)
    if named != wanted:
        raise ImplementationError(f"{who} must give every {noun} of the scene and no other: missing "
                                  f"{sorted(wanted - named)}, unknown {sorted(named - wanted)}")
