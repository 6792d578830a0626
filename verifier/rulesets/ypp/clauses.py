"""The YPP clause table, its reading points and its glossary.

Clause ids follow seed 000's own numbering. Every summary is our paraphrase;
the citation says where the original stands.
"""

from __future__ import annotations

from types import MappingProxyType

from ...ruleset import Citation, Clause, ReadingPoint, Term, TermStatus

SEED = "000_ddf34e19307a0e0d.txt"
FACTS = "guide/facts.md"

MOVE = "Collisions during movement / Collision rules"
MOVE_BUMP = "Collisions during movement / Bump"
WIND = "Collisions during wind / Collision rules"
WIND_BUMP = "Collisions during wind / Bump"
CONCEPTS = "Collisions during movement / Concepts"


def _c(id, summary, section, seed=SEED, readings=()):
    return Clause(id, summary, Citation(seed, section), tuple(readings))


CLAUSES = (
    # --- turn structure and tokens (facts.md, from YPPedia pages) ---
    _c("turn.rounds", "A turn is up to four rounds. In each round the movement tokens are resolved "
       "first, then wind and whirlpools.", "ypp / Turn and board", FACTS),
    _c("token.forward", "A forward token carries the ship one tile straight ahead.",
       "ypp / Movement", FACTS),
    _c("token.turn", "A left or right token carries the ship one tile ahead and then one tile to that "
       "side, so it passes through two tiles; afterwards it faces that side.",
       CONCEPTS),
    # --- movement, step 1 ---
    _c("move.1a", "Step 1: every moving ship claims the tile that was straight ahead of it. If that "
       "tile is empty and nobody else claims it, the ship moves in.", MOVE, readings=["vacate"]),
    _c("move.1b", "Step 1: if the claimed tile holds a ship that is not moving, the mover bumps it "
       "(see the bump clauses).", MOVE, readings=["bump"]),
    _c("move.1c", "Step 1: if the claimed tile holds a moving ship that claims the mover's own tile, "
       "both stop where they are, with a collision.", MOVE),
    _c("move.1d", "Step 1: if the claimed tile is empty but another ship of equal or larger class also "
       "claims it, the mover stops where it is, with a collision.", MOVE),
    _c("move.1e", "Step 1: if the claimed tile is empty and every other claimant is of a smaller class, "
       "the mover moves in, with a collision.", MOVE),
    # --- movement, step 2 ---
    _c("move.2a", "Step 2: a turning ship that was not stopped claims its destination tile. If it is "
       "empty and nobody else claims it, the ship moves in.", MOVE, readings=["vacate"]),
    _c("move.2b", "Step 2: if the destination holds a ship that is not moving, or one that arrived "
       "there in step 1, the turning ship stops, with a collision, whatever the classes.", MOVE,
       readings=["vacate", "bump_reach"]),
    _c("move.2c", "Step 2: if the destination holds a turning ship that claims this ship's tile, both "
       "stop, with a collision.", MOVE),
    _c("move.2d", "Step 2: if the destination is empty but also claimed by a ship of equal or larger "
       "class, the ship stops, with a collision.", MOVE),
    _c("move.2e", "Step 2: if the destination is empty and every other claimant is smaller, the ship "
       "moves in, with a collision.", MOVE),
    _c("move.note", "Every ship that tried to turn ends facing its new direction, even if it was "
       "stopped.", MOVE),
    # --- movement bump bullets, in the order the seed lists them ---
    _c("bump.1", "Bump by a turning ship: neither ship moves, the turner's motion ends, and the "
       "turner still changes its facing.", MOVE_BUMP, readings=["bump"]),
    _c("bump.2", "Bump by a ship going forward: the standing ship is knocked one tile back and the "
       "mover stays where it was.", MOVE_BUMP, readings=["bump", "push_blocked", "knock_direction"]),
    _c("bump.3", "Bump by a ship of smaller class than the standing ship: neither ship moves.",
       MOVE_BUMP, readings=["bump"]),
    _c("bump.4", "Bump by a ship of larger class: the mover takes the tile and the standing ship is "
       "shoved one tile onward, staying in front of it (a push).", MOVE_BUMP,
       readings=["bump", "push_blocked"]),
    # --- wind and whirlpools ---
    _c("wind.tile", "A wind tile carries a ship on it one tile in the wind's direction, without "
       "turning it. For collisions it behaves like a forward move.", "ypp / Wind and whirlpools", FACTS),
    _c("whirl.tile", "A whirlpool is 2x2 tiles and turns clockwise: a ship on it is carried to the "
       "next corner and then to the opposite corner, and turns a quarter clockwise. For collisions it "
       "behaves like a turn.", "ypp / Wind and whirlpools", FACTS),
    _c("wind.1a", "Wind step 1: every ship carried by wind or whirlpool claims the next tile on its "
       "way. If it is empty and unclaimed, the ship moves in.", WIND, readings=["vacate"]),
    _c("wind.1b", "Wind step 1: if that tile holds a ship that is not moving, a bump follows (see the "
       "wind bump clauses).", WIND, readings=["bump"]),
    _c("wind.1c", "Wind step 1: if that tile holds a moving ship that claims this ship's tile, both "
       "stop, with a collision.", WIND),
    _c("wind.1d", "Wind step 1: if the tile is empty but claimed by a ship of equal or larger class, "
       "the ship stops, with a collision.", WIND),
    _c("wind.1e", "Wind step 1: if the tile is empty and every other claimant is smaller, the ship "
       "moves in, with a collision.", WIND),
    _c("wind.2a", "Whirl step 2: a whirling ship that was not stopped claims the opposite corner. If it "
       "is empty and unclaimed, the ship moves in.", WIND, readings=["vacate"]),
    _c("wind.2b", "Whirl step 2: if the opposite corner holds a ship that is not moving or one that "
       "arrived in step 1, the whirling ship stops, with a collision, whatever the classes.", WIND,
       readings=["vacate", "bump_reach"]),
    _c("wind.note", "Every ship that a whirlpool tried to move turns a quarter clockwise, even if it "
       "was stopped.", WIND),
    _c("wind.bump.1", "Bump by a whirling ship: neither ship moves, the whirl ends, and the whirling "
       "ship still turns.", WIND_BUMP, readings=["bump"]),
    _c("wind.bump.2", "Bump by a wind-blown ship: the standing ship is knocked one tile back and the "
       "blown ship stays.", WIND_BUMP, readings=["bump", "push_blocked", "knock_direction"]),
    _c("wind.bump.3", "Bump by a smaller ship than the standing one: neither ship moves.", WIND_BUMP,
       readings=["bump"]),
    _c("wind.bump.4", "Bump by a larger ship: it takes the tile and the standing ship is shoved one "
       "tile onward, keeping its place relative to the larger ship (a push).", WIND_BUMP,
       readings=["bump", "push_blocked"]),
    # --- rocks and edges (facts.md) ---
    _c("rock.1", "A rock stops a ship that tries to enter it, and the ship takes rock damage.",
       "ypp / Rocks and board edges", FACTS),
    _c("edge.1", "The edge of the board stops a ship as a rock would.", "ypp / Rocks and board edges",
       FACTS),
    # --- ramming (seed 000's class table; facts.md) ---
    _c("ram.1", "Every collision and every bump between two ships is a ram: each of the two ships takes ram "
       "damage, a number from the class table counted in hits of one shot size. A ship's damage for the turn "
       "is the sum over its rams.", CONCEPTS, readings=["ram_value", "ram_unit"]),
)


