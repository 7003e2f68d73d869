"""The engines' simple players: their games are legal, the same seed plays the same
game, and they score like people who play, where the random player does not (no Django).

A Carcassonne game of two scores 50 or more at the median; no Stone Age tribe starves and the
median is a believable 80 or more; Hunters and Gatherers scores well above the random player.
"""

from __future__ import annotations

import random
import statistics
from functools import lru_cache

import pytest

from games.engines import carcassonne, hunters_gatherers, stone_age
from games.engines.carcassonne.heuristic import heuristic_game as carcassonne_game
from games.engines.hunters_gatherers.heuristic import heuristic_game as hunters_gatherers_game
from games.engines.stone_age.heuristic import heuristic_game as stone_age_game
from games.engines.stone_age.simulate import random_game as stone_age_random_game
from games.engines.tiles import quarter_turns_from_degrees
from games.engines.tiles.heuristic import preview

SEEDS = range(10)


@lru_cache(maxsize=None)
def carcassonne_played(players: int, seed: int) -> tuple[carcassonne.Game, tuple[carcassonne.Action, ...]]:
    game, actions = carcassonne_game(players, seed)
    return game, tuple(actions)


@lru_cache(maxsize=None)
def stone_age_played(players: int, seed: int) -> tuple[stone_age.Game, tuple[stone_age.Action, ...]]:
    game, actions = stone_age_game(players, seed)
    return game, tuple(actions)


@lru_cache(maxsize=None)
def hunters_gatherers_played(players: int, seed: int) -> tuple[hunters_gatherers.Game, tuple[hunters_gatherers.Action, ...]]:
    game, actions = hunters_gatherers_game(players, seed)
    return game, tuple(actions)


def seated(index: int, fewest: int, most: int) -> int:
    """Player counts taken in turn, as the demo seats its games."""
    return fewest + index % (most - fewest + 1)


def totals(game) -> list[int]:
    return [score.total for score in game.scores()]


# -- legal and reproducible ------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_carcassonne_game_of_the_simple_player_replays_through_the_engine(players):
    game, actions = carcassonne_played(players, 1)
    replayed = carcassonne.Game.new(players, seed=1)
    for action in actions:
        assert action in replayed.legal_actions(), action.to_text()
        replayed.apply(action)
    assert replayed.is_over and replayed.to_dict() == game.to_dict()
    assert sum(1 for a in actions if a.meeple is not None) >= 7, "it puts meeples out"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_stone_age_game_of_the_simple_player_replays_through_the_engine(players):
    game, actions = stone_age_played(players, 1)
    replayed = stone_age.Game.new(players, seed=1)
    for action in actions:
        replayed.apply(action)  # the dice, draws and picks it chose are part of the action
    assert replayed.is_over and replayed.to_dict() == game.to_dict()
    assert any(a.location and a.location.startswith("building") and a.pay for a in actions), "it builds"


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_hunters_and_gatherers_game_of_the_simple_player_replays_through_the_engine(players):
    game, actions = hunters_gatherers_played(players, 1)
    replayed = hunters_gatherers.Game.new(players, seed=1)
    for action in actions:
        assert action in replayed.legal_actions(), action.to_text()
        replayed.apply(action)
    assert replayed.is_over and replayed.view() == game.view()
    assert {a.figure for a in actions} >= {"gatherer", "fisher", "hunter", "hut"}


def test_the_same_seed_plays_the_same_game_and_another_seed_another():
    assert carcassonne_game(3, 1)[1] == list(carcassonne_played(3, 1)[1])
    assert stone_age_game(3, 1)[1] == list(stone_age_played(3, 1)[1])
    assert hunters_gatherers_game(3, 1)[1] == list(hunters_gatherers_played(3, 1)[1])
    assert carcassonne_game(3, 2)[1] != list(carcassonne_played(3, 1)[1])


# -- scores like play ------------------------------------------------------------------------

def test_two_player_carcassonne_scores_fifty_or_more_at_the_median():
    scores = [score for seed in SEEDS for score in totals(carcassonne_played(2, seed)[0])]
    assert statistics.median(scores) >= 50, scores


def test_carcassonne_scores_fall_as_more_players_share_the_tiles_but_stay_like_play():
    medians = [statistics.median(s for seed in range(3) for s in totals(carcassonne_played(n, seed)[0]))
               for n in (3, 4, 5)]
    assert all(median >= 30 for median in medians), medians


