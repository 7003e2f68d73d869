"""Every worked example of the two rulebooks, as a position built from hand-made tiles.

Seats: Red 0, Blue 1, Green 2, Yellow 3. The start tile lies at (0,0); x grows
east, y grows south; rotations are degrees clockwise.
"""

from __future__ import annotations

import pytest

from games.engines.hunters_gatherers import Game, IllegalAction, parse_action
from games.engines.hunters_gatherers.landscape import Landscape
from games.engines.hunters_gatherers.scoring import final_awards
from games.engines.hunters_gatherers.sketch import sketch_tile, sketch_tileset
from games.engines.tiles import Figure

RED, BLUE, GREEN, YELLOW = 0, 1, 2, 3

MEADOW_START = sketch_tile("S", "start", N="m0", E="m0", S="m0", W="m0")


def meadow(tile_id: str, animals: str = "") -> dict[str, object]:
    return sketch_tile(tile_id, N="m0", E="m0", S="m0", W="m0", features={0: animals} if animals else {})


def forest_end(tile_id: str, forest: str = "") -> dict[str, object]:
    """A forest reaching the north side only; meadow on the three others."""
    return sketch_tile(tile_id, N="f0", E="m1", S="m1", W="m1", features={0: forest} if forest else {})


def forest_straight(tile_id: str) -> dict[str, object]:
    """A forest from north to south between two meadows."""
    return sketch_tile(tile_id, N="f0", E="m1", S="f0", W="m2")


def forest_corner(tile_id: str) -> dict[str, object]:
    """A forest reaching the north and east sides."""
    return sketch_tile(tile_id, N="f0", E="f0", S="m1", W="m1")


def forest_tee(tile_id: str) -> dict[str, object]:
    """A forest reaching north, east and west."""
    return sketch_tile(tile_id, N="f0", E="f0", S="m1", W="f0")


def lake_east(tile_id: str, fish: int) -> dict[str, object]:
    """A lake with ``fish`` fish and a river leaving it eastwards."""
    return sketch_tile(tile_id, N="m0", E="m0 r1 m0", S="m0", W="m0",
                       features={1: "lake=8", 8: f"lake fish={fish}"})


def lake_west(tile_id: str, fish: int) -> dict[str, object]:
    return sketch_tile(tile_id, N="m0", E="m0", S="m0", W="m0 r1 m0",
                       features={1: "lake=8", 8: f"lake fish={fish}"})


def river_straight(tile_id: str) -> dict[str, object]:
    """A river from west to east; meadow 0 north of it, meadow 2 south."""
    return sketch_tile(tile_id, N="m0", E="m0 r1 m2", S="m2", W="m2 r1 m0")


def new_game(*tiles: dict[str, object], players: int = 2, start: dict[str, object] = MEADOW_START,
             bonus: tuple[dict[str, object], ...] = ()) -> Game:
    return Game.new(players, tileset=sketch_tileset(start, [*tiles, *bonus]))


def play(game: Game, *notations: str) -> None:
    for text in notations:
        game.apply(parse_action(text))


def points(game: Game, seat: int, source: str) -> int:
    return game.scores()[seat].breakdown[source]  # type: ignore[index]


# -- rivers ----------------------------------------------------------------------------------

def test_river_of_three_tiles_between_lakes_of_one_and_two_fish_is_worth_6():
    """Czech/French rulebook: "Red scores 6: three river parts (1, 2, 3) and lakes with 1 and 2 fish"."""
    game = new_game(lake_east("L01", 1), river_straight("L02"), lake_west("L03", 2), meadow("L04"))
    play(game, "L01@1,0r0 fisher:1", "L02@2,0r0", "L03@3,0r0")
    assert points(game, RED, "river") == 6
    assert points(game, BLUE, "river") == 0


