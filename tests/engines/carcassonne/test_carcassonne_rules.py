"""Base Carcassonne rules, worked out tile by tile, and every reason an action is refused.

Plain pytest, no Django. The worked examples start from ``Game.new(2)`` without a seed, so any
tile still in the pile may be named. The start tile D lies at (0,0), rotation 0: city north,
road east-west, field south (x grows east, y grows south, rotations clockwise). Examples that
need the final scoring use a short pile (``Game(players, None, pile, ordered=False)``), so the
game ends as soon as their tiles are laid.

Feature numbers are those of ``data/base_tiles_v1.json``: E 0 city, 1 field; M/N 0 city, 1 field;
U 0 road, 1 north field, 2 south field; B 0 field, 1 cloister; D 0 city, 1 road, 2 field by the
city, 3 field beyond the road; H 0 north city, 1 south city, 2 field.
"""

from __future__ import annotations

import pytest

from games.engines.carcassonne import MEEPLES, Action, Game, IllegalAction, parse_action
from games.engines.tiles import SIDES, neighbour

NO_POINTS = {"city": 0, "road": 0, "cloister": 0, "field": 0}


def new_game(players: int = 2, pile: list[str] | None = None) -> Game:
    """An unseeded game; with ``pile`` only those tiles are left to draw."""
    if pile is None:
        return Game.new(players)
    return Game(players, None, list(pile), ordered=False)


def play(game: Game, *texts: str) -> Game:
    for text in texts:
        game.apply(parse_action(text))
    return game


def refusal(game: Game, action: Action | str) -> IllegalAction:
    """Apply an action that must be refused; the game must be exactly as before."""
    before = game.to_dict()
    with pytest.raises(IllegalAction) as refused:
        game.apply(parse_action(action) if isinstance(action, str) else action)
    assert game.to_dict() == before, "a refused action must leave the game unchanged"
    return refused.value


def points(game: Game, seat: int) -> dict[str, int]:
    return game.scores()[seat].breakdown


def meeples_on_board(game: Game) -> list[dict]:
    return game.view()["meeples"]


# -- laying tiles ---------------------------------------------------------------------------------

def test_start_position():
    """The start tile D lies at (0,0) unturned; seat 0 begins with all 71 other tiles to draw."""
    game = new_game()
    view = game.view()
    assert view["tiles"][0]["tile"] == "D" and (view["tiles"][0]["x"], view["tiles"][0]["y"]) == (0, 0)
    assert view["tiles"][0]["rotation"] == 0
    assert len(game.pile) == 71 and game.pile.count("D") == 3
    assert game.current == 0 and game.meeples_left == [MEEPLES, MEEPLES] == [7, 7]
    assert [s.breakdown for s in game.scores()] == [NO_POINTS, NO_POINTS]
    assert game.next_tile is None


def test_edge_mismatch_names_the_side_and_the_neighbour():
    """edge_mismatch: the message names the side of the new tile and the neighbour's position."""
    game = new_game()
    refused = refusal(game, "E@0,-1r0")        # E's printed south is a field; D shows its city north
    assert refused.reason == "edge_mismatch"
    assert "south" in refused.message and "(0,0)" in refused.message and "city" in refused.message
    refused = refusal(game, "U@0,1r90")        # turned, U shows a road north; D's south is a field
    assert refused.reason == "edge_mismatch"
    assert "north" in refused.message and "(0,0)" in refused.message
    assert "road" in refused.message and "field" in refused.message
    refused = refusal(game, "V@1,0r180")       # V turned shows a field west where D's road runs east
    assert refused.reason == "edge_mismatch" and "west" in refused.message


def test_two_neighbours_must_both_match():
    """A tile touching two laid tiles must continue both: one matching side is not enough."""
    game = play(new_game(), "U@1,0r0")         # (1,0): road east-west, fields north and south
    # (1,1) touches U's south field above and nothing else yet; (0,1) touches D's south field.
    play(game, "B@0,1r0")
    # now (1,1) touches U's field north and B's field west: E turned to show its city west fails
    refused = refusal(game, "E@1,1r270")
    assert refused.reason == "edge_mismatch" and "west" in refused.message and "(0,1)" in refused.message
    play(game, "E@1,1r90")                     # city east, fields north and west: fits both
    assert (1, 1) in game.board.tiles


