"""What features are worth, and who scores them (the rulebooks' scoring, as pure functions).

During the game (at once, when completed):

- a river: 1 point per river tile, plus 1 per fish in the lake(s) at its ends;
- a forest: 2 points per forest tile, plus 2 per sacred-mushroom clearing.

The player(s) with the most tribe members on it score the full value.

At the end, open or closed alike:

- a river system (rivers and lakes connected to one another): 1 point per
  fish in all its lakes, to the majority of huts;
- a meadow: 2 points per deer, mammoth and aurochs, to the majority of
  hunters; each sabre-tooth tiger cancels one deer (never a mammoth or an
  aurochs) and extra tigers cost nothing; fire chases away every tiger of its
  meadow; a hunter on the shrine tile's meadow makes its owner the only scorer.

A final award also says where it lies and what it counted, so that a reader can be shown the end
of a game feature by feature: the tiles of the meadow or river system, the hunters or huts that
stood on it, and what it holds (deer, mammoths, aurochs, tigers, fire, a shrine; fish and lakes).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Literal, NamedTuple

from games.engines.tiles import Figure, majority_owners

from .landscape import Landscape
from .tileset import MEADOW_CONTENTS, Forest, Lake, Meadow, River

Source = Literal["river", "forest", "hut", "hunter"]
SOURCES: tuple[Source, ...] = ("river", "forest", "hut", "hunter")
NOBODY: frozenset[int] = frozenset()


class StandingFigure(NamedTuple):
    """A figure as it stood on the board: whose, which, on which tile (id and position) and on
    which of that tile's printed features.

    Awards and the figures in them are named tuples (as the tile core's figures): immutable, and
    cheap to build; the end of every game builds a few dozen.
    """

    seat: int
    kind: str
    x: int
    y: int
    tile: str
    feature: int

    def to_dict(self) -> dict[str, object]:
        return {"seat": self.seat, "kind": self.kind, "x": self.x, "y": self.y, "tile": self.tile,
                "feature": self.feature}

    def to_state(self) -> list[object]:
        return [self.seat, self.kind, self.x, self.y, self.tile, self.feature]

    @classmethod
    def from_state(cls, state: list[Any]) -> StandingFigure:
        seat, kind, x, y, tile, feature = state
        return cls(int(seat), str(kind), int(x), int(y), str(tile), int(feature))


class Award(NamedTuple):
    """Points a feature gave: ``points`` to each seat in ``seats`` (the majority).

    A final award also keeps the ``tiles`` (x, y) its feature covers, the ``figures`` that stood
    on it and the ``contents`` its points counted (``(("deer", 4), ("tigers", 1), …)``); the
    awards of forests and rivers completed during the game leave them empty.
    """

    source: Source
    points: int
    seats: frozenset[int]
    node: int  # any node of the feature, to say where it lies
    tiles: tuple[tuple[int, int], ...] = ()
    figures: tuple[StandingFigure, ...] = ()
    contents: tuple[tuple[str, int], ...] = ()

    @property
    def final(self) -> bool:
        return self.source in ("hut", "hunter")

    def to_dict(self) -> dict[str, object]:
        data: dict[str, object] = {"source": self.source, "points": self.points, "seats": sorted(self.seats)}
        if self.final:
            data |= {"tiles": [list(tile) for tile in self.tiles], "figures": [f.to_dict() for f in self.figures],
                     "contents": dict(self.contents)}
        return data

    def to_state(self) -> list[object]:
        return [self.source, self.points, sorted(self.seats), self.node, [list(tile) for tile in self.tiles],
                [f.to_state() for f in self.figures], [list(pair) for pair in self.contents]]

    @classmethod
    def from_state(cls, state: list[Any]) -> Award:
        source, points, seats, node, tiles, figures, contents = state
        if source not in SOURCES:
            raise ValueError(f"unknown award source {source!r}")
        return cls(source, int(points), frozenset(int(s) for s in seats), int(node),
                   tuple((int(x), int(y)) for x, y in tiles), tuple(StandingFigure.from_state(f) for f in figures),
                   tuple((str(name), int(count)) for name, count in contents))


def forest_points(land: Landscape, node: int) -> int:
    """2 per forest tile, plus 2 per sacred-mushroom clearing (counted wherever they lie in it)."""
    mushrooms = sum(forest.mushroom_clearings for forest in land.features_of(land.graph.members(node))
                    if isinstance(forest, Forest))
    return 2 * land.graph.tile_count(node) + 2 * mushrooms


def forest_has_gold(land: Landscape, node: int) -> bool:
    return any(isinstance(forest, Forest) and forest.gold_nuggets > 0
               for forest in land.features_of(land.graph.members(node)))


def river_points(land: Landscape, node: int) -> int:
    """1 per river tile, plus 1 per fish in each lake the river ends in (each lake once)."""
    graph = land.graph
    members = graph.members(node)
    lakes = {graph.node(graph.node_tile[n], river.lake) for n, river in zip(members, land.features_of(members))
             if isinstance(river, River) and river.lake is not None}
    fish = sum(lake.fish for lake in land.features_of(lakes) if isinstance(lake, Lake))
    return graph.tile_count(node) + fish


def meadow_contents(land: Landscape, node: int) -> dict[str, int]:
    """What the whole meadow holds: its deer, mammoths, aurochs and tigers, and whether it has
    fire and a shrine (1 or 0)."""
    pieces = [meadow.contents for meadow in land.features_of(land.graph.members(node)) if isinstance(meadow, Meadow)]
    held = dict(zip(MEADOW_CONTENTS, map(sum, zip(*pieces))))
    held["fire"] = min(held["fire"], 1)
    held["shrine"] = min(held["shrine"], 1)
    return held


def meadow_points(land: Landscape, node: int) -> int:
    """2 per deer left uneaten, mammoth and aurochs in the whole meadow."""
    return points_of_meadow(meadow_contents(land, node))


def points_of_meadow(held: Mapping[str, int]) -> int:
    """:func:`meadow_points` of a meadow's :func:`meadow_contents`."""
    tigers = 0 if held["fire"] else held["tigers"]
    return 2 * (max(0, held["deer"] - tigers) + held["mammoths"] + held["aurochs"])


def system_fish(land: Landscape, system_root: int) -> int:
    total = 0
    for lake in land.lakes_of_system(system_root):
        lf = land.feature(lake)
        assert isinstance(lf, Lake)
        total += lf.fish
    return total


def majority(figures: Iterable[Figure], kind: str) -> frozenset[int]:
    """The owners with the most figures of ``kind`` among ``figures`` (all of them on a tie)."""
    counts: dict[int, int] = {}
    for figure in figures:  # counted by hand: a Counter costs more than the few figures on a feature
        if figure.kind == kind:
            counts[figure.owner] = counts.get(figure.owner, 0) + 1
    if not counts:  # most features complete with nobody on them
        return NOBODY
    return frozenset(majority_owners(counts))


def completed_award(land: Landscape, node: int) -> Award:
    """The award of the complete forest or river of ``node`` (points 0 to nobody if empty)."""
    kind = land.feature(node).kind
    figures = land.graph.figures(node)
    if kind == "forest":
        return Award("forest", forest_points(land, node), majority(figures, "gatherer"), node)
    if kind == "river":
        return Award("river", river_points(land, node), majority(figures, "fisher"), node)
    raise ValueError(f"only forests and rivers are completed during the game, not a {kind}")


def shrine_hunters(land: Landscape, figures: list[Figure]) -> frozenset[int]:
    """Owners of hunters standing on a shrine meadow printed on the tile they were put on.

    Figures only ever go on the tile their owner just laid, so such a hunter was
    put there by the player who laid the shrine tile, as the rule requires.
    """
    return frozenset(f.owner for f in figures
                     if f.kind == "hunter" and isinstance(m := land.feature(f.node), Meadow) and m.shrine)


def standing(land: Landscape, figure: Figure) -> StandingFigure:
    """Where ``figure`` stands, in the board's words (tile, position, printed feature)."""
    placed = land.placed(figure.node)
    return StandingFigure(figure.owner, figure.kind, placed.position[0], placed.position[1],
                          land.tiles[placed.order].id, land.graph.node_feature[figure.node])


def tiles_of(land: Landscape, nodes: list[int]) -> tuple[tuple[int, int], ...]:
    """The positions of the tiles these nodes lie on, each once, in order."""
    placed, node_tile = land.board.placed, land.graph.node_tile
    return tuple(sorted({placed[node_tile[n]].position for n in nodes}))


def final_awards(land: Landscape) -> list[Award]:
    """Huts on every river system and hunters on every meadow, in a stable order, each with the
    tiles of its feature, the figures on it and what it holds."""
    awards: list[Award] = []
    huts_by_system: dict[int, list[Figure]] = {}
    for figure in land.figures:
        if figure.kind == "hut":
            huts_by_system.setdefault(land.systems.find(figure.node), []).append(figure)
    # Each river and lake node's system found once (not a pass over every node per system):
    # only rivers and lakes join systems, and a late game has a hut on most of them.
    nodes_of: dict[int, list[int]] = {system: [] for system in huts_by_system}
    if huts_by_system:
        waters = land.waters()
        for node, system in zip(waters, land.systems.find_all(waters)):
            if system in nodes_of:
                nodes_of[system].append(node)
    for system, huts in sorted(huts_by_system.items()):
        waters = nodes_of[system]
        lakes = [lake for lake in land.features_of(waters) if isinstance(lake, Lake)]
        fish = sum(lake.fish for lake in lakes)
        awards.append(Award("hut", fish, majority(huts, "hut"), system, tiles_of(land, waters),
                            tuple(standing(land, hut) for hut in huts), (("fish", fish), ("lakes", len(lakes)))))
    hunters_by_meadow: dict[int, list[Figure]] = {}
    for figure in land.figures:
        if figure.kind == "hunter":
            hunters_by_meadow.setdefault(land.graph.root(figure.node), []).append(figure)
    for meadow, hunters in sorted(hunters_by_meadow.items()):
        seats = shrine_hunters(land, hunters) or majority(hunters, "hunter")
        held = meadow_contents(land, meadow)
        awards.append(Award("hunter", points_of_meadow(held), seats, meadow,
                            tiles_of(land, land.graph.members(meadow)),
                            tuple(standing(land, hunter) for hunter in hunters), tuple(held.items())))
    return awards
