"""Armada: Star Wars: Armada ship movement with the maneuver tool (seed 003), on a
continuous plane in millimetres."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from types import MappingProxyType

from ...kit.compare import beyond, event_mismatches, numbers_text
from ...kit.geometry import Pose
from ...kit.modular import ModularRuleset
from ...ruleset import DRAWING_METHODS, Capability, Mismatch, Outcome
from .clauses import CLAUSES, GLOSSARY, INTRODUCTION, READING_POINTS, SOURCE_TITLES
from .interchange import OUTCOME_PARTS, OUTCOME_SCHEMA, pose_json, rounded
from .model import FEATURES, Attempt, Maneuvers, Move, Result, Scene, features_needed
from .parse import (
    ACTIONS_SCHEMA,
    BEFORE_SCHEMA,
    EXPECT_SCHEMA,
    Expectation,
    parse_expect,
    parse_maneuvers,
    parse_scene,
)
from .resolver import resolve, unchanged

PAGE_NOTES = (
    "Each example is drawn to scale from above, north up, with millimetres along the edges; the world outside the "
    "play area is grey. A base is a rotated rectangle in its ship's colour, its front edge drawn thick, with the "
    "ship's name beside it. In the Before panel a dashed outline shows where the tool will be inserted. In the After "
    "panel the ship's start is a faint dashed ghost, the maneuver tool is drawn grey where it was inserted, piece by "
    "piece, with the clicks at each joint (2R: two clicks to starboard, 1L: one to port), and the ship stands where "
    "it was finally set down. A placement that had to be given up is a fainter ghost labelled with its speed. "
    "Overlaps are shaded red; a numbered star marks each damage card and each destroyed ship, which is also crossed "
    "out. Dotted lines show the ranges measured to the ships it overlapped, labelled in mm, the closest one dark. "
    "Squadrons are grey circles, obstacles grey polygons. Examples with several placements or maneuvers also play "
    "step by step.")


def _pose_text(pose: Pose) -> str:
    return f"[{rounded(pose.x):g}, {rounded(pose.y):g}] heading {rounded(pose.heading):g}"


def motion_words(start: Pose, end: Pose) -> str:
    """How a base moved, as a player measures it from where it stood: "moves 68.4 mm
    ahead and 12 mm to starboard and turns 22.5° right" (compass headings: 0 north,
    90 east, so ahead is the start heading and starboard 90° clockwise of it)."""
    dx, dy = end.x - start.x, end.y - start.y
    rad = math.radians(start.heading)
    ahead = dx * math.sin(rad) + dy * math.cos(rad)
    aside = dx * math.cos(rad) - dy * math.sin(rad)
    turn = (end.heading - start.heading + 180) % 360 - 180
    parts = []
    if abs(ahead) >= 0.05:
        parts.append(f"{abs(ahead):.1f} mm {'ahead' if ahead > 0 else 'back'}")
    if abs(aside) >= 0.05:
        parts.append(f"{abs(aside):.1f} mm to {'starboard' if aside > 0 else 'port'}")
    words = "moves " + " and ".join(parts) if parts else "stays where it is"
    if abs(turn) >= 0.05:
        words += f" and turns {abs(turn):.1f}° {'right' if turn > 0 else 'left'}"
    return words


def _heading_gap(a: float, b: float) -> float:
    d = abs(a - b) % 360
    return min(d, 360 - d)


def event_text(kind: str, pieces: tuple[str, ...]) -> str:
    words = {"switch": "{0}: the tool goes to the other side",
             "tool-both": "{0} would overlap the tool on either side", "overlap": "{0} would overlap {1}",
             "closest": "{1} is the closest ship {0} overlapped", "damage": "{0} takes a facedown damage card",
             "destroyed": "{0} ends partly outside the play area and is destroyed",
             "obstacle": "{0} ends on obstacle {1}", "squadron": "{0} ends on squadron {1}, set aside",
             "yaw-back": "{0}'s yaw would overlap a ship: it stays, at speed 0",
             "open-side": "{0} clears the tool on both sides: the owner chooses",
             "still": "{0} makes a 0-speed maneuver and stays"}
    return words[kind].format(*pieces, "", "")


def _event_key(kind: str, pieces: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    return kind, tuple(pieces)


class ArmadaRuleset(ModularRuleset):
    key = "armada"
    title = "Star Wars: Armada ship movement: the maneuver tool, overlaps and 0-speed yaw"
    package = "verifier.rulesets.armada"  # its modules as docs/ruleset-guide.md lays them out

    def pieces_drawn(self, before: Scene, actions: Maneuvers, outcomes: Sequence[Outcome]) -> tuple[int, str]:
        return len(before.ships) + len(before.squadrons) + len(before.obstacles), "ships, squadrons and obstacles"
    draw_options = MappingProxyType({method: frozenset({"title", "supersample"}) for method in DRAWING_METHODS})
    capabilities = frozenset({Capability.INTERCHANGE, Capability.SEARCH, Capability.FINDINGS, Capability.EXHAUSTIVE,
                              Capability.FRAMES, Capability.NARROW, Capability.SCENE_TEXT, Capability.PAGE_NOTES,
                              Capability.BENCHMARKS})
    capabilities |= {Capability.BOUNDARIES}  # the module boundaries.py
    capabilities |= {Capability.SCENES}  # explore.scene: the seeded search's scenes (kit.choices)
    clauses = CLAUSES
    reading_points = READING_POINTS
    glossary, introduction, source_titles = GLOSSARY, INTRODUCTION, SOURCE_TITLES
    before_schema = BEFORE_SCHEMA
    actions_schema = ACTIONS_SCHEMA
    expect_schema = EXPECT_SCHEMA
    outcome_schema = OUTCOME_SCHEMA
    outcome_parts = OUTCOME_PARTS
    features = FEATURES

    def features_needed(self, before: Scene, actions) -> frozenset[str]:
        return features_needed(before, actions)

    def parse(self, doc, before_path, actions_path, expect_path, *, breaches_allowed=False):
        scene = parse_scene(doc, before_path)
        maneuvers = parse_maneuvers(doc, actions_path, scene)
        expect = parse_expect(doc, expect_path, scene, maneuvers) if expect_path is not None else None
        return scene, maneuvers, expect

    def resolve(self, before: Scene, actions: Maneuvers, reading: Mapping[str, str]) -> Outcome:
        return resolve(before, actions, reading)

    def unchanged(self, before: Scene, actions: Maneuvers) -> Result:
        return unchanged(before)

    def compare(self, before: Scene, expect: Expectation, outcome: Outcome) -> list[Mismatch]:
        after: Result = outcome.after
        tol = expect.tolerance
        problems: list[Mismatch] = []
        listed = {e.name: e for e in expect.ships}
        for ship in after.ships:
            start = before.ship(ship.name)
            want = listed.get(ship.name)
            if want is None:
                if (beyond(math.dist((ship.pose.x, ship.pose.y), (start.pose.x, start.pose.y)), tol)
                        or beyond(_heading_gap(ship.pose.heading, start.pose.heading), tol)
                        or ship.damage != start.damage or ship.destroyed):
                    problems.append(Mismatch(("ships",), None, ship.name,
                                             f"{ship.name} is not listed, so it should stay at "
                                             f"{_pose_text(start.pose)} unharmed, but ends at {_pose_text(ship.pose)}"
                                             f" with {ship.damage} damage" + (", destroyed" if ship.destroyed else "")))
                continue
            path = ("ships", ship.name)
            if want.at is not None and beyond(math.dist(want.at, (ship.pose.x, ship.pose.y)), tol):
                wanted_at, ended_at = numbers_text(want.at, (rounded(ship.pose.x), rounded(ship.pose.y)))
                problems.append(Mismatch(path + ("at",), list(want.at), [rounded(ship.pose.x), rounded(ship.pose.y)],
                                         f"{ship.name} should end at {wanted_at} but ends at {ended_at}"))
            if want.heading is not None and beyond(_heading_gap(want.heading, ship.pose.heading), tol):
                problems.append(Mismatch(path + ("heading",), want.heading, rounded(ship.pose.heading),
                                         f"{ship.name} should end facing {want.heading:g} but faces "
                                         f"{rounded(ship.pose.heading):g}"))
            for name, got in (("speed", ship.speed), ("damage", ship.damage), ("destroyed", ship.destroyed)):
                wanted = getattr(want, name)
                if wanted is not None and wanted != got:
                    problems.append(Mismatch(path + (name,), wanted, got,
                                             f"{ship.name} should end with {name} {wanted} but has {got}"))
        for i, (speed, side, switched) in enumerate(expect.moves):
            move = after.moves[i] if i < len(after.moves) else None
            checks: tuple[tuple[str, object, object], ...] = (
                ("speed", speed, move and move.speed), ("side", side, move and (move.side or "none")),
                ("switched", switched, move and move.switched))
            for field_name, wanted_value, got_value in checks:
                # Each field on its own path, so that a part left out (the side, say) is left out alone.
                if wanted_value is not None and move is None:
                    problems.append(Mismatch(("moves", i, field_name), wanted_value, None,
                                             f"maneuver {i + 1} was not made, so it has no {field_name}"))
                elif wanted_value is not None and wanted_value != got_value:
                    assert move is not None
                    problems.append(Mismatch(("moves", i, field_name), wanted_value, got_value,
                                             f"maneuver {i + 1} ({move.ship}) should have {field_name} "
                                             f"{wanted_value} but has {got_value}"))
        for i, joints in enumerate(expect.tools):
            move = after.moves[i] if i < len(after.moves) else None
            if joints is None or move is None:
                continue
            stands = [pose_json(j) for j in move.tool.joints] if move.tool is not None else []
            if len(stands) != len(joints) or any(
                    beyond(math.dist(w[:2], g[:2]), tol) or beyond(_heading_gap(w[2], g[2]), tol)
                    for w, g in zip(joints, stands)):
                problems.append(Mismatch(("moves", i, "tool"), [list(j) for j in joints], stands,
                                         f"maneuver {i + 1} ({move.ship}): the tool should stand at "
                                         f"{[list(j) for j in joints]} but stands at {stands}"))
        alternative = after.moves[-1].alternative if after.moves else None
        if expect.choice is not None:
            side, at, heading = expect.choice
            if alternative is None:
                problems.append(Mismatch(("choice",), side, None, "the last maneuver should leave the owner a choice "
                                                                  "of sides, but only one side is possible"))
            elif (alternative.side != side or beyond(math.dist(at, (alternative.end.x, alternative.end.y)), tol)
                  or beyond(_heading_gap(heading, alternative.end.heading), tol)):
                problems.append(Mismatch(("choice",), [side, list(at), heading],
                                         [alternative.side, [rounded(alternative.end.x), rounded(alternative.end.y)],
                                          rounded(alternative.end.heading)],
                                         f"on the {side} side the ship should end at [{at[0]:g}, {at[1]:g}] heading "
                                         f"{heading:g}, but ends at {_pose_text(alternative.end)} "
                                         f"({alternative.side})"))
        elif alternative is not None:
            problems.append(Mismatch(("choice",), None, alternative.side,
                                     f"the owner may also choose the {alternative.side} side (ending at "
                                     f"{_pose_text(alternative.end)}), which the case does not list"))
        problems += self._compare_events(expect, outcome)
        return problems

    @staticmethod
    def _compare_events(expect: Expectation, outcome: Outcome) -> list[Mismatch]:
        if [_event_key(kind, pieces) for kind, pieces in expect.events] == [
                _event_key(e.kind, e.pieces) for e in outcome.events]:
            return []  # the events expected, in their order: matched one by one, nothing is missing or extra
        return event_mismatches(expect.events, outcome.events, key=_event_key,
                                text=lambda kind, pieces, detail: event_text(kind, pieces))

    def describe(self, before: Scene, actions: Maneuvers, outcome: Outcome) -> str:
        after: Result = outcome.after
        lines = []
        for n, move in enumerate(after.moves, 1):
            lines.append(f"maneuver {n}: {move.ship} from {_pose_text(move.start)}")
            lines += [f"  {_attempt_text(a, move)}" for a in move.attempts]
            lines.append(f"  ends at {_pose_text(move.end)}, speed {move.speed}, tool "
                         f"{move.side or 'not used'}{' (switched)' if move.switched else ''}")
            if move.tool is not None:
                lines.append("  tool: " + " -> ".join(_pose_text(j) for j in move.tool.joints))
            if move.distances:
                lines.append("  ranges from the final position: " + ", ".join(f"{n} {r:.2f} mm"
                                                                             for n, r in move.distances))
            if move.alternative is not None:
                alt = move.alternative
                lines.append(f"  or, on the {alt.side} side: ends at {_pose_text(alt.end)}, speed {alt.speed}")
        for ship in after.ships:
            lines.append(f"{ship.name}: {_pose_text(ship.pose)}, speed {ship.speed}, damage {ship.damage}"
                         + (", destroyed" if ship.destroyed else ""))
            lines += [f"    {cause}" for cause in outcome.provenance.get(ship.name, ())]
        lines.append("events:" if outcome.events else "events: none")
        lines += [f"  {event_text(e.kind, e.pieces)}  [{e.clause}]" for e in outcome.events]
        return "\n".join(lines)

    def summarise(self, before: Scene, outcome: Outcome) -> str:
        after: Result = outcome.after
        said = []
        for move in after.moves:
            words = f"{move.ship} {motion_words(move.start, move.end)} (speed {move.speed}" + (
                f", tool on the {move.side} side" if move.side else "")
            if move.alternative is not None:
                words += (f"; with the tool on the {move.alternative.side} side it "
                          f"{motion_words(move.start, move.alternative.end)}")
            words += ")"
            said.append(words)
        events = [event_text(e.kind, e.pieces) for e in outcome.events if e.kind not in ("overlap",)]
        return f"{'; '.join(said) or 'no ship moves'}; {', '.join(events) or 'nothing else happens'}."

    # --- the rest ------------------------------------------------------------------------------

    def page_notes(self) -> str:
        return PAGE_NOTES


def _attempt_text(attempt: Attempt, move: Move) -> str:
    what = []
    if attempt.ships:
        what.append("overlaps " + ", ".join(attempt.ships))
    if attempt.squadrons:
        what.append("overlaps squadron " + ", ".join(attempt.squadrons))
    if attempt.tool:
        what.append("overlaps the tool")
    return (f"attempt at speed {attempt.speed} ({move.side or 'no tool'} side): {_pose_text(attempt.pose)}"
            f" - {'; '.join(what) or 'clear'}")


RULESET = ArmadaRuleset()

__all__ = ["RULESET", "ArmadaRuleset"]