def test_no_stone_age_tribe_starves_and_the_median_is_believable():
    games = [stone_age_played(seated(i, 2, 4), seed)[0] for i, seed in enumerate(SEEDS)]
    starved = [(game.seed, s.seat) for game in games for s in game.scores() if s.breakdown["starvation"]]
    assert starved == []
    scores = [score for game in games for score in totals(game)]
    assert statistics.median(scores) >= 80, scores
    # Like play: every tribe grows, builds and takes cards.
    assert all(t.people > 5 and t.buildings and t.cards for game in games for t in game.tribes)


def test_the_stone_age_simple_player_scores_above_the_random_one():
    heuristic = [s for i, seed in enumerate(SEEDS) for s in totals(stone_age_played(seated(i, 2, 4), seed)[0])]
    chance = [s for i, seed in enumerate(SEEDS) for s in totals(stone_age_random_game(seated(i, 2, 4), seed)[0])]
    assert statistics.median(heuristic) > statistics.median(chance)


def hunters_gatherers_random_game(players: int, seed: int) -> hunters_gatherers.Game:
    """The random player the demo used before (``registry.random_game``)."""
    chooser = random.Random(seed)
    game = hunters_gatherers.Game.new(players, seed=seed)
    while not game.is_over:
        game.apply(chooser.choice(game.legal_actions()))
    return game


def test_hunters_and_gatherers_scores_well_above_the_random_player():
    heuristic = [s for seed in range(6) for s in totals(hunters_gatherers_played(seated(seed, 2, 5), seed)[0])]
    chance = [s for seed in range(6) for s in totals(hunters_gatherers_random_game(seated(seed, 2, 5), seed))]
    assert statistics.median(heuristic) > 2 * statistics.median(chance), (heuristic, chance)


# -- the look-ahead the tile players use -----------------------------------------------------

@pytest.mark.parametrize("seed", [0, 1, 2])
def test_previewing_a_carcassonne_tile_agrees_with_laying_it(seed):
    game = carcassonne.Game.new(3, seed=seed)
    chooser = random.Random(seed)
    checked = 0
    while not game.is_over:
        legal = game.legal_actions()
        for action in [a for a in legal if not a.discard and a.meeple is None][:4]:
            tile = game.tileset.types[action.tile or ""].tile
            joinings = preview(game.board, game.graph, tile, (action.x, action.y), quarter_turns_from_degrees(action.rotation))
            tiles = [joining.tiles(game.graph) for joining in joinings]
            game.apply(action)
            order = len(game.board.placed) - 1
            for joining, count in zip(joinings, tiles):
                nodes = {game.graph.root(game.graph.node(order, fid)) for fid in joining.features}
                assert len(nodes) == 1, "the features a joining names are one feature once laid"
                node = nodes.pop()
                assert (joining.open_contacts, count) == (game.graph.open_contacts(node), game.graph.tile_count(node))
                checked += 1
            assert sorted(f for j in joinings for f in j.features) == sorted(tile.feature_kinds)
            game.undo()
        game.apply(chooser.choice(legal))
    assert checked > 500


def test_previewing_a_hunters_and_gatherers_tile_agrees_with_laying_it():
    game = hunters_gatherers.Game.new(3, seed=4)
    chooser = random.Random(4)
    checked = 0
    while not game.is_over and checked < 600:
        legal = game.legal_actions()
        for action in [a for a in legal if not a.discard and a.figure is None][:3]:
            tile = game.tileset.by_id[action.tile]
            joinings = preview(game.land.board, game.land.graph, tile.geometry, (action.x, action.y),
                               quarter_turns_from_degrees(action.rotation))
            tiles = [joining.tiles(game.land.graph) for joining in joinings]
            trial = hunters_gatherers.Game.from_snapshot(game.snapshot())
            trial.apply(action)
            graph, order = trial.land.graph, len(trial.land.board.placed) - 1
            for joining, count in zip(joinings, tiles):
                nodes = {graph.root(graph.node(order, fid)) for fid in joining.features}
                assert len(nodes) == 1, "the features a joining names are one feature once laid"
                node = nodes.pop()
                assert joining.open_contacts == graph.open_contacts(node)
                assert count == graph.tile_count(node)
                checked += 1
        game.apply(chooser.choice(legal))
    assert checked >= 300
