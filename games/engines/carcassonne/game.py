"""Base Carcassonne: the state of a game, its legal actions, applying them, scoring.

A turn lays the tile drawn (named in the action; a seeded game draws it itself) next to the
tiles already laid, every side continuing its neighbour's city, road or field, and may put one
meeple on a feature of that tile which nobody holds yet. Completed cities (2 points a tile and a
pennant) and roads (1 a tile) score at once for the most meeples on them, as does a cloister once
surrounded (9); the meeples come home. After the last tile: unfinished cities (1 a tile and a
pennant), roads (1 a tile), cloisters (1 + each neighbour), and farmers (3 for every completed
city touching their field).

>>> game = Game.new(2, seed=3)
>>> game.next_tile, len(game.pile)
('N', 71)
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from games.engines.errors import IllegalAction
from games.engines.tiles import (
    SIDES, Board, FeatureGraph, Figure, PlacedTile, majority_owners, neighbour, quarter_turns_from_degrees,
)

from .actions import Action
from .tileset import Tileset, load_tileset

ENGINE_SLUG: Final = "carcassonne"
MEEPLES: Final = 7
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 5
SOURCES: Final = ("city", "road", "cloister", "field")
SNAPSHOT_VERSION: Final = 3
"""Version 2 keeps the awards, version 3 also where each final award lies (tiles, meeples,
contents); an older snapshot is refused (its reader replays instead)."""
_SIDE_NAMES: Final = ("north", "east", "south", "west")
_AROUND: Final = tuple((dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0))


@dataclass(frozen=True)
class Score:
    seat: int
    breakdown: dict[str, int]

    @property
    def total(self) -> int:
        return sum(self.breakdown.values())


@dataclass(frozen=True)
class StandingMeeple:
    """A meeple as it stood on the board: whose, on which tile (letter and position) and on which
    of that tile's printed features."""

    seat: int
    x: int
    y: int
    tile: str
    feature: int
    kind: str = "meeple"

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind, "x": self.x, "y": self.y, "tile": self.tile,
                "feature": self.feature}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> StandingMeeple:
        return cls(seat=int(data["seat"]), x=int(data["x"]), y=int(data["y"]), tile=str(data["tile"]),
                   feature=int(data["feature"]), kind=str(data.get("kind", "meeple")))


