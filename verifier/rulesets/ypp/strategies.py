"""Hypothesis strategies for YPP scenes that favour interaction: ships packed
close together, tokens that aim at the same tiles, wind and whirlpools next to
ships, rocks and edges in the way."""

from __future__ import annotations

from hypothesis import strategies as st

from .model import SHIP_TYPES, Board, Heading, Scene, Ship, Token, Turn

# One representative type per size class keeps shrunk examples readable.
TYPES_BY_CLASS = ("sloop", "war brig", "war frigate", "grand frigate")


@st.composite
def boards(draw, min_size: int = 3, max_size: int = 7) -> Board:
    width = draw(st.integers(min_size, max_size))
    height = draw(st.integers(min_size, max_size))
    tiles = [(x, y) for x in range(width) for y in range(height)]
    whirlpools = []
    taken: set[tuple[int, int]] = set()
    for _ in range(draw(st.integers(0, 1))):
        x = draw(st.integers(0, width - 2))
        y = draw(st.integers(0, height - 2))
        block = {(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)}
        if not block & taken:
            whirlpools.append((x, y))
            taken |= block
    free = [t for t in tiles if t not in taken]
    wind_tiles = draw(st.lists(st.sampled_from(free), max_size=3, unique=True)) if free else []
    wind = []
    for tile in wind_tiles:
        wind.append((tile, draw(st.sampled_from(list(Heading)))))
        taken.add(tile)
    free = [t for t in tiles if t not in taken]
    rocks = draw(st.lists(st.sampled_from(free), max_size=2, unique=True)) if free else []
    return Board(width, height, frozenset(rocks), tuple(sorted(wind)), tuple(sorted(whirlpools)))


@st.composite
def scenes(draw, max_ships: int = 4, types=TYPES_BY_CLASS) -> Scene:
    board = draw(boards())
    free = sorted((x, y) for x in range(board.width) for y in range(board.height)
                  if (x, y) not in board.rocks)
    count = draw(st.integers(1, min(max_ships, len(free))))
    # Cluster ships around one centre so that they meet.
    centre = draw(st.sampled_from(free))
    near = sorted(free, key=lambda t: (abs(t[0] - centre[0]) + abs(t[1] - centre[1]), t))[: count + 4]
    spots = draw(st.lists(st.sampled_from(near), min_size=count, max_size=count, unique=True))
    ships = []
    for i, at in enumerate(spots):
        ships.append(Ship(chr(ord("A") + i), draw(st.sampled_from(types)), at,
                          draw(st.sampled_from(list(Heading)))))
    return Scene(board, tuple(ships))


@st.composite
def turns(draw, scene: Scene, max_rounds: int = 4) -> Turn:
    rounds = []
    for _ in range(draw(st.integers(1, max_rounds))):
        tokens = []
        for ship in scene.ships:
            token = draw(st.sampled_from(list(Token)))
            if token is not Token.NONE:
                tokens.append((ship.name, token))
        rounds.append(tuple(tokens))
    return Turn(tuple(rounds))


@st.composite
def scenes_and_turns(draw, max_ships: int = 4, max_rounds: int = 4):
    scene = draw(scenes(max_ships=max_ships))
    return scene, draw(turns(scene, max_rounds=max_rounds))


assert all(t in SHIP_TYPES for t in TYPES_BY_CLASS)
