"""Properties of random complete Carcassonne games with the expansions, 2 to 6 players (hypothesis,
no Django).

Each example draws the options too: which expansions' tiles are in, which of their rules apply
(tiles only is a choice), and the meeples per player; six players bring Inns & Cathedrals' tiles.
A game is seeded and takes a random legal action at each step, chosen by a ``random.Random`` of
its own seed, so it is reproducible from ``(players, options, seed, choices)``.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines.carcassonne import (
    EXPANSIONS, INNS_CATHEDRALS, Action, Game, IllegalAction, Options, parse_action,
)
from games.engines.carcassonne.figures import KINDS, MEEPLE
from games.engines.tiles import SIDES, neighbour

seeds = st.integers(min_value=0, max_value=2**32 - 1)
FAST = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def set_ups(draw: st.DrawFn) -> tuple[int, Options]:
    players = draw(st.integers(min_value=2, max_value=6))
    expansions = draw(st.sets(st.sampled_from(EXPANSIONS), min_size=1))
    if players == 6:
        expansions.add(INNS_CATHEDRALS)
    rules = draw(st.sets(st.sampled_from(sorted(expansions))))
    return players, Options(tuple(expansions), tuple(rules), draw(st.integers(min_value=4, max_value=9)))


def play_to(game: Game, chooser: random.Random, steps: int) -> None:
    for _ in range(steps):
        if game.is_over:
            return
        game.apply(chooser.choice(game.legal_actions()))


def figures_on_board(game: Game) -> Counter[tuple[int, str]]:
    return Counter((f.owner, f.kind) for root in game.graph.roots() for f in game.graph.figures(root))


def assert_invariants(game: Game) -> None:
    on_board = figures_on_board(game)
    for seat in range(game.players):
        assert on_board[seat, MEEPLE] + game.meeples_left[seat] == game.options.meeples, "meeples are conserved"
        for kind in game.special_figures:
            assert on_board[seat, kind] + game.figures_left[seat][kind] == 1, f"one {kind} each"
    assert {kind for _, kind in on_board} <= {MEEPLE, *game.special_figures}
    totals = [0] * game.players
    for award in game.awards:
        for seat in award.seats:
            totals[seat] += award.points
    for score in game.scores():
        assert score.total == sum(score.breakdown.values()) == totals[score.seat]
        assert tuple(score.breakdown) == game.sources and all(v >= 0 for v in score.breakdown.values())
    assert len(game.pile) + len(game.board) - 1 + len(game.discarded) == len(game.tileset.pile())
    assert game.is_over == (not game.pile)
    assert not game.double_turn or game.trading


def assert_matches_neighbours(game: Game, position: tuple[int, int]) -> None:
    placed = game.board.tiles[position]
    for side in SIDES:
        other = game.board.tiles.get(neighbour(position, side))
        if other is not None:
            assert (placed.tile.edge(side, placed.quarter_turns).terrain
                    == other.tile.edge(side.opposite, other.quarter_turns).terrain), (position, side)


@settings(FAST, max_examples=8)
@given(set_ups(), seeds, seeds)
def test_random_game_ends_and_keeps_its_invariants(set_up: tuple[int, Options], seed: int, choices: int):
    """Every step: figures conserved (meeples on the board and in hand make the options' number,
    one large meeple, builder and pig each); scores total their breakdown and the awards; the
    tile laid matches its neighbours; the turn passes unless the builder gave a second tile (never
    a third); undo restores the exact previous snapshot and the same action gives the same state;
    reading the game changes nothing. The game ends with the pile empty and every figure home."""
    players, options = set_up
    game = Game.new(players, seed=seed, options=options)
    chooser = random.Random(choices)
    assert_invariants(game)
    while not game.is_over:
        before = game.to_dict()
        action = chooser.choice(game.legal_actions())
        game.view(), game.scores(), game.final_ranks()
        assert game.to_dict() == before
        seat, doubled = game.current, game.double_turn
        game.apply(action)
        after = game.to_dict()
        assert_invariants(game)
        if action.discard:
            assert game.current == seat and game.double_turn == doubled
        else:
            assert_matches_neighbours(game, (action.x, action.y))
            if game.double_turn:
                assert game.current == seat and not doubled, "a second tile, never a third"
            elif not game.is_over:
                assert game.current == (seat + 1) % players
        game.undo()
        assert game.to_dict() == before, "undo restores the exact previous state"
        game.apply(action)
        assert game.to_dict() == after
    assert game.legal_actions() == []
    assert game.meeples_left == [options.meeples] * players
    assert all(left == dict.fromkeys(game.special_figures, 1) for left in game.figures_left)
    assert len(game.board) + len(game.discarded) == len(game.tileset.pile()) + 1


@settings(FAST, max_examples=5)
@given(set_ups(), seeds, seeds, st.integers(min_value=0, max_value=113))
def test_from_dict_continues_identically(set_up: tuple[int, Options], seed: int, choices: int, cut: int):
    """A game restored from its snapshot (through JSON) mid-game, options and all, continues
    exactly as the original."""
    players, options = set_up
    game = Game.new(players, seed=seed, options=options)
    chooser = random.Random(choices)
    play_to(game, chooser, cut)
    restored = Game.from_dict(json.loads(json.dumps(game.to_dict())))
    assert restored.to_dict() == game.to_dict() and restored.options == options
    assert restored.view() == game.view()
    copy_chooser = random.Random()
    copy_chooser.setstate(chooser.getstate())
    while not game.is_over:
        a, b = chooser.choice(game.legal_actions()), copy_chooser.choice(restored.legal_actions())
        assert a == b
        game.apply(a)
        restored.apply(b)
    assert restored.to_dict() == game.to_dict()
    assert restored.final_ranks() == game.final_ranks()


@settings(FAST, max_examples=4)
@given(set_ups(), seeds)
def test_replaying_the_notation_reproduces_the_game(set_up: tuple[int, Options], seed: int):
    """The random game's actions written and read back (text and payloads) replay to the same end."""
    from games.engines.carcassonne.simulate import random_game

    players, options = set_up
    game, played = random_game(players, seed, options)
    by_text, by_payload = Game.new(players, seed=seed, options=options), Game.new(players, seed=seed, options=options)
    for action in played:
        assert parse_action(action.to_text()) == action
        by_text.apply(parse_action(action.to_text()))
        by_payload.apply(Action.from_dict(action.to_dict(), discard=action.discard))
    assert by_text.to_dict() == by_payload.to_dict() == game.to_dict()
    again, played_again = random_game(players, seed, options)
    assert played_again == played and again.to_dict() == game.to_dict()


