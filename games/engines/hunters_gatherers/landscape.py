"""The landscape laid so far: tiles, their forests, rivers, meadows and lakes, river systems, figures.

Two partitions are kept over the same nodes (one node per feature printed on a
placed tile). *Features* (the core's :class:`FeatureGraph`) join across touching
sides: one forest, one river, one meadow. *River systems* also join every
river to the lake it flows into on its tile, so all rivers and lakes connected
to one another form one system (the unit huts score on).

>>> from games.engines.hunters_gatherers.tileset import load_tileset
>>> land = Landscape(load_tileset().start)
>>> sorted(land.feature(n).kind for n in land.graph.nodes_of_tile(0).values())
['forest', 'lake', 'meadow', 'meadow', 'river']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from games.engines.tiles import Around, Board, FeatureGraph, Figure, PlacedTile, Position, UnionFind

from .actions import TRIBE_MEMBERS
from .tileset import Feature, Lake, River, Tile, Tileset


class Landscape:
    """Placed tiles with their features (joined by the core) and river systems."""

    def __init__(self, start: Tile) -> None:
        self.board = Board()
        self.graph = FeatureGraph()
        self.systems = UnionFind()
        self.tiles: list[Tile] = []            # by placement order
        self._features: list[Feature] = []     # by node
        self._waters: list[int] = []           # the rivers' and lakes' nodes, in node order (huts score them)
        self.figures: list[Figure] = []        # every figure standing on the board
        self.place(start, (0, 0), 0)

    # -- state ---------------------------------------------------------------------------------
    def to_state(self) -> dict[str, Any]:
        """JSON-able: the core's board and feature graph, the river systems, the figures in order."""
        return {
            "board": self.board.to_state(),
            "features": self.graph.to_state(),
            "river_systems": self.systems.to_state(),
            "figures": [f.to_state() for f in self.figures],
        }

    @classmethod
    def from_state(cls, state: Mapping[str, Any], tileset: Tileset) -> Landscape:
        """The landscape of :meth:`to_state`, its tiles taken from ``tileset``; nothing is re-merged."""
        land = cls.__new__(cls)
        tiles: list[Tile] = []
        for tile_id, *_ in state["board"]["placed"]:
            tile = tileset.by_id.get(tile_id)
            if tile is None:
                raise ValueError(f"landscape state: {tileset.name} has no tile {tile_id!r}")
            tiles.append(tile)
        if not tiles or tiles[0].id != tileset.start.id:
            raise ValueError("landscape state: the start tile must be laid first")
        land.board = Board.from_state(state["board"], {t.id: t.geometry for t in tiles})
        land.tiles = tiles
        land.graph = FeatureGraph.from_state(state["features"], land.board)
        land.systems = UnionFind.from_state(state["river_systems"])
        if len(land.systems.parent) != len(land.graph.node_tile):
            raise ValueError("landscape state: river systems and features must cover the same nodes")
        land._features = [tiles[t].features[fid] for t, fid in zip(land.graph.node_tile, land.graph.node_feature)]
        land._waters = [node for node, feature in enumerate(land._features) if isinstance(feature, (River, Lake))]
        land.figures = [Figure.from_state(f) for f in state["figures"]]
        return land

    # -- laying tiles ----------------------------------------------------------------------
    def place(self, tile: Tile, position: Position, quarter_turns: int, around: Around | None = None) -> PlacedTile:
        """Lay ``tile`` (already checked to fit) and join its features and river systems;
        ``around`` is the board's :meth:`~Board.around` of ``position``, if the caller has it."""
        board = self.board
        if around is None:
            around = board.around(position)
        placed = board.place(tile.geometry, position, quarter_turns)
        self.tiles.append(tile)
        graph = self.graph
        graph.join_tile(placed, board, around)
        # The tile's nodes are numbered from ``first`` in the order of tile.in_node_order.
        first = len(self._features)
        self._features.extend(tile.in_node_order)
        if tile.water_offsets:
            self._waters.extend([first + offset for offset in tile.water_offsets])
        # UnionFind.add for each new node, written out: every tile laid comes through here.
        systems = self.systems
        new = range(first, len(self._features))
        systems.parent.extend(new)
        systems.size.extend([1] * len(new))
        union = systems.union
        for river, lake in tile.rivers_into_lakes:
            union(first + river, first + lake)
        # A river crossing a side joins the river of the tile beside it there (its middle third too).
        for side, river in tile.river_sides[quarter_turns]:
            other = around[side]
            if other is not None:
                theirs = other.tile.turned[other.quarter_turns][side ^ 2].sub_edges[1]
                union(first + river, graph.node(other.order, theirs))
        return placed

    def feature(self, node: int) -> Feature:
        """What is printed on ``node`` (a meadow with its animals, a lake with its fish...)."""
        return self._features[node]

    def features_of(self, nodes: Iterable[int]) -> list[Feature]:
        """:meth:`feature` of each of ``nodes``."""
        features = self._features
        return [features[node] for node in nodes]

    def placed(self, node: int) -> PlacedTile:
        return self.board.placed[self.graph.node_tile[node]]

    def node_count(self) -> int:
        return len(self._features)

    # -- looking ahead before a tile is laid -----------------------------------------------
    def joins(self, tile: Tile, position: Position, quarter_turns: int, around: Around | None = None,
              features: Iterable[int] | None = None) -> dict[int, set[int]]:
        """For each feature of ``tile`` laid so (or each of ``features``, when only those are
        asked about), the existing features (roots) it would join."""
        joined: dict[int, set[int]] = {fid: set() for fid in (tile.features if features is None else features)}
        graph = self.graph
        turned = tile.geometry.turned[quarter_turns]
        for side, other in enumerate(self.board.around(position) if around is None else around):
            if other is None:
                continue
            theirs = other.tile.turned[other.quarter_turns][side ^ 2]  # the opposite side
            other_nodes = graph.nodes_of_tile(other.order)
            for mine, their in turned[side].meeting(theirs):
                roots = joined.get(mine)
                if roots is not None:
                    roots.add(graph.root(other_nodes[their]))
        return joined

    def has_tribe_member(self, roots: Iterable[int]) -> bool:
        """Whether a gatherer, fisher or hunter stands on any of these features."""
        for root in roots:
            for figure in self.graph.figures(root):
                if figure.kind in TRIBE_MEMBERS:
                    return True
        return False

    def system_would_have_hut(self, tile: Tile, feature_id: int, joined: dict[int, set[int]]) -> bool:
        """Whether the river system ``feature_id`` would belong to once laid already holds a hut."""
        local = _local_system(tile, feature_id)
        systems = {self.systems.find(root) for fid in local for root in joined[fid]}
        return any(self.systems.find(f.node) in systems for f in self.figures if f.kind == "hut")

    # -- figures ---------------------------------------------------------------------------
    def add_figure(self, figure: Figure) -> None:
        self.graph.add_figure(figure)
        self.figures.append(figure)

    def remove_figures(self, node: int, kinds: Iterable[str]) -> list[Figure]:
        """Take figures of the given kinds off the feature of ``node``."""
        taken = self.graph.remove_figures(node, kinds)
        for figure in taken:
            self.figures.remove(figure)
        return taken

    def lakes_of_system(self, system_root: int) -> list[int]:
        kinds, find = self.graph.node_kind, self.systems.find
        return [n for n in self._waters if kinds[n] == "lake" and find(n) == system_root]

    def waters(self) -> list[int]:
        """The nodes of every river and lake, in node order: what river systems are made of."""
        return list(self._waters)


def _local_system(tile: Tile, feature_id: int) -> set[int]:
    """Features of ``tile`` in the same river system as ``feature_id`` through the tile's lakes."""
    feature = tile.features[feature_id]
    lakes = set()
    if isinstance(feature, Lake):
        lakes.add(feature.id)
    elif isinstance(feature, River) and feature.lake is not None:
        lakes.add(feature.lake)
    members = {feature_id} | lakes
    members.update(f.id for f in tile.features.values() if isinstance(f, River) and f.lake in lakes)
    return members
