"""Traders & Builders (2nd edition rules), worked out tile by tile; plain pytest, no Django.

The start tile D lies at (0,0): city north, road east-west, field south (x grows east, y grows
south, rotations clockwise). Games are unseeded, so any tile left may be named; a short pile
(``Game(players, None, pile, False, options)``) ends the game once its tiles are laid.

Feature numbers are those of the data files: TB01 (city north-west, grain) 0 city; TB15 (city
east-west, wine) 0 city; TB17 (city east-west, grain, road south) 0 city; E 0 city, 1 field;
U 0 road, 1 north field, 2 south field; B 0 field, 1 cloister; D 0 city, 1 road, 2 field by the
city, 3 field beyond the road.

The rulebook examples come from the 2nd edition's rules (Hans im Glück 2015, as Wikicarpedia
gives them); where the text gives the points and the picture the tiles, the position here is
built to the same count.
"""

from __future__ import annotations

import pytest

from games.engines.carcassonne import (
    INNS_CATHEDRALS, TRADERS_BUILDERS, Action, Game, IllegalAction, Options, parse_action,
)

WITH_RULES = Options.with_expansions(TRADERS_BUILDERS)
TILES_ONLY = Options.tiles_only(TRADERS_BUILDERS)
NO_POINTS = {"city": 0, "road": 0, "cloister": 0, "field": 0, "goods": 0}
NO_GOODS = {"wine": 0, "grain": 0, "cloth": 0}


def new_game(players: int = 2, pile: list[str] | None = None, options: Options = WITH_RULES) -> Game:
    if pile is None:
        return Game.new(players, options=options)
    return Game(players, None, list(pile), False, options)


def play(game: Game, *texts: str) -> Game:
    for text in texts:
        game.apply(parse_action(text))
    return game


def points(game: Game, seat: int) -> dict[str, int]:
    return game.scores()[seat].breakdown


def refusal(game: Game, text: str | Action) -> IllegalAction:
    before = game.to_dict()
    with pytest.raises(IllegalAction) as refused:
        game.apply(parse_action(text) if isinstance(text, str) else text)
    assert game.to_dict() == before, "a refused action leaves the game unchanged"
    return refused.value


GOODS_CITY = ("TB15@0,-1r90", "TB17@0,-2r90 meeple:0", "TB01@0,-3r180", "U@1,0r0", "E@1,-3r270")
"""A column north of the start tile: TB15 (wine), TB17 (grain) with seat 1's knight, TB01
(grain) turning east, closed by seat 0's cap: 5 tiles, 1 wine and 2 grain."""
BUILDER_ROAD = ("U@1,0r0 meeple:0", "U@0,1r0", "U@2,0r0 builder:0", "U@1,1r0")
"""Seat 0's thief on the road east of the start tile, then its builder on the road's next tile;
seat 1 lays roads south of it."""


# -- goods -------------------------------------------------------------------------------------------

def test_rulebook_goods_go_to_whoever_completes_the_city():
    """Rulebook: "You complete the city. The blue player scores 10 points for scoring the city.
    You receive 1 wine and 2 wheat tokens." Seat 0 closes the city seat 1 holds."""
    game = play(new_game(), *GOODS_CITY)
    assert points(game, 1) == {**NO_POINTS, "city": 10}
    assert points(game, 0) == NO_POINTS
    assert game.goods == [{"wine": 1, "grain": 2, "cloth": 0}, NO_GOODS]
    assert game.view()["goods"] == game.goods


def test_rulebook_goods_at_the_final_scoring():
    """Rulebook: "You score 20 points, while the blue player scores 30 points." The most of each
    good score 10 and every player tied for the most scores 10: here wine and grain are tied and
    blue has the only cloth (the tokens held are set before the last tile)."""
    game = new_game(pile=["U"])
    game.goods = [{"wine": 1, "grain": 2, "cloth": 0}, {"wine": 1, "grain": 2, "cloth": 1}]
    play(game, "U@1,0r0")
    assert game.is_over
    assert points(game, 0) == {**NO_POINTS, "goods": 20}
    assert points(game, 1) == {**NO_POINTS, "goods": 30}
    goods = [a for a in game.view()["awards"] if a["source"] == "goods"]
    assert goods == [
        {"source": "goods", "points": 10, "seats": [0, 1], "action": 0, "final": True, "tiles": [], "figures": [],
         "contents": {"wine": 1}},
        {"source": "goods", "points": 10, "seats": [0, 1], "action": 0, "final": True, "tiles": [], "figures": [],
         "contents": {"grain": 2}},
        {"source": "goods", "points": 10, "seats": [1], "action": 0, "final": True, "tiles": [], "figures": [],
         "contents": {"cloth": 1}},
    ]


