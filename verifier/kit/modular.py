"""A ruleset wired to its own modules by name.

Most rulesets keep their drawing, animation and explorer code in modules of their
own and forward the contract's methods to them. ``ModularRuleset`` does that
forwarding once, so a ruleset says which modules it has and writes no wrappers:

    class MyRuleset(ModularRuleset):
        drawing = "mygame.draw"          # draw_case(before, actions, outcome) and draw_panels(...)
        draw_options = {"draw": frozenset({"title"}), ...}  # the DrawOptions each drawing honours
        animation = "mygame.animate"     # draw_frames, draw_stacked, describe_scene
        explorer = "mygame.explore"      # outcome_key, strategy, scene, transforms, ...
        parsing = "mygame.parse"         # case_data, expect_data: the case file's writer beside its reader
        interchange = "mygame.interchange"  # outcome_json, outcome_from_json (state_json, state_from_json)
        suites = "mygame.bench"          # SUITES, the benchmark suites
        boundary = "mygame.boundaries"   # BOUNDARIES, the contacts, ties and limits (kit.boundary)

A ruleset laid out as docs/ruleset-guide.md lists names its ``package`` instead, and
each module it leaves unnamed is the package's module of the layout's name:

    class MyRuleset(ModularRuleset):
        package = "mygame"               # mygame.draw, mygame.animate, mygame.explore, ...

A ruleset with no ``parsing`` module keeps ``case_data`` and ``expect_data`` in its
explorer module (a small one may keep everything there).

A module is imported the first time one of its functions is needed, so commands
that never draw never import Pillow code. Only the methods of the capabilities a
ruleset declares are ever called by the core; a module lacking a function it
declares fails the contract tests, not a user's run.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from importlib import import_module
from typing import Any

from ..ruleset import AnimationFrame, BenchSuite, DrawOptions, Outcome, Ruleset, Transform
from .interchange import require_finite_numbers

# The module of each role in the one layout of a ruleset package (docs/ruleset-guide.md).
LAYOUT: Mapping[str, str] = {"drawing": "draw", "animation": "animate", "explorer": "explore", "parsing": "parse",
                             "interchange": "interchange", "suites": "bench", "boundary": "boundaries"}


class ModularRuleset(Ruleset):
    package: str = ""
    drawing: str = ""
    animation: str = ""
    explorer: str = ""
    parsing: str = ""
    interchange: str = ""
    suites: str = ""
    boundary: str = ""

    def _module(self, role: str) -> str:
        """The module named for ``role``, else the package's module of the layout ("" for none)."""
        named: str = getattr(type(self), role)
        package = type(self).package
        return named or (f"{package}.{LAYOUT[role]}" if package else "")

    def _function(self, role: str, name: str) -> Any:
        # Looked up once per ruleset: the explorer calls these thousands of times a second.
        found = self.__dict__.setdefault("_functions", {})
        function = found.get((role, name))
        if function is None:
            module = self._module(role)
            if not module:
                raise NotImplementedError(f"ruleset {self.key!r} names no {role} module")
            function = found[(role, name)] = getattr(import_module(module), name)
        return function

    # drawing: the options asked for are checked against ``draw_options``, and the pieces to draw against
    # ``draw_piece_budget``, before any drawing code runs
    draw_piece_budget: int | None = None  # None: the kit's PIECE_BUDGET

    def pieces_drawn(self, before: Any, actions: Any, outcomes: Sequence[Outcome]) -> tuple[int, str]:
        """How many pieces a picture of ``before`` and ``outcomes`` draws one by one, and what
        they are ("ships", "areas"): a ruleset whose pictures grow with its pieces says so,
        and a picture of more than ``draw_piece_budget`` is refused before it is begun."""
        return 0, "pieces"

    def _check_pieces(self, before: Any, actions: Any, outcomes: Sequence[Outcome | None]) -> None:
        from .draw.layout import PIECE_BUDGET, check_pieces
        count, noun = self.pieces_drawn(before, actions, [o for o in outcomes if o is not None])
        check_pieces(count, what=f"a picture of {count:,} {noun}", advice="check it with --no-draw, or make a "
                     "smaller case", budget=PIECE_BUDGET if self.draw_piece_budget is None else self.draw_piece_budget)

    def draw(self, before: Any, actions: Any, outcome: Outcome, options: DrawOptions | None = None,
             **named: Any) -> Any:
        arguments = self.draw_arguments("draw", options, named)
        self._check_pieces(before, actions, [outcome])
        return self._function("drawing", "draw_case")(before, actions, outcome, **arguments)

    def draw_readings(self, before: Any, actions: Any, outcomes: Sequence[tuple[str, Outcome | None]],
                      options: DrawOptions | None = None, **named: Any) -> Any:
        arguments = self.draw_arguments("draw_readings", options, named)
        self._check_pieces(before, actions, [o for _, o in outcomes])
        return self._function("drawing", "draw_panels")(before, actions, list(outcomes), **arguments)

    # animation and the rule pages
    def draw_frames(self, before: Any, actions: Any, outcome: Outcome, options: DrawOptions | None = None,
                    **named: Any) -> list[AnimationFrame]:
        arguments = self.draw_arguments("draw_frames", options, named)
        self._check_pieces(before, actions, [outcome])
        return list(self._function("animation", "draw_frames")(before, actions, outcome, **arguments))

    def draw_narrow(self, before: Any, actions: Any, panels: Sequence[tuple[str, Outcome | None]],
                    options: DrawOptions | None = None, **named: Any) -> Any:
        arguments = self.draw_arguments("draw_narrow", options, named)
        self._check_pieces(before, actions, [o for _, o in panels])
        return self._function("animation", "draw_stacked")(before, actions, list(panels), **arguments)

    def describe_scene(self, before: Any, actions: Any) -> str:
        return str(self._function("animation", "describe_scene")(before, actions))

    # the adapter protocol
    def outcome_json(self, outcome: Outcome) -> dict[str, Any]:
        return dict(self._function("interchange", "outcome_json")(outcome))

    def outcome_from_json(self, before: Any, data: dict[str, Any]) -> Outcome:
        require_finite_numbers(data)
        return self._function("interchange", "outcome_from_json")(before, data)  # type: ignore[no-any-return]

    def state_json(self, state: Any) -> dict[str, Any]:
        return dict(self._function("interchange", "state_json")(state))

    def state_from_json(self, data: Mapping[str, Any]) -> Any:
        require_finite_numbers(dict(data))
        return self._function("interchange", "state_from_json")(data)

    # the benchmarks
    def benchmarks(self) -> tuple[BenchSuite, ...]:
        return tuple(self._function("suites", "SUITES"))

    def boundaries(self) -> tuple[Any, ...]:
        return tuple(self._function("boundary", "BOUNDARIES"))

    # the explorer
    def outcome_key(self, outcome: Outcome) -> Any:
        return self._function("explorer", "outcome_key")(outcome)

    def strategy(self, features: frozenset[str] | None = None) -> Any:
        """The explorer module's ``strategy()``, or ``strategy(features)`` where only some of the
        ruleset's features may be used."""
        make = self._function("explorer", "strategy")
        return make() if features is None else make(features)

    def scene(self, choices: Any, features: frozenset[str] | None = None) -> tuple[Any, Any]:
        """The explorer module's ``scene(choices)``, or ``scene(choices, features)`` where only some
        of the ruleset's features may be used."""
        build = self._function("explorer", "scene")
        return tuple(build(choices) if features is None else build(choices, features))

    def transforms(self, before: Any, actions: Any) -> list[Transform]:
        return list(self._function("explorer", "transforms")(before, actions))

    def invariant_breaches(self, before: Any, actions: Any, outcome: Outcome) -> list[tuple[str, tuple[str, ...], str]]:
        return list(self._function("explorer", "invariant_breaches")(before, actions, outcome))

    def simpler(self, before: Any, actions: Any) -> Iterator[tuple[Any, Any]]:
        return iter(self._function("explorer", "simpler")(before, actions))

    # the case file's writer
    def _writer(self) -> str:
        return "parsing" if self._module("parsing") else "explorer"

    def case_data(self, before: Any, actions: Any) -> tuple[Any, Any]:
        return tuple(self._function(self._writer(), "case_data")(before, actions))

    def expect_data(self, before: Any, outcome: Outcome) -> dict[str, Any]:
        return dict(self._function(self._writer(), "expect_data")(before, outcome))

    def exhaustive_spaces(self) -> Mapping[str, str]:
        return dict(self._function("explorer", "EXHAUSTIVE_SPACES"))

    def exhaustive_space(self, name: str) -> tuple[int, Iterator[tuple[Any, Any]]]:
        return self._function("explorer", "exhaustive_space")(name)  # type: ignore[no-any-return]

    def exhaustive_shard(self, name: str, index: int, count: int) -> Iterator[tuple[Any, Any, int]]:
        # The module's function may shard only some spaces: None leaves a space to the default.
        explorer = self._module("explorer")
        shard = getattr(import_module(explorer), "exhaustive_shard", None) if explorer else None
        scenes = shard(name, index, count) if shard is not None else None
        if scenes is None:
            return super().exhaustive_shard(name, index, count)
        return iter(scenes)
