"""The reference resolver: a pure function of (scene, actions, reading).

Actions run in the case's order, as the turn's player takes them; the pieces are
always taken in order of name, so nothing depends on the order a case lists them in.
A move or shot that the rules do not allow at this point of the turn does not happen and
costs no action: it leaves an event that says why. An action the rules never allow (more
steps than the ship's size moves, a shot at itself, a stern shot without a rear cannon)
refuses the case: nothing is carried out, and the outcome's refusal cites the clause.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import TypeVar, cast

from shapely.geometry import Point, Polygon

from verifier.kit import geometry as kit_geometry
from verifier.kit.geometry import TOLERANCE, Contact, ShapeIndex, classify
from verifier.ruleset import Cause, Decision, Event, Frame, Outcome, Refusal, refused_outcome

from ...kit.memo import ReadingMemo
from ...kit.words import count
from .clauses import READING_POINTS
from .geometry import (
    World,
    beyond_reach,
    check_step,
    fan,
    firing_area,
    forget_worlds,
    grown,
    has_step,
    in_area,
    sight_line,
    world_of,
)
from .model import (
    MAX_STEPS,
    PIPS,
    SIZES,
    TEMPLATES,
    XY,
    Action,
    Actions,
    Interval,
    Scene,
    Ship,
    State,
    bow,
    clear_shapes,
    flag_shape,
    footprint,
    obstacle_shape,
)
from .parse import forget_scenes

Made = TypeVar("Made")

MOVE_CLAUSE = {"large": "move.1a", "medium": "move.1b", "small": "move.1c"}
SETUP_GAP = {"12-inches": 12.0, "10-inches": 10.0}


_APPLIED: dict[str, Cause] = {}  # Cause.applied by clause: the resolver names a few dozen clauses


def _applied(clause: str) -> Cause:
    known = _APPLIED.get(clause)
    if known is None:
        known = _APPLIED[clause] = Cause.applied(clause)
    return known


@dataclass
class _Run:
    scene: Scene
    reading: Mapping[str, str]
    ships: dict[str, Ship]
    player: int
    events: list[Event] = field(default_factory=list)
    causes: dict[str, list[Cause]] = field(default_factory=dict)
    decisions: list[Decision] = field(default_factory=list)
    consulted: set[str] = field(default_factory=set)
    fans: dict[str, tuple[Interval, ...]] = field(default_factory=dict)
    used: int = 0
    moved: set[str] = field(default_factory=set)
    shots: dict[str, int] = field(default_factory=dict)
    winner: str | None = None
    kept_world: tuple[tuple[Ship, ...], World] | None = None  # the ships as they were, and their world

    @property
    def footprint(self) -> str:
        return self.reading["footprint"]

    @property
    def current(self) -> str:
        return self.scene.players[self.player]

    def cause(self, name: str, *clauses: str) -> None:
        causes = self.causes.setdefault(name, [])
        for clause in clauses:
            cause = _applied(clause)
            if cause not in causes:
                causes.append(cause)

    def follow(self, name: str, point: str) -> None:
        self.consulted.add(point)
        cause = Cause.followed(point, self.reading[point])
        if cause not in self.causes.setdefault(name, []):
            self.causes[name].append(cause)

    def outline(self, pieces: tuple[str, ...], near: tuple[str, ...]) -> None:
        """Consult the footprint reading: the seed never says what outline a flat pyramid covers (a gap)."""
        self.follow(pieces[0], "footprint")
        decision = Decision("footprint", (), (), pieces, near=near,
                            detail="the source says only that a pyramid lies flat, not what outline it covers")
        if decision not in self.decisions:
            self.decisions.append(decision)

    def state(self) -> State:
        ordered = tuple(self.ships[s.name] for s in self.scene.ships)
        return State(self.scene.with_ships(ordered), tuple(sorted(self.fans.items())), self.winner)

    def world(self) -> World:
        pieces = tuple(self.ships.values())
        if self.kept_world is None or self.kept_world[0] != pieces:  # a ship moved, was hit or sank since
            self.kept_world = (pieces, world_of(self.scene, self.ships, self.footprint))
        return self.kept_world[1]

    def afloat(self) -> list[Ship]:
        return [self.ships[n] for n in sorted(self.ships) if not self.ships[n].sunk]

    def enemy_marks(self, player: str) -> frozenset[str]:
        """The enemy flags and flagships a ship of ``player`` wins by touching, where it may touch them."""
        if not self.scene.variants.flag:
            return frozenset()
        marks = {f.name for f in self.scene.flags if f.player != player}
        marks |= {ship for owner, ship in self.scene.flagships if owner != player and not self.ships[ship].sunk}
        return frozenset(marks)


def _refuse(run: _Run, action: Action, why: str, clause: str) -> bool:
    """Whether the action may not be taken at all (then an event says why)."""
    ship = run.ships[action.ship]
    reasons = [
        (run.winner is not None, "the game is over", "goal.1"),
        (ship.sunk, f"{ship.name} has sunk", "dmg.2"),
        (ship.player != run.current, f"it is {run.current}'s turn", "play.1"),
        (run.used >= 3, "the turn's three actions are spent", "play.1"),
        (bool(why), why, clause),
    ]
    for refused, words, rule in reasons:
        if refused:
            run.events.append(Event("refused", (ship.name,), clause=rule, detail=words))
            run.cause(ship.name, rule)
            return True
    return False


def _win(run: _Run, player: str, clause: str, detail: str) -> None:
    run.winner = player
    run.events.append(Event("win", (player,), clause=clause, detail=detail))
    run.cause(player, clause)


def _check_goal(run: _Run, sinker: str, sunk: Ship) -> None:
    if run.scene.variants.flag and (sunk.player, sunk.name) in run.scene.flagships:
        _win(run, sinker, "alt.goal.1", f"{sunk.name}, the flagship of {sunk.player}, sank")
        return
    left = {s.player for s in run.afloat()}
    if len(left) == 1:
        _win(run, left.pop(), "goal.1", "the last player with ships afloat")


def _move(run: _Run, action: Action) -> None:
    ship = run.ships[action.ship]
    if _refuse(run, action, f"{ship.name} has moved this turn" if ship.name in run.moved else "", "play.1a"):
        return
    world = run.world()
    marks = run.enemy_marks(ship.player)
    passable = marks if run.reading["flag-contact"] == "wins" else frozenset()
    run.outline((ship.name,), ("move.2b", "move.5"))
    run.cause(ship.name, "play.1a", MOVE_CLAUSE[ship.size], "move.2a", "move.2b", "move.2c", "move.5", "move.note",
              "move.4")
    current, poses, reached = ship, [], frozenset[str]()
    for step, heading in enumerate(action.steps, 1):
        check = check_step(current, heading, world, frozenset({ship.name}))
        touched = frozenset(check.overlapping + check.touching) & marks
        if touched:
            run.follow(ship.name, "flag-contact")
            run.decisions.append(Decision("flag-contact", ("move.5", "alt.goal.1"),
                                          ("the step touches another object: not allowed", "touching the enemy flag "
                                           "wins"), (ship.name, *sorted(touched)), near=(),
                                          detail=f"step {step} of {ship.name} would touch "
                                                 f"{', '.join(sorted(touched))}"))
        borderline = (check.old is Contact.TOUCHING or check.edge is Contact.TOUCHING or set(check.touching) - marks)
        hard = check.old is Contact.OVERLAPPING or check.edge is Contact.OVERLAPPING or set(check.overlapping) - marks
        if borderline and not hard:
            run.follow(ship.name, "contact")
            if run.reading["contact"] == "touch":
                run.cause(ship.name, "fiddly.1")
            touched_names = sorted(set(check.touching) - marks)
            touched_words = touched_names + (["the edge"] if check.edge is Contact.TOUCHING else []) + (
                ["the old piece"] if check.old is Contact.TOUCHING else [])
            run.decisions.append(Decision("contact", (), (), (ship.name, *touched_names), near=("move.5", "fiddly.1"),
                                          detail=f"step {step} of {ship.name} would touch {', '.join(touched_words)} "
                                                 "without overlapping"))
        if not check.allowed(run.reading, passable):
            blockers = sorted(set(check.overlapping + check.touching) - passable)
            what = "the old piece" if check.old is not Contact.APART and not blockers else (
                "the edge" if check.edge is not Contact.APART and not blockers else ", ".join(blockers))
            clause = "move.note" if what == "the old piece" else "move.5"
            run.events.append(Event("blocked", (ship.name, *blockers[:1]), clause=clause, at=(step, heading % 360.0),
                                    detail=f"step {step} at {heading:g}° would meet {what}"))
            if step == 1 and not has_step(current, world, run.reading, frozenset({ship.name}), passable):
                run.events.append(Event("stuck", (ship.name,), clause="move.note"))
            if step == 1:
                return
            # "the move is not allowed": the whole move, or only the step that meets something?
            run.follow(ship.name, "blocked-move")
            run.decisions.append(Decision("blocked-move", (), (), (ship.name,), near=("move.5", "move.3"),
                                          detail=f"step {step} of {ship.name} is blocked after "
                                                 f"{count(step - 1, 'allowed step')}"))
            if run.reading["blocked-move"] == "whole":
                return
            break
        x, y = bow(current, run.footprint)
        current = current.placed((x, y), heading % 360.0)
        poses.append((x, y, heading % 360.0))
        if touched and run.reading["flag-contact"] == "wins":
            reached = touched
            break
    if len(action.steps) > 1:
        run.cause(ship.name, "move.3")
    if ship.damage:
        run.cause(ship.name, "dmg.3")
    run.cause(ship.name, "move.2d")
    run.ships[ship.name] = current
    run.used += 1
    run.cause(ship.name, "play.1")
    run.moved.add(ship.name)
    run.events.append(Event("move", (ship.name,), clause=MOVE_CLAUSE[ship.size], at=tuple(poses),
                            detail=count(len(poses), "step")))
    if reached:
        owner = next((f.player for f in run.scene.flags if f.name in reached), None) or next(
            run.ships[n].player for n in sorted(reached))
        _win(run, ship.player, "alt.goal.1", f"{ship.name} touched the flag of {owner}")


def _others(run: _Run, *skip: str) -> ShapeIndex:
    shapes: dict[str, Polygon] = {s.name: footprint(s, run.footprint) for s in run.afloat() if s.name not in skip}
    shapes.update({o.name: obstacle_shape(o) for o in sorted(run.scene.obstacles, key=lambda o: o.name)})
    shapes.update({f.name: flag_shape(f) for f in sorted(run.scene.flags, key=lambda f: f.player)})
    return ShapeIndex(shapes)


PLACEMENTS = tuple(next(p.options for p in READING_POINTS if p.name == "placement"))


@dataclass(frozen=True)
class _Look:
    """What a side's cannons find with the large piece laid one way (one placement)."""

    inside: bool  # the target lies in the area, as the target reading says
    hit: bool
    words: str  # why not
    blockers: tuple[str, ...]
    partial: bool  # only part of the target lies in the area: the target reading decides
    touching: bool  # the target touches the area without overlapping it
    sights_differ: bool  # in the area, but the line of fire and the area meet different objects