def test_goods_of_a_city_nobody_holds():
    """The goods go to whoever completes the city even with no knight in it."""
    game = play(new_game(), "TB15@0,-1r90", "E@0,-2r180")
    assert game.goods == [NO_GOODS, {"wine": 1, "grain": 0, "cloth": 0}]
    assert [s.total for s in game.scores()] == [0, 0]


def test_an_unfinished_city_gives_no_goods():
    game = play(new_game(pile=["TB15", "U"]), "TB15@0,-1r90 meeple:0", "U@1,0r0")
    assert game.is_over and game.goods == [NO_GOODS, NO_GOODS]
    assert points(game, 0) == {**NO_POINTS, "city": 2}


def test_the_goods_final_scoring_in_a_played_game():
    """The city's goods, then the final scoring: seat 0 holds the only wine and grain, 20 points."""
    game = play(new_game(pile=[t.split("@")[0] for t in GOODS_CITY]), *GOODS_CITY)
    assert game.is_over
    assert points(game, 0) == {**NO_POINTS, "goods": 20}
    assert points(game, 1) == {**NO_POINTS, "city": 10}


def test_tiles_only_goods_are_pictures():
    """With the tiles only there are no goods, no goods source and no builder or pig."""
    game = play(new_game(options=TILES_ONLY), *GOODS_CITY)
    assert game.goods == [{}, {}] and game.figures_left == [{}, {}]
    assert points(game, 1) == {"city": 10, "road": 0, "cloister": 0, "field": 0}
    assert refusal(game, "U@2,0r0 builder:0").reason == "not_in_this_game"
    assert refusal(game, "U@2,0r0 pig:1").reason == "not_in_this_game"


# -- the builder -------------------------------------------------------------------------------------

def test_rulebook_double_turn():
    """Rulebook: "You place this tile that continues the road that your builder occupies. Then,
    you draw another tile which you place as usual." The same seat lays again; the builder that
    was just put down gave none."""
    game = play(new_game(), *BUILDER_ROAD)
    assert game.current == 0 and not game.double_turn
    play(game, "U@3,0r0")
    assert game.current == 0 and game.double_turn and game.view()["double_turn"] is True
    play(game, "U@2,1r0")                       # the second tile, continuing nothing
    assert game.current == 1 and not game.double_turn


def test_no_third_tile():
    """Rulebook: there is no third move, even if the second tile continues the same road."""
    game = play(new_game(), *BUILDER_ROAD, "U@3,0r0", "U@4,0r0")
    assert game.current == 1 and not game.double_turn
    play(game, "U@2,1r0", "U@5,0r0")            # a later turn continuing it gives a second tile again
    assert game.current == 0 and game.double_turn


def test_completing_the_builders_road_still_gives_the_second_tile():
    """The builder was on the road when the tile was laid: the second tile comes even though the
    road is completed (W + D + U + U + X = 5) and the builder has gone home, ready to be placed again."""
    game = play(new_game(), "U@1,0r0 meeple:0", "W@-1,0r0", "U@2,0r0 builder:0", "U@0,1r0", "X@3,0r0")
    assert points(game, 0) == {**NO_POINTS, "road": 5}
    assert game.current == 0 and game.double_turn
    assert game.figures_left[0] == {"builder": 1, "pig": 1} and game.meeples_left == [7, 7]


def test_a_builder_in_a_city():
    """A builder may follow a knight: extending the city gives the second tile."""
    game = play(new_game(), "N@0,-1r180 meeple:0", "U@1,0r0", "F@1,-1r0 builder:0", "U@-1,0r0", "F@2,-1r0")
    assert game.current == 0 and game.double_turn


def test_another_players_tile_on_the_builders_road_gives_nothing():
    game = play(new_game(), *BUILDER_ROAD[:3], "U@3,0r0")
    assert game.current == 0 and not game.double_turn


