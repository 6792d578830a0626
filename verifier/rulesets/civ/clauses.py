"""The civ clause table and its reading points. Every summary is our own paraphrase.

Ids follow the source's paragraphs: ``A.1`` .. ``A.8`` for option A (naval battles),
``B.1`` .. ``B.5`` for option B (blockades), and the base game's ship and conflict
rules (facts.md) as ``ship.1`` .. ``ship.8`` and ``conflict.1`` .. ``conflict.4``.
"""

from __future__ import annotations

from types import MappingProxyType

from ...ruleset import Citation, Clause, ReadingPoint, Term, TermStatus

SEED = "001_495092af0388ca6d.txt"
FACTS = "facts.md (civ)"
A = "Option A: Naval Battles"
B = "Option B: Blockades"

CLAUSES = (
    Clause("ship.1", "A ship has room for five tokens at most.", Citation(FACTS, "Ships")),
    Clause("ship.2", "In one movement phase a ship enters up to four areas (none at all is allowed: it may "
                     "stay where it is); a nation with Cloth Making may enter five.", Citation(FACTS, "Ships")),
    Clause("ship.3", "Open sea may be crossed only by a nation holding Astronomy, and no ship may finish "
                     "its move there.", Citation(FACTS, "Ships")),
    Clause("ship.4", "Tokens get on and off a ship at any point of its path (a token rides one ship at most in "
                     "a phase), but none may still be aboard when the phase is over.", Citation(FACTS, "Ships")),
    Clause("ship.5", "A token that has already moved over land in this phase may not get on a ship.",
           Citation(FACTS, "Ships")),
    Clause("ship.6", "A ship goes from an area only to one that touches it, and only by water: open sea, "
                     "water or a coast's water portion, never land without a coast.",
           Citation(FACTS, "Ships", "base rules on ship movement")),
    Clause("ship.7", "In the movement phase each nation takes one turn, in which it moves its own ships, each "
                     "of them once.", Citation(FACTS, "Ships", "base rules on ship movement")),
    Clause("ship.8", "Tokens get on and off a ship only where it lies off a coast, from and onto that land.",
           Citation(FACTS, "Ships", "base rules on ship movement")),
    Clause("conflict.1", "In a conflict pieces go one at a time, by turns; the side with fewer pieces loses the "
                         "first one, and equal sides lose theirs at the same moment.",
           Citation(FACTS, "Conflict (base rule 24)")),
    Clause("conflict.2", "With three or more sides, they lose pieces in rising order of strength.",
           Citation(FACTS, "Conflict (base rule 24)"), ("ends",)),
    Clause("conflict.3", "A side with Metalworking loses its piece only after the sides without it.",
           Citation(FACTS, "Conflict (base rule 24)"), ("metalworking",)),
    Clause("conflict.4", "Each land area has a population limit. Nations sharing an area fight only while "
                         "their tokens there, counted together, are more than that limit: at or under it they "
                         "stay side by side, and a fight ends as soon as the count is down to the limit, even "
                         "with two or more nations still there (or earlier, when one nation is left).",
           Citation(FACTS, "Conflict (base rule 24)")),
    Clause("A.1", "With naval battles, tokens still get on and off ships anywhere along the path, but "
                  "coming ashore is no longer certain.", Citation(SEED, A)),
    Clause("A.2", "Tokens put off on a coast wait at the water's edge; when movement ends they go ashore "
                  "if no ship, or only ships of their own nation, lie there, and land conflict follows "
                  "as usual.", Citation(SEED, A)),
    Clause("A.3", "Where a ship of another nation lies, the waiting tokens do not simply go ashore.",
           Citation(SEED, A), ("shielded",)),
    Clause("A.4", "With enemy ships there and none of their own, the enemy may refuse the landing, and the "
                  "waiting tokens are then lost.", Citation(SEED, A, "Firstly")),
    Clause("A.5", "Where ships of two or more nations share an area, a ship conflict is fought if any of "
                  "them asks for it, ahead of landings and land conflict; if none asks, the ships just stay.",
           Citation(SEED, A, "Secondly"), ("turned",)),
    Clause("A.6", "A ship conflict runs like a conflict of tokens, each of Metalworking, Mathematics and "
                  "Engineering giving one point of advantage.", Citation(SEED, A),
           ("advantage", "metalworking")),
    Clause("A.7", "The ship conflict is over when a side has no ships left or every player wants it over; "
                  "the waiting tokens then go ashore if their nation still has a ship there, and otherwise "
                  "the enemy may refuse them again.", Citation(SEED, A), ("ends",)),
    Clause("A.8", "No ship conflict is fought in open sea, since no ship may end its move there.",
           Citation(SEED, A)),
    Clause("B.1", "With blockades, a player may turn ships face down as blockaders when a movement phase "
                  "starts.", Citation(SEED, B)),
    Clause("B.2", "When an enemy ship moves into a blockader's area, the blockader's owner may stop it there "
                  "by laying the blockader across it.", Citation(SEED, B)),
    Clause("B.3", "A blockader stops a single ship; once all of them in an area are busy, more ships "
                  "go through freely.", Citation(SEED, B)),
    Clause("B.4", "Tokens on a blocked ship may not come ashore, but a friendly ship passing by may take "
                  "them aboard.", Citation(SEED, B), ("stranded",)),
    Clause("B.4a", "The ship taking them over must stay within its carrying limit.", Citation(SEED, B, "A")),
    Clause("B.4b", "Counting both ships, the tokens may not travel more areas by sea than one ship of their "
                   "nation may move.", Citation(SEED, B, "B")),
    Clause("B.5", "When a nation's turn comes and no enemy ship has tried to get past its blockaders, they may "
                  "be turned face up and move as ordinary ships.", Citation(SEED, B), ("turned",)),
)

