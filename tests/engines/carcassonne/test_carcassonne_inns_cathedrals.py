"""Inns & Cathedrals (2nd edition rules), worked out tile by tile; plain pytest, no Django.

The start tile D lies at (0,0): city north, road east-west, field south (x grows east, y grows
south, rotations clockwise). Games are unseeded, so any tile left may be named; a short pile
(``Game(players, None, pile, False, options)``) ends the game once its tiles are laid.

Feature numbers are those of the data files: IC01 (cathedral, city on all four sides) 0 city;
IC14 (junction with an inn) 0 east road with the inn, 1 west road, 2 south road, 3-5 fields;
IC15 (straight road with an inn) 0 road, 1 north field, 2 south field; E 0 city, 1 field;
F/G (city east-west) 0 city, 1 north field, 2 south field; N 0 city, 1 field; D 0 city, 1 road,
2 field by the city, 3 field beyond the road; U 0 road, 1 north field, 2 south field.

The rulebook examples come from the English Inns & Cathedrals rules (Z-Man Games); the text gives
their points, the pictures their tiles, so the positions here are built to the same count.
"""

from __future__ import annotations

import pytest

from games.engines.carcassonne import (
    INNS_CATHEDRALS, TRADERS_BUILDERS, Action, Game, IllegalAction, Options, parse_action,
)

WITH_RULES = Options.with_expansions(INNS_CATHEDRALS)
TILES_ONLY = Options.tiles_only(INNS_CATHEDRALS)
NO_POINTS = {"city": 0, "road": 0, "cloister": 0, "field": 0}


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


INN_ROAD = ("IC14@1,0r0 meeple:0", "U@2,0r0", "X@3,0r0")
"""Blue's (seat 0's) thief on the inn's road of the junction IC14 east of the start tile; a
straight road and a crossroads close it: 3 tiles."""
CATHEDRAL_CITY = ("IC01@0,-1r0 meeple:0", "F@0,-2r90", "G@0,-3r90", "E@0,-4r180", "E@-1,-1r90", "E@1,-1r270")
"""Blue's knight in the cathedral north of the start tile; a column F (pennant), G, E north of
it and a cap either side close the city: D, IC01, F, G and 3 caps = 7 tiles and 1 pennant."""


# -- the rulebook's examples -------------------------------------------------------------------------

def test_rulebook_completed_road_with_an_inn():
    """Rulebook: "Blue scores 6 points." A completed road with an inn: 2 points a tile, 3 tiles."""
    game = play(new_game(), *INN_ROAD)
    assert points(game, 0) == {**NO_POINTS, "road": 6}
    assert game.meeples_left == [7, 7]
    assert [a.to_dict() for a in game.awards] == [
        {"source": "road", "points": 6, "seats": [0], "action": 2, "final": False}]


def test_rulebook_unfinished_road_with_an_inn():
    """Rulebook: "If this road is not completed for the final scoring, Blue will score 0 points."
    The final award says why: the road counts an inn."""
    game = play(new_game(pile=["IC14", "U"]), *INN_ROAD[:2])
    assert game.is_over and points(game, 0) == NO_POINTS
    (award,) = [a.to_dict() for a in game.awards]
    assert award["source"] == "road" and award["points"] == 0 and award["seats"] == [0]
    assert award["contents"] == {"inns": 1} and award["tiles"] == [[1, 0], [2, 0]]
    assert game.meeples_left == [7, 7]


def test_rulebook_completed_city_with_a_cathedral():
    """Rulebook: "Blue scores 24 points." 3 points a tile and a pennant: (7 tiles + 1 pennant) x 3."""
    game = play(new_game(), *CATHEDRAL_CITY)
    assert points(game, 0) == {**NO_POINTS, "city": 24}
    assert points(game, 1) == NO_POINTS


def test_rulebook_unfinished_city_with_a_cathedral():
    """Rulebook: "If this city is not completed for the final scoring, Blue will score 0 points."
    (the same city with its last cap missing)."""
    game = play(new_game(pile=["IC01", "F", "G", "E", "E"]), *CATHEDRAL_CITY[:-1])
    assert game.is_over and points(game, 0) == NO_POINTS
    (award,) = [a.to_dict() for a in game.awards]
    assert (award["source"], award["points"], award["contents"]) == ("city", 0, {"pennants": 1, "cathedrals": 1})