@settings(FAST, max_examples=5)
@given(set_ups(), seeds, seeds, st.integers(min_value=0, max_value=110))
def test_legal_actions_are_exactly_what_apply_accepts(set_up: tuple[int, Options], seed: int, choices: int,
                                                      cut: int):
    """At a random point of a random game, every placement of the drawn tile (each rotation, with
    no figure or any kind of figure on any feature) is accepted by apply exactly when
    legal_actions lists it; each refusal is an IllegalAction leaving the game unchanged."""
    players, options = set_up
    game = Game.new(players, seed=seed, options=options)
    play_to(game, random.Random(choices), cut)
    if game.is_over:
        return
    letter = game.next_tile
    assert letter is not None
    legal = set(game.legal_actions())
    features = [*game.tileset.types[letter].tile.feature_kinds, 99]
    figures = [{}] + [{kind: feature} for kind in KINDS for feature in features]
    cells = sorted(game.board.frontier)
    accepted = set()
    for x, y in cells:
        for rotation in (0, 90, 180, 270):
            if not game.board.fits(game.tileset.types[letter].tile, (x, y), rotation // 90):
                continue
            for figure in figures:
                action = Action(letter, x, y, rotation, **figure)
                before = game.to_dict()
                try:
                    game.apply(action)
                except IllegalAction:
                    assert game.to_dict() == before
                    continue
                accepted.add(action)
                game.undo()
    discard = Action(letter, discard=True)
    try:
        game.apply(discard)
    except IllegalAction as refused:
        assert refused.reason == "tile_fits"
    else:
        accepted.add(discard)
    assert accepted == legal
