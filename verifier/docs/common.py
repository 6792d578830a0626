"""Small helpers shared by the page model, the drawing tasks and the HTML: anchors,
plurals and sentences, and calling a ruleset where it may not provide something or
may fail."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from ..kit.draw.palette import SMALLEST_TEXT
from ..kit.words import count
from ..ruleset import Capability, Ruleset


def _optional(ruleset: Ruleset, capability: Capability, name: str, default: Any) -> Callable[..., Any]:
    """The ruleset's method ``name`` where it declares ``capability``, or one that gives ``default``."""
    return getattr(ruleset, name) if ruleset.supports(capability) else (lambda *a, **k: default)


def _anchor(prefix: str, raw: str, taken: set[str]) -> str:
    base = prefix + (re.sub(r"[^A-Za-z0-9._-]+", "-", raw).strip("-") or "x")
    anchor, n = base, 1
    while anchor in taken:
        n += 1
        anchor = f"{base}-{n}"
    taken.add(anchor)
    return anchor


def _reading_key(reading: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted(reading.items()))


_plural = count


def _sentence(text: str) -> str:
    text = text.strip()
    return text if not text or text.endswith((".", "!", "?")) else text + "."


def _attempt(ruleset: Ruleset, warnings: list[str], what: str, default: Any, fn: Callable[..., Any], *args: Any,
             **kwargs: Any) -> Any:
    try:
        return fn(*args, **kwargs)
    except Exception as error:  # reported, and the page says less
        warnings.append(f"{ruleset.key}: {what} failed ({type(error).__name__}: {error}); left out")
        return default


# Where a picture may be shown smaller than drawn: never below this share of its drawn width,
# so that its smallest text (the kit's SMALLEST_TEXT) stands at least 9 px tall on the screen
# (and the picture at least 60 % of its drawn width).
SMALLEST_SHOWN_TEXT = 9
MIN_SHOWN = max(0.6, SMALLEST_SHOWN_TEXT / SMALLEST_TEXT)
# The widest picture each layout shows shrunk to fit its column (in CSS px), each over MIN_SHOWN:
# the narrowest box a picture stands in, a case's (the column less the case's padding, border
# and the picture's own border) on the desktop (72rem) and on a 390 px phone.
DESKTOP_FIT, PHONE_FIT = int(1080 / MIN_SHOWN), int(350 / MIN_SHOWN)
