"""Carcassonne Maps – Benelux with Map-Chips: starting a game, the map under the tiles (border,
large cities), actions and their notation, the view, snapshots, and every refusal's reason.

The rules of seed 003 sentence by sentence are in ``test_carcassonne_maps_rules.py``; random
complete games in ``test_carcassonne_maps_properties.py``.
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from collections.abc import Callable

import pytest

from games.engines.carcassonne import BASE_GAME, INNS_CATHEDRALS, TRADERS_BUILDERS, Options
from games.engines.carcassonne import Action as CarcassonneAction
from games.engines.carcassonne_maps import (
    CHIPS, DEFAULT_OPTIONS, Action, Chip, ChipValues, Game, IllegalAction, SetUp, TableSetUp, draw_setup,
    parse_action, setup_from_dict,
)
from games.engines.carcassonne_maps.simulate import random_game
from games.engines.tiles import Side

from .carcassonne_maps_tables import (
    AMSTERDAM_EDGES, BENELUX, MEPPEL, dealt, holding, last_tile, play, reason, refusal, table, table_game,
    to_amsterdam, with_stack,
)

BOTH_RULES = Options.with_expansions(INNS_CATHEDRALS, TRADERS_BUILDERS)
TRADING = Options(expansions=(INNS_CATHEDRALS, TRADERS_BUILDERS), rules=(TRADERS_BUILDERS,))


# -- starting a game -------------------------------------------------------------------------------

def test_by_default_114_tiles_of_the_base_game_and_both_expansions_tiles_only_and_7_meeples() -> None:
    game = Game.new(4, seed=1)
    assert game.options == DEFAULT_OPTIONS == Options.tiles_only(INNS_CATHEDRALS, TRADERS_BUILDERS, meeples=7)
    assert len(game.tileset.pile()) + 1 == 114
    assert len(game.board.placed) == 2 and game.face_down_left == 82 == len(game.pile)
    assert [s.left for s in game.islands] == [5] * 6
    assert game.meeples_left == [7] * 4 and game.figures_left == [{}] * 4
    assert game.sources == ("city", "road", "cloister", "field", CHIPS)
    assert [p.position for p in game.board.placed] == [BENELUX.start_position(n) for n in game.start_squares]
    assert game.letters[0] == "D", "the start tile lies on the first used start square in the map's order"


def test_two_to_five_players_six_with_inns_and_cathedrals_tiles() -> None:
    assert Game.new(6, seed=1).players == 6
    for players, options in ((1, None), (7, None), (6, BASE_GAME)):
        with pytest.raises(ValueError, match="players"):
            Game.new(players, seed=1, options=options)


def test_a_seed_deals_the_set_up_and_the_pile_and_the_seeds_own_set_up_gives_the_same_game() -> None:
    game = Game.new(3, seed=5)
    assert isinstance(game.setup, SetUp) and game.ordered and game.next_tile == game.pile[0]
    again = Game.new(3, seed=5, setup=SetUp.from_dict(json.loads(json.dumps(game.setup.to_dict()))))
    assert again.to_dict() == game.to_dict()
    assert Game.new(3, seed=6).to_dict() != game.to_dict()
    chosen = Game.new(3, seed=5, start_squares=("Eindhoven", "Charleroi"))
    assert chosen.start_squares == ("Eindhoven", "Charleroi")
    values = ChipValues.of({"violet": {2: 10}, "light_blue": {2: 10}, "orange": {2: 10}})
    assert {c.points for c in Game.new(3, seed=5, chip_values=values).chips.values() if c} == {2}


def test_a_given_set_up_is_checked_with_the_chips_modules_reasons_and_against_the_tiles_in_play() -> None:
    drawn, _ = draw_setup(BENELUX, Game.new(2, seed=1).tileset.pile(), start_tile="D", seed=2)
    stored = drawn.to_dict()
    for change, code in (({"chips": stored["chips"][:19]}, "wrong_chip_count"),
                         ({"start_squares": ["Meppel", "Amsterdam"]}, "not_a_start_square"),
                         ({"island_stacks": stored["island_stacks"][:5]}, "island_stack_count"),
                         ({"map": {"name": "benelux", "version": "benelux-exact@1"}}, "wrong_map")):
        broken = SetUp.from_dict({**stored, **change, "chips_removed_unseen": None})
        with pytest.raises(IllegalAction) as caught:
            Game.new(2, seed=1, setup=broken, map_definition=BENELUX)
        assert caught.value.reason == code
    seen = table().to_dict()
    for change, code in (({"chip_squares": seen["chip_squares"][:-1] + [[9, 4]]}, "chip_on_wave"),
                         ({"chip_squares": seen["chip_squares"][:-1] + [[11, 5]]}, "chip_next_to_start"),
                         ({"start_tiles": seen["start_tiles"][:1]}, "start_tiles"),
                         ({"island_face_up": seen["island_face_up"][:5]}, "island_stack_count"),
                         ({"island_face_up": [*seen["island_face_up"][:5], {"colour": "violet", "stack": 3,
                                                                            "tile": "A"}]},
                          "island_stack_not_on_island")):
        with pytest.raises(IllegalAction) as caught:
            Game.new(2, setup=TableSetUp.from_dict({**seen, **change}))
        assert caught.value.reason == code
    with pytest.raises(IllegalAction) as caught:
        Game.new(2, options=BASE_GAME, setup=table(face_up={("violet", 1): "TB01", ("violet", 2): "U",
                                                              ("light_blue", 1): "V", ("light_blue", 2): "K",
                                                              ("orange", 1): "A", ("orange", 2): "W"}))
    assert caught.value.reason == "tile_not_in_play"
    with pytest.raises(IllegalAction, match="tiles C"):
        Game.new(2, setup=table(start_tiles=("C", "C")))                      # the box has one C
    with pytest.raises(ValueError, match="without a seed"):
        Game.new(2)
    with pytest.raises(ValueError, match="TableSetUp is for a game without a seed"):
        Game.new(2, seed=1, setup=table())
    with pytest.raises(ValueError, match="already says"):
        Game.new(2, seed=1, setup=drawn, start_squares=("Meppel", "Charleroi"))


def test_a_table_knows_what_it_shows_and_no_more() -> None:
    game = table_game()
    assert not game.ordered and game.next_tile is None
    assert set(game.chips.values()) == {None} and len(game.chips) == 20
    assert [(s.face_up, s.hidden, s.below) for s in game.islands][:2] == [("E", 4, None), ("U", 4, None)]
    assert len(game.pile) == 114 - 2 - 6, "every tile not seen may be drawn or lie under an island's face-up tile"
    assert game.face_down_left == 82
    known = Game.new(2, setup=dealt())                  # a table that knows the chips and the stacks
    assert known.face_down_left == len(known.pile) == 82 and None not in known.chips.values()


# -- the map under the tiles ----------------------------------------------------------------------------

def test_a_road_reaching_the_maps_border_is_closed_there_and_scores_as_complete() -> None:
    """Wikicarpedia, 'Carcassonne Maps - Germany': a road at the edge of the map counts as closed.
    North of Meppel (12,5) the map ends above (12,2); a cloister ends the road at Zwolle."""
    game = table_game(start_tiles=("U", "B"), start_turns=(1, 0), keep_clear=[(12, 2), (12, 3), (12, 4)])
    play(game, "U@12,4r90 meeple:0", "U@12,3r90", "A@12,6r180")
    assert game.scores()[0].breakdown["road"] == 0
    play(game, "U@12,2r90")
    assert BENELUX.border_sides((12, 2)) == (Side.N,)
    assert game.scores()[0].breakdown["road"] == 5 and game.meeples_left == [7, 7]


def test_a_large_city_joined_by_its_open_edges_counts_its_squares_and_coats_of_arms() -> None:
    """Wikicarpedia, 'Carcassonne Maps - Germany': a large city's printed squares count as city
    tiles, its coats of arms as pennants, and it is complete once every open edge is covered.
    Amsterdam: one square, two coats of arms, open edges north, east and south."""
    amsterdam = BENELUX.large_city("Amsterdam")
    assert (len(amsterdam.squares), amsterdam.coats_of_arms, len(amsterdam.open_edges)) == (1, 2, 3)
    game = table_game()
    to_amsterdam(game)
    city = game.graph.node(len(game.board.placed) - 1, 0)
    assert game.large_cities_of(city) == [amsterdam]
    assert set(AMSTERDAM_EDGES[1:]) <= game.board.frontier, "once joined, every open edge is open to play"
    assert game.graph.open_contacts(city) == 2
    assert game.city_points(city, complete=False) == 1 * (1 + 1) + 2      # a tile, a square, two coats of arms
    play(game, "E@9,7r270")
    assert game.graph.open_contacts(city) == 1 and game.scores()[0].breakdown["city"] == 0
    play(game, "E@8,8r0")
    assert game.scores()[0].breakdown["city"] == 2 * (3 + 1 + 2) == 12
    assert game.awards[-1].source == "city" and game.awards[-1].seats == (0,)
    assert game.meeples_left == [7, 7]


def test_an_unfinished_large_city_scores_at_the_end_over_its_tiles_and_squares() -> None:
    game = table_game()
    to_amsterdam(game)
    game = last_tile(game, "E")
    play(game, "E@9,7r270")
    assert game.is_over
    final = [a for a in game.awards if a.final and a.source == "city"]
    assert len(final) == 1 and final[0].points == 2 + 1 + 2             # two tiles, a square, two coats of arms
    assert final[0].tiles == ((8, 6), (8, 7), (9, 7)) and final[0].contents == (("pennants", 2),)


def test_a_meeple_cannot_join_a_large_city_another_holds_through_a_tile() -> None:
    game = table_game()
    to_amsterdam(game)
    assert reason(game, "E@9,7r270 meeple:0") == "feature_taken"
    legal = {a.to_text() for a in game.legal_actions("E")}
    assert "E@9,7r270" in legal and "E@9,7r270 meeple:0" not in legal and "E@9,7r270 meeple:1" in legal


def test_the_map_view_gives_every_square_to_draw() -> None:
    drawing = table_game().map_view()
    assert drawing == BENELUX.to_view()
    kinds = Counter(square["kind"] for square in drawing["squares"])
    assert kinds["wave"] == 3 and kinds["island"] == 6 and kinds["start"] == 3
    assert sum(kinds.values()) == len(BENELUX.squares)
    assert drawing["large_cities"][0]["name"] == "Amsterdam" and drawing["approximate"] is True


# -- actions and their notation ------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "V@12,4r90 meeple:2", "V@12,4r90", "V discard", "TB08@9,8r0 chip:orange:1",
    "U@11,5r0 big:1 island:violet/2 reveal:W", "E@3,4r270 island:light_blue/1 seat:1",
    "IC05@10,6r180 builder:1 chip:light_blue:2 island:orange/1 reveal:IC17 seat:3",
])
def test_the_notation_round_trips_through_text_and_json(text: str) -> None:
    action = parse_action(text)
    assert action.to_text() == text
    assert Action.from_dict(json.loads(json.dumps(action.to_dict())), discard=action.discard) == action


def test_the_words_may_stand_in_any_order_and_bad_ones_are_named() -> None:
    assert parse_action("reveal:W island:violet/2 U@11,5r0 chip:orange:1").to_text() == \
        "U@11,5r0 chip:orange:1 island:violet/2 reveal:W"
    for text, message in (("U@1,1r0 chip:green:1", "not a chip"), ("U@1,1r0 chip:violet", "write chip"),
                          ("U@1,1r0 island:violet", "write chip"), ("U@1,1r0 reveal:W reveal:V", "twice"),
                          ("U@1,1r45", "not an action")):
        with pytest.raises(ValueError, match=message):
            parse_action(text)
    assert Action.from_dict({"tile": "U", "x": 1, "y": 2, "rotation": 0, "chip": "violet:2", "island": "orange",
                             "stack": 2}).to_text() == "U@1,2r0 chip:violet:2 island:orange/2"
    assert Action.of(CarcassonneAction("U", 1, 2, 90, meeple=1)) == parse_action("U@1,2r90 meeple:1")


def test_a_carcassonne_action_draws_face_down() -> None:
    game = table_game()
    game.apply(CarcassonneAction("U", 12, 6, 0, meeple=0))
    assert game.letters[-1] == "U" and game.meeples_left == [6, 7]


# -- the view ------------------------------------------------------------------------------------

def test_the_view_shows_the_map_the_chips_and_the_islands_but_no_face_down_chip() -> None:
    game = Game.new(2, seed=9)
    view = game.view()
    for key in ("tiles", "meeples", "scores", "awards", "next_tile", "meeples_left", "figures_left", "goods",
                "current_player", "double_turn", "legal_action_kinds", "options"):
        assert key in view, key
    assert view["map"] == {"name": "benelux", "version": "benelux-approximate@1",
                           "title": "Carcassonne Maps – Benelux", "approximate": True}
    assert [s["name"] for s in view["start_squares"]] == list(game.start_squares)
    assert len(view["chips"]) == 20 and all(c == {"x": c["x"], "y": c["y"], "face_down": True} for c in view["chips"])
    assert view["chips_held"] == [[], []] and view["chips_removed_unseen"] == 10
    assert view["islands"][0] == {"colour": "violet", "stack": 1, "x": 7, "y": 2, "face_up": game.islands[0].face_up,
                                  "left": 5, "turning_up": False}
    assert view["tiles_left"] == 82 and view["scores"][0]["breakdown"][CHIPS] == 0
    assert "below" not in json.dumps(view)
    json.dumps(view)


def test_the_view_shows_a_chip_taken_by_whom_and_its_award() -> None:
    game = table_game((10, 6))
    play(game, "U@12,6r0", "U@11,6r0", "U@10,6r0 chip:orange:2")
    view = game.view()
    assert {"x": 10, "y": 6, "face_down": False, "seat": 0, "colour": "orange", "points": 2, "action": 2} in view["chips"]
    assert view["chips_held"] == [[{"colour": "orange", "points": 2}], []]
    assert view["scores"][0] == {"seat": 0, "total": 2, "breakdown": {"city": 0, "road": 0, "cloister": 0,
                                                                        "field": 0, CHIPS: 2}}
    assert view["awards"][-1] == {"source": CHIPS, "points": 2, "seats": [0], "action": 2, "final": False}
    assert "island" not in view["legal_action_kinds"], "seat 1 holds no chip"
    play(game, "U@9,6r0")
    assert game.view()["chips_to_pay"] == [{"colour": "orange", "points": 2}]
    assert "island" in game.view()["legal_action_kinds"]


# -- snapshots, copies and undo -----------------------------------------------------------------------

def test_snapshots_restore_without_replay_and_copies_are_independent() -> None:
    game, actions = random_game(3, 11)
    half = Game.new(3, seed=11)
    for action in actions[:40]:
        half.apply(action)
    snapshot = json.loads(json.dumps(half.to_dict()))
    restored = Game.from_dict(snapshot)
    assert restored.to_dict() == half.to_dict() and restored.view() == half.view()
    copy = half.copy()
    for action in actions[40:]:
        copy.apply(action)
    assert copy.to_dict() == game.to_dict() and half.to_dict() == snapshot
    copy.undo()
    assert copy.is_over is False
    with pytest.raises(ValueError, match="Maps snapshot"):
        Game.from_dict({**snapshot, "maps": {**snapshot["maps"], "version": 99}})
    with pytest.raises(ValueError, match="not on"):
        Game.from_dict(snapshot, map_definition=dataclasses.replace(BENELUX, version="other@1"))
    assert setup_from_dict(snapshot["maps"]["setup"]) == half.setup


def test_a_table_games_snapshot_keeps_what_nobody_has_seen_unknown() -> None:
    game = table_game((10, 6))
    play(game, "U@12,6r0", "U@11,6r0", "U@10,6r0 chip:violet:2", "U@9,6r0",
         "E@12,7r180 island:violet/1 reveal:N")
    data = json.loads(json.dumps(game.to_dict()))
    assert Game.from_dict(data).to_dict() == data
    assert data["maps"]["islands"][0] == {"colour": "violet", "stack": 1, "x": 7, "y": 2, "face_up": "N",
                                          "hidden": 3, "below": None, "turning_up": None}
    assert sum(chip is None for _, _, chip in data["maps"]["chips"]) == 19
    game.undo()
    assert game.islands[0].face_up == "E" and game.chips_held[0] == [Chip("violet", 2)]


# -- every refusal ---------------------------------------------------------------------------------------

def _double_turn(chips_at: tuple[tuple[int, int], ...] = ()) -> Game:
    """Traders & Builders' rules: seat 0's meeple and builder on the road west of Zwolle; its next
    tile along the road gives it a second tile (the same seat plays again)."""
    game = table_game(*chips_at, options=TRADING)
    play(game, "U@12,6r0 meeple:0", "B@12,4r0", "U@11,6r0 builder:0", "B@13,5r0")
    return game


def _finished() -> Game:
    game = last_tile(table_game(), "U")
    play(game, "U@12,6r0")
    assert game.is_over
    return game


def _after_discard() -> Game:
    game = holding(table_game(), 0, "violet:1")
    play(game, "C discard")               # all city: beside the two cloisters' fields it fits nowhere
    return game


def _one_meeple() -> Game:
    game = table_game(options=Options.tiles_only(INNS_CATHEDRALS, TRADERS_BUILDERS, meeples=1))
    play(game, "U@12,6r0 meeple:0", "B@12,4r0")
    return game


REFUSALS: dict[str, tuple[Callable[[], Game], str | CarcassonneAction]] = {
    # Carcassonne's
    "game_over": (_finished, "U@13,5r0"),
    "not_your_turn": (table_game, "U@12,6r0 seat:1"),
    "tile_missing": (table_game, CarcassonneAction(None, 12, 6, 0)),
    "wrong_tile": (lambda: Game.new(2, seed=1), "Z@12,6r0"),
    "no_such_tile": (table_game, "Z@12,6r0"),
    "tile_fits": (table_game, "U discard"),
    "one_figure": (table_game, "U@12,6r0 meeple:0 big:1"),
    "bad_rotation": (table_game, CarcassonneAction("U", 12, 6, 45)),
    "occupied": (table_game, "U@12,5r0"),
    "not_adjacent": (table_game, "U@3,14r0"),
    "edge_mismatch": (table_game, "D@12,6r0"),
    "not_in_this_game": (table_game, "U@12,6r0 big:0"),
    "no_such_feature": (table_game, "U@12,6r0 meeple:9"),
    "no_meeples": (_one_meeple, "U@11,6r0 meeple:1"),
    "no_big": (lambda: _played(BOTH_RULES, "U@12,6r0 big:0", "B@12,4r0"), "U@11,6r0 big:1"),
    "no_builder": (_double_turn, "U@13,6r0 builder:0"),
    "no_pig": (lambda: _played(BOTH_RULES, "U@12,6r0 meeple:1", "B@12,4r0", "U@11,6r0 pig:1", "B@13,5r0"),
               "U@10,6r0 pig:1"),
    "builder_not_on_road_or_city": (lambda: _played(BOTH_RULES, "U@12,6r0 meeple:0", "B@12,4r0"),
                                    "U@11,6r0 builder:1"),
    "pig_not_on_field": (lambda: _played(BOTH_RULES), "U@12,6r0 pig:0"),
    "builder_needs_meeple": (lambda: _played(BOTH_RULES), "U@12,6r0 builder:0"),
    "pig_needs_farmer": (lambda: _played(BOTH_RULES), "U@12,6r0 pig:1"),
    "feature_taken": (lambda: _played(None, "U@12,6r0", "U@11,6r0", "U@10,6r0", "U@9,6r0", "D@8,6r180 meeple:0"),
                      "E@9,7r270 meeple:0"),
    # the map's
    "off_map": (table_game, "U@0,0r0"),
    "wave_square": (table_game, "U@9,5r0"),
    "island_square": (table_game, "U@7,2r0"),
    "large_city_square": (table_game, "U@8,7r0"),
    # the chips' and the islands'
    "no_such_island": (table_game, "E@12,6r180 island:green/1 reveal:N"),
    "drew_face_down": (_after_discard, "E@12,6r180 island:violet/1 reveal:N"),
    "no_such_chip": (lambda: holding(table_game(), 0, "orange:1"), "E@12,6r180 island:violet/1 reveal:N"),
    "chip_taken_this_turn": (lambda: _played_on(_double_turn(((10, 6),)), "U@10,6r0 chip:violet:1"),
                             "E@12,7r180 island:violet/1 reveal:N"),
    "island_empty": (lambda: with_stack(holding(table_game(), 0, "violet:1"), "violet", 1, None),
                     "E@12,6r180 island:violet/1"),
    "island_turning_up": (lambda: _played_on(holding(_double_turn(), 0, "violet:1", "violet:1"),
                                             "U@10,6r0 island:violet/2 reveal:N"),
                          "U@9,6r0 island:violet/2 reveal:V"),
    "island_tile_does_not_fit": (lambda: with_stack(holding(table_game(), 0, "violet:1"), "violet", 1, "C", 4),
                                 "C@12,6r0 island:violet/1 reveal:N"),
    "chip_missing": (lambda: _played(None, "U@12,6r0", "U@11,6r0", chips_at=((10, 6),)), "U@10,6r0"),
    "no_chip_here": (table_game, "U@12,6r0 chip:violet:1"),
    "wrong_chip": (lambda: _played_on(Game.new(2, setup=dealt(((10, 6), "orange:2"))), "U@12,6r0", "U@11,6r0"),
                   "U@10,6r0 chip:orange:1"),
    "chip_not_in_box": (lambda: _played(None, "U@12,6r0", "U@11,6r0", chips_at=((10, 6),)), "U@10,6r0 chip:violet:3"),
    "reveal_missing": (lambda: holding(table_game(), 0, "violet:1"), "E@12,6r180 island:violet/1"),
    "nothing_to_reveal": (table_game, "U@12,6r0 reveal:N"),
    "wrong_reveal": (lambda: holding(Game.new(2, setup=dealt()), 0, "violet:1"), "E@12,6r180 island:violet/1 reveal:V"),
}


def _played(options: Options | None, *texts: str, chips_at: tuple[tuple[int, int], ...] = ()) -> Game:
    return _played_on(table_game(*chips_at, options=options), *texts)


def _played_on(game: Game, *texts: str) -> Game:
    play(game, *texts)
    return game


@pytest.mark.parametrize("code", sorted(REFUSALS))
def test_every_refusal_names_its_reason_and_leaves_the_game_unchanged(code: str) -> None:
    make, action = REFUSALS[code]
    game = make()
    if isinstance(action, str):
        assert refusal(game, action).reason == code
        return
    before = game.to_dict()
    with pytest.raises(IllegalAction) as caught:
        game.apply(action)
    assert caught.value.reason == code and game.to_dict() == before


def test_undo_with_nothing_to_undo_is_refused_too() -> None:
    with pytest.raises(IllegalAction) as caught:
        table_game().undo()
    assert caught.value.reason == "nothing_to_undo"


def test_a_refused_island_action_is_accepted_once_the_problem_is_gone() -> None:
    """The refusals above come from the position, not from the notation: the same kind of action
    is accepted where the rules allow it."""
    game = holding(table_game(), 0, "violet:1")
    play(game, "E@12,6r180 island:violet/1 reveal:N")
    assert game.chips_spent[0] == [Chip("violet", 1)] and game.islands[0].face_up == "N"
    game = _played_on(holding(_double_turn(), 0, "violet:1", "violet:1"), "U@10,6r0 island:violet/2 reveal:N")
    assert game.current == 0 and game.double_turn and game.islands[1].face_up is None
    play(game, "E@12,7r180 island:violet/1 reveal:V")
    assert game.current == 1 and [s.face_up for s in game.islands[:2]] == ["V", "N"]