def test_the_second_tile_may_be_discarded_and_another_drawn():
    """A second tile that fits nowhere is discarded; the same player draws again, still in the
    double turn. Once D's city is closed no open side shows a city, so C fits nowhere."""
    game = play(new_game(), "E@0,-1r180", "U@1,0r0 meeple:0", "U@0,1r0", "U@2,0r0 builder:0", "U@1,1r0", "U@3,0r0")
    assert game.current == 1 and game.double_turn
    play(game, "C discard")
    assert game.current == 1 and game.double_turn
    play(game, "U@2,1r0")
    assert game.current == 0 and not game.double_turn


def test_no_second_tile_after_the_last():
    game = play(new_game(pile=["U", "U", "U", "U", "U"]), *BUILDER_ROAD, "U@3,0r0")
    assert game.is_over and not game.double_turn


def test_the_builder_is_not_counted_for_the_majority():
    """Seat 0's thief and builder against seat 1's thief: their roads (y=0 and y=1) joined in the
    east and closed in the west are a tie, 10 tiles each. Seat 0's tiles continuing its road give
    it second tiles on the way."""
    game = play(new_game(), "U@1,0r0 meeple:0", "U@0,1r0 meeple:0", "U@2,0r0 builder:0", "U@1,1r0",
                "V@3,0r0")
    assert game.current == 0 and game.double_turn
    play(game, "U@2,1r0", "V@3,1r90", "W@-1,0r0")
    assert game.current == 0 and game.double_turn
    play(game, "V@-1,1r180")
    assert points(game, 0) == points(game, 1) == {**NO_POINTS, "road": 10}
    assert game.meeples_left == [7, 7] and game.figures_left[0] == {"builder": 1, "pig": 1}


def test_where_a_builder_may_go():
    """On a road or city of the tile just laid where its owner has a follower: not without one
    (builder_needs_meeple), not on another player's road, not on a field or cloister
    (builder_not_on_road_or_city), and only one builder each (no_builder)."""
    game = new_game()
    assert refusal(game, "U@1,0r0 builder:0").reason == "builder_needs_meeple"
    assert refusal(game, "U@1,0r0 builder:1").reason == "builder_not_on_road_or_city"
    assert refusal(game, "B@0,1r0 builder:1").reason == "builder_not_on_road_or_city"
    play(game, "U@1,0r0 meeple:0")
    refused = refusal(game, "U@2,0r0 builder:0")
    assert refused.reason == "builder_needs_meeple" and "seat 1" in refused.message
    legal = {a.to_text() for a in game.legal_actions(tile="U") if a.builder is not None}
    assert legal == set(), "seat 1 has no follower to follow"
    play(game, "U@0,1r0")
    legal = {a.to_text() for a in game.legal_actions(tile="U") if a.builder is not None}
    assert legal == {"U@2,0r0 builder:0", "U@2,0r180 builder:0", "U@-1,0r0 builder:0", "U@-1,0r180 builder:0"}
    play(game, "U@2,0r0 builder:0", "U@1,1r0")
    assert refusal(game, "U@3,0r0 builder:0").reason == "no_builder"
    assert all(a.builder is None for a in game.legal_actions(tile="U"))


def test_one_figure_a_turn():
    """A meeple and a builder (or a pig) on the same tile are refused: one_figure."""
    game = play(new_game(), "U@1,0r0 meeple:0", "U@0,1r0")
    assert refusal(game, Action("U", 2, 0, 0, meeple=1, builder=0)).reason == "one_figure"
    assert refusal(game, Action("U", 2, 0, 0, builder=0, pig=1)).reason == "one_figure"


# -- the pig -----------------------------------------------------------------------------------------

PIG_FIELD = ("E@0,-1r180 meeple:1", "U@1,0r0 meeple:1", "D@2,0r0", "B@-1,-1r0 pig:0", "U@3,0r0 pig:1",
             "E@2,-1r180 meeple:1", "B@1,-1r0")
"""Three players' farmers in three fields (E's north of the start tile, U's north of the road, E's
north of D at (2,0)); seat 0's pig joins its field by B at (-1,-1), seat 1's by U at (3,0); B at
(1,-1) joins the three fields, which touch the two cities the caps closed."""


