"""Features merged across tiles with union–find, open-edge counts and figures on them.

Every feature printed on a placed tile is a *node*. Nodes joined across
touching sides form a *feature* (one forest, one river, one meadow...), kept
as a union–find root. Each feature counts its *open contacts*: pairs
(node, side) where a node reaches a side with no neighbour yet. A contact
closes when a tile arrives beside it, so a feature is complete exactly when its
count drops to zero; this costs O(1) per merge, however large the feature.

>>> from games.engines.tiles.board import Board
>>> from games.engines.tiles.tile import TileDef
>>> end = TileDef.build("E", {"N": ("forest", (0, 0, 0)), "E": ("meadow", (1, 1, 1)),
...                           "S": ("meadow", (1, 1, 1)), "W": ("meadow", (1, 1, 1))},
...                     {0: "forest", 1: "meadow"})
>>> board, graph = Board(), FeatureGraph()
>>> a = graph.add_tile(board.place(end, (0, 0), 0), board)
>>> forest = graph.node(0, 0)
>>> graph.is_complete(forest)
False
>>> b = graph.add_tile(board.place(end, (0, -1), 2), board)
>>> graph.is_complete(forest), graph.tile_count(forest)
(True, 2)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from .board import Around, Board, PlacedTile


class UnionFind:
    """Disjoint sets over the integers ``0..n-1``, grown one element at a time.

    >>> uf = UnionFind()
    >>> a, b, c = uf.add(), uf.add(), uf.add()
    >>> uf.union(a, c) == uf.find(c), uf.find(a) == uf.find(b)
    (True, False)
    """

    def __init__(self) -> None:
        self.parent: list[int] = []
        self.size: list[int] = []

    def add(self) -> int:
        self.parent.append(len(self.parent))
        self.size.append(1)
        return len(self.parent) - 1

    def find(self, x: int) -> int:
        parent = self.parent
        while parent[x] != x:
            parent[x] = parent[parent[x]]  # path halving keeps later finds short
            x = parent[x]
        return x

    def find_all(self, elements: Iterable[int]) -> list[int]:
        """:meth:`find` of each of ``elements``, in order.

        >>> uf = UnionFind()
        >>> _ = [uf.add() for _ in range(3)], uf.union(2, 0)
        >>> uf.find_all([0, 1, 2])
        [2, 1, 2]
        """
        parent = self.parent
        found = []
        for x in elements:
            while parent[x] != x:  # find, written out: the end of a game asks it of every river
                parent[x] = parent[parent[x]]
                x = parent[x]
            found.append(x)
        return found

    def union(self, a: int, b: int) -> int:
        """Join the sets of ``a`` and ``b``; returns the surviving root (the larger set's)."""
        parent, size = self.parent, self.size
        while parent[a] != a:  # find of both, written out: a river system joins on most tiles laid
            parent[a] = parent[parent[a]]
            a = parent[a]
        while parent[b] != b:
            parent[b] = parent[parent[b]]
            b = parent[b]
        if a == b:
            return a
        if size[a] < size[b]:
            a, b = b, a
        parent[b] = a
        size[a] += size[b]
        return a

    # -- state -----------------------------------------------------------------------------
    def roots(self) -> list[int]:
        """Each element's root, read without halving any path."""
        parent = self.parent
        roots = []
        for x in range(len(parent)):
            while parent[x] != x:
                x = parent[x]
            roots.append(x)
        return roots

    def to_state(self) -> dict[str, Any]:
        """JSON-able: the parent and size arrays, each parent stored as its element's root.

        Finds halve the paths they walk, so the raw parents depend on what was asked and in which
        order; the sets do not, and neither does their state.

        >>> uf = UnionFind()
        >>> _ = [uf.add() for _ in range(4)], uf.union(0, 1), uf.union(2, 3), uf.union(0, 2)
        >>> uf.parent, uf.to_state()
        ([0, 0, 0, 2], {'parent': [0, 0, 0, 0], 'size': [4, 1, 2, 1]})
        >>> UnionFind.from_state(uf.to_state()).find(3)
        0
        """
        return {"parent": self.roots(), "size": list(self.size)}

    @classmethod
    def from_state(cls, state: Mapping[str, Any]) -> UnionFind:
        """The sets of :meth:`to_state`; ``ValueError`` if the arrays disagree."""
        uf = cls()
        uf.parent = list(state["parent"])
        uf.size = list(state["size"])
        n = len(uf.parent)
        if len(uf.size) != n or (n and not 0 <= min(uf.parent) <= max(uf.parent) < n):
            raise ValueError("union-find state: parent and size must be as long, parents in range")
        return uf


class Figure(NamedTuple):
    """A piece standing on a node; ``kind`` is the game's word for it (e.g. ``"gatherer"``).

    A named tuple, as :class:`~.board.PlacedTile`: immutable and cheap to build.
    """

    owner: int
    kind: str
    node: int

    def to_state(self) -> list[Any]:
        """``[owner, kind, node]``, JSON-able."""
        return [self.owner, self.kind, self.node]

    @classmethod
    def from_state(cls, state: Iterable[Any]) -> Figure:
        owner, kind, node = state
        return cls(int(owner), str(kind), int(node))


@dataclass(frozen=True, slots=True)
class Connection:
    """Two nodes joined across a side when a tile was placed (the new tile's node first)."""

    node: int
    other: int


class FeatureGraph:
    """Features of the placed tiles, their open contacts, member nodes and figures.

    Features are union–find sets that never need a find: every node points at its feature's root
    (when two features join, the smaller one's members are pointed at the larger one's root, each
    node at most log n times over a game), so reading a node's feature is one look-up, and every
    tile laid and every question asked reads many.
    """

    def __init__(self) -> None:
        self._root: list[int] = []           # node -> its feature (root)
        self._size: list[int] = []           # at a root, its feature's node count (elsewhere, as it was when joined)
        self._open: list[int] = []
        # Each feature's members and figures, at its root (empty elsewhere): tuples, replaced when
        # features join or figures come and go, so that a copy of the graph may share them.
        self._members: list[tuple[int, ...]] = []
        self._figures: list[tuple[Figure, ...]] = []
        self.node_tile: list[int] = []       # node -> order of its placed tile
        self.node_feature: list[int] = []    # node -> feature id printed on that tile
        self.node_kind: list[str] = []
        self._tile_nodes: list[dict[int, int]] = []  # tile order -> {feature id: node}

    # -- structure -------------------------------------------------------------------------
    def node(self, tile_order: int, feature_id: int) -> int:
        """The node of ``feature_id`` on the tile placed ``tile_order``-th."""
        return self._tile_nodes[tile_order][feature_id]

    def nodes_of_tile(self, tile_order: int) -> Mapping[int, int]:
        return self._tile_nodes[tile_order]

    def add_tile(self, placed: PlacedTile, board: Board) -> list[Connection]:
        """Create the nodes of ``placed`` (already on ``board``) and join them to its neighbours;
        the connections made, in the order they were joined."""
        connections: list[tuple[int, int]] = []
        self.join_tile(placed, board, connections=connections)
        return [Connection(node, other) for node, other in connections]

    def join_tile(self, placed: PlacedTile, board: Board, around: Around | None = None,
                  connections: list[tuple[int, int]] | None = None) -> None:
        """:meth:`add_tile`, the way the games lay every tile: ``around`` is what
        :meth:`Board.around` answered for the tile's cell before it was laid, if known, and
        ``connections``, if given, receives each ``(node, other)`` pair joined."""
        order = placed.order
        assert order == len(self._tile_nodes), "tiles must be added in placement order"
        tile = placed.tile
        first = len(self.node_tile)
        new = range(first, first + len(tile.feature_ids))
        nodes = dict(zip(tile.feature_ids, new))
        root, size, open_, members, figures = self._root, self._size, self._open, self._members, self._figures
        root.extend(new)
        size.extend([1] * len(new))
        open_.extend(tile.open_sides)
        members.extend(zip(new))  # a 1-tuple per node: each its own feature
        figures.extend([()] * len(new))
        self.node_tile.extend([order] * len(new))
        self.node_feature.extend(tile.feature_ids)
        self.node_kind.extend(tile.kinds)
        tile_nodes = self._tile_nodes
        tile_nodes.append(nodes)

        turned = tile.turned[placed.quarter_turns]
        for side, other in enumerate(board.around(placed.position) if around is None else around):
            if other is None:
                continue
            other_nodes = tile_nodes[other.order]
            ours, facing = turned[side], other.tile.turned[other.quarter_turns][side ^ 2]
            for mine, theirs, closed in ours.closings.get(facing.sub_edges) or ours.closing(facing):
                a, b = nodes[mine], other_nodes[theirs]
                if connections is not None:
                    connections.append((a, b))
                a, b = root[a], root[b]
                if a != b:
                    # _merge, written out (this loop is the hottest of every game): the larger
                    # feature's root survives (the new tile's on a tie) with the open contacts,
                    # members and figures of both, and the other's members point at it.
                    if size[a] < size[b]:
                        a, b = b, a
                    for node in members[b]:
                        root[node] = a
                    size[a] += size[b]
                    open_[a] += open_[b]
                    members[a] += members[b]
                    members[b] = ()
                    if figures[b]:
                        figures[a] += figures[b]
                        figures[b] = ()
                # The contacts of the two sides close as they meet: counted at the root now,
                # they stay counted whatever it joins later.
                open_[a] -= closed

    # -- what lies beyond the tiles: a map's border, features printed on a map -----------------
    def close_contacts(self, node: int, count: int = 1) -> None:
        """Close ``count`` open contacts of the feature of ``node`` that no tile will ever meet:
        a side of its tile facing a map's border, where a feature ends closed (as if a tile had
        come). ``ValueError`` if the feature has fewer open contacts.

        >>> from games.engines.tiles.board import Board
        >>> from games.engines.tiles.tile import TileDef
        >>> cap = TileDef.build("C", {"N": ("city", (0, 0, 0)), "E": ("field", (1, 1, 1)),
        ...                           "S": ("field", (1, 1, 1)), "W": ("field", (1, 1, 1))},
        ...                     {0: "city", 1: "field"})
        >>> board, graph = Board(), FeatureGraph()
        >>> _ = graph.add_tile(board.place(cap, (0, 0), 0), board)
        >>> graph.close_contacts(graph.node(0, 0))   # the city's side faces the edge of the map
        >>> graph.is_complete(graph.node(0, 0))
        True
        """
        root = self._root[node]
        if not 0 < count <= self._open[root]:
            raise ValueError(f"feature {root} has {self._open[root]} open contacts, {count} cannot close")
        self._open[root] -= count

    def add_open_contacts(self, node: int, count: int) -> None:
        """Give the feature of ``node`` ``count`` more open contacts that are on no tile: a city
        printed on a map that it now joins, whose other edges are still to be met by tiles."""
        if count < 0:
            raise ValueError(f"cannot add {count} open contacts")
        self._open[self._root[node]] += count

    def join(self, a: int, b: int) -> None:
        """Make the features of ``a`` and ``b`` one, though no tile side joins them (both meet the
        same feature printed on a map): open contacts, members and figures are pooled, as when
        a tile joins them; no contact closes (close them with :meth:`close_contacts`)."""
        self._join(a, b)

    def _join(self, a: int, b: int) -> None:
        root, gone = self._root[a], self._root[b]
        if root != gone:
            self._merge(root, gone)

    def _merge(self, root: int, gone: int) -> None:
        """Make the features of the two roots one, pooling their open contacts, members and figures
        (:meth:`join_tile` does the same, written out)."""
        # The larger feature's root survives, the first on a tie; the other's members point at it.
        size = self._size
        if size[root] < size[gone]:
            root, gone = gone, root
        for node in self._members[gone]:
            self._root[node] = root
        size[root] += size[gone]
        self._open[root] += self._open[gone]
        # A root's members are as many as its set's size: the larger set's come first.
        self._members[root] += self._members[gone]
        self._members[gone] = ()
        figures = self._figures
        if figures[gone]:
            figures[root] += figures[gone]
            figures[gone] = ()

    def copy(self) -> FeatureGraph:
        """An independent graph in the same state.

        Cheap: each feature's members and figures are tuples, replaced when features join or
        figures come and go, so the copy shares them; so do the nodes of each tile.

        >>> from games.engines.tiles.board import Board
        >>> from games.engines.tiles.tile import TileDef
        >>> end = TileDef.build("E", {"N": ("forest", (0, 0, 0)), "E": ("meadow", (1, 1, 1)),
        ...                           "S": ("meadow", (1, 1, 1)), "W": ("meadow", (1, 1, 1))},
        ...                     {0: "forest", 1: "meadow"})
        >>> board, graph = Board(), FeatureGraph()
        >>> _ = graph.add_tile(board.place(end, (0, 0), 0), board)
        >>> kept = graph.copy()
        >>> _ = graph.add_tile(board.place(end, (0, -1), 2), board)
        >>> graph.is_complete(0), kept.is_complete(0), len(kept.node_tile)
        (True, False, 2)
        """
        graph = FeatureGraph.__new__(FeatureGraph)
        graph._root = list(self._root)
        graph._size = list(self._size)
        graph._open = list(self._open)
        graph._members = list(self._members)
        graph._figures = list(self._figures)
        graph.node_tile = list(self.node_tile)
        graph.node_feature = list(self.node_feature)
        graph.node_kind = list(self.node_kind)
        graph._tile_nodes = list(self._tile_nodes)
        return graph

    # -- state -----------------------------------------------------------------------------
    def to_state(self) -> dict[str, Any]:
        """JSON-able: union–find arrays, open-contact counts, and each feature's nodes and figures.

        Which node lies on which tile is not stored: it follows from the board's placements
        (nodes are numbered tile by tile, in placement order), see :meth:`from_state`. The
        member and figure lists are kept in their exact order, keyed by root.

        What only a feature's root means is stored as the root has it: every node's parent is its
        root, and a node that is no root has no open contacts (a tile counts the contacts it
        closes at the roots of the moment, so what is left elsewhere depends on the order it
        joined features in; the state of a position does not).
        """
        roots = self._root
        open_ = self._open
        return {
            "union_find": {"parent": list(roots), "size": list(self._size)},
            "open": [open_[node] if root == node else 0 for node, root in enumerate(roots)],
            "members": [[root, list(nodes)] for root, nodes in enumerate(self._members) if nodes],
            "figures": [[root, [f.to_state() for f in figures]]
                        for root, figures in enumerate(self._figures) if figures],
        }

    @classmethod
    def from_state(cls, state: Mapping[str, Any], board: Board) -> FeatureGraph:
        """The graph of :meth:`to_state` over ``board`` (restored first), without re-merging.

        >>> from games.engines.tiles.tile import TileDef
        >>> end = TileDef.build("E", {"N": ("forest", (0, 0, 0)), "E": ("meadow", (1, 1, 1)),
        ...                           "S": ("meadow", (1, 1, 1)), "W": ("meadow", (1, 1, 1))},
        ...                     {0: "forest", 1: "meadow"})
        >>> board, graph = Board(), FeatureGraph()
        >>> _ = graph.add_tile(board.place(end, (0, 0), 0), board)
        >>> _ = graph.add_tile(board.place(end, (0, -1), 2), board)
        >>> copy = FeatureGraph.from_state(graph.to_state(), Board.from_state(board.to_state(), {"E": end}))
        >>> copy.is_complete(0), copy.tile_count(0), copy.to_state() == graph.to_state()
        (True, 2, True)
        """
        graph = cls()
        for placed in board.placed:  # nodes are numbered as add_tile numbers them
            kinds = placed.tile.feature_kinds
            first = len(graph.node_tile)
            graph._tile_nodes.append(dict(zip(kinds, range(first, first + len(kinds)))))
            graph.node_tile.extend([placed.order] * len(kinds))
            graph.node_feature.extend(kinds)
            graph.node_kind.extend(kinds.values())
        n = len(graph.node_tile)
        sets = UnionFind.from_state(state["union_find"])
        graph._root, graph._size = sets.roots(), sets.size  # a state stored before parents were roots has paths
        graph._open = list(state["open"])
        if len(graph._root) != n or len(graph._open) != n:
            raise ValueError(f"feature graph state: {len(graph._root)} nodes stored, the board has {n}")
        graph._members = [()] * n
        for root, nodes_of_root in state["members"]:
            if not 0 <= root < n:
                raise ValueError(f"feature graph state: no node {root}")
            graph._members[root] = tuple(nodes_of_root)
        graph._figures = [()] * n
        for root, figures in state["figures"]:
            if not 0 <= root < n:
                raise ValueError(f"feature graph state: no node {root}")
            graph._figures[root] = tuple(Figure.from_state(f) for f in figures)
        return graph

    # -- queries ---------------------------------------------------------------------------
    def root(self, node: int) -> int:
        """The feature (union–find root) ``node`` belongs to."""
        return self._root[node]

    def open_contacts(self, node: int) -> int:
        return self._open[self._root[node]]

    def is_complete(self, node: int) -> bool:
        """No open contact left: nothing can extend this feature any more."""
        return self._open[self._root[node]] == 0

    def completed(self, tile_order: int, features: Iterable[int]) -> list[int]:
        """The complete features (roots) among those of ``features`` on the tile placed
        ``tile_order``-th, each once, in the order of ``features``: what a tile just laid may have
        completed."""
        root, open_, nodes = self._root, self._open, self._tile_nodes[tile_order]
        found: list[int] = []
        for feature in features:
            node = root[nodes[feature]]
            if open_[node] == 0 and node not in found:
                found.append(node)
        return found

    def members(self, node: int) -> list[int]:
        """All nodes of the feature of ``node``."""
        return list(self._members[self._root[node]])

    def roots_of_nodes(self) -> list[int]:
        """Each node's feature (its root), by node."""
        return list(self._root)

    def tile_count(self, node: int) -> int:
        """Number of distinct tiles the feature of ``node`` spreads over."""
        return len({self.node_tile[n] for n in self._members[self._root[node]]})

    def held(self) -> list[int]:
        """Every feature with a figure on it, once, in the order of :meth:`roots`."""
        return [root for root, figures in enumerate(self._figures) if figures]

    def roots(self) -> list[int]:
        """Every feature, once (a root is its own feature)."""
        root = self._root
        return [n for n in range(len(root)) if root[n] == n]

    # -- figures ---------------------------------------------------------------------------
    def figures(self, node: int) -> list[Figure]:
        """The figures standing anywhere on the feature of ``node``."""
        return list(self._figures[self._root[node]])

    def add_figure(self, figure: Figure) -> None:
        root = self._root[figure.node]
        self._figures[root] = (*self._figures[root], figure)

    def remove_figures(self, node: int, kinds: Iterable[str]) -> list[Figure]:
        """Take the figures of the given kinds off the feature of ``node``; returns them."""
        root = self._root[node]
        if not self._figures[root]:
            return []
        wanted = kinds if isinstance(kinds, (set, frozenset)) else set(kinds)
        taken = [f for f in self._figures[root] if f.kind in wanted]
        self._figures[root] = tuple(f for f in self._figures[root] if f.kind not in wanted)
        return taken


def majority_owners(counts: Mapping[int, int]) -> set[int]:
    """The owners with the most figures; all of them on a tie, nobody if nobody has one.

    >>> sorted(majority_owners({0: 1, 1: 1, 2: 0}))
    [0, 1]
    >>> majority_owners({0: 2, 1: 1})
    {0}
    >>> majority_owners({})
    set()
    """
    best = max(counts.values(), default=0)
    if best <= 0:
        return set()
    return {owner for owner, count in counts.items() if count == best}
