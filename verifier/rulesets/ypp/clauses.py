"""The YPP clause table and its reading points.

Clause ids follow seed 000's own numbering. Every summary is our paraphrase;
the citation says where the original stands.
"""

from __future__ import annotations

from ...ruleset import Citation, Clause, ReadingPoint

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