def test_river_closed_by_blue_scores_3_for_reds_fisher():
    """Rulebook: "Red scores 3 (2 river parts and 1 fish); even if Blue laid the tile to extend
    his forest, Red scores, because the fisher is his"."""
    blue_forest_and_spring = sketch_tile("L02", N="f2", E="m0", S="m0", W="m0 r1 m0")
    game = new_game(lake_east("L01", 1), blue_forest_and_spring, meadow("L03"))
    play(game, "L01@1,0r0 fisher:1", "L02@2,0r0 gatherer:2")
    assert points(game, RED, "river") == 3
    assert points(game, BLUE, "river") == 0
    assert game.supply(RED)["tribe_members"] == 5   # the fisher came home
    assert game.supply(BLUE)["tribe_members"] == 4  # the gatherer stays in the open forest


# -- forests ---------------------------------------------------------------------------------

def test_forest_of_five_tiles_is_worth_10():
    """Rulebook: "2 points per forest tile. Red scores 10"."""
    game = new_game(forest_end("L01"), forest_straight("L02"), forest_straight("L03"),
                    forest_straight("L04"), forest_end("L05"), meadow("L06"))
    play(game, "L01@1,0r90 gatherer:0", "L02@2,0r90", "L03@3,0r90", "L04@4,0r90")
    assert points(game, RED, "forest") == 0
    play(game, "L05@5,0r270")
    assert points(game, RED, "forest") == 10
    assert game.supply(RED)["tribe_members"] == 5


def _joined_forest_tiles() -> list[dict[str, object]]:
    return [forest_end("L01"), forest_end("L02"), forest_corner("L03"), forest_corner("L04"),
            forest_straight("L05"), meadow("L06"), meadow("L07"), forest_end("L08"), forest_tee("L09"),
            meadow("L10")]


def test_forests_joined_by_a_tile_with_red_and_blue_tied_score_10_each():
    """Rulebook: "the new tile joins forests that were separate; Red and Blue each score 10"."""
    game = new_game(*_joined_forest_tiles())
    play(game,
         "L01@-1,0r0 gatherer:0",   # Red's forest end, reaching north
         "L02@1,0r0 gatherer:0",    # Blue's
         "L03@-1,-1r90",            # corners turn both forests towards (0,-1)
         "L04@1,-1r180")
    play(game, "L05@0,-1r90")       # Red joins and closes them: 5 tiles
    assert points(game, RED, "forest") == 10
    assert points(game, BLUE, "forest") == 10


def test_forests_joined_with_red_in_majority_give_12_to_red_alone():
    """Rulebook: "Red has the majority in this forest and scores all 12 points alone" — and
    Blue, who laid the joining tile, scores nothing."""
    game = new_game(*_joined_forest_tiles())
    play(game,
         "L01@-1,0r0 gatherer:0",   # Red
         "L02@1,0r0 gatherer:0",    # Blue
         "L03@-1,-1r90",            # Red
         "L04@1,-1r180",            # Blue
         "L06@-1,-2r0",             # Red: a meadow so that (0,-2) can be reached
         "L07@0,1r0",               # Blue, elsewhere
         "L08@0,-2r180 gatherer:0", # Red's second gatherer, forest reaching south
         "L09@0,-1r0")              # Blue's tee joins all three arms: 6 tiles
    assert points(game, RED, "forest") == 12
    assert points(game, BLUE, "forest") == 0
    assert game.supply(RED)["tribe_members"] == 5 and game.supply(BLUE)["tribe_members"] == 5


# -- huts ------------------------------------------------------------------------------------

def test_river_system_with_five_fish_gives_5_to_blues_hut():
    """Czech rulebook: "the system on the left belongs to Blue, on the right to Red. Blue gets 5
    points (5 fish)" — scored at the end, open or closed."""
    red_pond = sketch_tile("L01", N="m0", E="m0", S="m0", W="m0 r1 m0", features={1: "lake=8", 8: "lake fish=1"})
    two_rivers_lake = sketch_tile("L03", N="m0", E="m0 r2 m3", S="m3", W="m3 r1 m0",
                                  features={1: "lake=8", 2: "lake=8", 8: "lake fish=3"})
    game = new_game(red_pond, lake_east("L02", 2), two_rivers_lake)
    play(game, "L01@-1,0r0 hut:8", "L02@1,0r0 hut:8")
    with pytest.raises(IllegalAction) as refused:
        game.apply(parse_action("L03@2,0r0 hut:8"))
    assert refused.value.reason == "river_system_occupied"
    play(game, "L03@2,0r0")        # last tile: the system (2 + 3 fish) stays open to the east
    assert game.is_over
    assert points(game, BLUE, "hut") == 5
    assert points(game, RED, "hut") == 1