def test_occupied():
    """occupied: a cell already holding a tile (the start tile here) takes no other."""
    game = new_game()
    assert refusal(game, "D@0,0r0").reason == "occupied"
    play(game, "E@0,-1r180")
    assert refusal(game, "B@0,-1r0").reason == "occupied"


@pytest.mark.parametrize("text", ["B@5,5r0", "B@1,1r0", "B@-1,-1r0", "B@0,2r0"])
def test_not_adjacent(text: str):
    """not_adjacent: a tile must touch a laid tile by a side; touching by a corner is not enough."""
    refused = refusal(new_game(), text)
    assert refused.reason == "not_adjacent"


def test_meeple_on_no_such_feature():
    """no_such_feature: the meeple names a feature the tile laid does not print (E has 0 and 1)."""
    game = new_game()
    assert refusal(game, "E@0,-1r180 meeple:2").reason == "no_such_feature"
    assert refusal(game, "E@0,-1r180 meeple:9").reason == "no_such_feature"
    play(game, "E@0,-1r180 meeple:1")          # the field is feature 1
    assert game.meeples_left == [6, 7]


# -- completed features score at once -------------------------------------------------------------

def test_city_cap_closes_two_tile_city_for_four():
    """E turned 180° north of the start tile closes D's city: 2 tiles x 2 = 4 points, meeple home."""
    game = play(new_game(), "E@0,-1r180 meeple:0")
    assert points(game, 0) == {**NO_POINTS, "city": 4}
    assert points(game, 1) == NO_POINTS
    assert game.meeples_left == [7, 7], "the meeple comes home when its city scores"
    assert meeples_on_board(game) == []
    assert game.current == 1


def test_completed_city_without_meeples_scores_nobody():
    """A city closed with no meeple in it gives no points to anyone."""
    game = play(new_game(), "E@0,-1r180")
    assert [s.total for s in game.scores()] == [0, 0]


def test_city_with_a_pennant_scores_two_more():
    """A completed city scores 2 per tile and 2 per pennant: D + M (pennant) + E = 2*3 + 2*1 = 8.

    The owner scores even when another player lays the closing tile."""
    game = play(new_game(), "M@0,-1r180 meeple:0")   # M's city turned to face south and east
    assert game.meeples_left == [6, 7] and points(game, 0)["city"] == 0
    play(game, "E@1,-1r270")                          # seat 1 closes it with a cap facing west
    assert points(game, 0) == {**NO_POINTS, "city": 8}
    assert points(game, 1) == NO_POINTS
    assert game.meeples_left == [7, 7]


def test_two_separate_cities_on_one_tile():
    """H's two caps are two cities: its south cap closes D's city (2 tiles = 4) while a knight on
    its north cap stays until that cap is closed in turn."""
    game = play(new_game(), "H@0,-1r0 meeple:1")     # the knight on the south cap, closed at once
    assert points(game, 0) == {**NO_POINTS, "city": 4} and game.meeples_left == [7, 7]
    game = play(new_game(), "H@0,-1r0 meeple:0")     # the knight on the north cap, still open
    assert points(game, 0) == NO_POINTS and game.meeples_left == [6, 7]
    play(game, "E@0,-2r180")                         # seat 1 closes it: H + E = 4
    assert points(game, 0) == {**NO_POINTS, "city": 4} and game.meeples_left == [7, 7]


def test_road_closed_between_two_junctions():
    """A road from a junction to a crossroads scores 1 per tile when closed: D + U + W + X = 4."""
    game = play(new_game(), "U@1,0r0 meeple:0")      # seat 0 on the road east of the start tile
    play(game, "W@2,0r0")                            # seat 1: a junction ends it in the east
    assert points(game, 0)["road"] == 0 and game.meeples_left[0] == 6
    play(game, "X@-1,0r0")                           # seat 0: the crossroads ends it in the west
    assert points(game, 0) == {**NO_POINTS, "road": 4}
    assert points(game, 1) == NO_POINTS
    assert game.meeples_left == [7, 7]
    # the junctions' other roads are separate roads, still open
    assert not game.graph.is_complete(game.graph.node(2, 0))     # W's east road
    assert not game.graph.is_complete(game.graph.node(3, 0))     # X's north road


