"""Words a player reads, the same in every ruleset: a count with its noun in the singular or
the plural ("1 step", "3 steps"), never "step(s)"."""

from __future__ import annotations


def count(n: int, word: str, plural: str | None = None) -> str:
    """``n`` and ``word``, in the plural (``plural``, else ``word`` + s) unless ``n`` is 1."""
    return f"{n} {word if n == 1 else (plural or word + 's')}"