def test_rulebook_large_meeple_against_a_meeple():
    """Rulebook (Hans im Glück's site): red's large meeple and yellow's meeple in one city: red
    scores, as two followers against one. Seat 0's large meeple and seat 1's meeple hold two cities
    that N joins and closes (D, N, D, N: 8 points); in the base game this is a tie."""
    game = play(new_game(), "N@0,-1r180 big:0", "D@1,0r0 meeple:0", "N@1,-1r270")
    assert points(game, 0) == {**NO_POINTS, "city": 8}
    assert points(game, 1) == NO_POINTS
    assert game.meeples_left == [7, 7] and game.figures_left == [{"big": 1}, {"big": 1}]


def test_rulebook_faq_a_large_meeple_does_not_double_the_points():
    """FAQ: the number and size of meeples only decide the majority: a large meeple alone in the
    two-tile city scores its 4 points, as a meeple would."""
    game = play(new_game(), "E@0,-1r180 big:0")
    assert points(game, 0) == {**NO_POINTS, "city": 4}
    assert game.figures_left[0] == {"big": 1}


# -- inns and cathedrals -------------------------------------------------------------------------------

def test_an_inn_counts_only_on_its_own_road():
    """IC14's inn lies by its east road: its west road, joined to the start tile's, scores 1 a tile.
    A junction W at (-1,0) closes D's road: W + D + IC14 = 3 points to seat 1."""
    game = play(new_game(), "IC14@1,0r0", "W@-1,0r0 meeple:0")
    assert points(game, 1) == {**NO_POINTS, "road": 3}


def test_two_inns_score_as_one():
    """A road with two inns still scores 2 a tile: IC14 (inn), IC15 (inn), X = 6."""
    game = play(new_game(), "IC14@1,0r0 meeple:0", "IC15@2,0r0", "X@3,0r0")
    assert points(game, 0) == {**NO_POINTS, "road": 6}


def test_both_cathedrals_score_as_one():
    """Both cathedrals in one city: still 3 a tile. D, IC01, IC01 and five caps = 8 tiles, 24."""
    game = play(new_game(), "IC01@0,-1r0 meeple:0", "IC01@0,-2r0", "E@0,-3r180", "E@-1,-1r90",
                "E@1,-1r270", "E@-1,-2r90", "E@1,-2r270")
    assert points(game, 0) == {**NO_POINTS, "city": 24}


def test_farmers_count_a_cathedral_city_as_any_city():
    """A farmer beside the completed cathedral city scores 3 for it, as for any completed city: seat
    1 lays the last cap with a farmer on its field."""
    game = play(new_game(pile=["IC01", "F", "G", "E", "E", "E"]), *CATHEDRAL_CITY[:-1], "E@1,-1r270 meeple:1")
    assert game.is_over
    assert points(game, 0) == {**NO_POINTS, "city": 24}
    assert points(game, 1) == {**NO_POINTS, "field": 3}


def test_tiles_only_an_inn_is_a_road_and_a_cathedral_a_city():
    """With the tiles only: the inn's road scores 1 a tile (3), the cathedral city 2 a tile and a
    pennant (16); unfinished at the end they score 1 a tile as any road or city."""
    assert points(play(new_game(options=TILES_ONLY), *INN_ROAD), 0) == {**NO_POINTS, "road": 3}
    assert points(play(new_game(options=TILES_ONLY), *CATHEDRAL_CITY), 0) == {**NO_POINTS, "city": 16}
    game = play(new_game(pile=["IC14", "U"], options=TILES_ONLY), *INN_ROAD[:2])
    assert points(game, 0) == {**NO_POINTS, "road": 2}
    assert game.view()["awards"][0]["contents"] == {}
    game = play(new_game(pile=["IC01", "F", "G", "E", "E"], options=TILES_ONLY), *CATHEDRAL_CITY[:-1])
    assert points(game, 0) == {**NO_POINTS, "city": 7}


# -- the large meeple ----------------------------------------------------------------------------------

def test_large_meeple_against_two_meeples_is_a_tie():
    """Two meeples against the large meeple: 2 against 2, both score the city (5 tiles) in full."""
    game = play(new_game(), "N@0,-1r180 big:0", "D@1,0r0 meeple:0", "U@2,0r0", "E@2,-1r270 meeple:0", "R@1,-1r180")
    assert points(game, 0) == points(game, 1) == {**NO_POINTS, "city": 10}


