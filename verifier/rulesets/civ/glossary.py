"""The words the civ clauses decide a landing, a ship conflict or a blockade by, what
each means in our words, and the rule page's introduction and source titles.

Every term is paraphrased. Where the seed (a fan variant) or the base rules give one
meaning the entry cites the section; where they give none or two, the entry names the
reading point that decides it.
"""

from __future__ import annotations

from types import MappingProxyType

from ...ruleset import Citation, Term, TermStatus
from .clauses import FACTS, SEED, A, B

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
