"""A simple player for Carcassonne (and its expansions), for demo games that look played.

Each turn it weighs every placement of the tile drawn by what it would do (worked out with
:func:`games.engines.tiles.heuristic.preview`, without laying it): the points a completed city
or road gives at once, and how the features each player holds grow or close, its own against
the others'. A meeple goes where claiming is worth more than keeping it: a city or road nobody
holds, a cloister with neighbours, late in the game a field beside completed cities; the last
meeples are dearer, so it keeps a couple in reserve. The seed only breaks ties.

With the expansions' rules it also weighs their figures and marks: a large meeple is a meeple
that spares a small one (but stays for good on a field); a builder goes on its own open road or
city, worth a tile more each time it is extended; a pig joins its own farmer in a field beside
cities; an inn or a cathedral doubles what a feature is worth if it closes and costs it all if
not; a city closed with goods gives their tokens to whoever lays the tile.

>>> game, actions = heuristic_game(2, seed=3)
>>> game.is_over, len(actions) >= 71
(True, True)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import TypeVar

from games.engines.tiles import majority_owners
from games.engines.tiles.heuristic import play_out

from .actions import Action
from .figures import BIG, BUILDER, PIG, STRENGTH
from .game import Game
from .options import MEEPLES, Options

_MEEPLE_COST: Sequence[float] = (30.0, 9.0, 5.0, 3.0, 2.0, 1.5, 1.0, 1.0)
"""What putting down a meeple costs, by the meeples left before: the last two are kept back."""
_FARMER_COST = 2.0
"""A farmer never comes home."""
_BIG_COST = 3.0
"""The large meeple, by the same measure as a meeple's cost (it has one, and counts twice)."""
_BUILDER_WORTH = 3.0
"""A tile more, each time the builder's open road or city is extended (early in the game)."""
_GOOD_WORTH = 2.0
"""A goods token, towards a majority of 10."""
_AROUND = tuple((dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0))

ActionT = TypeVar("ActionT", bound=Action)

CityKey = tuple[str, int]
"""A city once the tile is laid: ``("g", i)`` the i-th joining of the tile, ``("r", root)`` one untouched."""


def heuristic_game(players: int, seed: int, options: Options | None = None) -> tuple[Game, list[Action]]:
    """A complete game of the simple player: the same seed (and options), the same game."""
    game = Game.new(players, seed=seed, options=options)
    return game, play_out(game, choose, seed)


def choose(game: Game, chooser: random.Random) -> Action:
    """The action the simple player takes now, among ``game.legal_actions()``."""
    legal = game.legal_actions()
    if len(legal) == 1:
        return legal[0]
    return best_of(weigh_actions(game, legal), chooser)


def best_of(valued: Sequence[tuple[float, ActionT]], chooser: random.Random) -> ActionT:
    """The best valued action, a tie broken by ``chooser``."""
    best = max(value for value, _ in valued)
    return chooser.choice([action for value, action in valued if value >= best - 1e-9])


