"""The words seed 000 decides outcomes by, and what the clause table takes each to mean.

Every term is paraphrased in our words. Where the seed gives one meaning the entry
cites the section; where it gives none or two, the entry names the reading point it
became, or says which sentence (cited by section, not quoted) leaves only one meaning.
"""

from __future__ import annotations

from types import MappingProxyType

from ...ruleset import Citation, Term, TermStatus
from .clauses import CONCEPTS, FACTS, MOVE, MOVE_BUMP, SEED

_STEP1 = ("move.1a", "move.1b", "move.1c", "move.1d", "move.1e", "wind.1a", "wind.1b", "wind.1c", "wind.1d", "wind.1e")
_STEP2 = ("move.2a", "move.2b", "move.2c", "move.2d", "move.2e", "wind.2a", "wind.2b")
_BUMPS = ("bump.1", "bump.2", "bump.3", "bump.4", "wind.bump.1", "wind.bump.2", "wind.bump.3", "wind.bump.4")
_KNOCKS = ("bump.2", "wind.bump.2")
_PUSHES = ("bump.4", "wind.bump.4")

DEFINED, UNDEFINED, DOUBLE = TermStatus.DEFINED, TermStatus.UNDEFINED, TermStatus.DOUBLY_DEFINED


def _seed(section: str, example: str | None = None) -> Citation:
    return Citation(SEED, section, example)


def _facts(section: str) -> Citation:
    return Citation(FACTS, section)


