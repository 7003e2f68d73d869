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
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Literal

from games.engines.tiles import Figure, majority_owners

from .landscape import Landscape
from .tileset import Forest, Lake, Meadow, River

Source = Literal["river", "forest", "hut", "hunter"]
SOURCES: tuple[Source, ...] = ("river", "forest", "hut", "hunter")


@dataclass(frozen=True, slots=True)
class Award:
    """Points a feature gave: ``points`` to each seat in ``seats`` (the majority)."""

    source: Source
    points: int
    seats: frozenset[int]
    node: int  # any node of the feature, to say where it lies

    def to_dict(self) -> dict[str, object]:
        return {"source": self.source, "points": self.points, "seats": sorted(self.seats)}


def forest_points(land: Landscape, node: int) -> int:
    """2 per forest tile, plus 2 per sacred-mushroom clearing (counted wherever they lie in it)."""
    mushrooms = 0
    for n in land.graph.members(node):
        f = land.feature(n)
        assert isinstance(f, Forest)
        mushrooms += f.mushroom_clearings
    return 2 * land.graph.tile_count(node) + 2 * mushrooms


def forest_has_gold(land: Landscape, node: int) -> bool:
    return any(isinstance(f := land.feature(n), Forest) and f.gold_nuggets > 0
               for n in land.graph.members(node))


def river_points(land: Landscape, node: int) -> int:
    """1 per river tile, plus 1 per fish in each lake the river ends in (each lake once)."""
    lakes: set[int] = set()
    for n in land.graph.members(node):
        f = land.feature(n)
        if isinstance(f, River) and f.lake is not None:
            lakes.add(land.graph.node(land.graph.node_tile[n], f.lake))
    fish = 0
    for lake in lakes:
        lf = land.feature(lake)
        assert isinstance(lf, Lake)
        fish += lf.fish
    return land.graph.tile_count(node) + fish


def meadow_points(land: Landscape, node: int) -> int:
    """2 per deer left uneaten, mammoth and aurochs in the whole meadow."""
    deer = mammoths = aurochs = tigers = 0
    fire = False
    for n in land.graph.members(node):
        f = land.feature(n)
        assert isinstance(f, Meadow)
        deer += f.deer
        mammoths += f.mammoths
        aurochs += f.aurochs
        tigers += f.tigers
        fire = fire or f.fire
    if fire:
        tigers = 0
    return 2 * (max(0, deer - tigers) + mammoths + aurochs)


def system_fish(land: Landscape, system_root: int) -> int:
    total = 0
    for lake in land.lakes_of_system(system_root):
        lf = land.feature(lake)
        assert isinstance(lf, Lake)
        total += lf.fish
    return total


def majority(figures: list[Figure], kind: str) -> frozenset[int]:
    return frozenset(majority_owners(Counter(f.owner for f in figures if f.kind == kind)))


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


def final_awards(land: Landscape) -> list[Award]:
    """Huts on every river system and hunters on every meadow, in a stable order."""
    awards: list[Award] = []
    huts_by_system: dict[int, list[Figure]] = {}
    for figure in land.figures:
        if figure.kind == "hut":
            huts_by_system.setdefault(land.systems.find(figure.node), []).append(figure)
    for system, huts in sorted(huts_by_system.items()):
        awards.append(Award("hut", system_fish(land, system), majority(huts, "hut"), system))
    hunters_by_meadow: dict[int, list[Figure]] = {}
    for figure in land.figures:
        if figure.kind == "hunter":
            hunters_by_meadow.setdefault(land.graph.root(figure.node), []).append(figure)
    for meadow, hunters in sorted(hunters_by_meadow.items()):
        seats = shrine_hunters(land, hunters) or majority(hunters, "hunter")
        awards.append(Award("hunter", meadow_points(land, meadow), seats, meadow))
    return awards
