"""Properties of random complete base Carcassonne games, 2 to 5 players (hypothesis, no Django).

A random game is seeded (the engine shuffles and draws) and takes a random legal action at each
step, the choices made by a ``random.Random`` of their own seed so a game is reproducible from
``(players, seed, choices)``.
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines.carcassonne import MEEPLES, Action, Game, IllegalAction, parse_action
from games.engines.tiles import SIDES, neighbour

players_st = st.integers(min_value=2, max_value=5)
seeds = st.integers(min_value=0, max_value=2**32 - 1)
FAST = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def choose(game: Game, chooser: random.Random) -> Action:
    actions = game.legal_actions()
    assert actions, "a game not over always has an action (a tile that fits nowhere is discarded)"
    return chooser.choice(actions)


def random_game(players: int, seed: int, choices: int) -> tuple[Game, list[Action]]:
    game = Game.new(players, seed=seed)
    chooser = random.Random(choices)
    played = []
    while not game.is_over:
        assert len(played) <= 71, "a game lays or discards each of the 71 tiles once"
        action = choose(game, chooser)
        game.apply(action)
        played.append(action)
    return game, played


def meeples_on_board(game: Game) -> Counter:
    return Counter(f.owner for root in game.graph.roots() for f in game.graph.figures(root))


def assert_matches_neighbours(game: Game, position: tuple[int, int]) -> None:
    placed = game.board.tiles[position]
    touching = 0
    for side in SIDES:
        other = game.board.tiles.get(neighbour(position, side))
        if other is None:
            continue
        touching += 1
        assert (placed.tile.edge(side, placed.quarter_turns).terrain
                == other.tile.edge(side.opposite, other.quarter_turns).terrain), (position, side)
    assert touching or position == (0, 0), f"the tile at {position} touches no tile by a side"


def assert_invariants(game: Game) -> None:
    on_board = meeples_on_board(game)
    for seat in range(game.players):
        assert 0 <= game.meeples_left[seat] <= MEEPLES
        assert on_board[seat] + game.meeples_left[seat] == MEEPLES, "meeples are conserved"
    for score in game.scores():
        assert score.total == sum(score.breakdown.values())
        assert set(score.breakdown) == {"city", "road", "cloister", "field"}
        assert all(v >= 0 for v in score.breakdown.values())
    assert len(game.pile) + len(game.board) - 1 + len(game.discarded) == 71
    assert len(game.board) == len(game.letters)
    assert game.is_over == (not game.pile)


@settings(FAST, max_examples=25)
@given(players_st, seeds, seeds)
def test_random_game_ends_and_keeps_its_invariants(players: int, seed: int, choices: int):
    """Every step: meeples conserved (board + hand = 7) and never negative; scores never go down
    and total their breakdown; the tile laid matches its neighbours; undo restores the exact
    previous snapshot and the same action then gives the same state; reading the game (legal
    actions, view, scores) leaves its snapshot as it was. The game ends with the pile
    empty, all meeples home and no action left."""
    game = Game.new(players, seed=seed)
    chooser = random.Random(choices)
    assert_invariants(game)
    while not game.is_over:
        before = game.to_dict()
        action = choose(game, chooser)
        game.view(), game.scores(), game.final_ranks()
        assert game.to_dict() == before, "reading the game (legal actions, view, scores) changes nothing"
        assert action.tile == game.next_tile
        points_before = [dict(s.breakdown) for s in game.scores()]
        seat = game.current
        game.apply(action)
        after = game.to_dict()
        assert_invariants(game)
        if not action.discard:
            assert game.letters[-1] == action.tile
            assert_matches_neighbours(game, (action.x, action.y))
            assert game.current == (seat + 1) % players
        else:
            assert game.current == seat and game.discarded[-1] == action.tile
        for old, new in zip(points_before, game.scores()):
            assert all(new.breakdown[k] >= v for k, v in old.items()), "points are never taken away"
        game.undo()
        assert game.to_dict() == before, "undo restores the exact previous state"
        game.apply(action)
        assert game.to_dict() == after
    assert game.pile == [] and game.is_over
    assert game.legal_actions() == []
    assert game.meeples_left == [MEEPLES] * players, "the final scoring sends every meeple home"
    assert len(game.board) + len(game.discarded) == 72
    for position in game.board.tiles:
        assert_matches_neighbours(game, position)
    ranks = game.final_ranks()
    totals = [s.total for s in game.scores()]
    assert sorted(ranks) == list(range(players))
    assert all(ranks[s] == 1 + sum(t > totals[s] for t in totals) for s in range(players))


@settings(FAST, max_examples=10)
@given(players_st, seeds, seeds, st.integers(min_value=0, max_value=71))
def test_from_dict_continues_identically(players: int, seed: int, choices: int, cut: int):
    """A game restored from its snapshot mid-game continues exactly as the original."""
    game = Game.new(players, seed=seed)
    chooser = random.Random(choices)
    for _ in range(cut):
        if game.is_over:
            break
        game.apply(choose(game, chooser))
    copy = Game.from_dict(game.to_dict())
    assert copy.to_dict() == game.to_dict()
    state = chooser.getstate()
    copy_chooser = random.Random()
    copy_chooser.setstate(state)
    while not game.is_over:
        a, b = choose(game, chooser), choose(copy, copy_chooser)
        assert a == b
        game.apply(a)
        copy.apply(b)
        assert copy.to_dict() == game.to_dict()
    assert copy.is_over
    assert [s.breakdown for s in copy.scores()] == [s.breakdown for s in game.scores()]
    assert copy.final_ranks() == game.final_ranks()


@settings(FAST, max_examples=6)
@given(players_st, seeds, seeds)
def test_replaying_the_notation_reproduces_the_game(players: int, seed: int, choices: int):
    """The actions written with Action.to_text and read back with parse_action, replayed on a
    new game of the same seed, give the same final state and scores; so does the same seed with
    the same choices."""
    game, played = random_game(players, seed, choices)
    replay = Game.new(players, seed=seed)
    for text in [a.to_text() for a in played]:
        replay.apply(parse_action(text))
    assert replay.is_over
    assert replay.to_dict() == game.to_dict()
    assert [s.breakdown for s in replay.scores()] == [s.breakdown for s in game.scores()]
    again, played_again = random_game(players, seed, choices)
    assert played_again == played and again.to_dict() == game.to_dict()


@settings(FAST, max_examples=12)
@given(players_st, seeds, seeds, st.integers(min_value=0, max_value=70))
def test_legal_actions_are_exactly_what_apply_accepts(players: int, seed: int, choices: int, cut: int):
    """At a random point of a random game, every placement of the drawn tile next to the board
    (each rotation, with no meeple or a meeple on any feature) is accepted by apply exactly when
    legal_actions lists it; a refusal leaves the game unchanged."""
    game = Game.new(players, seed=seed)
    chooser = random.Random(choices)
    for _ in range(cut):
        if game.is_over:
            break
        game.apply(choose(game, chooser))
    if game.is_over:
        return
    letter = game.next_tile
    legal = set(game.legal_actions())
    features = [None, *game.tileset.types[letter].tile.feature_kinds, 99]
    cells = sorted(game.board.frontier) + [next(iter(game.board.tiles)), (1000, 1000)]
    accepted = set()
    for x, y in cells:
        for rotation in (0, 90, 180, 270):
            for meeple in features:
                action = Action(letter, x, y, rotation, meeple=meeple)
                before = game.to_dict()
                try:
                    game.apply(action)
                except IllegalAction:
                    assert game.to_dict() == before
                    continue
                accepted.add(action)
                game.undo()
                assert game.to_dict() == before
    discard = Action(letter, discard=True)
    try:
        game.apply(discard)
    except IllegalAction as refused:
        assert refused.reason == "tile_fits"
    else:
        accepted.add(discard)
    assert accepted == legal
    assert (discard in legal) == (len(legal) == 1)


@settings(FAST, max_examples=2)
@given(st.integers(min_value=2, max_value=3), seeds)
def test_unseeded_random_game_ends(players: int, choices: int):
    """Without a seed the player names each tile; random choices among every letter left still
    lay or discard all 71 tiles, with the same invariants."""
    game = Game.new(players)
    chooser = random.Random(choices)
    while not game.is_over:
        game.apply(choose(game, chooser))
        assert_invariants(game)
    assert game.pile == [] and game.meeples_left == [MEEPLES] * players
    assert sorted(game.letters[1:] + game.discarded) == sorted(game.tileset.pile())