def _look(run: _Run, ship: Ship, side: str, target: Ship, placement: str, target_reading: str,
          sight_reading: str) -> _Look:
    """What the look finds depends on the pieces afloat and the readings named, all of which
    the World of the run stands for: it keeps the look for every other reading."""
    world = run.world()
    key = (ship, side, target, placement, target_reading, sight_reading)
    known = world.looks.get(key)
    if known is None:
        known = world.looks[key] = _new_look(run, world, ship, side, target, placement, target_reading,
                                             sight_reading)
    assert isinstance(known, _Look)
    return known


def _kept(world: World, key: tuple[object, ...], make: Callable[[], Made]) -> Made:
    """What ``make`` gives, kept in the world under ``key``: a part of a look that no reading
    but the footprint changes, worked out once for the looks of every other reading."""
    known = world.looks.get(key)
    if known is None:
        known = world.looks[key] = make()
    return cast(Made, known)


_OUT_OF_AREA = _Look(False, False, "out of the area the cannons reach", (), False, False, False)


def _new_look(run: _Run, world: World, ship: Ship, side: str, target: Ship, placement: str, target_reading: str,
              sight_reading: str) -> _Look:
    if beyond_reach(ship, side, target, run.footprint, placement):
        return _OUT_OF_AREA  # what the look below finds where the area and the target are apart
    area, mid = firing_area(ship, side, run.footprint, placement)
    shape = footprint(target, run.footprint)
    laid = (ship, side, target, placement)
    contact = _kept(world, ("contact", *laid), lambda: classify(area, shape))

    def whole() -> bool:
        return _kept(world, ("whole", *laid), lambda: bool(grown(area).contains(shape)))

    inside = in_area(contact, whole, target_reading)
    partial = contact is Contact.OVERLAPPING and not whole()
    touching = contact is Contact.TOUCHING
    if not inside:
        return _Look(False, False, "out of the area the cannons reach", (), partial, touching, False)
    on_line, in_zone = _kept(world, ("sights", *laid), lambda: _sights(run, ship, target, area, mid, shape))
    blockers = on_line if sight_reading == "centre-line" else in_zone
    words = f"obstructed by {', '.join(blockers)}" if blockers else ""
    return _Look(True, not blockers, words, blockers, partial, touching, set(on_line) != set(in_zone))