def test_rulebook_pigs_in_a_tied_field():
    """Rulebook: "You, the blue player, and the green player are all tied for control of the field.
    Both you and the blue player have a pig on the field, so you both score 8 points each (4 points
    per city). The green player does not have a pig on the field, and will only score 6 points
    (3 points per completed city)." """
    game = play(new_game(3, pile=["E", "U", "D", "B", "U", "E", "B"]), *PIG_FIELD)
    assert game.is_over
    assert [points(game, seat)["field"] for seat in range(3)] == [8, 8, 6]
    fields = [a for a in game.view()["awards"] if a["source"] == "field"]
    assert [(a["points"], a["seats"], a["contents"]) for a in fields] == [
        (8, [0, 1], {"cities": 2, "pig": 1}), (6, [2], {"cities": 2})]
    assert sorted((f["seat"], f["kind"]) for f in fields[0]["figures"]) == [
        (0, "meeple"), (0, "pig"), (1, "meeple"), (1, "pig"), (2, "meeple")]
    assert game.figures_left == [{"builder": 1, "pig": 1}] * 3, "the pigs go home at the end"


def test_a_pig_does_not_win_the_field():
    """The pig is not counted for the majority: two farmers against a farmer and a pig, the two
    farmers hold the field (6 for its two cities) and the pig's owner scores nothing."""
    game = play(new_game(pile=["E", "U", "D", "U", "E", "B"]), "E@0,-1r180 meeple:1", "U@1,0r0 meeple:1",
                "D@2,0r0", "U@3,0r0 pig:1", "E@2,-1r180 meeple:1", "B@1,-1r0")
    assert points(game, 0) == {**NO_POINTS, "field": 6}
    assert points(game, 1) == NO_POINTS


def test_where_a_pig_may_go():
    """On a field of the tile just laid where its owner has a farmer (pig_needs_farmer), not on a
    road (pig_not_on_field), one pig each (no_pig); it stands until the end."""
    game = new_game()
    assert refusal(game, "U@1,0r0 pig:1").reason == "pig_needs_farmer"
    assert refusal(game, "U@1,0r0 pig:0").reason == "pig_not_on_field"
    play(game, "U@1,0r0 meeple:1", "U@0,1r0")
    assert {a.to_text() for a in game.legal_actions(tile="U") if a.pig is not None} == {
        "U@2,0r0 pig:1", "U@2,0r180 pig:2", "U@-1,0r0 pig:1", "U@-1,0r180 pig:2",  # the road's ends
        "U@1,-1r0 pig:2", "U@1,-1r180 pig:1"}     # north of the farmer's field: the field facing it
    play(game, "U@2,0r0 pig:1")
    assert game.figures_left[0] == {"builder": 1, "pig": 0}
    assert [m["kind"] for m in game.view()["meeples"] if m["seat"] == 0] == ["meeple", "pig"]
    play(game, "U@1,1r0")
    assert refusal(game, "U@3,0r0 pig:1").reason == "no_pig"


# -- seeded games ----------------------------------------------------------------------------------

def test_a_seeded_double_turn_draws_the_next_tile_for_the_same_seat():
    """In a seeded game the engine draws the second tile: the next action, the same seat's, lays
    the next tile of the pile, and its notation is an ordinary one."""
    from games.engines.carcassonne.simulate import random_game

    found = 0
    for seed in range(6):
        game, actions = random_game(3, seed, WITH_RULES)
        replay = Game.new(3, seed=seed, options=WITH_RULES)
        for index, action in enumerate(actions):
            seat, doubled = replay.current, replay.double_turn
            replay.apply(parse_action(action.to_text()))
            if replay.double_turn:
                found += 1
                assert replay.current == seat and not doubled and " seat:" not in actions[index + 1].to_text()
                assert actions[index + 1].tile == replay.next_tile == replay.pile[0]
        assert replay.to_dict() == game.to_dict()
    assert found > 0, "random games of Traders & Builders give double turns"


def test_both_expansions_together():
    """Both rule sets at once: large meeples, builders, pigs and goods, six players."""
    options = Options.with_expansions(INNS_CATHEDRALS, TRADERS_BUILDERS)
    game = Game.new(6, seed=2, options=options)
    assert game.figures_left == [{"big": 1, "builder": 1, "pig": 1}] * 6
    assert game.sources == ("city", "road", "cloister", "field", "goods")
    assert game.view()["options"] == {"expansions": ["inns_cathedrals", "traders_builders"],
                                      "rules": ["inns_cathedrals", "traders_builders"], "meeples": 7}