def test_road_closed_by_the_meeples_own_tile():
    """A meeple put on the road of the very tile that closes it scores at once and comes straight
    home: junction W + D + junction W = 3."""
    game = play(new_game(), "W@1,0r0", "W@-1,0r0 meeple:0")   # W's east road (0) meets D's road
    assert points(game, 1) == {**NO_POINTS, "road": 3}
    assert points(game, 0) == NO_POINTS
    assert game.meeples_left == [7, 7]


def surround_cloister(game: Game) -> list[str]:
    """B at (0,1) with seat 0's monk, then its 7 other neighbours besides the start tile."""
    play(game, "B@0,1r0 meeple:1")
    return ["U@-1,0r0", "U@1,0r0", "E@-1,1r270", "E@1,1r90", "E@-1,2r180", "E@0,2r180", "E@1,2r180"]


def test_cloister_surrounded_scores_nine():
    """A cloister surrounded by 8 tiles scores 9 at once; until the 8th it scores nothing."""
    game = new_game()
    rest = surround_cloister(game)
    play(game, *rest[:-1])
    assert points(game, 0)["cloister"] == 0 and game.meeples_left[0] == 6
    play(game, rest[-1])
    assert points(game, 0) == {**NO_POINTS, "cloister": 9}
    assert game.meeples_left == [7, 7]
    assert points(game, 1) == NO_POINTS


def test_cloister_laid_into_a_surrounded_hole_scores_at_once():
    """A cloister laid into a cell whose 8 neighbours are all there scores 9 on the spot."""
    game = play(new_game(), "U@-1,0r0", "U@1,0r0", "E@-1,1r270", "E@1,1r90", "E@-1,2r180",
                "E@0,2r180", "E@1,2r180")
    assert game.current == 1
    play(game, "B@0,1r0 meeple:1")
    assert points(game, 1) == {**NO_POINTS, "cloister": 9}
    assert game.meeples_left == [7, 7]


# -- meeples and majorities -----------------------------------------------------------------------

def test_meeple_cannot_join_an_occupied_city():
    """feature_taken: a meeple on a city that the laying joins to a city holding a meeple."""
    game = play(new_game(), "N@0,-1r180 meeple:0")   # seat 0's knight: city D + N, open east
    refused = refusal(game, "E@1,-1r270 meeple:0")
    assert refused.reason == "feature_taken" and "city" in refused.message
    legal = {a.to_text() for a in game.legal_actions()}
    assert "E@1,-1r270" in legal and "E@1,-1r270 meeple:1" in legal
    assert "E@1,-1r270 meeple:0" not in legal
    play(game, "E@1,-1r270 meeple:1")                # the same tile, the meeple on the field: fine
    assert points(game, 0)["city"] == 2 * 3
    assert game.meeples_left == [7, 6]


def test_own_meeple_also_makes_a_feature_taken():
    """feature_taken holds against the player's own meeple too."""
    game = play(new_game(), "U@1,0r0 meeple:0", "B@0,1r0")
    assert refusal(game, "U@2,0r0 meeple:0").reason == "feature_taken"
    play(game, "U@2,0r0 meeple:2")
    assert game.meeples_left == [5, 7]


def test_field_joined_round_a_road_end_is_taken():
    """A field that wraps round a road end (A's) joins both fields of the tile laid beside it: when
    one of them meets a farmer, a meeple on the other is refused, and legal_actions agrees."""
    game = play(new_game(), "U@-1,0r0", "U@1,0r0", "A@-1,1r270", "U@1,1r0 meeple:2")
    legal = {a.to_text() for a in game.legal_actions() if a.tile == "U" and (a.x, a.y) == (0, 1)}
    assert legal == {"U@0,1r0", "U@0,1r0 meeple:0", "U@0,1r180", "U@0,1r180 meeple:0"}
    assert refusal(game, "U@0,1r0 meeple:1").reason == "feature_taken"
    assert refusal(game, "U@0,1r0 meeple:2").reason == "feature_taken"
    play(game, "U@0,1r0 meeple:0")
    assert game.meeples_left == [6, 6]


def test_tie_in_a_city_both_score_in_full():
    """Two separate cities, one meeple each, joined and closed by one tile: both players score 8."""
    game = play(new_game(), "N@0,-1r180 meeple:0", "D@1,0r0 meeple:0")
    assert game.meeples_left == [6, 6]
    play(game, "N@1,-1r270")                          # joins both cities and closes them: 4 tiles
    assert points(game, 0) == {**NO_POINTS, "city": 8}
    assert points(game, 1) == {**NO_POINTS, "city": 8}
    assert game.meeples_left == [7, 7]
    assert game.final_ranks() == {0: 1, 1: 1}