GLOSSARY = (
    # --- states: what a tile or a ship is at a given moment ---
    Term("tile", "One square of the board; the seed also calls it a space or a square. One ship at most "
         "stands on it.", DEFINED, "any moment", _STEP1 + _STEP2 + ("rock.1", "edge.1"),
         _seed("Collision mechanics (opening paragraph)"), kind="state",
         single_meaning="Three words, one thing: the opening paragraph says only one ship fits on each of them, "
                        "and the rules use them interchangeably."),
    Term("moving ship", "In the movement phase, a ship that holds a forward, left or right token; in the wind "
         "phase, a ship standing on a wind tile or a whirlpool.", DEFINED, "start of the phase",
         _STEP1 + _STEP2 + _BUMPS, _seed("Collisions during wind / Concepts"), kind="state"),
    Term("stationary ship", "A ship that is not moving in this phase. Whether a moving ship that fails to leave "
         "its tile also counts as stationary for a ship claiming that tile is not said.", UNDEFINED,
         "start of the step", ("move.1b", "move.2b", "wind.1b", "wind.2b") + _BUMPS, reading="vacate",
         kind="state"),
    Term("empty", "A tile with no ship on it. For step 2 the seed spells out that a tile is empty when it holds "
         "neither a stationary ship nor one that arrived in step 1; for step 1 it does not say whether a tile "
         "whose ship is leaving in the same step is empty.", UNDEFINED, "start of the step",
         ("move.1a", "move.1d", "move.1e", "move.2a", "move.2d", "move.2e", "wind.1a", "wind.1d", "wind.1e",
          "wind.2a"), _seed("Complex collisions", "No Collision"), reading="vacate", kind="state"),
    Term("arrived in step 1", "A ship that entered the tile during step 1. Whether it still counts when it "
         "moves on in step 2 (a turner's second step) is not said.", DOUBLE, "end of step 1",
         ("move.2b", "wind.2b"), _seed(MOVE), reading="vacate", kind="state"),
    Term("claim", "The tile a moving ship tries to enter in the current step. Claims are made together at the "
         "start of the step and count whether or not they succeed.", DEFINED, "start of the step",
         _STEP1 + _STEP2, _seed(MOVE), kind="state",
         single_meaning="The worked example Wind Versus Whirl II (Collisions during wind / Complex collisions) "
                        "has two equal ships both stopped by each other's claim, which only works if a claim "
                        "counts before anyone has moved."),
    Term("claims the first ship's space", "A head-on claim: the occupant of my claimed tile claims the tile I "
         "stand on.", DEFINED, "start of the step", ("move.1c", "move.2c", "wind.1c"), _seed(MOVE),
         kind="state"),
    Term("stopped entirely", "The ship takes no further step in this phase (a turner skips step 2) and stays "
         "on the tile it holds; its facing still changes.", DEFINED, "the moment it stops, for the rest of "
         "the phase", ("move.1c", "move.1d", "move.2b", "move.2c", "move.2d", "move.note", "wind.1c", "wind.1d",
                       "wind.2b", "wind.note", "bump.1", "wind.bump.1"), _seed(MOVE), kind="state"),
    Term("size class", "Small, medium, large or grand, read from the Size class column of the seed's ship table. "
         "Same, larger and smaller compare these classes, not the ships' ram values (the longship is medium "
         "but rams like a small ship).", DEFINED, "fixed for the battle",
         ("move.1d", "move.1e", "move.2d", "move.2e", "wind.1d", "wind.1e", "bump.3", "bump.4", "wind.bump.3",
          "wind.bump.4"), _seed(CONCEPTS), kind="state"),
    Term("collision", "Two ships contesting one tile in the same step; the clauses say '(with a collision)' "
         "where one happens. A bump is also a collision: the seed captions its bump examples as collisions.",
         DEFINED, "the step it happens in", _STEP1 + _STEP2 + ("ram.1",),
         _seed("Collisions during movement / Examples", "Equal Class, Bump"), kind="state",
         single_meaning="The opening paragraph's 'at the same time' means the same step, not the same round: "
                        "the No Collision example (Complex collisions) has two ships use one tile in different "
                        "steps without a collision."),
    # --- motion ---
    Term("forward", "A forward token: one tile straight ahead, one step.", DEFINED, "start of the round",
         ("token.forward", "bump.2", "move.1a"), _facts("ypp / Movement"), kind="motion"),
    Term("turn", "A left or right token: one tile ahead (step 1), then one tile to that side (step 2); the ship "
         "then faces that side.", DEFINED, "start of the round", ("token.turn", "move.2a", "bump.1", "move.note"),
         _seed(CONCEPTS), kind="motion"),
    Term("wind", "A wind tile carries the ship on it one tile the way the wind blows, in one step, without "
         "turning it. The seed says it does so 'normally' and names no exception.", DEFINED, "start of the "
         "wind phase", ("wind.tile", "wind.1a", "wind.bump.2"), _seed("Collisions during wind / Concepts"),
         kind="motion",
         single_meaning="No exception is named anywhere in the seed; facts.md names only the far edge of a "
                        "blockade board, which acts as wind and needs no second meaning of the word."),
    Term("whirl", "A whirlpool carries the ship on it to the next corner (step 1) and then to the opposite "
         "corner (step 2), clockwise, and turns it a quarter clockwise.", DEFINED, "start of the wind phase",
         ("whirl.tile", "wind.2a", "wind.2b", "wind.note", "wind.bump.1"), _facts("ypp / Wind and whirlpools"),
         kind="motion"),
    Term("bump", "A moving ship trying to enter the tile of a stationary ship. The Bump section says 'into or "
         "through' that tile, which takes in a turner's destination; case b of step 2 says a turner whose "
         "destination holds a stationary ship stops, with a collision, whatever the classes.", DOUBLE, "the step "
         "of the claim", ("move.1b", "wind.1b", "move.2b", "wind.2b") + _BUMPS, _seed(MOVE_BUMP),
         reading="bump_reach", kind="motion"),
    Term("push", "The standing ship moving one tile because it was bumped: knocked back by an equal ship, or "
         "shoved on by a larger one. The seed uses the word for both.", DEFINED, "end of the step",
         _KNOCKS + _PUSHES, _seed(MOVE_BUMP), kind="motion"),
    Term("neither ship moves", "In a bump by a turner or by a smaller ship, neither ship enters a new tile in "
         "that step; the mover keeps the tile it holds.", DEFINED, "the step of the bump",
         ("bump.1", "bump.3", "wind.bump.1", "wind.bump.3"), _seed(MOVE_BUMP), kind="motion"),
    Term("all motion stops", "In a bump by a turner, the turner's motion ends for the phase: it skips its second "
         "step. The standing ship had no motion to stop.", DEFINED, "the step of the bump",
         ("bump.1", "wind.bump.1"), _seed(MOVE_BUMP), kind="motion",
         single_meaning="The bump is by a moving ship against a stationary one (Collisions during movement / "
                        "Bump, opening sentence), so only the mover has motion that can stop."),
    Term("desired tile", "The tile the mover claimed in that step. A larger mover that pushes takes it as it would "
         "an empty tile, and a turner goes on to its second step from there.", DEFINED, "the step of the bump",
         ("bump.4", "wind.bump.4"), _seed(MOVE_BUMP), kind="motion",
         single_meaning="Of the bump bullets only the turning and the smaller-class ones stop motion; the push "
                        "bullet lets the mover take the tile, as case a of step 1 does, and step 2 is open to "
                        "every turner that has not stopped entirely (Collisions during movement / Collision "
                        "rules)."),
    # --- direction ---
    Term("in front", "The tile straight ahead of the ship's heading as the round starts ('started directly in "
         "front'), even if the ship turned in an earlier round.", DEFINED, "start of the round",
         ("move.1a", "token.forward", "token.turn"), _seed(MOVE), kind="direction"),
    Term("destination", "Where the second step ends: for a turn one tile to the side of the step-1 tile, for a "
         "whirl the opposite corner of the whirlpool.", DEFINED, "start of the phase", _STEP2,
         _seed(CONCEPTS), kind="direction"),
    Term("back", "Where a bump by an equal forward or wind-blown mover sends the standing ship: away from the "
         "mover, or towards the standing ship's own stern.", DOUBLE, "the step of the bump", _KNOCKS,
         _seed(MOVE_BUMP), reading="knock_direction", kind="direction"),
    Term("foreward", "Where a larger mover's push sends the standing ship: one tile further along the mover's "
         "way.", DEFINED, "the step of the bump", _PUSHES, _seed(MOVE_BUMP), kind="direction",
         single_meaning="The same bullet adds that the shoved ship stays in front of the larger ship, and the "
                        "wind version (Collisions during wind / Bump) that it keeps its direction relative to "
                        "it; the shoved ship's own bow plays no part."),
    Term("orientation changed", "A ship that tried to turn or whirl faces its new way, even when stopped.",
         DEFINED, "end of the phase", ("move.note", "wind.note", "bump.1", "wind.bump.1"), _seed(MOVE),
         kind="direction",
         single_meaning="'At the end' is the end of the movement phase: each round has ships move, then meet "
                        "the wind (Collisions during wind, opening paragraph), and facts.md's Movement has the "
                        "ship face its new side once its token is done."),
    # --- quantities ---
    Term("ram damage", "What a ship takes in a collision or bump, from the seed's ship table. The table gives "
         "one value per ship and does not say whether a rammed ship takes its own value or the other ship's.",
         UNDEFINED, "the step of the collision", ("ram.1",), reading="ram_value", kind="quantity"),
    Term("equivalent hits by shot size", "The table's unit: how many small, medium or large cannon hits a ram "
         "is worth. Which column an outcome counts in is not said.", UNDEFINED, "the step of the collision",
         ("ram.1",), _seed(CONCEPTS), reading="ram_unit", kind="quantity"),
    Term("rock damage", "What a ship takes for running onto a rock or the board edge. No source gives a figure.",
         UNDEFINED, "the step it hits", ("rock.1", "edge.1"), kind="quantity",
         single_meaning="With no figure in the seed or facts.md there are not two meanings to choose between "
                        "but none: outcomes record the rock or edge event and count no damage for it."),
)

SOURCE_TITLES = MappingProxyType({
    SEED: "YPPedia, Collision mechanics",
    FACTS: "Project fact sheet: YPPedia pages Collision mechanics, Whirlpool and Ram",
})

INTRODUCTION = (
    "In a Puzzle Pirates sea battle, ships sail a board of square tiles. Each turn a navigator plays up to "
    "four moves; each move is forward, left or right, and a turning move goes forward one tile (step 1) "
    "and then to the side (step 2). Wind tiles push ships and whirlpools spin them once the move is made.\n\n"
    "Only one ship fits on a tile, so this rule decides what happens when ships try to enter the same "
    "tile, or one another's: who moves, who stays, who is bumped and who takes ram damage, by the ships' "
    "size classes. The board is drawn in tiles, with rocks and an edge no ship may pass.")