def test_huts_and_fishers_ignore_each_other():
    """Rulebook: "huts and fishers do not compete: a hut and a fisher may stand on one river"."""
    game = new_game(lake_east("L01", 2), river_straight("L02"), meadow("L03"))
    play(game, "L01@1,0r0 hut:1", "L02@2,0r0 fisher:1")
    assert sorted(f.kind for f in game.figures_on_board()) == ["fisher", "hut"]


# -- meadows (final scoring) -----------------------------------------------------------------

def test_meadows_1_to_4_of_the_final_scoring_example():
    """Rulebook final scoring: meadow 1 (1 deer) 2 to Green; meadow 2 (deer, mammoth, tiger)
    2 each to Yellow and Red; meadow 3 (2 deer, 2 mammoths, aurochs, tiger) 8 to Red, who has
    the most hunters; meadow 4 (2 tigers, 1 deer) 0 to Blue, and no minus points."""
    tileset = sketch_tileset(MEADOW_START, [meadow("L01", "deer=1"), meadow("L02", "deer=1 mammoths=1 tigers=1"),
                                            meadow("L03", "deer=2 mammoths=2 aurochs=1 tigers=1"),
                                            meadow("L04", "tigers=2 deer=1")])
    land = Landscape(tileset.start)
    hunters = {"L01": [GREEN], "L02": [YELLOW, RED], "L03": [RED, RED, YELLOW], "L04": [BLUE]}
    for column, (tile_id, owners) in enumerate(hunters.items(), start=1):
        placed = land.place(tileset.by_id[tile_id], (3 * column, 3), 0)   # apart: four meadows
        for owner in owners:
            land.add_figure(Figure(owner, "hunter", land.graph.node(placed.order, 0)))
    awards = {land.tiles[land.graph.node_tile[a.node]].id: (a.points, set(a.seats)) for a in final_awards(land)}
    assert awards == {"L01": (2, {GREEN}), "L02": (2, {YELLOW, RED}), "L03": (8, {RED}), "L04": (0, {BLUE})}


# -- placing figures ---------------------------------------------------------------------------

def figure_choices(game: Game, tile: str, x: int, y: int, rotation: int) -> set[tuple[str | None, int | None]]:
    return {(a.figure, a.feature) for a in game.legal_actions(tile)
            if (a.x, a.y) == (x, y) and a.rotation == rotation}


def test_blue_may_only_place_a_hunter_when_the_forest_has_a_gatherer():
    """Rulebook: "Blue may place his figure only as a hunter: a gatherer already stands in the forest"."""
    game = new_game(forest_end("L01"), forest_end("L02"), meadow("L03"))
    play(game, "L01@1,0r90 gatherer:0")
    assert figure_choices(game, "L02", 2, 0, 270) == {(None, None), ("hunter", 1)}
    with pytest.raises(IllegalAction) as refused:
        game.apply(parse_action("L02@2,0r270 gatherer:0"))
    assert refused.value.reason == "feature_occupied"


def test_red_may_place_a_fisher_or_gatherer_but_a_hunter_only_on_the_small_meadow():
    """Rulebook: "Red may place a fisher or a gatherer, but a hunter only on the small meadow:
    a hunter already lies in the big meadow" (a hut on the river is allowed too)."""
    start = sketch_tile("S", "start", N="m0", E="m0 r1 m2", S="m2", W="m2 r1 m0")
    forest_river = sketch_tile("L03", N="f0", E="m1 r2 m3", S="m3", W="m3 r2 m1")
    game = new_game(meadow("L01"), meadow("L02"), forest_river, meadow("L04"), start=start)
    play(game, "L01@0,-1r0", "L02@0,1r0 hunter:0")   # Blue's hunter in the big southern meadow
    assert figure_choices(game, "L03", 1, 0, 0) == {
        (None, None), ("gatherer", 0), ("fisher", 2), ("hunter", 1), ("hut", 2)}
    with pytest.raises(IllegalAction) as refused:
        game.apply(parse_action("L03@1,0r0 hunter:3"))
    assert refused.value.reason == "feature_occupied"