READING_POINTS = (
    ReadingPoint(
        "bump",
        "The four bump bullets overlap: a forward or turning mover is also smaller or larger than the "
        "ship it bumps. Which bullet wins?",
        {
            "class-first": "When the classes differ the class bullets decide (bump.3, bump.4); for equal "
                           "classes the motion bullets do (bump.1, bump.2).",
            "motion-first": "Only the motion bullets count: a turner stops (bump.1), a forward mover "
                            "knocks the other ship on (bump.2), whatever the classes.",
            "turn-first": "A turner always stops (bump.1); a forward mover follows the class bullets "
                          "when the classes differ, else bump.2.",
        },
        "class-first",
        ("bump.1", "bump.2", "bump.3", "bump.4",
         "wind.bump.1", "wind.bump.2", "wind.bump.3", "wind.bump.4"),
    ),
    ReadingPoint(
        "vacate",
        "A ship claims a tile whose occupant is itself moving away (not head-on). The five cases of "
        "step 1 do not cover this, and step 2's 'arrived there in step 1' is unclear when the occupant "
        "moves on.",
        {
            "follow": "The tile counts as empty if its occupant really leaves in the same step; "
                      "otherwise the claimant stops with a collision. A closed loop of movers all move.",
            "blocked": "A tile occupied at the start of the step is never free: the claimant stops with "
                       "a collision.",
            "stationary": "The occupant is treated as a standing ship: in step 1 the claimant bumps it; "
                          "in step 2 it stops with a collision.",
        },
        "follow",
        ("move.1a", "move.2a", "move.2b", "wind.1a", "wind.2a", "wind.2b"),
    ),
    ReadingPoint(
        "push_blocked",
        "A bump knocks or shoves the standing ship one tile on, but that tile may be a rock, off the "
        "board, taken or claimed, or the ship may be bumped from two sides at once.",
        {
            "stay": "The push does not happen: the standing ship stays, and the mover does not enter.",
            "literal": "The push happens as written, wherever it lands.",
        },
        "stay",
        ("bump.2", "bump.4", "wind.bump.2", "wind.bump.4"),
    ),
    ReadingPoint(
        "bump_reach",
        "A bump is defined as a moving ship entering 'into or through' a standing ship's tile, which takes in a "
        "turner's destination; but case b of step 2 already says a turner whose destination holds a standing "
        "ship stops there, with a collision, whatever the classes. Which governs?",
        {
            "step-1": "Case b of step 2: the turner stops after step 1 with a collision; only the tile passed "
                      "through in step 1 starts a bump.",
            "destination": "A bump: the bump bullets decide, as in step 1 (so, under class-first, a larger turner "
                           "takes the tile and shoves the standing ship on along its second step).",
        },
        "step-1",
        ("move.2b", "wind.2b", "bump.1", "bump.3", "bump.4", "wind.bump.1", "wind.bump.3", "wind.bump.4"),
    ),
    ReadingPoint(
        "knock_direction",
        "A forward or wind-blown ship of equal class knocks the standing ship 'back' one tile. Back from the "
        "mover, or back towards the standing ship's own stern? The two differ unless the standing ship faces "
        "the mover.",
        {
            "away": "Away from the mover: one tile further along the mover's way.",
            "astern": "Towards the standing ship's own stern, whichever way the mover came from.",
        },
        "away",
        ("bump.2", "wind.bump.2"),
    ),
    ReadingPoint(
        "ram_value",
        "The class table gives every ship a ram value, but not whose value a rammed ship takes when two "
        "ships of different values collide or bump.",
        {
            "other": "Each ship takes the other ship's value: a heavy ship hurts a light one more.",
            "own": "Each ship takes its own value.",
        },
        "other",
        ("ram.1",),
    ),
    ReadingPoint(
        "ram_unit",
        "The table gives each ram value three times, as hits by a small, a medium and a large shot. In which "
        "of them is ram damage counted?",
        {
            "small": "In hits by a small shot (the table's first column).",
            "medium": "In hits by a medium shot (second column).",
            "large": "In hits by a large shot (third column).",
        },
        "small",
        ("ram.1",),
    ),
)


