"""What laying a tile would do to the features, worked out without laying it.

The games' simple players (``carcassonne.heuristic``, ``hunters_gatherers.heuristic``) weigh
every placement of the tile drawn; laying each one and taking it back would cost a copy of the
whole position each time. :func:`preview` reads the same answer from the board and the feature
graph as they are: which features of the new tile end up in one feature, which features already
laid they join, and whether that feature would then be complete.

>>> from games.engines.tiles import Board, FeatureGraph, TileDef
>>> end = TileDef.build("E", {"N": ("forest", (0, 0, 0)), "E": ("meadow", (1, 1, 1)),
...                           "S": ("meadow", (1, 1, 1)), "W": ("meadow", (1, 1, 1))},
...                     {0: "forest", 1: "meadow"})
>>> board, graph = Board(), FeatureGraph()
>>> _ = graph.add_tile(board.place(end, (0, 0), 0), board)
>>> forest = next(j for j in preview(board, graph, end, (0, -1), 2) if 0 in j.features)
>>> forest.roots, forest.open_contacts, forest.tiles(graph)
((0,), 0, 2)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from .board import Board
from .features import FeatureGraph
from .geometry import Position, meeting_sub_edge
from .tile import TileDef


@dataclass(frozen=True, slots=True)
class Joining:
    """One feature as it would be once the tile is laid."""

    features: tuple[int, ...]
    """The new tile's features (its own ids) that are part of it."""
    roots: tuple[int, ...]
    """The features already laid (union–find roots) it joins."""
    open_contacts: int
    """Its open contacts once laid: 0 is complete (for a feature that reaches a side at all)."""

    def tiles(self, graph: FeatureGraph) -> int:
        """The distinct tiles it would spread over, the new one included (read from ``graph``
        only when asked: a large meadow has many)."""
        if len(self.roots) == 1:
            return graph.tile_count(self.roots[0]) + 1
        return len({graph.node_tile[node] for root in self.roots for node in graph.members(root)}) + 1


def preview(board: Board, graph: FeatureGraph, tile: TileDef, position: Position, quarter_turns: int) -> list[Joining]:
    """The features ``tile`` laid at ``position`` turned ``quarter_turns`` would make, one
    :class:`Joining` per feature (the same counting as :meth:`FeatureGraph.add_tile`)."""
    # Keys: a feature of the new tile is ``-1 - id``, a feature laid already its root (>= 0).
    parent = {-1 - fid: -1 - fid for fid in tile.feature_kinds}

    def find(key: int) -> int:
        while parent.setdefault(key, key) != key:
            key = parent[key]
        return key

    closed: Counter[int] = Counter()
    for side, other in board.neighbours(position):
        # The edges facing each other, read as printed_side() does, without building Side values.
        mine = tile.edges[(side - quarter_turns) % 4].sub_edges
        theirs = other.tile.edges[(side + 2 - other.quarter_turns) % 4].sub_edges
        other_nodes = graph.nodes_of_tile(other.order)
        roots = [graph.root(other_nodes[fid]) for fid in theirs]
        for i in range(3):
            a, b = find(-1 - mine[i]), find(roots[meeting_sub_edge(i)])
            if a != b:
                parent[b] = a
        for fid in set(mine):
            closed[-1 - fid] += 1
        for fid in set(theirs):
            closed[graph.root(other_nodes[fid])] += 1
    groups: dict[int, list[int]] = {}
    for key in list(parent):
        groups.setdefault(find(key), []).append(key)
    joinings = []
    for keys in groups.values():
        features = tuple(sorted(-1 - key for key in keys if key < 0))
        if not features:
            continue
        roots_joined = tuple(sorted(key for key in keys if key >= 0))
        open_contacts = sum(len(tile.sides_touched(fid)) for fid in features)
        open_contacts += sum(graph.open_contacts(root) for root in roots_joined)
        open_contacts -= sum(closed[key] for key in keys)
        joinings.append(Joining(features, roots_joined, open_contacts))
    return joinings


ActionT = TypeVar("ActionT")


class Playable(Protocol):
    @property
    def is_over(self) -> bool: ...
    def apply(self, action: Any) -> None: ...


GameT = TypeVar("GameT", bound=Playable)


def play_out(game: GameT, choose: Callable[[GameT, random.Random], ActionT], seed: int) -> list[ActionT]:
    """Play ``game`` to its end with ``choose`` (the simple player's rule); the seed only breaks
    ties, through a generator of its own, so the same seed plays the same game."""
    chooser = random.Random(f"{seed}:heuristic")  # str seeds hash the same on every run
    actions: list[ActionT] = []
    while not game.is_over:
        action = choose(game, chooser)
        game.apply(action)
        actions.append(action)
    return actions
