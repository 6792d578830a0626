"""YPP's boundary (Capability.BOUNDARIES): two ships of the same size class meeting.

A bump is decided by comparing the classes of the mover and the ship it meets (bump.3:
smaller, bump.4: larger); the same class is the boundary between them. It is reached by
changing the second ship's type one class at a time: on the boundary the two classes are
equal, just either side the second ship is one class smaller or larger.
"""

from __future__ import annotations

from ...kept import Kept
from ...kit.boundary import Boundary, Chooser, Path
from .clauses import READING_POINTS
from .model import Scene, Ship, Turn
from .resolver import first_meeting
from .strategies import TYPES_BY_CLASS

DEFAULT = {p.name: p.default for p in READING_POINTS}


_MET: Kept[tuple[Scene, Turn], tuple[str, str] | None] = Kept(256)  # a landing asks of one scene more than once


def _first_meeting(scene: Scene, turn: Turn) -> tuple[str, str] | None:
    """The two ships of the first bump or collision under the default reading (none for a lone ship)."""
    if len(scene.ships) < 2:
        return None
    return _MET.get((scene, turn), lambda: first_meeting(scene, turn, DEFAULT))


def class_difference(scene: Scene, turn: Turn) -> float | None:
    """In the first bump or collision: the class of the ship that moved into the other less
    the class of the other (0: the same class)."""
    met = _first_meeting(scene, turn)
    if met is None:
        return None
    ships = scene.by_name
    return float(ships[met[0]].size - ships[met[1]].size)


def class_path(scene: Scene, turn: Turn, choose: Chooser) -> Path | None:
    """The second ship of the first meeting takes a type of each class in turn, from grand
    down to small."""
    met = _first_meeting(scene, turn)
    if met is None:
        return None
    other = met[1]

    def at(t: float) -> tuple[Scene, Turn]:
        kind = TYPES_BY_CLASS[len(TYPES_BY_CLASS) - int(t)]
        ships = tuple(Ship(s.name, kind, s.at, s.heading) if s.name == other else s for s in scene.ships)
        return Scene(scene.board, ships), turn

    return Path(at, 1, len(TYPES_BY_CLASS), integral=True)


BOUNDARIES = (
    Boundary("same-class", ("bump.3", "bump.4"),
             "the class of a ship that moves into another against the other's class",
             class_difference, class_path, integral=True),
)