READING_POINTS = (
    ReadingPoint(
        "advantage", "The variant grants '+1 advantage' per advance in a ship conflict but never says what an "
                     "advantage does. What does a point of it do?",
        {"strength": "Each point counts as one more ship when the sides are compared: the weaker side by ships "
                     "plus points loses first, and sides equal by that count lose together. No ship is added.",
         "phantom": "The project's own reading, found in no source: each point is a ship that is not there; it "
                    "counts in the comparison and is the first thing its side loses, so every point soaks up one "
                    "loss, and a side is out when its real ships are. It leaves the same survivors as the "
                    "reading 'the side with fewer points first loses as many ships as the difference', but its "
                    "removal steps differ: here the points are lost one by one inside the alternation.",
         "order": "Points rank the sides before ships do: the side with fewer points loses first whatever the "
                  "ship count; ships decide only between sides with equal points, and a full tie loses "
                  "together.",
         "tiebreak": "Ships rank the sides first and points only break ties (the reading raised in issue 27): the "
                     "side with fewer ships loses first whatever its points; at equal ship counts the side with "
                     "fewer points loses first, and sides equal in both lose together."},
        "strength", ("A.6",)),
    ReadingPoint(
        "metalworking", "The base rule lets Metalworking holders lose their pieces after everyone else; the "
                        "variant gives Metalworking '+1 advantage' in a ship conflict. Do both apply at sea?",
        {"replaced": "At sea the +1 advantage takes the place of the base rule's Metalworking ordering.",
         "both": "At sea a holder gets the +1 advantage and also loses its ships after the sides without "
                 "Metalworking."},
        "replaced", ("A.6", "conflict.3")),
    ReadingPoint(
        "ends", "The variant ends a ship conflict when 'no tokens of one side remain'. With three or more "
                "nations, is it over when the first side is wiped out?",
        {"one-left": "No: it goes on until a single nation has ships there (or all agree to stop).",
         "first-out": "Yes: as soon as any side has lost its last ship, the others stop."},
        "one-left", ("A.7", "conflict.2")),
    ReadingPoint(
        "stranded", "A blocked ship may not land its tokens, yet the base rules say no token may stay aboard "
                    "once the phase is over. What happens to tokens still on a blocked ship?",
        {"stay": "They stay aboard the blocked ship into the next phase.",
         "lost": "They are lost, as tokens left aboard are under the base rules."},
        "stay", ("B.4",)),
    ReadingPoint(
        "shielded", "Tokens wait on a coast beside ships of their own nation and of an enemy, and no ship "
                    "conflict is fought. The text covers enemy ships with no friendly ones, and the moment "
                    "after a conflict. Do they go ashore?",
        {"lands": "Yes: their own ships protect them, as they would after a conflict.",
         "may-prevent": "No: enemy ships are there, so the enemy may refuse the landing."},
        "lands", ("A.3",)),
    ReadingPoint(
        "turned", "With both options, a blockader is turned over and becomes an ordinary ship again only when "
                  "turned back. Does a blockader still count as a ship present for naval battles: may it fight, "
                  "and do its nation's tokens land beside it, or enemy tokens get refused?",
        {"ship": "Yes: turned over or not, it is a ship of its nation in that area.",
         "aside": "No: while turned over it takes no part in option A, neither fighting nor counting as present."},
        "ship", ("A.5", "B.5")),
)


