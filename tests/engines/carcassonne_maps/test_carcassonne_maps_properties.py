"""Properties of random complete games of Carcassonne Maps – Benelux with Map-Chips, 2 to 6
players (hypothesis, no Django), with the default tiles and with the expansions' rules on.

A random game is seeded (the engine deals the set-up and the pile) and takes at each step the
random player's choice (:func:`games.engines.carcassonne_maps.simulate.choose_source_then_action`:
a source, the draw or an island stack, then an action), from a ``random.Random`` of its own
seed. A complete game costs a few tenths of a second, so the example counts stay small.
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from games.engines.carcassonne import INNS_CATHEDRALS, TRADERS_BUILDERS, Options
from games.engines.carcassonne_maps import CHIPS, DEFAULT_OPTIONS, Action, Game, IllegalAction, parse_action
from games.engines.carcassonne_maps.heuristic import heuristic_game
from games.engines.carcassonne_maps.simulate import choose_source_then_action
from games.engines.tiles import SIDES, neighbour, quarter_turns_from_degrees

BOTH_RULES = Options.with_expansions(INNS_CATHEDRALS, TRADERS_BUILDERS)
NINE_MEEPLES = Options.tiles_only(INNS_CATHEDRALS, TRADERS_BUILDERS, meeples=9)
players_st = st.integers(min_value=2, max_value=6)
seeds = st.integers(min_value=0, max_value=2**32 - 1)
options_st = st.sampled_from([DEFAULT_OPTIONS, BOTH_RULES, NINE_MEEPLES])
FAST = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def step(game: Game, chooser: random.Random) -> Action:
    legal = game.legal_actions()
    assert legal, "a game not over always has an action (a tile drawn that fits nowhere is discarded)"
    return Action.of(choose_source_then_action(legal, chooser))


def played(players: int, seed: int, choices: int, options: Options, cut: int | None = None) -> tuple[Game, list[Action]]:
    game = Game.new(players, seed=seed, options=options)
    chooser = random.Random(choices)
    actions: list[Action] = []
    while not game.is_over and (cut is None or len(actions) < cut):
        action = step(game, chooser)
        game.apply(action)
        actions.append(action)
    return game, actions


def tiles_in_play(game: Game) -> int:
    return len(game.tileset.pile()) + 1


def assert_laid_tile_matches(game: Game, position: tuple[int, int]) -> None:
    """Every side continues the tile beside it, or what the map prints there (a large city's open
    edge shows a city); the square takes a tile."""
    assert game.map.takes_tile(position), f"a tile lies on {position}, a {game.map.kind(position).value} square"
    placed = game.board.tiles[position]
    for side in SIDES:
        mine = placed.tile.edge(side, placed.quarter_turns).terrain
        other = game.board.tiles.get(neighbour(position, side))
        if other is not None:
            assert mine == other.tile.edge(side.opposite, other.quarter_turns).terrain, (position, side)
        elif game.map.printed_terrain(position, side) is not None:
            assert mine == game.map.printed_terrain(position, side), (position, side)


def assert_invariants(game: Game) -> None:
    on_board: Counter[tuple[int, str]] = Counter(
        (f.owner, f.kind) for root in game.graph.roots() for f in game.graph.figures(root))
    for seat in range(game.players):
        assert on_board[(seat, "meeple")] + game.meeples_left[seat] == game.options.meeples, "meeples are conserved"
        for kind, left in game.figures_left[seat].items():
            assert on_board[(seat, kind)] + left == 1 and left >= 0
    chips_scored = Counter()
    for taken in game.chips_taken:
        chips_scored[taken.seat] += taken.chip.points
    for score in game.scores():
        assert score.total == sum(score.breakdown.values()) and min(score.breakdown.values()) >= 0
        assert score.breakdown[CHIPS] == chips_scored[score.seat], "the chips score what their faces show"
    squares = [t.position for t in game.chips_taken]
    assert len(squares) == len(set(squares)) and not set(squares) & set(game.chips), "a chip is taken once"
    assert len(game.chips) + len(game.chips_taken) == 20
    for seat in range(game.players):
        assert len(game.chips_held[seat]) + len(game.chips_spent[seat]) == sum(t.seat == seat for t in game.chips_taken)
    on_islands = sum(s.left for s in game.islands)
    assert len(game.board) + len(game.discarded) + len(game.pile) + on_islands == tiles_in_play(game)
    assert game.face_down_left == len(game.pile) and game.is_over == (not game.pile)
    assert all(game.map.takes_tile(p) for p in game.board.tiles) and all(game.map.takes_tile(p) for p in game.board.frontier)


@settings(FAST, max_examples=10)
@given(players_st, seeds, seeds, options_st)
def test_a_random_game_ends_and_keeps_its_invariants(players: int, seed: int, choices: int, options: Options) -> None:
    """Every step: figures conserved, scores total their breakdown and never go down, the chips'
    points are those of the chips taken, each chip taken once, every tile accounted for (laid,
    discarded, to draw, on an island); the tile laid lies on a square that takes one and matches
    its neighbours and the map; reading the game changes nothing; undo restores the exact
    previous snapshot and the same action then gives the same state. The game ends with the
    face-down tiles gone, every figure home and no action left."""
    if players == 6 and INNS_CATHEDRALS not in options.expansions:
        players = 5
    game = Game.new(players, seed=seed, options=options)
    chooser = random.Random(choices)
    assert_invariants(game)
    steps = 0
    while not game.is_over:
        steps += 1
        assert steps <= 2 * tiles_in_play(game), "each tile is laid or discarded once (a draw before it at most)"
        before = game.to_dict()
        action = step(game, chooser)
        game.view(), game.scores(), game.final_ranks()
        assert game.to_dict() == before, "reading the game (legal actions, view, scores) changes nothing"
        points_before = [dict(s.breakdown) for s in game.scores()]
        game.apply(action)
        after = game.to_dict()
        assert_invariants(game)
        if not action.discard and not action.draw:
            assert game.letters[-1] == action.tile
            assert_laid_tile_matches(game, (action.x, action.y))
        for old, new in zip(points_before, game.scores()):
            assert all(new.breakdown[k] >= v for k, v in old.items()), "points are never taken away"
        game.undo()
        assert game.to_dict() == before, "undo restores the exact previous state"
        game.apply(action)
        assert game.to_dict() == after
    assert game.face_down_left == 0 and game.legal_actions() == []
    assert game.meeples_left == [options.meeples] * players, "the final scoring sends every meeple home"
    for position in game.board.tiles:
        assert_laid_tile_matches(game, position)
    totals = [s.total for s in game.scores()]
    assert all(game.final_ranks()[s] == 1 + sum(t > totals[s] for t in totals) for s in range(players))


@settings(FAST, max_examples=8)
@given(players_st, seeds, seeds, st.integers(min_value=0, max_value=95))
def test_a_snapshot_mid_game_continues_identically(players: int, seed: int, choices: int, cut: int) -> None:
    """A game restored from its JSON snapshot (without replaying) continues exactly as the original."""
    import json

    game, _ = played(players, seed, choices, DEFAULT_OPTIONS, cut)
    copy = Game.from_dict(json.loads(json.dumps(game.to_dict())))
    assert copy.to_dict() == game.to_dict() and copy.view() == game.view()
    state = random.Random(choices)
    chooser, copy_chooser = random.Random(), random.Random()
    chooser.setstate(state.getstate())
    copy_chooser.setstate(state.getstate())
    while not game.is_over:
        a, b = step(game, chooser), step(copy, copy_chooser)
        assert a == b
        game.apply(a)
        copy.apply(b)
    assert copy.to_dict() == game.to_dict() and copy.is_over


@settings(FAST, max_examples=6)
@given(players_st, seeds, seeds, options_st)
def test_the_notation_replays_the_game_and_a_seeded_record_replays_at_a_table(
        players: int, seed: int, choices: int, options: Options) -> None:
    """The actions written with ``to_text`` and read back, replayed on a new game of the same seed,
    give the same final state; the same seed and choices, the same game. The same record replays
    at a table that knows only what it sees (the set-up's :meth:`table`, no seed): the actions
    name each chip turned over and each tile turned up, so it ends with the same board, scores,
    awards and chips."""
    if players == 6 and INNS_CATHEDRALS not in options.expansions:
        players = 5
    game, actions = played(players, seed, choices, options)
    texts = [a.to_text() for a in actions]
    replay = Game.new(players, seed=seed, options=options)
    for text in texts:
        replay.apply(parse_action(text))
    assert replay.to_dict() == game.to_dict()
    again, actions_again = played(players, seed, choices, options)
    assert actions_again == actions and again.to_dict() == game.to_dict()
    table = Game.new(players, options=options, setup=game.setup.table())
    for text in texts:
        table.apply(parse_action(text))
    assert table.is_over and table.board.to_state() == game.board.to_state()
    assert [s.breakdown for s in table.scores()] == [s.breakdown for s in game.scores()]
    assert table.awards == game.awards and table.chips_held == game.chips_held
    assert [s.face_up for s in table.islands] == [s.face_up for s in game.islands]


@settings(FAST, max_examples=6)
@given(players_st, seeds, seeds, st.integers(min_value=0, max_value=90), options_st)
def test_legal_actions_are_exactly_what_apply_accepts(players: int, seed: int, choices: int, cut: int,
                                                      options: Options) -> None:
    """At a random point of a random game, for the tile drawn face down and every island's face-up
    tile: every placement (on the squares where something may go and a few others: a wave, a
    large city, an island, outside, a tile), each rotation, with no figure or a meeple on any
    feature, naming the chip on the square and the tile the stack turns up, and the discard; apply
    accepts exactly those ``legal_actions`` lists, and a refusal leaves the game unchanged."""
    if players == 6 and INNS_CATHEDRALS not in options.expansions:
        players = 5
    game, _ = played(players, seed, choices, options, cut)
    if game.is_over:
        return
    legal = {Action.of(a) for a in game.legal_actions()
             if all(kind == "meeple" for kind, _ in a.figures) and not Action.of(a).draw}
    if game.choosing and game.ordered:
        # A seeded game lists "draw" before its drawn tile's placements; a placement of that tile
        # without the draw is read as drawn (records kept before the draw was an action).
        drawn = game.copy()
        drawn.apply(Action(draw=True))
        legal |= {Action.of(a) for a in drawn.legal_actions() if all(kind == "meeple" for kind, _ in a.figures)}
    placed_at = {(a.x, a.y) for a in legal}
    others = sorted(game.board.frontier - placed_at)[:3]
    cells = sorted(placed_at - {(0, 0)}) + others + [(9, 5), (8, 7), (7, 2), (0, 0), game.board.placed[0].position]
    sources: list[tuple[str | None, int | None, str, str | None]] = [(None, None, game.next_tile or "", None)]
    for stack in game.islands:
        if stack.face_up is not None:
            sources.append((stack.colour, stack.stack, stack.face_up, stack.below[0] if stack.below else None))
    before = game.to_dict()
    refused = 0

    def accepts(action: Action) -> bool:
        nonlocal refused
        try:
            game.apply(action)
        except IllegalAction:
            refused += 1
            if refused % 50 == 0:   # every refusal's reason leaves the game unchanged: test_carcassonne_maps_game
                assert game.to_dict() == before
            return False
        game.undo()
        return True

    accepted = set()
    for island, number, letter, reveal in sources:
        features = [None, *game.tileset.types[letter].tile.feature_kinds]
        for x, y in cells:
            for rotation in (0, 90, 180, 270):
                for meeple in features:
                    action = Action(letter, x, y, rotation, meeple=meeple, island=island, stack=number,
                                    chip=game.chips.get((x, y)), reveal=reveal)
                    if accepts(action):
                        accepted.add(action)
        discard = Action(letter, discard=True, island=island, stack=number, reveal=reveal)
        if accepts(discard):
            accepted.add(discard)
    assert accepted == legal
    assert game.to_dict() == before


@settings(FAST, max_examples=4)
@given(seeds, seeds)
# A tile whose two cities join apart from each other, one through a tile laid, the other through
# Bruxelles's open edge, into the same city: the preview once counted that city's contacts twice.
@example(1449, 185)
def test_previewing_a_tile_agrees_with_laying_it_on_the_map(seed: int, choices: int) -> None:
    """What the simple player's look ahead (:meth:`Game.preview`) says a placement would join and
    close is what laying it does, the map's border and large cities included."""
    game = Game.new(3, seed=seed)
    chooser = random.Random(choices)
    while not game.is_over:
        legal = [Action.of(a) for a in game.legal_actions()]
        for action in [a for a in legal if not a.discard and not a.figures and not a.draw][:3]:
            tile = game.tileset.types[action.tile or ""].tile
            joinings = game.preview(tile, (action.x, action.y), quarter_turns_from_degrees(action.rotation))
            tiles = [joining.tiles(game.graph) for joining in joinings]
            game.apply(action)
            order = len(game.board.placed) - 1
            for joining, count in zip(joinings, tiles):
                nodes = {game.graph.root(game.graph.node(order, fid)) for fid in joining.features}
                assert len(nodes) == 1
                node = nodes.pop()
                assert (joining.open_contacts, count) == (game.graph.open_contacts(node), game.graph.tile_count(node))
            game.undo()
        game.apply(Action.of(choose_source_then_action(legal, chooser)))


def test_the_simple_player_plays_whole_games_and_pays_chips_sometimes() -> None:
    game, actions = heuristic_game(2, 3)
    assert game.is_over and game.face_down_left == 0
    assert_invariants(game)
    assert sum(1 for a in actions if a.from_island) > 0
    again, same = heuristic_game(2, 3)
    assert same == actions and again.to_dict() == game.to_dict()
