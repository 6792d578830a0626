"""The armada clause table and its reading points.

Seed 003 lists its rules as bullets with no numbers, so the ids name the step each
bullet belongs to, in the source's order: ``course.*`` (Determine Course), ``move.*``
(Move Ship), ``zero.*`` and ``yaw.*`` (0-speed maneuvers and 0-speed yaw); then the
facts.md rules (``size.*``, ``tool.*``, ``overlap.*``, ``edge.*``, ``obstacle.*``);
then the FAQ's answers that bear on movement (``faq.*``). Every summary is our
paraphrase.
"""

from __future__ import annotations

from types import MappingProxyType

from ...ruleset import Citation, Clause, ReadingPoint, Term, TermStatus

SEED = "003_37698d622f085e8c.txt"
FACTS = "guide/facts.md"

_COURSE = "Ship Movement / Determine Course"
_MOVE = "Ship Movement / Move Ship"
_ZERO = "Ship Movement / 0-speed maneuvers"
_YAW = "Ship Movement / 0-speed yaw"
_FAQ = "FAQ"
_TOOL = "armada / Ships and the maneuver tool"
_DETAIL = "armada / The two models in detail"
_OVERLAP = "armada / Overlapping (the full rule)"
_EDGES = "armada / Edges and obstacles"


def _c(id: str, summary: str, source: Citation, readings: tuple[str, ...] = ()) -> Clause:
    return Clause(id, summary, source, readings)


CLAUSES = (
    # the seed's bullets, in order
    _c("course.clicks", "The owner straightens the tool and clicks each joint, either way, no more times than the "
       "ship's speed chart allows at that joint for the speed it moves at.", Citation(SEED, _COURSE)),
    _c("course.speed", "The course is set for the ship's current speed, the one its dial shows (or the speed an "
       "effect gives an additional maneuver): one joint per speed, and only speeds its chart has a column for.",
       Citation(SEED, _COURSE)),
    _c("course.navigate", "A navigate command may change the speed and the yaw of the course; the source does not "
       "say by how much, so we take one step of speed and one extra click at one joint (never past two).",
       Citation(SEED, _COURSE)),
    _c("move.insert", "The tool's first guides go into the notches on one side of the front of the base; the ship "
       "slides off them and is set down on the guides of the joint numbered by its speed.",
       Citation(SEED, _MOVE), ("tool",)),
    _c("move.through", "Nothing between the start and the end stops a ship: it passes over ships, squadrons and "
       "obstacles, and only where it starts and where it is set down count.", Citation(SEED, _MOVE)),
    _c("move.same-side", "The ship ends on the side of the tool it started on.", Citation(SEED, _MOVE)),
    _c("move.tool-overlap", "A ship may not be set down overlapping the tool; if it would be, it goes back, the tool "
       "goes into the notches on the other side, and the ship moves again.", Citation(SEED, _MOVE),
       ("both-sides",)),
    _c("move.choose-side", "If the ship would clear the tool on either side, its owner picks the side.",
       Citation(SEED, _MOVE)),
    _c("course.locked", "Once the guides are in the notches the joints stay as they are, for every attempt that "
       "follows.", Citation(SEED, _MOVE)),
    _c("course.free", "While the course is being set the tool may be laid down and handled at will: nothing it "
       "touches then matters.", Citation(SEED, _MOVE)),
    _c("zero.still", "A ship at speed 0 stays where it is but has still made a maneuver.", Citation(SEED, _ZERO)),
    _c("yaw.effect", "Some effects let a ship at speed 0 resolve clicks of yaw, by the steps below.",
       Citation(SEED, _YAW)),
    _c("yaw.declare", "While setting the course the owner says how many clicks, and which way, the tool's last "
       "joint will turn.", Citation(SEED, _YAW)),
    _c("yaw.move", "The straightened tool's last piece goes into the notches on the side of the turn; the ship "
       "slides off, the last joint turns as declared, and the ship goes back onto that piece's guides.",
       Citation(SEED, _YAW), ("tool",)),
    _c("yaw.overlap", "A 0-speed yaw that would end overlapping a ship is undone: the ship stays where it was, at "
       "speed 0 without yaw, and both ships take damage as for any overlap.", Citation(SEED, _YAW),
       ("closest-tie", "yaw-damage")),
    # facts.md
    _c("size.bases", "Bases are 43 by 71 mm (small), 63 by 102 mm (medium) and 77.5 by 129 mm (large).",
       Citation(FACTS, _TOOL)),
    _c("size.area", "The play area is 3 feet (914.4 mm) square unless a case says otherwise.",
       Citation(FACTS, _TOOL)),
    _c("tool.model", "The tool is a hinged chain with 22.5 degrees a click; its lengths are not published, so two "
       "public measurements are readings: 68.4 mm a speed (model A) and 66.71 mm (model B).",
       Citation(FACTS, _DETAIL), ("tool",)),
    _c("overlap.reduce", "A ship whose final position overlaps another ship drops its speed by one for the moment "
       "and moves again along the same locked tool, down to speed 0 if it must.", Citation(FACTS, _OVERLAP),
       ("squadron",)),
    _c("overlap.damage", "Then the moving ship and the nearest ship it overlapped each take one facedown damage "
       "card.", Citation(FACTS, _OVERLAP), ("damage-from", "closest-tie")),
    _c("overlap.measure", "Nearest is measured from the moving ship where it finally stands.",
       Citation(FACTS, _OVERLAP), ("closest-tie",)),
    _c("overlap.tool-ok", "At a reduced speed the ship may end overlapping the tool.", Citation(FACTS, _OVERLAP)),
    _c("overlap.touch", "Bases that only touch do not overlap.", Citation(FACTS, _OVERLAP)),
    _c("edge.destroyed", "A ship whose base ends even partly outside the play area is destroyed.",
       Citation(FACTS, _EDGES)),
    _c("edge.tool-outside", "The tool may lie partly outside the play area; only the base's final position is "
       "judged.", Citation(FACTS, _EDGES)),
    _c("obstacle.final", "An obstacle affects a ship only if the base lies on it where the ship finally stands.",
       Citation(FACTS, _EDGES)),
    # the FAQ's answers that bear on movement
    _c("faq.over", "A ship is lifted from its start and set down at its end; what it passes over on the way, "
       "obstacles, ships or squadrons, does nothing.", Citation(SEED, _FAQ, "first answer")),
    _c("faq.closest", "To tell which of two overlapped ships is nearer, measure to the one that looks nearer and "
       "mark that range; if the second is beyond the mark the first is nearer, and otherwise the second is.",
       Citation(SEED, _FAQ, "third answer"), ("closest-tie",)),
    _c("faq.station", "A station's effect waits until the ship has finished its maneuver.",
       Citation(SEED, _FAQ, "fifth answer")),
    _c("faq.additional", "An additional maneuver runs at the speed the effect gives, through Determine Course and "
       "Move Ship; the speed dial keeps its value and the ship has not changed speed.",
       Citation(SEED, _FAQ, "seventh answer")),
)