def test_majority_takes_the_city():
    """Two knights against one: only the majority scores (5 tiles = 10); all three come home."""
    game = play(new_game(), "N@0,-1r180 meeple:0", "D@1,0r0 meeple:0", "U@2,0r0", "B@0,1r0",
                "E@2,-1r270 meeple:0")
    assert game.meeples_left == [5, 6]
    play(game, "R@1,-1r180")                          # seat 1 closes the city
    assert points(game, 0) == {**NO_POINTS, "city": 10}
    assert points(game, 1) == NO_POINTS
    assert game.meeples_left == [7, 7]
    assert game.final_ranks() == {0: 1, 1: 2}


def test_no_meeples_after_seven():
    """no_meeples: a player with all 7 meeples out can lay tiles but put no meeple."""
    game = new_game()
    for _ in range(60):
        if game.meeples_left[0] == 0:
            break
        actions = game.legal_actions()
        if game.current == 0:
            game.apply(next(a for a in actions if a.meeple is not None))
        else:
            game.apply(next(a for a in actions if a.meeple is None))
    assert game.meeples_left[0] == 0 and game.current == 1
    game.apply(next(a for a in game.legal_actions() if a.meeple is None))
    assert game.current == 0
    actions = game.legal_actions()
    assert actions and all(a.meeple is None for a in actions)
    place = actions[0]
    feature = next(iter(game.tileset.types[place.tile].tile.feature_kinds))
    assert refusal(game, Action(place.tile, place.x, place.y, place.rotation, meeple=feature)).reason == "no_meeples"
    assert len(meeples_on_board(game)) == 7 and all(m["seat"] == 0 for m in meeples_on_board(game))


# -- the final scoring ----------------------------------------------------------------------------

def test_unfinished_city_with_pennant_and_road_at_the_end():
    """Final scoring: unfinished city 1 per tile + 1 per pennant (D + M = 3), road 1 per tile (2)."""
    game = new_game(pile=["M", "U"])
    play(game, "M@0,-1r180 meeple:0")
    assert not game.is_over
    play(game, "U@1,0r0 meeple:0")
    assert game.is_over and game.pile == []
    assert points(game, 0) == {**NO_POINTS, "city": 3}
    assert points(game, 1) == {**NO_POINTS, "road": 2}
    assert game.meeples_left == [7, 7]


def test_unfinished_cloister_scores_one_plus_neighbours():
    """Final scoring: a cloister scores 1 + each of its neighbours, corners included (1 + 2 = 3)."""
    game = play(new_game(pile=["B", "U"]), "B@0,1r0 meeple:1", "U@1,0r0")
    assert game.is_over
    assert points(game, 0) == {**NO_POINTS, "cloister": 3}


def test_farmers_tie_next_to_a_completed_city():
    """Farmers: 3 per completed city their field touches, the city counted once however many tiles
    of the field touch it; two fields each with a farmer joined make a tie, both score."""
    game = new_game(pile=["E", "U", "B"])
    play(game, "E@0,-1r180 meeple:1")                # closes D's city (nobody in it); farmer on E's field
    assert [s.total for s in game.scores()] == [0, 0]
    play(game, "U@1,0r0 meeple:1")                   # seat 1's farmer on D's field by the city
    play(game, "B@1,-1r0")                           # joins the two fields
    assert game.is_over
    assert points(game, 0) == {**NO_POINTS, "field": 3}
    assert points(game, 1) == {**NO_POINTS, "field": 3}


def test_farmer_majority_and_two_cities():
    """Farmers: the majority in a field takes it (2 against 1); a field touching two completed
    cities scores 6."""
    game = new_game(pile=["E", "U", "D", "B", "E", "B"])
    play(game, "E@0,-1r180 meeple:1", "U@1,0r0 meeple:1", "D@2,0r0", "B@0,1r0", "E@2,-1r180 meeple:1")
    assert game.meeples_left == [5, 6]
    play(game, "B@1,-1r0")                           # joins the three fields
    assert game.is_over
    assert points(game, 0) == {**NO_POINTS, "field": 6}
    assert points(game, 1) == NO_POINTS
    assert game.meeples_left == [7, 7]


