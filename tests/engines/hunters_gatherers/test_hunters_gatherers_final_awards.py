"""The end of a game of Hunters and Gatherers, explained: each final award says which tiles its
meadow or river system covers, which hunters or huts stood on it and what it holds (the animals
its points count; the fish of its lakes), and the gatherers and fishers the end sent home without
points are kept too, so that a reader can be shown the final position as it stood.

Seats: Red 0, Blue 1 (the rulebook tests' positions and tiles).
"""

from __future__ import annotations

from games.engines.hunters_gatherers import Game
from games.engines.hunters_gatherers.sketch import sketch_tile

from .test_hunters_gatherers_rulebook import BLUE, RED, forest_end, lake_east, meadow, new_game, play


def test_the_river_system_with_five_fish_names_its_tiles_and_blues_hut():
    """The rulebook's two river systems: Red's pond alone (1 fish) and Blue's, open to the east,
    over L02 and L03 (2 + 3 fish in two lakes)."""
    red_pond = sketch_tile("L01", N="m0", E="m0", S="m0", W="m0 r1 m0", features={1: "lake=8", 8: "lake fish=1"})
    two_rivers_lake = sketch_tile("L03", N="m0", E="m0 r2 m3", S="m3", W="m3 r1 m0",
                                  features={1: "lake=8", 2: "lake=8", 8: "lake fish=3"})
    game = new_game(red_pond, lake_east("L02", 2), two_rivers_lake)
    play(game, "L01@-1,0r0 hut:8", "L02@1,0r0 hut:8", "L03@2,0r0")

    huts = [award for award in game.view()["awards"] if award["source"] == "hut"]
    assert huts == [
        {"source": "hut", "points": 1, "seats": [RED], "action": 2, "tiles": [[-1, 0]],
         "figures": [{"seat": RED, "kind": "hut", "x": -1, "y": 0, "tile": "L01", "feature": 8}],
         "contents": {"fish": 1, "lakes": 1}},
        {"source": "hut", "points": 5, "seats": [BLUE], "action": 2, "tiles": [[1, 0], [2, 0]],
         "figures": [{"seat": BLUE, "kind": "hut", "x": 1, "y": 0, "tile": "L02", "feature": 8}],
         "contents": {"fish": 5, "lakes": 2}},
    ]


def test_a_meadow_says_what_its_hunters_counted():
    """Two deer, a mammoth and a tiger across the start and two meadow tiles: the tiger eats a
    deer, 2 × (1 + 1) = 4 to Red's hunter."""
    start = sketch_tile("S", "start", N="m0", E="m0", S="m0", W="m0")
    game = new_game(meadow("L01", "deer=2 tigers=1"), meadow("L02", "mammoths=1"), start=start)
    play(game, "L01@1,0r0 hunter:0", "L02@-1,0r0")

    [hunters] = [award for award in game.view()["awards"] if award["source"] == "hunter"]
    assert hunters == {
        "source": "hunter", "points": 4, "seats": [RED], "action": 1, "tiles": [[-1, 0], [0, 0], [1, 0]],
        "figures": [{"seat": RED, "kind": "hunter", "x": 1, "y": 0, "tile": "L01", "feature": 0}],
        "contents": {"deer": 2, "mammoths": 1, "aurochs": 0, "tigers": 1, "fire": 0, "shrine": 0},
    }


def test_gatherers_on_an_unfinished_forest_are_sent_home_and_remembered():
    game = new_game(forest_end("L01"), meadow("L02"))
    play(game, "L01@1,0r90 gatherer:0")
    assert game.view()["sent_home"] == []
    play(game, "L02@0,1r0")
    assert game.is_over and game.figures_on_board() == []
    assert game.view()["sent_home"] == [{"seat": RED, "kind": "gatherer", "x": 1, "y": 0, "tile": "L01",
                                        "feature": 0}]
    assert game.supply(RED)["tribe_members"] == 5


def test_a_finished_game_restored_from_its_snapshot_keeps_its_final_awards_and_those_sent_home():
    game = Game.new(3, seed=4)
    while not game.is_over:
        actions = game.legal_actions()
        with_figure = [a for a in actions if a.figure is not None]
        game.apply((with_figure or actions)[len(game.history) % len(with_figure or actions)])
    view = game.view()
    assert Game.from_snapshot(game.snapshot()).view() == view
    assert Game.from_dict(game.to_dict()).view() == view
    finals = [award for award in view["awards"] if award["source"] in ("hut", "hunter")]
    assert finals and all(award["tiles"] and award["figures"] for award in finals)
    laid = {(tile["x"], tile["y"]): tile["tile"] for tile in view["tiles"]}
    for award in finals:
        for figure in award["figures"]:
            assert laid[figure["x"], figure["y"]] == figure["tile"] and [figure["x"], figure["y"]] in award["tiles"]
    # Hunters and huts stay on the board at the end; every one of them is in a final award.
    standing = sorted((f["owner"], f["kind"], f["x"], f["y"], f["feature"]) for f in view["figures"])
    scored = sorted((f["seat"], f["kind"], f["x"], f["y"], f["feature"]) for a in finals for f in a["figures"])
    assert standing == scored
    assert all(figure["kind"] in ("gatherer", "fisher") for figure in view["sent_home"])