READING_POINTS = (
    ReadingPoint(
        "tool",
        "The source gives no dimensions for the maneuver tool. Which measurements place the ship?",
        {"model-a": "68.4 mm a speed: 46.13 mm from the guides to a joint, 22.27 mm from a joint to the next "
                    "guides; the centreline half the tool's width outside the base, at its front corner.",
         "model-b": "66.71 mm between pivots, the ship set on the pivot; the first pivot 19.8 mm behind the front "
                    "edge, and 28.63, 38.63 or 46.13 mm out from the ship's centreline for a small, medium or large "
                    "base: 7.13, 7.13 and 7.38 mm outside the real base's side, since the public model measures "
                    "its 8.1 mm from bases of its own that are narrower than the real ones."},
        "model-a", ("move.insert", "yaw.move", "tool.model")),
    ReadingPoint(
        "both-sides",
        "The ship would overlap the tool on the side it started on and, after the switch, on the other side too. "
        "The source says to switch once and no more. Where does it go?",
        {"second-side": "It is set down on the second side all the same, overlapping the tool.",
         "first-side": "It goes back to the first side and is set down there, overlapping the tool.",
         "stay": "It cannot finish the maneuver and stays where it was, as at speed 0."},
        "second-side", ("move.tool-overlap",)),
    ReadingPoint(
        "damage-from",
        "The ship overlapped different ships at different speeds on its way down. Which of them can be the "
        "'closest ship it overlapped' that takes the damage card?",
        {"any-attempt": "Any ship it overlapped at any speed it tried.",
         "first-attempt": "Only ships it overlapped at its first attempt, the speed it was set for: the overlap "
                          "that made it drop speed at all.",
         "last-attempt": "Only ships it overlapped at the last speed that overlapped, the one just above where it "
                         "stopped."},
        "any-attempt", ("overlap.damage",)),
    ReadingPoint(
        "closest-tie",
        "Two overlapped ships are exactly as far from the moving ship. The FAQ's procedure makes the one measured "
        "second the closer one, but which one is measured first is the player's guess. Who takes the card?",
        {"second-measured": "Measure them in the order they were overlapped (higher speed first, then by name); the "
                            "one measured second is the closer, as the FAQ's 'otherwise' says.",
         "both": "Every ship at the least range takes a card."},
        "second-measured", ("overlap.damage", "overlap.measure", "faq.closest", "yaw.overlap")),
    ReadingPoint(
        "yaw-damage",
        "A 0-speed yaw would overlap two or more ships. The source says 'both ships' are dealt damage, as if there "
        "were one other, and 'as normal', which deals a card to the closest one only. Which ships take a card?",
        {"closest": "As for any overlap: the yawing ship and the closest ship it would overlap.",
         "each": "'Both ships' for every pair: the yawing ship takes one card and so does each ship it would "
                 "overlap."},
        "closest", ("yaw.overlap",)),
    ReadingPoint(
        "squadron",
        "The ship's final position overlaps a squadron. The source lets a ship move through squadrons but says "
        "nothing of ending on one. What happens?",
        {"aside": "The ship stays there; the squadron is marked as displaced, for its owner to move clear of the "
                  "ship (where to, the text does not say).",
         "as-ship": "A squadron counts like a ship: the ship drops speed and moves again, but no damage is "
                    "dealt."},
        "aside", ("overlap.reduce",)),
)


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
         Citation(FACTS, _OVERLAP), reading="both-sides",
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
