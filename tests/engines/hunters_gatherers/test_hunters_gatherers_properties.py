"""Properties of random complete games for 2–5 players (hypothesis)."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines.hunters_gatherers import Action, Game, parse_action
from games.engines.hunters_gatherers.actions import TRIBE_MEMBERS
from games.engines.tiles import SIDES, meeting_sub_edge, neighbour

players = st.integers(min_value=2, max_value=5)
seeds = st.integers(min_value=0, max_value=2**32)


def random_game(n: int, seed: int) -> Game:
    game = Game.new(n, seed=seed)
    chooser = random.Random(seed)
    while not game.is_over:
        game.apply(chooser.choice(game.legal_actions()))
    return game


def assert_sides_match(game: Game) -> None:
    board = game.land.board
    for placed in board.placed:
        for side in SIDES:
            other = board.tiles.get(neighbour(placed.position, side))
            if other is None:
                continue
            mine = placed.tile.edge(side, placed.quarter_turns)
            theirs = other.tile.edge(side.opposite, other.quarter_turns)
            assert mine.terrain == theirs.terrain
            for i in range(3):
                assert (placed.tile.feature_kinds[mine.sub_edges[i]]
                        == other.tile.feature_kinds[theirs.sub_edges[meeting_sub_edge(i)]])


def assert_figures_conserved(game: Game) -> None:
    on_board = Counter((f.owner, f.kind in TRIBE_MEMBERS) for f in game.figures_on_board())
    for seat in range(game.players):
        supply = game.supply(seat)
        assert supply["tribe_members"] + on_board[(seat, True)] == 5
        assert supply["huts"] + on_board[(seat, False)] == 2


@settings(max_examples=8, deadline=None)
@given(players, seeds)
def test_random_game_keeps_every_invariant(n: int, seed: int):
    """Sides match, figures are conserved, huts never return, scores add up, at every step."""
    game = Game.new(n, seed=seed)
    chooser = random.Random(seed)
    huts_built = [0] * n
    while not game.is_over:
        game.apply(chooser.choice(game.legal_actions()))
        assert_figures_conserved(game)
        built = [2 - game.supply(s)["huts"] for s in range(n)]
        assert all(now >= before for now, before in zip(built, huts_built))
        huts_built = built
    assert_sides_match(game)
    awarded = [0] * n
    for _, award in game.awards():
        for seat in award.seats:
            awarded[seat] += award.points
    for score in game.scores():
        assert score.total == sum(score.breakdown.values()) == awarded[score.seat]
    assert len(game.land.board) + len(game.discarded) == 79 + 12 - len(game.bonus_left)
    assert not game.landscape_left
    assert all(f.kind in ("hunter", "hut") for f in game.figures_on_board())
    ranks = game.final_ranks()
    assert min(ranks.values()) == 1 and sorted(ranks) == list(range(n))


@settings(max_examples=3, deadline=None)
@given(players, seeds)
def test_undo_restores_the_exact_previous_state(n: int, seed: int):
    game = Game.new(n, seed=seed)
    chooser = random.Random(seed)
    step = 0
    while not game.is_over:
        action = chooser.choice(game.legal_actions())
        if step % 7 == 0 or game.phase == "bonus":
            before = game.to_dict()
            game.apply(action)
            assert game.undo() == action
            assert game.to_dict() == before
        game.apply(action)
        step += 1
    before_end = game.copy()
    last = game.undo()
    game.apply(last)
    assert game.to_dict() == before_end.to_dict()


@settings(max_examples=4, deadline=None)
@given(players, seeds)
def test_replaying_the_action_list_gives_the_same_state_at_every_step(n: int, seed: int):
    original = random_game(n, seed)
    steps = [original.replayed(original.history[:k]).to_dict() for k in (0, 1, 10, 40)]
    replay = Game.new(n, seed=seed)
    texts = [a.to_text() for a in original.history]
    for k, text in enumerate(texts):
        if k in (0, 1, 10, 40):
            assert replay.to_dict() == steps[(0, 1, 10, 40).index(k)]
        replay.apply(parse_action(text))
    assert replay.to_dict() == original.to_dict()
    unseeded = Game.new(n)                         # chance as input: the same tiles, named
    for text in texts:
        unseeded.apply(parse_action(text))
    assert [s.total for s in unseeded.scores()] == [s.total for s in original.scores()]


@settings(max_examples=3, deadline=None)
@given(players, seeds)
def test_same_seed_same_game(n: int, seed: int):
    assert random_game(n, seed).to_dict() == random_game(n, seed).to_dict()


@settings(max_examples=3, deadline=None)
@given(players, seeds, st.integers(min_value=0, max_value=90))
def test_to_dict_from_dict_round_trip(n: int, seed: int, cut: int):
    game = random_game(n, seed)
    partial = game.replayed(game.history[:cut])
    for g in (game, partial):
        data = json.loads(json.dumps(g.to_dict()))
        assert Game.from_dict(data).to_dict() == g.to_dict()


@settings(max_examples=3, deadline=None)
@given(players, seeds)
def test_notation_round_trip(n: int, seed: int):
    game = Game.new(n, seed=seed)
    chooser = random.Random(seed)
    while not game.is_over:
        actions = game.legal_actions()
        for action in actions:
            assert parse_action(action.to_text()) == action
            assert Action.from_dict(json.loads(json.dumps(action.to_dict()))) == action
        game.apply(chooser.choice(actions))


@settings(max_examples=2, deadline=None)
@given(players, seeds)
def test_unseeded_games_accept_any_tile_left(n: int, seed: int):
    """Without a seed the caller names the drawn tile; every invariant still holds."""
    game = Game.new(n)
    chooser = random.Random(seed)
    while not game.is_over:
        pile = game.bonus_left if game.phase == "bonus" else game.landscape_left
        game.apply(chooser.choice(game.legal_actions(chooser.choice(pile))))
        assert_figures_conserved(game)
    assert_sides_match(game)