def test_farmer_counts_completed_cities_only():
    """H's field touches both its caps: the closed south cap counts 3, the open north one nothing;
    once the north cap is closed too the farmer scores 6."""
    game = play(new_game(pile=["H"]), "H@0,-1r0 meeple:2")
    assert game.is_over and points(game, 0) == {**NO_POINTS, "field": 3}
    game = play(new_game(pile=["H", "E"]), "H@0,-1r0 meeple:2", "E@0,-2r180")
    assert game.is_over and points(game, 0) == {**NO_POINTS, "field": 6}


# -- draws, discards, turns and the end -----------------------------------------------------------

def test_seeded_game_draws_for_the_player():
    """A seeded game names the tile drawn; another tile is wrong_tile; an action without a tile lays
    the one drawn, and the next tile is named."""
    game = Game.new(2, seed=3)
    drawn = game.next_tile
    assert drawn == game.pile[0] and len(game.pile) == 71
    assert Game.new(2, seed=3).pile == game.pile, "the same seed shuffles the same pile"
    other = next(letter for letter in "EUVB" if letter != drawn)
    refused = refusal(game, Action(tile=other, x=0, y=-1, rotation=180))
    assert refused.reason == "wrong_tile" and drawn in refused.message and other in refused.message
    placement = next(a for a in game.legal_actions() if a.meeple is None)
    assert all(a.tile == drawn for a in game.legal_actions())
    game.apply(Action(tile=None, x=placement.x, y=placement.y, rotation=placement.rotation))
    assert game.letters[-1] == drawn and len(game.pile) == 70 and game.next_tile == game.pile[0]


def test_engine_docstring_examples():
    """The examples in the engine's docstrings hold (seed 3 draws N first)."""
    import doctest

    from games.engines.carcassonne import game as game_module
    result = doctest.testmod(game_module)
    assert result.attempted >= 2 and result.failed == 0


def test_unseeded_game_no_such_tile_and_tile_missing():
    """no_such_tile: a letter none of whose copies is left (C has one; Z does not exist);
    tile_missing: an unseeded game must be told the tile drawn."""
    game = play(new_game(), "C@0,-1r0")
    assert refusal(game, "C@0,-2r0").reason == "no_such_tile"
    assert refusal(game, "Z@0,1r0").reason == "no_such_tile"
    assert refusal(game, Action(tile=None, x=0, y=1)).reason == "tile_missing"


def test_discard_only_a_tile_that_fits_nowhere():
    """tile_fits: a tile with a legal place cannot be discarded. Once D's city is closed no open
    side shows a city, so C fits nowhere: it is discarded and the same player draws again."""
    game = new_game()
    assert refusal(game, "U discard").reason == "tile_fits"
    play(game, "E@0,-1r180")
    assert game.current == 1
    assert refusal(game, "C@0,-2r0").reason == "edge_mismatch"
    assert [a for a in game.legal_actions() if a.tile == "C"] == [Action(tile="C", discard=True)]
    assert refusal(game, "E discard").reason == "tile_fits"
    play(game, "C discard")
    assert game.discarded == ["C"] and "C" not in game.pile and len(game.pile) == 69
    assert game.current == 1, "the player who discards draws again"
    game.undo()
    assert "C" in game.pile and game.discarded == []


def test_not_your_turn():
    """not_your_turn: an action naming a seat other than the current one."""
    game = new_game(3)
    assert refusal(game, "E@0,-1r180 seat:1").reason == "not_your_turn"
    play(game, "E@0,-1r180 seat:0", "U@1,0r0 seat:1")
    assert game.current == 2
    assert refusal(game, "U@2,0r0 seat:0").reason == "not_your_turn"


def test_game_over():
    """game_over: nothing more is played once the pile is empty; legal_actions is empty."""
    game = play(new_game(pile=["E"]), "E@0,-1r180 meeple:0")
    assert game.is_over and game.legal_actions() == []
    assert game.view()["current_player"] is None
    for text in ("U@1,0r0", "E discard", "U@1,0r0 seat:1"):
        assert refusal(game, text).reason == "game_over"


