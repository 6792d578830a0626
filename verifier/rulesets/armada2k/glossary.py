"""The words the armada2k clauses decide a move or a shot by, what each means in our
words, and the rule page's introduction and source titles.

Every term is paraphrased. Where the seed (the Armada 2K wiki page) gives one meaning
the entry cites the section; where it gives none or two, the entry names the reading
point that decides it.
"""

from __future__ import annotations

from types import MappingProxyType

from ...ruleset import Citation, Term, TermStatus
from .clauses import SEED

DEFINED, UNDEFINED, DOUBLE = TermStatus.DEFINED, TermStatus.UNDEFINED, TermStatus.DOUBLY_DEFINED

SOURCE_TITLES = MappingProxyType({
    SEED: "Looney Pyramid Games Wiki, Armada 2K (Dan Isaac)",
    "guide/facts.md": "Project fact sheet: Icehouse pyramid sizes (looneypyramids.wiki, Piece)",
})

INTRODUCTION = (
    "Armada 2K is a fleet battle played with Icehouse pyramids laid on their sides as ships: small, "
    "medium and large pyramids (about 14, 20 and 25 mm across the base). A turn is up to three actions, "
    "each moving a ship or firing one.\n\n"
    "The rule decides where a ship may go and what it may hit. A ship moves in steps of its own length, a "
    "spare pyramid laid at its bow, and may never touch another piece or the edge; to fire, a large "
    "pyramid laid against its long side marks the area its cannons reach. The sea is any flat surface "
    "at least 20 inches across; the pictures measure it in inches.")


def _seed(section: str, example: str | None = None) -> Citation:
    return Citation(SEED, section, example)


GLOSSARY = (
    Term("ship", "A pyramid lying on its side, its tip the bow and the middle of its base edge the stern; its "
         "size (small 1, medium 2, large 3) is its shots and how much damage sinks it.", DEFINED, "any moment",
         ("setup.2a", "fire.1", "dmg.2"), _seed("Setup"), kind="piece"),
    Term("footprint", "The outline a lying pyramid covers on the table. The seed only says it lies flat, so "
         "the shape is a reading.", UNDEFINED, "any moment",
         ("setup.2a", "setup.2b", "move.2b", "move.5", "move.note", "fire.3"), reading="footprint",
         kind="state"),
    Term("step", "One spare pyramid of the ship's size laid with its stern on the ship's bow, pointing any "
         "way; then the old piece comes off.", DEFINED, "each step of the move",
         ("move.2a", "move.2b", "move.2c", "move.2d", "move.3", "move.4"), _seed("Ship Movement"),
         kind="motion"),
    Term("touch", "Coming into contact with another object or the sea's edge, which no move may do. Whether "
         "contact without overlap counts is not said.", UNDEFINED, "each step",
         ("move.5", "move.note"), _seed("Ship Movement"), reading="contact", kind="state"),
    Term("move not allowed", "A move that would touch something may not be made. Whether the steps before "
         "the touching one still stand is not said.", UNDEFINED, "each step", ("move.5", "move.3"),
         _seed("Ship Movement"), reading="blocked-move", kind="outcome"),
    Term("area the cannons reach", "The ground a large pyramid covers when laid with its whole base against "
         "a long side of the firing ship. Where along the side it lies is not said.", UNDEFINED,
         "the aim", ("fire.3",), _seed("Firing a cannon", "Illus. 3"), reading="placement", kind="place"),
    Term("in the area", "A target lies in the area the cannons reach: how much of it must be inside is not "
         "said.", UNDEFINED, "the aim", ("fire.3",), _seed("Firing a cannon"), reading="target",
         kind="state"),
    Term("damage", "One point a hit deals; it stays with the ship and moves with it, and damage equal to the "
         "size sinks it.", DEFINED, "the end of each shot", ("dmg.1", "dmg.2", "dmg.3", "move.2d"),
         _seed("Firing a cannon"), kind="quantity"),
    Term("in doubt", "Whenever it is unclear whether something may be done, it may not: the seed's own "
         "tie-breaker.", DEFINED, "any moment", ("fiddly.1",), _seed("Some (don't be so) Fiddly bits"),
         kind="rule"),
)
