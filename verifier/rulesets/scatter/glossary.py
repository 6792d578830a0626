"""The words the scatter clauses decide a shot by, what each means in our words, and
the rule page's introduction and source titles.

Every term is paraphrased. Where the seed (a blog post with no numbered rules) gives
one meaning the entry cites the paragraph; where it gives none or two, the entry
names the reading point that decides it.
"""

from __future__ import annotations

from types import MappingProxyType

from ...ruleset import Citation, Term, TermStatus
from .clauses import FACTS, SEED

DEFINED, UNDEFINED, DOUBLE = TermStatus.DEFINED, TermStatus.UNDEFINED, TermStatus.DOUBLY_DEFINED

SOURCE_TITLES = MappingProxyType({
    SEED: "Plow the fields (blog post on Warmachine AOE deviation, with R code)",
    FACTS: "Project fact sheet: Warmachine University wiki, AOE Attacks",
})

INTRODUCTION = (
    "A Warmachine or Hordes model fires an area-of-effect (AOE) weapon at a target. If the attack misses, "
    "the round template drifts: one six-sided die gives how far (in inches), another gives which of six "
    "directions. This rule decides where the template lands and whether it still covers the target's base, "
    "and so the chance of a hit over all 36 rolls.\n\n"
    "The pieces are the attacker, the target standing on a round base (30 to 120 mm across) and the "
    "template (3, 4 or 5 inches across), on an open table measured in inches.")


def _seed(section: str, example: str | None = None) -> Citation:
    return Citation(SEED, section, example)


GLOSSARY = (
    Term("AOE template", "The round marker of an explosion, 3, 4 or 5 inches across; whatever base it covers "
         "is hit.", DEFINED, "the template's landing", ("aoe.size", "hit.overlap", "odds.36"),
         Citation(FACTS, "scatter / Sizes"), kind="piece"),
    Term("base", "The round foot of the target model, 30, 40, 50 or 120 mm across (25.4 mm to the inch).",
         DEFINED, "any moment", ("base.size", "hit.overlap"), Citation(FACTS, "scatter / Sizes"), kind="piece"),
    Term("line of attack", "The straight line from the attacker through the point deviation starts from; "
         "direction 1 runs along it, away from the attacker.", DEFINED, "the moment of firing",
         ("dev.dir", "dev.fold", "aim.short"), _seed("The six deviation directions"), kind="direction"),
    Term("deviation", "The template's drift after a miss: a distance in whole inches (one die) in one of six "
         "directions (the other die).", DEFINED, "the deviation roll", ("dev.dist", "dev.dir", "odds.36"),
         _seed("The six deviation directions"), kind="motion"),
    Term("short", "How far before the target the deviation starts when the target was out of range. Whether "
         "that distance runs to the base's centre or to its edge is not said.", UNDEFINED,
         "the moment of firing", ("aim.short",),
         _seed("The worked diagram: 2.5-inch separation, 3-inch AOE, 50 mm base"), reading="distance",
         kind="quantity"),
    Term("side of a direction", "Which side of the line of attack directions 2 and 3 (and so 5 and 6) lie on. "
         "The prose numbers them round one way; the code folds 5 and 6 onto 3 and 2.", DOUBLE,
         "the deviation roll", ("dev.dir", "dev.fold"), _seed("The is.scatter.hit function (R code)"),
         reading="side", kind="direction"),
    Term("maximum deviation", "The furthest the template may drift: half the distance to the start point in "
         "the published rule, a fixed figure (6 inches) in the seed's code.", DOUBLE, "the deviation roll",
         ("dev.cap", "dev.max"), _seed("The is.scatter.hit function (R code)"), reading="cap", kind="quantity"),
    Term("overlap", "The template covers the base: their centres are closer than the two radii added. "
         "Whether exactly touching counts is not said.", UNDEFINED, "the template's landing",
         ("hit.overlap",), _seed("The worked diagram: 2.5-inch separation, 3-inch AOE, 50 mm base"),
         reading="touch", kind="state"),
    Term("chance of a hit", "The share of the 36 equally likely rolls of the two dice whose template covers "
         "the base.", DEFINED, "all 36 rolls", ("odds.36",), _seed("The 36 combinations"), kind="quantity"),
)
