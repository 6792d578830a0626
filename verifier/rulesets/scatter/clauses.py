"""The scatter clause table and its reading points.

Seed 002 is a blog post with no numbered rules, so the ids name the step of the
rule they belong to, in the order a shot is resolved:

    aoe.*   the template          base.*  the target's base
    aim.*   where deviation starts
    dev.*   the deviation roll: distance, direction, caps
    hit.*   whether the template covers the base
    odds.*  the chance of a hit over every roll

Sections of the seed are named by what its paragraphs are about, since it has
no headings. Every summary is our paraphrase.
"""

from __future__ import annotations

from types import MappingProxyType

from ...ruleset import Citation, Clause, ReadingPoint, Term, TermStatus

SEED = "002_19d6070c068c80ab.txt"
FACTS = "guide/facts.md"

_INTRO = "Introduction: explosions with an area of effect"
_DIRECTIONS = "The six deviation directions"
_DIAGRAM = "The worked diagram: 2.5-inch separation, 3-inch AOE, 50 mm base"
_TRIG = "Trigonometry of the sideways directions"
_CODE = "The is.scatter.hit function (R code)"
_COMBINATIONS = "The 36 combinations"
_RULE = "scatter / The published rule (Mk2/Mk3)"
_SIZES = "scatter / Sizes"


def _c(id, summary, source, readings=()):
    return Clause(id, summary, source, tuple(readings))


CLAUSES = (
    _c("aoe.size", "An AOE template is a circle 3, 4 or 5 inches across; its edge lies half that "
       "from its centre.", Citation(FACTS, _SIZES)),
    _c("base.size", "A target's base is a circle 30, 40, 50 or 120 mm across, converted at 25.4 mm "
       "to the inch.", Citation(FACTS, _SIZES)),
    _c("aim.target", "A missed shot at a target within range starts deviating from the centre of "
       "that target.", Citation(FACTS, _RULE)),
    _c("aim.short", "A shot at a target beyond range misses; deviation starts from the point at the "
       "weapon's maximum range on the line to the target, some distance short of it.",
       Citation(SEED, _DIAGRAM), ["distance"]),
    _c("dev.dist", "The distance die says how many inches, 1 to 6, the template moves.",
       Citation(SEED, _DIRECTIONS)),
    _c("dev.dir", "The direction die picks one of six directions 60 degrees apart, counted from the "
       "line of attack: 1 straight on, 2 and 3 at 60 and 120 degrees to one side, 4 straight back "
       "towards the attacker, 5 and 6 at 120 and 60 degrees to the other side.",
       Citation(SEED, _DIRECTIONS), ["side"]),
    _c("dev.fold", "The source's shortcut: a shot is symmetric about the line of attack, so its code "
       "sends 5 and 6 to the same side as 3 and 2.", Citation(SEED, _CODE), ["side"]),
    _c("dev.cap", "Published rule: the template moves at most half the distance from the attacker "
       "to where deviation starts (the target, or the point at maximum range).",
       Citation(FACTS, _RULE), ["cap"]),
    _c("dev.max", "The source's code: the template moves at most a given maximum, 6 inches unless "
       "the call says otherwise, however far away the attacker is.", Citation(SEED, _CODE), ["cap"]),
    _c("hit.overlap", "The template hits the target when it overlaps the base, that is when their "
       "centres are closer than the two radii added together.", Citation(SEED, _DIAGRAM), ["touch"]),
    _c("odds.36", "The two dice give 36 equally likely rolls; the chance of a hit is the share of "
       "them whose template covers the base.", Citation(SEED, _COMBINATIONS)),
)


READING_POINTS = (
    ReadingPoint(
        "distance",
        "A shot fell some distance short of its target. Does that distance run to the centre of the "
        "target's base, or to the edge of it?",
        {
            "centre": "Centre to centre: the template starts that far from the base's centre, as the "
                      "source's diagram measures its 2.5-inch separation and as its tests pass their "
                      "arguments (figure plus base radius).",
            "edge": "To the base's edge: the template's centre starts that far from the edge, so the "
                    "base radius is added, as the source's code does with its distance argument.",
        },
        "centre",
        ("aim.short",),
    ),
    ReadingPoint(
        "touch",
        "The template's edge exactly meets the base's edge. Does touching count as overlapping?",
        {
            "miss": "No: the centres must be strictly closer than the radii added together (the "
                    "source's code compares with '<').",
            "hit": "Yes: a template touching the base hits it.",
        },
        "miss",
        ("hit.overlap",),
    ),
    ReadingPoint(
        "side",
        "Directions 2 and 3 lie on one side of the line of attack and 5 and 6 on the other. Which "
        "side is which?",
        {
            "clockwise": "2 and 3 to the attacker's right, 5 and 6 to the left: the order the source's "
                         "prose lists them in, and how its diagram numbers them.",
            "counterclockwise": "2 and 3 to the attacker's left, 5 and 6 to the right.",
            "folded": "The source's code: 5 and 6 land where 3 and 2 land, on the right. Hit or miss is "
                      "the same as clockwise; the landing spot is not.",
        },
        "clockwise",
        ("dev.dir", "dev.fold"),
    ),
    ReadingPoint(
        "cap",
        "How far may the template deviate?",
        {
            "half-distance": "At most half the distance from the attacker to where deviation starts "
                             "(the published rule).",
            "seed-max": "At most the case's max_deviation, 6 unless given (the source's `max` "
                        "argument), whatever the distance.",
        },
        "half-distance",
        ("dev.cap", "dev.max"),
    ),
)

# The reading under which the resolver computes what the seed's own R function
# computes: it adds the base radius to its distance argument, compares with '<',
# folds 5 and 6 onto 3 and 2, and caps at its `max` argument.
SEED_READING = MappingProxyType({"distance": "edge", "touch": "miss", "side": "folded", "cap": "seed-max"})
# The published rule as far as facts.md states it; the rest are our defaults.
PUBLISHED_READING = MappingProxyType({p.name: p.default for p in READING_POINTS})


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
         "the published rule, a fixed figure (6 inches) in the source's code.", DOUBLE, "the deviation roll",
         ("dev.cap", "dev.max"), _seed("The is.scatter.hit function (R code)"), reading="cap", kind="quantity"),
    Term("overlap", "The template covers the base: their centres are closer than the two radii added. "
         "Whether exactly touching counts is not said.", UNDEFINED, "the template's landing",
         ("hit.overlap",), _seed("The worked diagram: 2.5-inch separation, 3-inch AOE, 50 mm base"),
         reading="touch", kind="state"),
    Term("chance of a hit", "The share of the 36 equally likely rolls of the two dice whose template covers "
         "the base.", DEFINED, "all 36 rolls", ("odds.36",), _seed("The 36 combinations"), kind="quantity"),
)