# --- the glossary ------------------------------------------------------------------------------
# The words seed 000 decides outcomes by, and what the clause table takes each to mean.
#
# Every term is paraphrased in our words. Where the seed gives one meaning the entry
# cites the section; where it gives none or two, the entry names the reading point it
# became, or says which sentence (cited by section, not quoted) leaves only one meaning.

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
    Term("tile", "One square of the board; the source also calls it a space or a square. One ship at most "
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
    Term("empty", "A tile with no ship on it. For step 2 the source spells out that a tile is empty when it holds "
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
    Term("size class", "Small, medium, large or grand, read from the Size class column of the source's ship table. "
         "Same, larger and smaller compare these classes, not the ships' ram values (the longship is medium "
         "but rams like a small ship).", DEFINED, "fixed for the battle",
         ("move.1d", "move.1e", "move.2d", "move.2e", "wind.1d", "wind.1e", "bump.3", "bump.4", "wind.bump.3",
          "wind.bump.4"), _seed(CONCEPTS), kind="state"),
    Term("collision", "Two ships contesting one tile in the same step; the clauses say '(with a collision)' "
         "where one happens. A bump is also a collision: the source captions its bump examples as collisions.",
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
         "turning it. The source says it does so 'normally' and names no exception.", DEFINED, "start of the "
         "wind phase", ("wind.tile", "wind.1a", "wind.bump.2"), _seed("Collisions during wind / Concepts"),
         kind="motion",
         single_meaning="No exception is named anywhere in the source; the fact sheet names only the far edge of a "
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
         "shoved on by a larger one. The source uses the word for both.", DEFINED, "end of the step",
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
                        "the wind (Collisions during wind, opening paragraph), and the fact sheet's Movement has the "
                        "ship face its new side once its token is done."),
    # --- quantities ---
    Term("ram damage", "What a ship takes in a collision or bump, from the source's ship table. The table gives "
         "one value per ship and does not say whether a rammed ship takes its own value or the other ship's.",
         UNDEFINED, "the step of the collision", ("ram.1",), reading="ram_value", kind="quantity"),
    Term("equivalent hits by shot size", "The table's unit: how many small, medium or large cannon hits a ram "
         "is worth. Which column an outcome counts in is not said.", UNDEFINED, "the step of the collision",
         ("ram.1",), _seed(CONCEPTS), reading="ram_unit", kind="quantity"),
    Term("rock damage", "What a ship takes for running onto a rock or the board edge. No source gives a figure.",
         UNDEFINED, "the step it hits", ("rock.1", "edge.1"), kind="quantity",
         single_meaning="With no figure in the source or the fact sheet there are not two meanings to choose between "
                        "but none: outcomes record the rock or edge event and count no damage for it."),
)

# For the rule page: each source's title, by the file name citations give, and what the rule is about.
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
