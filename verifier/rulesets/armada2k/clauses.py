"""The Armada 2K clause table and its reading points.

Ids follow the source's sections and the order of their bullets: ``equip``, ``goal``,
``setup``, ``play``, ``move`` (Ship Movement), ``fire`` (Firing a cannon), ``dmg``
(damage, the same section's second half), ``fiddly`` (Some Fiddly bits) and ``alt.*``
(Alternate Game Rules). Every summary is our paraphrase.
"""

from __future__ import annotations

from types import MappingProxyType

from verifier.ruleset import Citation, Clause, ReadingPoint

from ...ruleset import Term, TermStatus

SEED = "004_8d2b28d8637aa8b2.txt"
FACTS = "guide/facts.md"


def _c(section: str, example: str | None = None) -> Citation:
    return Citation(SEED, section, example)


CLAUSES = (
    Clause("equip.3", "The sea is any flat surface at least 20 inches across.", _c("Equipment")),
    Clause("goal.1", "A player wins by sinking every enemy ship: the last player with ships afloat wins.",
           _c("Goal"), ("friendly-fire",)),
    Clause("setup.note", "No player fields more than four ships of one size from one stash: the fifth piece of that "
                         "size is kept back for stepping and aiming.", _c("Setup", "Note")),
    Clause("setup.2a", "At the start every ship lies on its side and no two ships overlap.", _c("Setup"),
           ("footprint",)),
    Clause("setup.2b", "At the start no ship stands nearer than roughly ten to twelve inches to any ship of "
                       "another player.", _c("Setup"), ("setup-gap", "footprint")),
    Clause("play.1", "A player's turn is at most three actions.", _c("Play")),
    Clause("play.1a", "One kind of action moves a ship that has not moved yet in this turn.", _c("Play")),
    Clause("play.1b", "The other kind fires a ship that still has shots left in this turn.", _c("Play")),
    Clause("move.1a", "A large ship moves at most one step per move.", _c("Ship Movement")),
    Clause("move.1b", "A medium ship moves at most two steps per move.", _c("Ship Movement")),
    Clause("move.1c", "A small ship moves at most four steps per move.", _c("Ship Movement")),
    Clause("move.2a", "A step uses a spare pyramid of the moving ship's size.", _c("Ship Movement")),
    Clause("move.2b", "The spare goes down with the middle of its base edge (its stern) on the tip (bow) of the "
                      "ship that moves.", _c("Ship Movement"), ("footprint",)),
    Clause("move.2c", "The spare may point any way the player likes.", _c("Ship Movement")),
    Clause("move.2d", "Then the old piece comes off the table; its damage chits go with the ship.",
           _c("Ship Movement")),
    Clause("move.3", "Steps repeat until the player stops or the size's limit is reached.",
           _c("Ship Movement", "Illus. 2"), ("blocked-move",)),
    Clause("move.4", "A move is a whole number of steps: nothing shorter than one piece's length.",
           _c("Ship Movement")),
    Clause("move.5", "A move in which the ship would touch another object or the edge of the sea is not allowed.",
           _c("Ship Movement"), ("contact", "footprint", "flag-contact", "blocked-move")),
    Clause("move.note", "A spare that would lie over the old piece cannot be placed (so no right-angle turn and no "
                        "turning back); a ship with no placeable step is stuck for the turn.",
           _c("Ship Movement", "Note"), ("contact", "footprint")),
    Clause("fire.1", "Each shot is an action, and a ship fires at most as many shots a turn as its size "
                     "(small one, medium two, large three).", _c("Firing a cannon")),
    Clause("fire.3", "To aim, lay a large pyramid with its whole base edge against one of the two long sides of "
                     "the ship; it covers the area the cannons reach. A target there that nothing obstructs is hit.",
           _c("Firing a cannon", "Illus. 3"), ("footprint", "target", "sight", "placement", "friendly-fire")),
    Clause("dmg.1", "A hit deals one damage.", _c("Firing a cannon")),
    Clause("dmg.2", "A ship with as much damage as its size sinks and leaves the game.", _c("Firing a cannon")),
    Clause("dmg.3", "Damage stays with a ship for the rest of the game, and moves with it.",
           _c("Firing a cannon", "Note")),
    Clause("fiddly.1", "Whenever it is in doubt whether something can be done, it cannot.",
           _c("Some (don't be so) Fiddly bits")),
    Clause("alt.setup.1", "Variant: objects on the table are reefs and islands that no ship may enter.",
           _c("Alternate Game Rules / Alternate Setup")),
    Clause("alt.setup.2", "Variant: each size costs agreed points and a fleet is bought for an agreed total.",
           _c("Alternate Game Rules / Alternate Setup"), ("points-total",)),
    Clause("alt.setup.3", "Variant: several stashes per player, so more than four ships of a size.",
           _c("Alternate Game Rules / Alternate Setup")),
    Clause("alt.goal.1", "Variant: each side has a flag, a marker or a chosen ship; sinking it or touching it wins.",
           _c("Alternate Game Rules / Alternate Goals"), ("flag-contact",)),
    Clause("alt.rule.1", "Variant: large ships may also fire straight off the stern, aimed the same way.",
           _c("Alternate Game Rules / Alternate Rules")),
)