DEFINED, UNDEFINED, DOUBLE = TermStatus.DEFINED, TermStatus.UNDEFINED, TermStatus.DOUBLY_DEFINED

SOURCE_TITLES = MappingProxyType({
    SEED: "Ship Combat: New Ship Rules for Advanced Civilization (fan variant)",
    FACTS: "Project fact sheet: Advanced Civilization base rules (Avalon Hill rulebook, rules 23 and 24)",
})

INTRODUCTION = (
    "In Advanced Civilization each nation moves population tokens and ships over a map of land and sea "
    "areas. The base game lets ships only carry tokens; this fan variant adds two options. Option A, naval "
    "battles: tokens landed on a coast where enemy ships lie may be refused, and ships of different nations "
    "in one area may fight a ship conflict. Option B, blockades: ships turned face down stop enemy ships "
    "that enter their area.\n\n"
    "The rule decides which ships and tokens are left in each area after movement: who lands, who is "
    "lost, who is stopped. The pieces are ships (each carries up to five tokens) and tokens; the map is "
    "drawn as areas, with coasts, open sea and a population limit for each land area.")


def _seed(section: str, example: str | None = None) -> Citation:
    return Citation(SEED, section, example)


GLOSSARY = (
    Term("area", "One space of the map: land, a coast with a water edge, or open sea. Ships move from area "
         "to area.", DEFINED, "any moment", ("ship.2", "ship.3", "A.2", "A.5", "B.2"), Citation(FACTS, "Ships"),
         kind="place"),
    Term("open sea", "A sea area a ship may cross only with Astronomy and may never end its move in, so no "
         "ship conflict happens there.", DEFINED, "end of the movement phase", ("ship.3", "A.8"), _seed(A),
         kind="place"),
    Term("token", "One unit of a nation's population; a ship carries up to five.", DEFINED, "any moment",
         ("ship.1", "ship.4", "A.2", "B.4", "B.4a"), Citation(FACTS, "Ships"), kind="piece"),
    Term("landing", "Tokens put off a ship on a coast wait at the water's edge and go ashore when movement "
         "ends, unless enemy ships there stop them.", DEFINED, "end of the movement phase",
         ("A.1", "A.2", "A.3", "A.4", "A.7"), _seed(A), kind="motion"),
    Term("enemy ship present", "A ship of another nation in the landing's area. With both options on, whether "
         "a face-down blockader counts is not said.", UNDEFINED, "end of the movement phase",
         ("A.3", "A.4", "A.5", "B.5"), _seed(A), reading="turned", kind="state"),
    Term("prevent the landing", "The enemy's choice to refuse waiting tokens, which are then lost. Whether it "
         "holds when the landing nation's own ships are also there, with no fight, is not said.", UNDEFINED,
         "end of the movement phase", ("A.3", "A.4"), _seed(A, "Firstly"), reading="shielded", kind="action"),
    Term("conflict", "Pieces of different sides sharing an area are removed one at a time by turns, the "
         "smaller side first, until it is settled.", DEFINED, "end of the movement phase",
         ("conflict.1", "conflict.2", "conflict.3", "A.6"), Citation(FACTS, "Conflict (base rule 24)"),
         kind="procedure"),
    Term("advantage", "What each of Metalworking, Mathematics and Engineering gives a side in a ship "
         "conflict: +1, with no word on what a point does.", UNDEFINED, "start of the ship conflict", ("A.6",),
         _seed(A), reading="advantage", kind="quantity"),
    Term("end of a ship conflict", "When no ships of one side are left, or every player wants to stop. With "
         "three nations, whether the first side out ends it is not said.", UNDEFINED,
         "each removal", ("A.7", "conflict.2"), _seed(A), reading="ends", kind="moment"),
    Term("blockader", "A ship turned face down when a movement phase starts; it may stop one enemy ship that "
         "enters its area.", DEFINED, "start of the movement phase", ("B.1", "B.2", "B.3", "B.5"), _seed(B),
         kind="piece"),
    Term("blocked ship", "An enemy ship a blockader has been laid across: it stops there and its tokens may "
         "not land. Whether those tokens survive the end of the phase is not said.", UNDEFINED,
         "end of the phase", ("B.2", "B.4", "B.4a", "B.4b"), _seed(B), reading="stranded", kind="state"),
)