def weigh_actions(game: Game, actions: Sequence[ActionT]) -> list[tuple[float, ActionT]]:
    """Each of ``actions`` (placements of tiles the current player may lay: the tile drawn,
    or another game's other sources) with its worth to the current player; a meeple the player
    should not put down is left out, and a discard is worth nothing."""
    valued: list[tuple[float, ActionT]] = [(0.0, action) for action in actions if action.discard]
    if len(valued) == len(actions):
        return valued
    turn = _Turn(game)
    by_placement: dict[tuple[str, int, int, int], list[ActionT]] = {}
    for action in actions:
        if not action.discard:
            by_placement.setdefault((action.tile or "", action.x, action.y, action.rotation), []).append(action)
    for (letter, x, y, rotation), options in by_placement.items():
        base, claims = turn.weigh(letter, (x, y), rotation // 90)
        for option in options:
            if option.meeple is not None:
                if option.meeple in claims:
                    valued.append((base + claims[option.meeple], option))
            elif option.figures:
                kind, feature = option.figures[0]
                worth = turn.extras.get((kind, feature))
                if worth is not None:
                    valued.append((base + worth, option))
            else:
                valued.append((base, option))
    return valued


class _Turn:
    """The position before the current player lays a tile, and what each placement would change."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.graph = game.graph
        self.seat = game.current
        self.tiles_left = len(game.pile) - 1
        self.chance = self.tiles_left / (sum(t.count for t in game.tileset.types.values()) - 1)
        self.meeple_cost = _MEEPLE_COST[min(game.meeples_left[self.seat], MEEPLES)] * (0.3 + 0.7 * self.chance)
        self.held: dict[int, Counter[int]] = {}
        for root in self.graph.roots():
            figures = self.graph.figures(root)
            if figures:
                counts: Counter[int] = Counter()
                for figure in figures:  # a large meeple counts twice, builders and pigs not at all
                    counts[figure.owner] += STRENGTH.get(figure.kind, 0)
                self.held[root] = counts
        in_hand = game.figures_left[self.seat]
        self.big = in_hand.get(BIG, 0) > 0
        self.builder = in_hand.get(BUILDER, 0) > 0
        self.pig = in_hand.get(PIG, 0) > 0
        self.marks = game.inns_and_cathedrals
        self.trading = game.trading
        self.extras: dict[tuple[str, int], float] = {}
        """What the expansions' figures add on each feature of the placement last weighed."""
        self._pennants: dict[int, int] = {}
        self._marked: dict[int, bool] = {}
        self._goods: dict[int, int] = {}
        self._cities: dict[int, set[int]] = {}
        self.before = {root: self._worth_now(root) for root in self.held}

    # -- a placement ---------------------------------------------------------------------------

    def weigh(self, letter: str, position: tuple[int, int], turns: int) -> tuple[float, dict[int, float]]:
        """The placement's worth to the current player (its gain less the others' mean gain),
        and what a meeple adds on each feature of the tile nobody holds."""
        game, graph = self.game, self.graph
        tile_type = game.tileset.types[letter]
        kinds = tile_type.tile.feature_kinds
        joinings = game.preview(tile_type.tile, position, turns)
        group_of_root = {root: i for i, j in enumerate(joinings) for root in j.roots}
        group_of_feature = {fid: i for i, j in enumerate(joinings) for fid in j.features}

        def city_key(root: int) -> CityKey:
            return ("g", group_of_root[root]) if root in group_of_root else ("r", root)

        def complete(key: CityKey) -> bool:
            return joinings[key[1]].open_contacts == 0 if key[0] == "g" else graph.is_complete(key[1])

        def field_worth(cities: set[CityKey]) -> float:
            done = sum(1 for key in cities if complete(key))
            return 3.0 * done + 1.2 * (len(cities) - done) * self.chance

        gain = [0.0] * game.players
        claims: dict[int, float] = {}
        self.extras = {}
        big_cost = _BIG_COST * (0.3 + 0.7 * self.chance)
        for i, joining in enumerate(joinings):
            kind = kinds[joining.features[0]]
            owners: Counter[int] = Counter()
            for root in joining.roots:
                if root in self.held:
                    owners += self.held[root]
                    for owner in majority_owners(self.held[root]):
                        gain[owner] -= self.before[root]
            if kind == "cloister":
                neighbours = sum((position[0] + dx, position[1] + dy) in game.board.tiles for dx, dy in _AROUND)
                claims[joining.features[0]] = self._cloister(neighbours) - self.meeple_cost
                if self.big:
                    self.extras[(BIG, joining.features[0])] = self._cloister(neighbours) - big_cost
                continue
            if kind == "field":
                cities = {city_key(c) for root in joining.roots for c in self._cities_of(root)}
                cities |= {("g", group_of_feature[c]) for fid in joining.features
                           for c in tile_type.field_cities.get(fid, ())}
                worth = field_worth(cities)
                claim = worth - self.meeple_cost - _FARMER_COST
                if self.pig and owners.get(self.seat, 0) > 0:
                    held = self.seat in majority_owners(owners)
                    pig = worth / 3.0 if held else 0.3
                    self.extras.update(((PIG, fid), pig) for fid in joining.features)
            else:
                size = joining.tiles(self.graph)
                if kind == "city":
                    size += sum(self._pennants_of(root) for root in joining.roots)
                    size += sum(tile_type.pennants.get(fid, 0) for fid in joining.features)
                marked = self.marks and self._joins_marked(joining.roots, joining.features, tile_type.cathedrals
                                                           if kind == "city" else tile_type.inns)
                worth = (self._city(size, joining.open_contacts, marked) if kind == "city"
                         else self._road(size, joining.open_contacts, marked))
                claim = worth - (0.0 if joining.open_contacts == 0 else self.meeple_cost)
                if self.trading and kind == "city" and joining.open_contacts == 0:
                    tokens = sum(self._goods_of(root) for root in joining.roots)
                    tokens += sum(1 for fid in joining.features if fid in tile_type.goods)
                    gain[self.seat] += _GOOD_WORTH * tokens  # whoever closes the city takes them
                if self.builder and owners.get(self.seat, 0) > 0 and joining.open_contacts > 0:
                    self.extras.update(((BUILDER, fid), _BUILDER_WORTH * self.chance) for fid in joining.features)
            for owner in majority_owners(owners):
                gain[owner] += worth
            if not owners:
                claims.update(dict.fromkeys(joining.features, claim))
                if self.big:
                    spare = self.meeple_cost - big_cost - (1.0 if kind == "field" else 0.0)
                    self.extras.update(((BIG, fid), claim + spare) for fid in joining.features)
        # Cloisters around the tile gain a neighbour; fields beside a city the tile changes change too.
        for dx, dy in _AROUND:
            other = game.board.tiles.get((position[0] + dx, position[1] + dy))
            cloister = None if other is None else game.tileset.types[game.letters[other.order]].cloister
            if other is not None and cloister is not None:
                root = graph.root(graph.node(other.order, cloister))
                if root in self.held:
                    neighbours = self._neighbours(other.position) + 1
                    for owner in majority_owners(self.held[root]):
                        gain[owner] += self._cloister(neighbours) - self.before[root]
        for root, counts in self.held.items():
            if root in group_of_root or graph.node_kind[root] != "field":
                continue
            touched = self._cities_of(root)
            if any(city in group_of_root for city in touched):
                worth = field_worth({city_key(city) for city in touched})
                for owner in majority_owners(counts):
                    gain[owner] += worth - self.before[root]
        others = [g for seat, g in enumerate(gain) if seat != self.seat]
        return gain[self.seat] - sum(others) / len(others), claims

    # -- what features are worth ----------------------------------------------------------------

    def _city(self, size: int, open_contacts: int, cathedral: bool = False) -> float:
        if open_contacts == 0:
            return (3.0 if cathedral else 2.0) * size  # scored at once
        closing = max(0.0, 1.0 - 0.25 * (open_contacts - 1)) * min(1.0, self.tiles_left / 8)
        if cathedral:  # worth nothing unless it closes
            return 3.0 * size * closing + 1.5 * self.chance
        return size * (1.0 + closing) + 1.5 * self.chance

    def _road(self, size: int, open_contacts: int, inn: bool = False) -> float:
        if inn:  # worth nothing unless it closes
            if open_contacts == 0:
                return 2.0 * size
            closing = max(0.0, 1.0 - 0.25 * (open_contacts - 1)) * min(1.0, self.tiles_left / 8)
            return 2.0 * size * closing + 1.0 * self.chance
        return size + (0.0 if open_contacts == 0 else 1.0 * self.chance)

    def _cloister(self, neighbours: int) -> float:
        if neighbours == 8:
            return 9.0
        return 1 + neighbours + (8 - neighbours) * min(0.85, self.tiles_left / 30)

    def _worth_now(self, root: int) -> float:
        """What a held feature is worth before the tile is laid."""
        graph = self.graph
        kind = graph.node_kind[root]
        marked = self.marks and self._marked_of(root)
        if kind == "city":
            return self._city(graph.tile_count(root) + self._pennants_of(root), graph.open_contacts(root), marked)
        if kind == "road":
            return self._road(graph.tile_count(root), graph.open_contacts(root), marked)
        if kind == "cloister":
            return self._cloister(self._neighbours(self.game.board.placed[graph.node_tile[root]].position))
        cities = self._cities_of(root)
        done = sum(1 for city in cities if graph.is_complete(city))
        return 3.0 * done + 1.2 * (len(cities) - done) * self.chance

    def _neighbours(self, position: tuple[int, int]) -> int:
        return sum((position[0] + dx, position[1] + dy) in self.game.board.tiles for dx, dy in _AROUND)

    def _pennants_of(self, root: int) -> int:
        if root not in self._pennants:
            game, graph = self.game, self.graph
            self._pennants[root] = sum(
                game.tileset.types[game.letters[graph.node_tile[n]]].pennants.get(graph.node_feature[n], 0)
                for n in graph.members(root))
        return self._pennants[root]

    def _joins_marked(self, roots: Sequence[int], features: Sequence[int], marks: frozenset[int]) -> bool:
        """Whether the city (a cathedral) or road (an inn) the tile makes has its mark."""
        return any(fid in marks for fid in features) or any(self._marked_of(root) for root in roots)

    def _marked_of(self, root: int) -> bool:
        """Whether the laid city ``root`` has a cathedral, or the laid road an inn."""
        if root not in self._marked:
            game, graph = self.game, self.graph
            kind = graph.node_kind[root]
            self._marked[root] = kind in ("city", "road") and any(
                graph.node_feature[n] in (t.cathedrals if kind == "city" else t.inns)
                for n in graph.members(root) for t in (game.tileset.types[game.letters[graph.node_tile[n]]],))
        return self._marked[root]

    def _goods_of(self, root: int) -> int:
        """Goods symbols in the laid city ``root``."""
        if root not in self._goods:
            game, graph = self.game, self.graph
            self._goods[root] = sum(
                graph.node_feature[n] in game.tileset.types[game.letters[graph.node_tile[n]]].goods
                for n in graph.members(root))
        return self._goods[root]

    def _cities_of(self, root: int) -> set[int]:
        """The cities (roots) the field ``root`` touches."""
        if root not in self._cities:
            game, graph = self.game, self.graph
            cities: set[int] = set()
            for member in graph.members(root):
                order, feature = graph.node_tile[member], graph.node_feature[member]
                for city in game.tileset.types[game.letters[order]].field_cities.get(feature, ()):
                    cities.add(graph.root(graph.node(order, city)))
            self._cities[root] = cities
        return self._cities[root]