def test_undo_and_nothing_to_undo():
    """undo takes back one action at a time, scores and meeples included; nothing_to_undo at the start."""
    game = new_game()
    with pytest.raises(IllegalAction) as refused:
        game.undo()
    assert refused.value.reason == "nothing_to_undo"
    start = game.to_dict()
    play(game, "M@0,-1r180 meeple:0")
    laid = game.to_dict()
    play(game, "E@1,-1r270")
    assert points(game, 0)["city"] == 8
    game.undo()
    assert game.to_dict() == laid and points(game, 0)["city"] == 0 and game.meeples_left == [6, 7]
    game.undo()
    assert game.to_dict() == start
    with pytest.raises(IllegalAction) as refused:
        game.undo()
    assert refused.value.reason == "nothing_to_undo"


def test_undo_the_last_tile_takes_back_the_final_scoring():
    """Undoing the action that emptied the pile reopens the game without the final points."""
    game = play(new_game(pile=["M", "U"]), "M@0,-1r180 meeple:0")
    before = game.to_dict()
    play(game, "U@1,0r0")
    assert game.is_over and points(game, 0)["city"] == 3
    game.undo()
    assert game.to_dict() == before and not game.is_over and points(game, 0)["city"] == 0


def test_notation_round_trip():
    """The text notation reads back what it writes, seats and discards included."""
    for text in ("V@1,0r90 meeple:2", "V@-3,12r270", "C discard", "U@0,1r0 seat:2", "A@2,-1r180 meeple:1 seat:0"):
        assert parse_action(text).to_text() == text
    assert parse_action("V@1,0r90 meeple:2") == Action("V", 1, 0, 90, meeple=2)
    for bad in ("V@1,0r45", "v@1,0r0", "V 1,0", "V@1,0r0 meeple:", ""):
        with pytest.raises(ValueError):
            parse_action(bad)


def test_laid_tiles_continue_their_neighbours():
    """After the worked example with the most tiles, every side of every tile matches its neighbour."""
    game = new_game()
    play(game, *surround_cloister(game))
    for position, placed in game.board.tiles.items():
        for side in SIDES:
            other = game.board.tiles.get(neighbour(position, side))
            if other is not None:
                assert (placed.tile.edge(side, placed.quarter_turns).terrain
                        == other.tile.edge(side.opposite, other.quarter_turns).terrain)


def test_a_rotation_other_than_a_quarter_turn_is_refused():
    """bad_rotation: tiles turn by quarter turns (the API's schema refuses other values first)."""
    game = Game.new(2)
    before = game.to_dict()
    with pytest.raises(IllegalAction) as refused:
        game.apply(Action(tile="E", x=0, y=-1, rotation=45))
    assert refused.value.reason == "bad_rotation" and game.to_dict() == before


def test_an_unseeded_game_lists_the_actions_of_the_tile_drawn_at_the_table():
    """legal_actions(tile=…): where the tile a player holds fits, and nothing for a letter no
    copy of which is left; the whole pile's actions are those of its letters together."""
    game = new_game()
    for_u = game.legal_actions(tile="U")
    assert for_u and all(a.tile == "U" for a in for_u)
    assert for_u == [a for a in game.legal_actions() if a.tile == "U"]
    assert game.legal_actions(tile="Z") == []
    play(game, "C@0,-1r0")
    assert game.legal_actions(tile="C") == [], "C had one copy, now laid"


def test_each_view_holds_its_own_copy_of_the_tiles_records():
    """A view copies each laid tile's printed record (``marshal``, not ``copy.deepcopy``, since
    issue 25): equal to the record, and a reader changing one view changes neither the tile set
    nor another view nor another tile of the same letter."""
    import copy

    from games.engines.carcassonne import INNS_CATHEDRALS, TRADERS_BUILDERS, Game, Options

    game = Game.new(3, seed=4, options=Options.with_expansions(INNS_CATHEDRALS, TRADERS_BUILDERS))
    for _ in range(12):
        game.apply(game.legal_actions()[0])
    first, second = game.view(), game.view()
    for tile in first["tiles"]:
        record = game.tileset.types[tile["tile"]].record
        assert {key: tile[key] for key in record} == copy.deepcopy(dict(record))
    pristine = copy.deepcopy(second)
    first["tiles"][0]["features"][0]["type"] = "changed"
    first["tiles"][0]["edges"]["N"]["sub_edges"].append(99)
    assert second == pristine
    assert game.view() == pristine
    letter = first["tiles"][0]["tile"]
    assert game.tileset.types[letter].record["features"][0]["type"] != "changed"