@dataclass(frozen=True)
class Award:
    """Points a feature gave: ``points`` to each seat in ``seats`` (the most meeples on it).

    ``action`` is the index of the action that caused it (the final scoring's awards carry the
    last action's); ``final`` says it came from the final scoring, where the same sources
    (an unfinished city, road or cloister) score as during the game. A final award also keeps
    the ``tiles`` (x, y) its feature covers (a cloister: its tile and the neighbours counted),
    the ``meeples`` that stood on it and the ``contents`` its points counted (a city's
    ``pennants``, a cloister's ``neighbours``, a field's completed ``cities``).
    """

    action: int
    source: str
    points: int
    seats: tuple[int, ...]
    final: bool
    tiles: tuple[tuple[int, int], ...] = ()
    meeples: tuple[StandingMeeple, ...] = ()
    contents: tuple[tuple[str, int], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        data = {"source": self.source, "points": self.points, "seats": list(self.seats), "action": self.action,
                "final": self.final}
        if self.final:
            data |= {"tiles": [list(tile) for tile in self.tiles], "figures": [m.to_dict() for m in self.meeples],
                     "contents": dict(self.contents)}
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Award:
        return cls(action=int(data["action"]), source=str(data["source"]), points=int(data["points"]),
                   seats=tuple(int(seat) for seat in data["seats"]), final=bool(data["final"]),
                   tiles=tuple((int(x), int(y)) for x, y in data.get("tiles", ())),
                   meeples=tuple(StandingMeeple.from_dict(m) for m in data.get("figures", ())),
                   contents=tuple((str(k), int(v)) for k, v in dict(data.get("contents", {})).items()))


class Game:
    """A game of base Carcassonne, from the start tile to the final scoring."""

    def __init__(self, players: int, seed: int | None, pile: list[str], ordered: bool) -> None:
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"Carcassonne is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
        self.tileset: Tileset = load_tileset()
        self.players = players
        self.seed = seed
        self.ordered = ordered
        """A seeded game: ``pile`` is the order of the draw and the next tile is known."""
        self.pile = pile
        self.board = Board()
        self.graph = FeatureGraph()
        self.letters: list[str] = []
        self.meeples_left = [MEEPLES] * players
        self.points = [dict.fromkeys(SOURCES, 0) for _ in range(players)]
        self.current = 0
        self.is_over = False
        self.final_scored = False
        self.discarded: list[str] = []
        self.awards: list[Award] = []
        self.history: list[dict[str, Any]] = []
        self._lay(self.tileset.start, (0, 0), 0)

    @classmethod
    def new(cls, players: int = 2, seed: int | None = None) -> Game:
        """A fresh game; with a ``seed`` the engine shuffles the pile and names each tile drawn."""
        pile = load_tileset().pile()
        if seed is not None:
            random.Random(seed).shuffle(pile)
        return cls(players, seed, pile, ordered=seed is not None)

    @property
    def next_tile(self) -> str | None:
        return self.pile[0] if self.ordered and self.pile else None

    # -- laying tiles ------------------------------------------------------------------------

    def _lay(self, letter: str, position: tuple[int, int], turns: int) -> PlacedTile:
        placed = self.board.place(self.tileset.types[letter].tile, position, turns)
        self.graph.add_tile(placed, self.board)
        self.letters.append(letter)
        return placed

    def _placement_problem(self, letter: str, position: tuple[int, int], turns: int) -> IllegalAction | None:
        if position in self.board.tiles:
            return IllegalAction("occupied", f"a tile already lies at ({position[0]},{position[1]})")
        if not self.board.is_adjacent(position):
            return IllegalAction("not_adjacent", f"({position[0]},{position[1]}) touches no tile by a side")
        mismatches = self.board.mismatches(self.tileset.types[letter].tile, position, turns)
        if mismatches:
            m = mismatches[0]
            return IllegalAction("edge_mismatch", f"the {_SIDE_NAMES[m.side]} edge is {m.terrain} but the "
                                 f"neighbour at ({m.neighbour[0]},{m.neighbour[1]}) shows {m.neighbour_terrain}")
        return None

    def _meeple_problem(self, letter: str, feature: int) -> IllegalAction | None:
        """What stops a meeple going on ``feature`` before the tile is laid (whether the feature
        joins one that is held is seen once it is laid, see :meth:`apply`)."""
        kinds = self.tileset.types[letter].tile.feature_kinds
        if feature not in kinds:
            return IllegalAction("no_such_feature", f"tile {letter} has no feature {feature}")
        if self.meeples_left[self.current] == 0:
            return IllegalAction("no_meeples", f"seat {self.current} has no meeple left")
        return None

    # -- applying ----------------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Apply one action, or raise :class:`IllegalAction` leaving the game unchanged."""
        if self.is_over:
            raise IllegalAction("game_over", "the game is over")
        if action.seat is not None and action.seat != self.current:
            raise IllegalAction("not_your_turn", f"it is seat {self.current}'s turn, not seat {action.seat}'s")
        letter = action.tile or self.next_tile
        if letter is None:
            raise IllegalAction("tile_missing", "name the tile drawn")
        if self.ordered and letter != self.next_tile:
            raise IllegalAction("wrong_tile", f"the tile drawn is {self.next_tile}, not {letter}")
        if letter not in self.pile:
            raise IllegalAction("no_such_tile", f"no tile {letter} is left to draw")
        before = self.to_dict()
        tile = self.tileset.types[letter].tile
        if action.discard:
            if self.board.fits_anywhere(tile):
                raise IllegalAction("tile_fits", f"tile {letter} fits somewhere: it must be laid")
            self.pile.remove(letter)
            self.discarded.append(letter)
            self.history.append(before)
            self._end_if_done()
            return
        position = (action.x, action.y)
        if action.rotation not in (0, 90, 180, 270):
            raise IllegalAction("bad_rotation", f"turn a tile 0, 90, 180 or 270 degrees, not {action.rotation}")
        turns = quarter_turns_from_degrees(action.rotation)
        problem = self._placement_problem(letter, position, turns)
        if problem is None and action.meeple is not None:
            problem = self._meeple_problem(letter, action.meeple)
        if problem is not None:
            raise problem
        placed = self._lay(letter, position, turns)
        if action.meeple is not None:
            node = self.graph.node(placed.order, action.meeple)
            if len(self.graph.figures(node)) > 0:  # joined, on laying, to a feature someone holds
                self._restore(before)
                raise IllegalAction("feature_taken", f"the {tile.feature_kinds[action.meeple]} of feature "
                                    f"{action.meeple} joins one that already has a meeple")
            self.graph.add_figure(Figure(self.current, "meeple", node))
            self.meeples_left[self.current] -= 1
        self.pile.remove(letter)
        self._score_completed(placed)
        self.history.append(before)
        self.current = (self.current + 1) % self.players
        self._end_if_done()

    def _end_if_done(self) -> None:
        if not self.pile:
            self._final_scoring()
            self.is_over = True

    def undo(self) -> None:
        if not self.history:
            raise IllegalAction("nothing_to_undo", "there is no action left to take back")
        history = self.history
        self._restore(history.pop())
        self.history = history

    def _restore(self, data: Mapping[str, Any]) -> None:
        history = self.history
        self.__dict__.update(Game.from_dict(data).__dict__)
        self.history = history

    # -- scoring -----------------------------------------------------------------------------

    def _award(self, node: int, points: int, source: str, *, contents: Mapping[str, int] | None = None,
               tiles: tuple[tuple[int, int], ...] | None = None) -> None:
        """Score the feature of ``node`` and send its meeples home. A final award keeps where it
        lies (``tiles``, by default the feature's) and what it counted (``contents``)."""
        figures = self.graph.remove_figures(node, ["meeple"])
        seats = tuple(sorted(majority_owners(Counter(f.owner for f in figures))))
        for seat in seats:
            self.points[seat][source] += points
        # Every scoring comes after the tile of its action is laid or discarded, so the action's
        # index is counted from the board and the discards, which a snapshot keeps (the history of
        # positions is not part of a snapshot).
        action = len(self.letters) - 2 + len(self.discarded)
        if self.final_scored:
            where = tiles if tiles is not None else tuple(sorted(
                {self.board.placed[self.graph.node_tile[n]].position for n in self.graph.members(node)}))
            self.awards.append(Award(action, source, points, seats, final=True, tiles=where,
                                     meeples=tuple(self._standing(f) for f in figures),
                                     contents=tuple((contents or {}).items())))
        else:
            self.awards.append(Award(action, source, points, seats, final=False))
        for figure in figures:
            self.meeples_left[figure.owner] += 1

    def _standing(self, figure: Figure) -> StandingMeeple:
        placed = self.board.placed[self.graph.node_tile[figure.node]]
        return StandingMeeple(figure.owner, placed.position[0], placed.position[1], self.letters[placed.order],
                              self.graph.node_feature[figure.node])

    def _pennants(self, node: int) -> int:
        return sum(self.tileset.types[self.letters[self.graph.node_tile[n]]].pennants.get(self.graph.node_feature[n], 0)
                   for n in self.graph.members(node))

    def city_points(self, node: int, complete: bool) -> int:
        per = 2 if complete else 1
        return per * (self.graph.tile_count(node) + self._pennants(node))

    def _score_completed(self, placed: PlacedTile) -> None:
        for feature, node in self.graph.nodes_of_tile(placed.order).items():
            kind = self.graph.node_kind[node]
            if kind in ("city", "road") and self.graph.is_complete(node) and self.graph.figures(node):
                points = self.city_points(node, True) if kind == "city" else self.graph.tile_count(node)
                self._award(node, points, kind)
        x, y = placed.position
        for dx, dy in ((0, 0), *_AROUND):
            other = self.board.tiles.get((x + dx, y + dy))
            if other is not None and self._surrounding(other.position) == 8:
                cloister = self.tileset.types[self.letters[other.order]].cloister
                if cloister is not None:
                    node = self.graph.node(other.order, cloister)
                    if self.graph.figures(node):
                        self._award(node, 9, "cloister")

    def _surrounding(self, position: tuple[int, int]) -> int:
        return sum((position[0] + dx, position[1] + dy) in self.board.tiles for dx, dy in _AROUND)

    def _final_scoring(self) -> None:
        if self.final_scored:
            return
        self.final_scored = True
        completed_cities = {self.graph.root(n) for n in self.graph.roots()
                            if self.graph.node_kind[n] == "city" and self.graph.is_complete(n)}
        for root in self.graph.roots():
            if not self.graph.figures(root):
                continue
            kind = self.graph.node_kind[root]
            if kind == "city":
                self._award(root, self.city_points(root, False), "city", contents={"pennants": self._pennants(root)})
            elif kind == "road":
                self._award(root, self.graph.tile_count(root), "road")
            elif kind == "cloister":
                x, y = self.board.placed[self.graph.node_tile[root]].position
                around = tuple(sorted(p for dx, dy in ((0, 0), *_AROUND)
                                      if (p := (x + dx, y + dy)) in self.board.tiles))
                self._award(root, 1 + self._surrounding((x, y)), "cloister",
                            contents={"neighbours": self._surrounding((x, y))}, tiles=around)
            elif kind == "field":
                cities = len(self._cities_of_field(root) & completed_cities)
                self._award(root, 3 * cities, "field", contents={"cities": cities})

    def _cities_of_field(self, node: int) -> set[int]:
        """The city features (roots) the field of ``node`` touches on any of its tiles."""
        cities = set()
        for member in self.graph.members(node):
            order, feature = self.graph.node_tile[member], self.graph.node_feature[member]
            for city in self.tileset.types[self.letters[order]].field_cities.get(feature, ()):
                cities.add(self.graph.root(self.graph.node(order, city)))
        return cities

    def scores(self) -> list[Score]:
        return [Score(seat, dict(points)) for seat, points in enumerate(self.points)]

    def final_ranks(self) -> dict[int, int]:
        totals = {s.seat: s.total for s in self.scores()}
        return {seat: 1 + sum(1 for other in totals.values() if other > total) for seat, total in totals.items()}

    # -- what may be done --------------------------------------------------------------------

    def legal_actions(self, tile: str | None = None) -> list[Action]:
        """Every legal action with the tile drawn (a seeded game); in a game that does not know
        the draw, every placement of ``tile`` (the letter drawn at the table) or, without it, of
        every letter left."""
        if self.is_over:
            return []
        letters: list[str]
        if self.ordered:
            letters = [self.pile[0]]
        elif tile is not None:
            letters = [tile] if tile in self.pile else []
        else:
            letters = sorted(set(self.pile))
        actions: list[Action] = []
        for letter in letters:
            printed = self.tileset.types[letter].tile
            placements = list(self.board.placements(printed))
            if not placements:
                actions.append(Action(tile=letter, discard=True))
                continue
            for (x, y), turns in placements:
                actions.append(Action(tile=letter, x=x, y=y, rotation=turns * 90))
                if self.meeples_left[self.current] == 0:
                    continue
                joined = self._joined_taken(printed, (x, y), turns)
                actions += [Action(tile=letter, x=x, y=y, rotation=turns * 90, meeple=f)
                            for f in printed.feature_kinds if f not in joined]
        return actions

    def _joined_taken(self, tile: Any, position: tuple[int, int], turns: int) -> set[int]:
        """The features of ``tile`` laid so that would join a feature holding a meeple, directly or
        through a neighbour's feature that also touches another feature of ``tile`` (a field
        wrapping round a road end joins both fields beside the road)."""
        touching: dict[int, set[int]] = {}  # neighbour feature (root) -> features of tile touching it
        for side in SIDES:
            other = self.board.tiles.get(neighbour(position, side))
            if other is None:
                continue
            mine = tile.edge(side, turns).sub_edges
            theirs = other.tile.edge(side.opposite, other.quarter_turns).sub_edges
            for i in range(3):
                root = self.graph.root(self.graph.node(other.order, theirs[2 - i]))
                touching.setdefault(root, set()).add(mine[i])
        taken: set[int] = set()
        for root, features in touching.items():
            if self.graph.figures(root):
                taken |= features
        grown = True
        while grown:
            grown = False
            for features in touching.values():
                if features & taken and not features <= taken:
                    taken |= features
                    grown = True
        return taken

    # -- what a reader sees ------------------------------------------------------------------

    def view(self) -> dict[str, Any]:
        tiles = [
            {"tile": letter, "x": p.position[0], "y": p.position[1], "rotation": p.quarter_turns * 90,
             "order": p.order, **copy.deepcopy(dict(self.tileset.types[letter].record))}
            for p, letter in zip(self.board.placed, self.letters)
        ]
        meeples = []
        for root in self.graph.roots():
            for figure in self.graph.figures(root):
                placed = self.board.placed[self.graph.node_tile[figure.node]]
                meeples.append({"seat": figure.owner, "x": placed.position[0], "y": placed.position[1],
                                "feature": self.graph.node_feature[figure.node],
                                "type": self.graph.node_kind[figure.node]})
        meeples.sort(key=lambda m: (m["x"], m["y"], m["feature"]))
        last = self.board.placed[-1]
        kinds: list[str] = []
        if not self.is_over:
            kinds = ["place", "discard"] if not self.ordered else (
                ["place"] if self.board.fits_anywhere(self.tileset.types[self.pile[0]].tile) else ["discard"])
        return {
            "tiles": tiles,
            "meeples": meeples,
            "last_placed": {"tile": self.letters[-1], "x": last.position[0], "y": last.position[1],
                            "rotation": last.quarter_turns * 90, "order": last.order},
            "next_tile": self.next_tile,
            "tiles_left": len(self.pile),
            "meeples_left": list(self.meeples_left),
            "discarded": list(self.discarded),
            "current_player": None if self.is_over else self.current,
            "scores": [{"seat": s.seat, "total": s.total, "breakdown": s.breakdown} for s in self.scores()],
            "awards": [award.to_dict() for award in self.awards],
            "legal_action_kinds": kinds,
        }

    # -- serialising -------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        graph = self.graph.to_state()
        # find() halves paths as it reads, so raw parents would depend on the queries asked
        # (legal_actions, view); every node's root keeps the snapshot of a position the same.
        graph["union_find"]["parent"] = [self.graph.root(n) for n in range(len(graph["union_find"]["parent"]))]
        return {
            "snapshot_version": SNAPSHOT_VERSION, "players": self.players, "seed": self.seed,
            "ordered": self.ordered, "pile": list(self.pile), "board": self.board.to_state(),
            "graph": graph, "letters": list(self.letters), "meeples_left": list(self.meeples_left),
            "points": copy.deepcopy(self.points), "current": self.current, "is_over": self.is_over,
            "final_scored": self.final_scored, "discarded": list(self.discarded),
            "awards": [award.to_dict() for award in self.awards],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Game:
        if data.get("snapshot_version") != SNAPSHOT_VERSION:
            raise ValueError(f"not a Carcassonne snapshot of version {SNAPSHOT_VERSION}")
        game = cls.__new__(cls)
        game.tileset = load_tileset()
        game.players = int(data["players"])
        game.seed = data["seed"]
        game.ordered = bool(data["ordered"])
        game.pile = list(data["pile"])
        game.board = Board.from_state(data["board"], game.tileset.tile_defs)
        game.graph = FeatureGraph.from_state(data["graph"], game.board)
        game.letters = list(data["letters"])
        game.meeples_left = list(data["meeples_left"])
        game.points = copy.deepcopy(list(data["points"]))
        game.current = int(data["current"])
        game.is_over = bool(data["is_over"])
        game.final_scored = bool(data["final_scored"])
        game.discarded = list(data["discarded"])
        game.awards = [Award.from_dict(award) for award in data["awards"]]
        game.history = []
        return game