def _three_meadows_game(joining_tile: dict[str, object], *, shrine_at_east: bool = False) -> Game:
    start = sketch_tile("S", "start", N="m0 r1 m2", E="m2", S="m2 r1 m0", W="m0")
    east = sketch_tile("L02", N="m0", E="m0", S="m0", W="m0", features={0: "shrine"} if shrine_at_east else {})
    return new_game(forest_end("L01"), east, forest_end("L03"), joining_tile, start=start)


def test_no_hunter_on_three_meadows_joined_by_the_new_tile():
    """Rulebook: "each of the three hunters has his own meadow ... the new tile joins the three
    meadows; its player may not place a hunter, the meadow already has hunters"."""
    joining = sketch_tile("L04", N="m0", E="m0", S="m0 r1 m0", W="m0", features={0: "deer=3"})
    game = _three_meadows_game(joining)
    play(game,
         "L01@-1,0r0 hunter:1",     # Red, west of the river
         "L02@1,0r0 hunter:0",      # Blue, east of the river
         "L03@-1,-1r180 hunter:1")  # Red, north of the forest
    assert ("hunter", 0) not in figure_choices(game, "L04", 0, -1, 0)
    with pytest.raises(IllegalAction) as refused:
        game.apply(parse_action("L04@0,-1r0 hunter:0"))
    assert refused.value.reason == "feature_occupied"
    play(game, "L04@0,-1r0")          # last tile: one meadow, Red 2 hunters against Blue's 1
    assert points(game, RED, "hunter") == 6 and points(game, BLUE, "hunter") == 0


def test_place_score_and_return_in_one_turn():
    """Rulebook: "1. close a river with the new tile, 2. place a fisher on it, 3. score, 4. take
    the fisher back" — all in the same turn."""
    game = new_game(lake_east("L01", 1), river_straight("L02"), lake_west("L03", 2), meadow("L04"))
    play(game, "L01@1,0r0", "L02@2,0r0", "L03@3,0r0 fisher:1")
    assert points(game, RED, "river") == 6
    assert game.supply(RED)["tribe_members"] == 5
    assert game.figures_on_board() == []
    assert not game.is_over and game.current_player == BLUE


def test_place_score_and_return_again_on_the_bonus_tile():
    """Rulebook: "if the player has earned a bonus tile, he may even place the same figure again
    in this turn" — gatherer scores and returns on the landscape tile, then on the bonus tile."""
    game = new_game(forest_end("L01", "gold=1"), forest_end("L02"), forest_end("L03"), meadow("L04"),
                    bonus=(forest_end("B01"), meadow("B02")))
    play(game, "L01@1,0r90", "L02@0,-1r0")
    play(game, "L03@2,0r270 gatherer:0")     # Red closes the gold-nugget forest with a gatherer
    assert points(game, RED, "forest") == 4
    assert (game.phase, game.current_player) == ("bonus", RED)
    assert game.supply(RED)["tribe_members"] == 5  # home before the bonus tile
    play(game, "B01@0,-2r180 gatherer:0")    # ... and places it again, closing Blue-laid forest
    assert points(game, RED, "forest") == 8
    assert game.supply(RED)["tribe_members"] == 5
    assert (game.phase, game.current_player) == ("landscape", BLUE)


def test_blue_closing_reds_gold_forest_takes_the_bonus_tile():
    """Rulebook summary: "if Blue closed the forest, Red scores the points and Blue draws the bonus tile"."""
    game = new_game(forest_end("L01", "gold=1"), forest_end("L02"), meadow("L03"),
                    bonus=(meadow("B01"),))
    play(game, "L01@1,0r90 gatherer:0", "L02@2,0r270")
    assert points(game, RED, "forest") == 4 and points(game, BLUE, "forest") == 0
    assert (game.phase, game.current_player) == ("bonus", BLUE)
