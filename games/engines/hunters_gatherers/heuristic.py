"""A simple player for Hunters and Gatherers, for demo games that look played.

Each turn it weighs every placement of the tile drawn by what it would do (worked out with
:func:`games.engines.tiles.heuristic.preview`, without laying it): the forests and rivers it
completes score at once for whoever has the most gatherers or fishers there, the features each
player holds grow, and a completed forest with a gold nugget brings a bonus tile; its own gain
counts against the others'. A figure goes where it is likely to score: a gatherer or a fisher
on a forest or river that can be closed, a hunter on a meadow with animals, a hut on a river
system with fish; the last tribe member is dear, so it keeps one in reserve. The seed only
breaks ties.

>>> game, actions = heuristic_game(2, seed=3)
>>> game.is_over
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from games.engines.tiles import majority_owners
from games.engines.tiles.heuristic import Joining, play_out, preview

from .actions import TRIBE_MEMBERS, Action
from .game import HUTS_PER_PLAYER, TRIBE_MEMBERS_PER_PLAYER, Game
from .rulesets import DEFAULT_RULESET, VariantChoice
from .scoring import meadow_points, system_fish
from .tileset import Feature, Forest, Lake, Meadow, River, Tile

_TILES = 78
"""Landscape tiles in the pile at the start."""
_MEMBER_COST: Sequence[float] = (30.0, 12.0, 4.0, 2.0, 1.5, 1.0)
"""What putting out a tribe member costs, by the members left before: the last is kept back."""
_HUT_COST: Sequence[float] = (30.0, 4.0, 2.0)
_GOLD = 6.0
"""A bonus tile, laid at once."""


def heuristic_game(players: int, seed: int, *, ruleset: int = DEFAULT_RULESET,
                   variants: VariantChoice = frozenset()) -> tuple[Game, list[Action]]:
    """A complete game of the simple player under ``ruleset`` and ``variants``: the same seed, the
    same game. (A figure that closes a forest or river costs it nothing, whether it comes home
    before the bonus tile or, with ``figures_home_at_end_of_turn``, after it.)"""
    game = Game.new(players, seed=seed, ruleset=ruleset, variants=variants)
    return game, play_out(game, choose, seed)


def choose(game: Game, chooser: random.Random) -> Action:
    """The action the simple player takes now, among ``game.legal_actions()``."""
    legal = game.legal_actions()
    if len(legal) == 1:
        return legal[0]
    turn = _Turn(game, game.tileset.by_id[legal[0].tile])
    by_placement: dict[tuple[tuple[int, int], int], list[Action]] = {}
    for action in legal:
        by_placement.setdefault(((action.x, action.y), action.rotation), []).append(action)
    valued: list[tuple[float, Action]] = []
    for (position, rotation), options in by_placement.items():
        base, claims = turn.weigh(position, rotation // 90)
        for option in options:
            if option.figure is None:
                valued.append((base, option))
            elif (option.figure, option.feature) in claims:
                valued.append((base + claims[(option.figure, option.feature or 0)], option))
    best = max(value for value, _ in valued)
    return chooser.choice([action for value, action in valued if value >= best - 1e-9])


def _contents(feature: Feature) -> tuple[int, ...]:
    """What a feature holds that its points count: a meadow (deer, mammoths, aurochs, tigers,
    fire), a forest (mushroom clearings, gold nuggets), a river (the fish of the lake it ends
    in, 0), a lake (its fish)."""
    if isinstance(feature, Meadow):
        return feature.deer, feature.mammoths, feature.aurochs, feature.tigers, int(feature.fire)
    if isinstance(feature, Forest):
        return feature.mushroom_clearings, feature.gold_nuggets
    if isinstance(feature, Lake):
        return (feature.fish,)
    return (0, 0)


class _Turn:
    """The landscape before the current player lays ``tile``, and what each placement would change."""

    def __init__(self, game: Game, tile: Tile) -> None:
        self.game = game
        self.land = game.land
        self.graph = game.land.graph
        seat = game.current_player
        assert seat is not None
        self.seat = seat
        self.tiles_left = len(game.landscape_left) - (1 if game.phase == "landscape" else 0)
        self.chance = self.tiles_left / _TILES
        self.bonus = game.phase == "landscape" and bool(game.bonus_left)
        supply = game.supply(seat)
        scale = 0.3 + 0.7 * self.chance
        self.member_cost = _MEMBER_COST[min(supply["tribe_members"], TRIBE_MEMBERS_PER_PLAYER)] * scale
        self.hut_cost = _HUT_COST[min(supply["huts"], HUTS_PER_PLAYER)] * scale
        self.held: dict[int, Counter[int]] = {}
        self.huts: dict[int, Counter[int]] = {}
        for figure in self.land.figures:
            if figure.kind in TRIBE_MEMBERS:
                self.held.setdefault(self.graph.root(figure.node), Counter())[figure.owner] += 1
            else:
                self.huts.setdefault(self.land.systems.find(figure.node), Counter())[figure.owner] += 1
        self._extras: dict[int, tuple[int, ...]] = {}
        self._fish: dict[int, int] = {}
        self.before = {root: self._worth_now(root) for root in self.held}
        self.tile = tile
        self.kinds = {fid: feature.kind for fid, feature in tile.features.items()}
        self.contents = {fid: _contents(feature) for fid, feature in tile.features.items()}
        for fid, feature in tile.features.items():
            if isinstance(feature, River) and feature.lake is not None:
                self.contents[fid] = (self.contents[feature.lake][0], 0)
        self.waters = [fid for fid, kind in self.kinds.items() if kind in ("river", "lake")]

    # -- a placement ---------------------------------------------------------------------------

    def weigh(self, position: tuple[int, int], turns: int) -> tuple[float, dict[tuple[str, int], float]]:
        """The placement's worth to the current player (its gain less the others' mean gain),
        and what a figure adds on each feature of the tile where it may stand."""
        joinings = preview(self.land.board, self.graph, self.tile.geometry, position, turns)
        gain = [0.0] * self.game.players
        claims: dict[tuple[str, int], float] = {}
        gold = False
        for joining in joinings:
            kind = self.kinds[joining.features[0]]
            if kind == "lake":
                continue  # a lake joins no feature; huts on it count with its river system below
            held = [root for root in joining.roots if root in self.held]
            for root in held:
                for owner in majority_owners(self.held[root]):
                    gain[owner] -= self.before[root]
            totals = [sum(column) for column in zip(*(self._extras_of(root) for root in joining.roots),
                                                    *(self.contents[fid] for fid in joining.features))]
            worth, scored = self._worth(joining, kind, totals)
            gold = gold or (scored and kind == "forest" and totals[1] > 0)
            if held:
                owners = sum((self.held[root] for root in held), Counter[int]())
                for owner in majority_owners(owners):
                    gain[owner] += worth
            else:
                figure = {"forest": "gatherer", "river": "fisher", "meadow": "hunter"}[kind]
                for fid in joining.features:
                    claims[(figure, fid)] = worth - (0.0 if scored else self.member_cost)
        if gold and self.bonus:
            gain[self.seat] += _GOLD
        if self.waters:
            self._river_systems(joinings, gain, claims)
        others = [g for seat, g in enumerate(gain) if seat != self.seat]
        return gain[self.seat] - sum(others) / len(others), claims

    def _worth(self, joining: Joining, kind: str, totals: list[int]) -> tuple[float, bool]:
        """What the feature ``joining`` makes (holding ``totals``, see :func:`_contents`) is likely
        to give its holders, and whether it scores at once (a forest or river the tile completes)."""
        if kind == "meadow":
            deer, mammoths, aurochs, tigers, fire = totals
            points = 2 * (max(0, deer - (0 if fire else tigers)) + mammoths + aurochs)
            return points + 2.0 * self.chance * min(joining.open_contacts, 4), False
        tiles = joining.tiles(self.graph)
        points = 2 * tiles + 2 * totals[0] if kind == "forest" else tiles + totals[0]
        if joining.open_contacts == 0:
            return float(points), True
        return points * self._closing(joining.open_contacts), False

    def _closing(self, open_contacts: int) -> float:
        """The chance an unfinished forest or river is closed before the end."""
        return max(0.0, 1.0 - 0.2 * (open_contacts - 1)) * min(1.0, self.tiles_left / 10)

    def _river_systems(self, joinings: list[Joining], gain: list[float], claims: dict[tuple[str, int], float]) -> None:
        """Huts score the fish of their river system at the end: the tile may bring lakes to a
        system with huts, join systems, or offer a system without a hut to build on."""
        # Keys: a feature of the tile is ``-1 - id``, a river system laid already its root (>= 0).
        parent: dict[int, int] = {-1 - fid: -1 - fid for fid in self.waters}

        def find(key: int) -> int:
            while parent.setdefault(key, key) != key:
                key = parent[key]
            return key

        def join(a: int, b: int) -> None:
            a, b = find(a), find(b)
            if a != b:
                parent[b] = a

        for fid, feature in self.tile.features.items():
            if isinstance(feature, River) and feature.lake is not None:
                join(-1 - fid, -1 - feature.lake)
        for joining in joinings:
            if self.kinds[joining.features[0]] == "river":
                for fid in joining.features[1:]:
                    join(-1 - joining.features[0], -1 - fid)
                for root in joining.roots:
                    join(-1 - joining.features[0], self.land.systems.find(root))
        clusters: dict[int, list[int]] = {}
        for key in list(parent):
            clusters.setdefault(find(key), []).append(key)
        for keys in clusters.values():
            systems = [key for key in keys if key >= 0]
            fish = sum(self._system_fish(system) for system in systems)
            fish += sum(self.contents[-1 - key][0] for key in keys if key < 0 and self.kinds[-1 - key] == "lake")
            worth = fish + 1.5 * self.chance
            huts: Counter[int] = Counter()
            for system in systems:
                if system in self.huts:
                    huts += self.huts[system]
                    for owner in majority_owners(self.huts[system]):
                        gain[owner] -= self._system_fish(system) + 1.5 * self.chance
            for owner in majority_owners(huts):
                gain[owner] += worth
            if not huts:
                for key in keys:
                    if key < 0:
                        claims[("hut", -1 - key)] = worth - self.hut_cost

    # -- what features hold ---------------------------------------------------------------------

    def _worth_now(self, root: int) -> float:
        """What a feature held by tribe members is worth before the tile is laid."""
        graph = self.graph
        kind = self.land.feature(root).kind
        extras = self._extras_of(root)
        if kind == "meadow":
            return meadow_points(self.land, root) + 2.0 * self.chance * min(graph.open_contacts(root), 4)
        points = 2 * graph.tile_count(root) + 2 * extras[0] if kind == "forest" else graph.tile_count(root) + extras[0]
        return points * self._closing(graph.open_contacts(root))

    def _extras_of(self, root: int) -> tuple[int, ...]:
        """What the feature of ``root`` holds, summed over its tiles (see :func:`_contents`; a lake
        that two of its rivers end in counts once)."""
        if root not in self._extras:
            land, graph = self.land, self.graph
            members = graph.members(root)
            if isinstance(land.feature(root), River):
                lakes = {graph.node(graph.node_tile[n], f.lake) for n in members
                         if isinstance(f := land.feature(n), River) and f.lake is not None}
                self._extras[root] = (sum(_contents(land.feature(lake))[0] for lake in lakes), 0)
            else:
                self._extras[root] = tuple(sum(column) for column in zip(*(_contents(land.feature(n)) for n in members)))
        return self._extras[root]

    def _system_fish(self, system: int) -> int:
        if system not in self._fish:
            self._fish[system] = system_fish(self.land, system)
        return self._fish[system]
