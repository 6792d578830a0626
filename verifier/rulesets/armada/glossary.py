"""The words the armada clauses decide a maneuver by, what each means in our words,
and the rule page's introduction and source titles.

Every term is paraphrased. Where the seed (the Ship Movement rules and their FAQ) or
the fact sheet gives one meaning the entry cites the section; where they give none or
two, the entry names the reading point that decides it.
"""

from __future__ import annotations

from types import MappingProxyType

from ...ruleset import Citation, Term, TermStatus
from .clauses import FACTS, SEED

DEFINED, UNDEFINED, DOUBLE = TermStatus.DEFINED, TermStatus.UNDEFINED, TermStatus.DOUBLY_DEFINED

SOURCE_TITLES = MappingProxyType({
    SEED: "Star Wars: Armada, Rules Reference: Ship Movement (with FAQ)",
    FACTS: "Project fact sheet: Star Wars: Armada Rules Reference Guide 1.5/1.6 and public fan tools",
})

INTRODUCTION = (
    "In Star Wars: Armada each ship is a rectangular base moved with a hinged ruler, the maneuver tool. "
    "The owner bends the tool's joints by clicks of 22.5 degrees, within what the ship's speed chart "
    "allows, slots it beside the front of the base and sets the ship down at the joint of its speed.\n\n"
    "The rule decides where the ship ends: on which side of the tool, at what speed when it would land "
    "on another ship, which ships take damage for the overlap, and whether it leaves the play area. "
    "The pieces are ship bases (small, medium and large, in millimetres) and the tool; the board is "
    "a 3-foot (914.4 mm) square play area.")


def _seed(section: str, example: str | None = None) -> Citation:
    return Citation(SEED, section, example)


GLOSSARY = (
    Term("maneuver tool", "The hinged ruler a ship moves along: a chain of pieces, one speed step each, "
         "joined by joints that click 22.5 degrees. Its lengths are not published.", UNDEFINED, "the setting of "
         "the course", ("course.clicks", "move.insert", "yaw.move", "tool.model"),
         _seed("Ship Movement / Determine Course"), reading="tool", kind="piece"),
    Term("click", "One notch of turn at a joint, 22.5 degrees either way; the speed chart caps the clicks "
         "at each joint.", DEFINED, "the setting of the course", ("course.clicks", "yaw.declare", "course.navigate"),
         Citation(FACTS, "armada / Ships and the maneuver tool"), kind="quantity"),
    Term("speed", "How many pieces of the tool the ship travels, 0 to 4; it picks the joint the ship is set "
         "down at.", DEFINED, "start of the maneuver", ("course.clicks", "zero.still", "overlap.reduce"),
         _seed("Ship Movement / Determine Course"), kind="quantity"),
    Term("side of the tool", "The notches on the left or right of the front of the base that the tool goes "
         "into; the ship ends on the same side.", DEFINED, "the tool's insertion",
         ("move.insert", "move.same-side", "move.tool-overlap", "move.choose-side"),
         _seed("Ship Movement / Move Ship"), kind="direction"),
    Term("overlap", "Two bases, or a base and the tool, share some area where the ship is set down; bases "
         "that only touch do not overlap. Where the ship would overlap the tool on both sides, what follows "
         "is not said.", UNDEFINED, "the ship's setting down",
         ("move.tool-overlap", "overlap.reduce", "overlap.touch", "yaw.overlap"),
         Citation(FACTS, "armada / Overlapping (full rule, beyond the seed)"), reading="both-sides",
         kind="state"),
    Term("closest ship", "Of the ships the mover overlapped, the one nearest where it finally stands; it and "
         "the mover take a damage card. Which overlapped ships count, and a tie, are not said.", DOUBLE,
         "the final position", ("overlap.damage", "overlap.measure", "faq.closest"),
         _seed("FAQ", "third answer"), reading="damage-from", kind="state"),
    Term("0-speed yaw", "Clicks a ship at speed 0 turns on the spot by an effect, using the tool's last "
         "joint. Which ships take damage when it would overlap several is not said.", UNDEFINED,
         "end of the yaw", ("yaw.effect", "yaw.declare", "yaw.move", "yaw.overlap"),
         _seed("Ship Movement / 0-speed yaw"), reading="yaw-damage", kind="motion"),
    Term("play area", "The 3-foot (914.4 mm) square the ships fight in; a base ending even partly outside "
         "it is destroyed, though the tool may lie outside.", DEFINED, "the final position",
         ("size.area", "edge.destroyed", "edge.tool-outside"), Citation(FACTS, "armada / Edges and obstacles"),
         kind="place"),
)
