"""The scenes fuzz sends: drawn from the ruleset's explorer strategy (a share of them moved
onto the ruleset's boundaries), their reorderings, and each scene's case data (its JSON
form), taken once and sent as is."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..ruleset import Capability, Ruleset, Transform


def require(ruleset: Ruleset) -> None:
    """Raise UnsupportedError, with a sentence, unless ``ruleset`` can be fuzzed."""
    ruleset.require(Capability.SEARCH, "verifier fuzz (scenes come from the explorer's strategies)")
    ruleset.require(Capability.INTERCHANGE, "verifier fuzz (scenes go to the implementation over the adapter "
                                            "protocol)")
    ruleset.require(Capability.FINDINGS, "verifier fuzz (minimal scenes are written as case files)")


def draw_scenes(ruleset: Ruleset, seed: int, examples: int, deadline: float,
                visit: Callable[[Any, Any, Any], None], boundary_share: float = 0.0,
                stop: Callable[[], bool] | None = None, features: frozenset[str] | None = None) -> bool:
    """Hand ``visit`` each scene as the ruleset generates it (built from the seed where it can,
    else drawn by Hypothesis: ``generation.each_generated_scene``), with its
    ``kit.boundary.Visit`` (None for a scene not built on a boundary; ``boundary_share`` of them
    are); True when the ``deadline`` (or ``stop``) ended the drawing early. ``features``: the
    ruleset's features the implementation supports (None: all), so that only scenes it can
    answer are drawn."""
    from ..generation import each_generated_scene
    return each_generated_scene(ruleset, visit, seed=seed, examples=examples, deadline=deadline,
                                boundary_share=boundary_share, stop=stop, features=features)


def order_transforms(ruleset: Ruleset, before: Any, actions: Any) -> list[Transform]:
    """The reorderings of a scene: the same scene with its pieces listed in another order."""
    return [t for t in ruleset.transforms(before, actions) if t.kind == "order"]


@dataclass(frozen=True)
class SceneData:
    """A scene's case data, as a case file and a request carry it."""

    before: Any
    actions: Any

    @staticmethod
    def of(ruleset: Ruleset, before: Any, actions: Any) -> SceneData:
        return SceneData(*ruleset.case_data(before, actions))


def scene_request(ruleset: Ruleset, request_id: str, data: SceneData) -> dict[str, Any]:
    """The protocol message for a scene, told the ruleset's default reading."""
    return {"type": "case", "id": request_id, "ruleset": ruleset.key,
            "readings": dict(ruleset.default_reading), "pinned": {},
            "before": data.before, "actions": data.actions}