def test_large_meeple_counts_two_on_a_road():
    """Seat 0's large meeple on the start tile's road, seat 1's meeple on a road south of it; curves
    at (2,0) and (2,1) join them, a junction and a curve in the west close them: 8 tiles, to seat 0."""
    game = play(new_game(), "U@1,0r0 big:0", "U@0,1r0 meeple:0", "U@1,1r0", "V@2,0r0", "V@2,1r90",
                "W@-1,0r0", "V@-1,1r180")
    assert points(game, 0) == {**NO_POINTS, "road": 8} and points(game, 1) == NO_POINTS


def test_large_meeple_counts_two_as_a_farmer():
    """A large farmer against a farmer in a field beside the closed city: 3 to the large one only."""
    game = play(new_game(pile=["E", "U", "B"]), "E@0,-1r180 big:1", "U@1,0r0 meeple:1", "B@1,-1r0")
    assert game.is_over
    assert points(game, 0) == {**NO_POINTS, "field": 3} and points(game, 1) == NO_POINTS
    final = game.view()["awards"][0]
    assert {(f["seat"], f["kind"]) for f in final["figures"]} == {(0, "big"), (1, "meeple")}
    assert game.figures_left == [{"big": 1}, {"big": 1}], "the final scoring sends the large meeple home"


def test_large_meeple_in_a_cloister():
    """A large monk scores the cloister as a monk would: 9 once surrounded."""
    game = play(new_game(), "B@0,1r0 big:1", "U@-1,0r0", "U@1,0r0", "E@-1,1r270", "E@1,1r90", "E@-1,2r180",
                "E@0,2r180", "E@1,2r180")
    assert points(game, 0) == {**NO_POINTS, "cloister": 9}


def test_one_large_meeple_each_and_it_comes_home_after_scoring():
    """Each player has one: while it stands, no_big and no large meeple among the legal actions;
    once its feature scores it may be placed again."""
    game = play(new_game(), "N@0,-1r180 big:0", "U@1,0r0")
    assert game.figures_left == [{"big": 0}, {"big": 1}]
    assert all(a.big is None for a in game.legal_actions(tile="E"))
    assert refusal(game, "U@-1,0r0 big:2").reason == "no_big"
    play(game, "E@1,-1r270")                       # seat 0 closes the city: 2 x 3 tiles
    assert points(game, 0)["city"] == 6 and game.figures_left == [{"big": 1}, {"big": 1}]
    assert any(a.big is not None for a in game.legal_actions(tile="V"))


def test_the_large_meeple_is_that_turns_one_figure():
    """one_figure: a meeple and the large meeple on the same tile are refused."""
    game = new_game()
    assert refusal(game, Action("E", 0, -1, 180, meeple=1, big=0)).reason == "one_figure"
    legal = [a for a in game.legal_actions(tile="E") if (a.x, a.y, a.rotation) == (0, -1, 180)]
    assert {a.to_text() for a in legal} == {"E@0,-1r180", "E@0,-1r180 meeple:0", "E@0,-1r180 meeple:1",
                                            "E@0,-1r180 big:0", "E@0,-1r180 big:1"}


def test_a_large_meeple_cannot_join_a_held_feature():
    """feature_taken, as for a meeple."""
    game = play(new_game(), "N@0,-1r180 meeple:0")
    assert refusal(game, "E@1,-1r270 big:0").reason == "feature_taken"


def test_tiles_only_there_is_no_large_meeple():
    """With the tiles only the large meeple stays in the box: not_in_this_game."""
    game = new_game(options=TILES_ONLY)
    assert game.figures_left == [{}, {}]
    refused = refusal(game, "E@0,-1r180 big:0")
    assert refused.reason == "not_in_this_game" and "inns_cathedrals" in refused.message
    assert all(not a.figures or a.meeple is not None for a in game.legal_actions(tile="E"))


# -- a sixth player ------------------------------------------------------------------------------------

@pytest.mark.parametrize("options", [WITH_RULES, TILES_ONLY,
                                     Options.with_expansions(INNS_CATHEDRALS, TRADERS_BUILDERS)])
def test_a_sixth_player_with_the_box(options: Options):
    """Inns & Cathedrals brings a sixth player's meeples: 6 may play when its tiles are in."""
    game = Game.new(6, seed=1, options=options)
    assert game.players == 6 and game.meeples_left == [7] * 6
    assert len(game.pile) == len(game.tileset.pile())


@pytest.mark.parametrize("options", [None, Options.with_expansions(TRADERS_BUILDERS)])
def test_no_sixth_player_without_it(options: Options | None):
    with pytest.raises(ValueError, match="sixth player needs Inns & Cathedrals"):
        Game.new(6, seed=1, options=options)
    with pytest.raises(ValueError):
        Game.new(7, seed=1, options=WITH_RULES)