def _sights(run: _Run, ship: Ship, target: Ship, area: Polygon, mid: XY,
            shape: Polygon) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The other pieces on the line of fire to the target, and those overlapping the area."""
    index = _others(run, ship.name, target.name)
    line = sight_line(mid, area, shape)
    on_line = tuple(index.near(line))
    in_zone = tuple(n for n, c in index.contacts(area).items() if c is Contact.OVERLAPPING)
    return on_line, in_zone


def _aim(run: _Run, ship: Ship, side: str, target: Ship, record: bool) -> tuple[bool, str, tuple[str, ...]]:
    """Whether ``ship`` can hit ``target`` from ``side``: (hit, why not, blockers)."""
    run.outline((ship.name,), ("fire.3",))
    placement, target_reading, sight_reading = (run.reading[p] for p in ("placement", "target", "sight"))
    look = _look(run, ship, side, target, placement, target_reading, sight_reading)
    # The placement reading is consulted only where the other placement finds something else
    # (a shot, or a question for another reading): where both find the same, no option of it
    # changes the outcome, and fuzz's decision tree need not branch on it.
    if any(_look(run, ship, side, target, other, target_reading, sight_reading) != look
           for other in PLACEMENTS if other != placement):
        run.follow(ship.name, "placement")
    if look.partial:
        run.follow(ship.name, "target")
        if record:
            run.decisions.append(Decision("target", (), (), (ship.name, target.name), near=("fire.3",),
                                          detail=f"only part of {target.name} lies in the area"))
    if look.touching:
        run.cause(ship.name, "fiddly.1")
    if not look.inside:
        return False, look.words, ()
    if look.sights_differ:
        run.follow(ship.name, "sight")
        if record:
            run.decisions.append(Decision("sight", (), (), (ship.name, target.name), near=("fire.3",),
                                          detail="an object lies in the area but off the line of fire, or the "
                                                 "other way round"))
    return look.hit, look.words, look.blockers


def _fire(run: _Run, action: Action) -> None:
    ship = run.ships[action.ship]
    target = run.ships[action.target]
    shots = run.shots.get(ship.name, 0)
    why = (f"{ship.name} has fired all {count(PIPS[ship.size], 'shot')} this turn" if shots >= PIPS[ship.size] else
           f"{target.name} has already sunk" if target.sunk else "")
    if _refuse(run, action, why, "fire.1" if shots >= PIPS[ship.size] else "dmg.2"):
        return
    if target.player == ship.player:  # the seed speaks of "the object you wish to shoot at", friend or foe
        run.follow(ship.name, "friendly-fire")
        run.decisions.append(Decision("friendly-fire", (), (), (ship.name, target.name), near=("fire.3", "goal.1"),
                                      detail=f"{ship.name} aims at {target.name}, a ship of its own side"))
        if run.reading["friendly-fire"] == "forbidden":
            run.events.append(Event("refused", (ship.name,), clause="goal.1",
                                    detail=f"{target.name} is a ship of {ship.player}'s own fleet"))
            run.cause(ship.name, "goal.1")
            return
    run.cause(ship.name, "play.1b", "fire.1", "fire.3")
    if action.side == "stern":
        run.cause(ship.name, "alt.rule.1")
    hit, words, blockers = _aim(run, ship, action.side, target, True)
    if not hit:
        if blockers:
            run.events.append(Event("obstructed", (ship.name, target.name, blockers[0]), clause="fire.3"))
        else:
            run.events.append(Event("no-shot", (ship.name, target.name), clause="fire.3", detail=words))
        return
    run.used += 1
    run.cause(ship.name, "play.1")
    run.shots[ship.name] = shots + 1
    damage = target.damage + 1
    sunk = damage >= PIPS[target.size]
    run.ships[target.name] = replace(target, damage=damage, sunk=sunk)
    run.events.append(Event("hit", (ship.name, target.name), clause="dmg.1", detail=action.side))
    run.cause(target.name, "fire.3", "dmg.1")
    if target.damage:  # earlier damage stayed with the ship and counts towards this total
        run.cause(target.name, "dmg.3")
    if sunk:
        run.events.append(Event("sunk", (target.name,), clause="dmg.2"))
        run.cause(target.name, "dmg.2")
        _check_goal(run, ship.player, target)


def _range(run: _Run, action: Action) -> None:
    ship = run.ships[action.ship]
    if ship.sunk:
        run.events.append(Event("refused", (ship.name,), clause="dmg.2", detail=f"{ship.name} has sunk"))
        run.cause(ship.name, "dmg.2")
        return
    sides = ["port", "starboard"] + (["stern"] if run.scene.variants.rear_cannon and ship.size == "large" else [])
    run.cause(ship.name, "fire.3")
    if "stern" in sides:
        run.cause(ship.name, "alt.rule.1")
    for side in sides:
        for target in run.afloat():
            if target.name != ship.name and _aim(run, ship, side, target, True)[0]:
                run.events.append(Event("in-range", (ship.name, target.name), clause="fire.3", detail=side))


def _fan(run: _Run, action: Action) -> None:
    ship = run.ships[action.ship]
    if ship.sunk:
        run.events.append(Event("refused", (ship.name,), clause="dmg.2", detail=f"{ship.name} has sunk"))
        run.cause(ship.name, "dmg.2")
        return
    marks = run.enemy_marks(ship.player)
    passable = marks if run.reading["flag-contact"] == "wins" else frozenset()
    world = run.world()
    intervals, touches = fan(ship, world, run.reading, frozenset({ship.name}), passable)
    run.outline((ship.name,), ("move.2b", "move.note"))
    run.cause(ship.name, "move.2b", "move.2c", "move.5", "move.note")
    if touches:
        run.follow(ship.name, "contact")
        if run.reading["contact"] == "touch":
            run.cause(ship.name, "fiddly.1")
        named = sorted({n for t in touches for n in t.touching} - marks)
        what = named + (["the edge"] if any(t.edge is Contact.TOUCHING for t in touches) else []) + (
            ["the old piece"] if any(t.old is Contact.TOUCHING for t in touches) else [])
        run.decisions.append(Decision("contact", (), (), (ship.name, *named), near=("move.5", "fiddly.1"),
                                      detail=f"at {count(len(touches), 'heading')} the step of {ship.name} would touch "
                                             f"{', '.join(what)} without overlapping"))
    reach = TEMPLATES[(ship.size, run.footprint)].reach
    if marks and marks & set(world.index.near(Point(bow(ship, run.footprint)), tolerance=reach + 1e-3)):
        run.follow(ship.name, "flag-contact")  # a mark within a step's reach: the reading decides whether it blocks
    run.fans[ship.name] = intervals
    if not intervals:
        run.events.append(Event("stuck", (ship.name,), clause="move.note"))


def _setup(run: _Run) -> None:
    scene, variants = run.scene, run.scene.variants
    for ship in run.afloat():
        run.cause(ship.name, "setup.2a", "setup.2b", "setup.note")
    if scene.area.is_circle:
        across = 2 * scene.area.radius
    else:
        pts = scene.area.points
        across = max(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5 for a in pts for b in pts)
    for player in scene.players:
        run.cause(player, "equip.3")
    if across < 20 - TOLERANCE:
        run.events.append(Event("setup-breach", scene.players, clause="equip.3",
                                detail=f"the area is only {across:g} inches across"))
    limit = 4 * variants.stashes
    if variants.stashes > 1:
        for player in scene.players:
            run.cause(player, "alt.setup.3")
    for player in scene.players:
        for size in SIZES:
            count = sum(1 for s in run.afloat() if s.player == player and s.size == size)
            if count > limit:
                run.events.append(Event("setup-breach", (player,), clause="setup.note",
                                        detail=f"{count} {size} ships; at most {limit}"))
    run.follow(scene.players[0], "setup-gap")
    run.outline(scene.players[:1], ("setup.2b",))
    gap = SETUP_GAP[run.reading["setup-gap"]]
    ships = run.afloat()
    shapes = {s.name: footprint(s, run.footprint) for s in ships}
    index = ShapeIndex(shapes)
    for a in ships:
        for name in index.near(shapes[a.name], tolerance=max(SETUP_GAP.values())):
            b = run.ships[name]
            if name <= a.name or b.player == a.player:
                continue
            apart = shapes[a.name].distance(shapes[name])
            if min(SETUP_GAP.values()) - TOLERANCE <= apart < max(SETUP_GAP.values()) - TOLERANCE:
                run.decisions.append(Decision("setup-gap", (), (), (a.name, name), near=("setup.2b",),
                                              detail=f"{a.name} and {name} start {apart:.2f} inches apart"))
            if apart < gap - TOLERANCE:
                run.events.append(Event("setup-breach", (a.name, name), clause="setup.2b",
                                        detail=f"{apart:.2f} inches apart, under {gap:g}"))
    if variants.points and variants.total is not None:
        values = dict(variants.points)
        for player in scene.players:
            run.follow(player, "points-total")
            run.cause(player, "alt.setup.2")
            cost = sum(values[s.size] for s in ships if s.player == player)
            over = cost > variants.total or (run.reading["points-total"] == "exactly" and cost != variants.total)
            if over:
                run.events.append(Event("setup-breach", (player,), clause="alt.setup.2",
                                        detail=f"the fleet costs {cost} points, the total is {variants.total}"))


_MEMO = ReadingMemo()  # the explorer and the rule pages resolve each scene under many readings


def resolve(scene: Scene, actions: Actions, reading: Mapping[str, str]) -> Outcome:
    refused = refusal(scene, actions)
    if refused is not None:
        return replace(refused_outcome(refused, unchanged(scene)), reading=MappingProxyType(dict(reading)),
                       frames=(Frame(0, "start", 0, unchanged(scene)),))
    return _MEMO.resolve((scene, actions), reading, lambda reading: carry_out(scene, actions, reading))


def clear_caches() -> None:
    """Forget the outcomes, worlds, scenes read and shapes kept (for benchmarks that time a resolution afresh)."""
    _MEMO.clear()
    forget_scenes()
    forget_worlds()
    clear_shapes()
    kit_geometry.clear_caches()


def refusal(scene: Scene, actions: Actions) -> Refusal | None:
    """The first action the rules never allow, whatever the state of the turn, as the refusal
    that cites the clause forbidding it; None where every action may be tried."""
    for action in actions:
        if action.kind == "move":
            size = scene.ship(action.ship).size
            if len(action.steps) > MAX_STEPS[size]:
                return Refusal(MOVE_CLAUSE[size], (action.ship,), f"a {size} ship moves at most "
                                                                  f"{count(MAX_STEPS[size], 'step')} in one move, "
                                                                  f"not {len(action.steps)}")
        elif action.kind == "fire":
            if action.target == action.ship:
                return Refusal("fire.3", (action.ship,), f"{action.ship} cannot fire at itself: a shot aims along "
                                                         "its side at another object")
            if action.side == "stern" and not scene.variants.rear_cannon:
                return Refusal("fire.3", (action.ship,), "a ship fires off its long sides only; a stern shot needs "
                                                         "the rear-cannon variant (variants: {rear-cannon: true})")
            if action.side == "stern" and scene.ship(action.ship).size != "large":
                return Refusal("alt.rule.1", (action.ship,), f"only large ships have a rear cannon; {action.ship} "
                                                             f"is {scene.ship(action.ship).size}")
    return None


def unchanged(scene: Scene) -> State:
    """The state of a scene whose action is refused: as it was."""
    return State(scene, (), None)


def carry_out(scene: Scene, actions: Actions, reading: Mapping[str, str]) -> Outcome:
    """What the actions do, with no check that the rules ever allow them (``refusal``): the
    resolver's work once nothing is refused. A toy implementation that ignores the prohibitions
    answers with it."""
    ships = {s.name: s for s in sorted(scene.ships, key=lambda s: s.name)}
    run = _Run(scene, reading, ships, scene.players.index(scene.turn))
    if scene.variants.obstructed:
        for obstacle in scene.obstacles:
            run.cause(obstacle.name, "alt.setup.1")
    frames = [Frame(0, "start", 0, run.state())]
    turn = 1
    for index, action in enumerate(actions, 1):
        first = len(run.events)
        if action.kind == "move":
            _move(run, action)
        elif action.kind == "fire":
            _fire(run, action)
        elif action.kind == "range":
            _range(run, action)
        elif action.kind == "fan":
            _fan(run, action)
        elif action.kind == "setup":
            _setup(run)
        else:
            run.player = (run.player + 1) % len(scene.players)
            run.used, run.moved, run.shots = 0, set(), {}
            turn += 1
        run.events[first:] = [replace(e, step=index, round=turn) for e in run.events[first:]]
        frames.append(Frame(turn, action.kind, index, run.state()))
    events = tuple(run.events)
    after = frames[-1].state  # nothing changes after the last frame
    return Outcome(after, events, {n: tuple(c) for n, c in sorted(run.causes.items())}, tuple(frames),
                   MappingProxyType(dict(reading)), tuple(run.decisions), frozenset(run.consulted))

