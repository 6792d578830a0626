"""Reading another implementation's answer, for the checks every ruleset makes."""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Iterable
from typing import Any

from ..errors import ImplementationError


def require_every_piece(given: Iterable[str], pieces: Iterable[str], *, who: str = "the answer",
                        noun: str = "ship") -> None:
    """Raise ImplementationError, naming what is missing and what is unknown, unless ``given``
    (the names an answer lists) are exactly the scene's ``pieces``."""
    named, wanted = set(given), set(pieces)
    if named != wanted:
        raise ImplementationError(f"{who} must give every {noun} of the scene and no other: missing "
                                  f"{sorted(wanted - named)}, unknown {sorted(named - wanted)}")


def _field_text(path: tuple[str | int, ...]) -> str:
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text[:200] or "the answer"


def require_finite_numbers(data: Any, path: tuple[str | int, ...] = ()) -> None:
    """Raise ImplementationError naming the field of the first number in ``data`` (an
    answer as JSON gives it) that is NaN or infinite. JSON Schema's ``number`` lets both
    through, and a NaN compares false with every tolerance, so it would pass any check."""
    try:  # the common case, decided in C: the encoder refuses only a NaN or an infinity (or a non-JSON value)
        json.dumps(data, allow_nan=False, check_circular=False)
        return
    except (ValueError, TypeError, RecursionError):
        pass  # found below, with the field it is in
    stack: list[tuple[tuple[str | int, ...], Any]] = [(path, data)]
    while stack:
        where, value = stack.pop()
        if isinstance(value, float) and not math.isfinite(value):
            raise ImplementationError(f"the answer's {_field_text(where)} is {value}; every number must be finite")
        if isinstance(value, dict):
            stack += [((*where, str(key)), item) for key, item in reversed(value.items())]
        elif isinstance(value, list):
            stack += [((*where, i), item) for i, item in reversed(list(enumerate(value)))]


def require_distinct(keys: Iterable[object], *, what: str, field: str) -> None:
    """Raise ImplementationError naming the first key that ``keys`` (one per item of an
    answer's list ``field``) holds twice: a comparison that indexes the items by key
    would keep one of the two and never look at the other."""
    counts = Counter(keys)
    twice = [key for key, count in counts.items() if count > 1]
    if twice:
        raise ImplementationError(f"the answer's {field} lists two {what} with {str(twice[0])[:200]}; "
                                  f"each may appear once")