READING_POINTS = (
    ReadingPoint(
        "footprint", "The source only says a ship lies flat. What outline does it cover on the table?",
        {"slant": "A triangle as long as the slant height, as wide as the base: the face it lies on.",
         "pentagon": "The pyramid as the solid it is: seen from above it covers the face plus the two raised base "
                     "corners, which stand out beside the face a little ahead of the stern edge, but that edge is "
                     "in the air, so two pieces meet only where the solids meet, and the large laid to aim lies "
                     "against a ship's side at table level (the fact sheet).",
         "upright": "A triangle as long as the upright height, as one public implementation draws it."},
        "slant", ("setup.2a", "setup.2b", "move.2b", "move.5", "move.note", "fire.3")),
    ReadingPoint(
        "contact", "A step would leave the new piece touching another object or the edge, without overlap (or "
                   "touching the old piece along an edge). Is that contact?",
        {"touch": "Yes: touching is contact, and the doubt clause says no as well.",
         "overlap": "No: only overlapping blocks a step."},
        "touch", ("move.5", "move.note")),
    ReadingPoint(
        "blocked-move", "A move of several steps meets something at a later step. The source says the move is not "
                        "allowed: all of it, or the steps from there on?",
        {"whole": "All of it: the ship stays where it was, as if it had not tried.",
         "prefix": "The steps before the blocked one stand, and the ship stops there: a shorter move of whole "
                   "steps, which the source allows anyway."},
        "whole", ("move.5", "move.3")),
    ReadingPoint(
        "target", "When does a target lie in the area the large piece covers?",
        {"overlap": "When some part of it is inside the area (touching the area's edge is not enough).",
         "whole": "Only when all of it is inside."},
        "overlap", ("fire.3",)),
    ReadingPoint(
        "sight", "The source never says what obstructs a shot.",
        {"centre-line": "An object on the straight line from the middle of the firing side to the nearest part "
                        "of the target in the area obstructs it (touching the line counts).",
         "area": "Any other object overlapping the area the large piece covers obstructs every shot from there."},
        "centre-line", ("fire.3",)),
    ReadingPoint(
        "placement", "Where along the long side does the large piece lie?",
        {"centred": "Centred on the side.",
         "sliding": "Anywhere its whole base fits along the side: the area is every such position together."},
        "centred", ("fire.3",)),
    ReadingPoint(
        "friendly-fire", "The source lets a ship fire at \"the object\" in its area. May it fire at a ship of its own "
                         "fleet?",
        {"allowed": "Yes: the firing rule names no side, so any ship in the area may be hit.",
         "forbidden": "No: the goal is the enemy fleet, so only enemy ships are targets."},
        "allowed", ("fire.3", "goal.1")),
    ReadingPoint(
        "setup-gap", "How far from every opponent's piece must a ship start (nearest points)?",
        {"12-inches": "Twelve inches: in doubt, the stricter figure.",
         "10-inches": "Ten inches: the lower figure the source names."},
        "12-inches", ("setup.2b",)),
    ReadingPoint(
        "flag-contact", "Capture the flag: touching the enemy flag wins, but no move may touch another object. May "
                        "a step touch the flag?",
        {"wins": "Yes: the variant's goal overrides the movement rule for the enemy flag and flagship.",
         "blocked": "No: the movement rule holds, so a flag can only be won by sinking a flagship."},
        "wins", ("alt.goal.1", "move.5")),
    ReadingPoint(
        "points-total", "Point purchase: is the agreed fleet value a cap or the exact sum?",
        {"at-most": "A cap: a fleet may cost less.", "exactly": "The exact cost of every fleet."},
        "at-most", ("alt.setup.2",)),
)


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
    Term("footprint", "The outline a lying pyramid covers on the table. The source only says it lies flat, so "
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
    Term("in doubt", "Whenever it is unclear whether something may be done, it may not: the source's own "
         "tie-breaker.", DEFINED, "any moment", ("fiddly.1",), _seed("Some (don't be so) Fiddly bits"),
         kind="rule"),
)
