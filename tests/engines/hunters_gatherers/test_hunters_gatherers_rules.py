"""Rules beyond the worked examples: bonus-tile specials, bonus limits, unplaceable tiles,
the end of the game, and the reasons an action is refused."""

from __future__ import annotations

import pytest

from games.engines.hunters_gatherers import Game, IllegalAction, parse_action
from games.engines.hunters_gatherers.sketch import sketch_tile

from .test_hunters_gatherers_rulebook import (
    BLUE, RED, _three_meadows_game, forest_end, lake_east, meadow, new_game, play, points, river_straight)


def refusal(game: Game, notation: str) -> IllegalAction:
    before = game.to_dict()
    with pytest.raises(IllegalAction) as refused:
        game.apply(parse_action(notation))
    assert game.to_dict() == before, "a refused action must leave the game unchanged"
    return refused.value


def test_fire_chases_every_tiger_from_its_meadow():
    """Bonus tile: "the fire chases all tigers away: every deer of that meadow scores"."""
    game = new_game(meadow("L01", "deer=2 tigers=2"), meadow("L02", "fire"))
    play(game, "L01@1,0r0 hunter:0", "L02@2,0r0")
    assert points(game, RED, "hunter") == 4  # both deer score, the tigers fled


def test_without_fire_tigers_eat_deer():
    game = new_game(meadow("L01", "deer=2 tigers=2"), meadow("L02"))
    play(game, "L01@1,0r0 hunter:0", "L02@2,0r0")
    assert points(game, RED, "hunter") == 0


def test_more_tigers_than_deer_cost_nothing_and_never_touch_mammoths_or_aurochs():
    """Rulebook: "tigers hunt only deer, never mammoth or aurochs; surplus tigers give no minus points"."""
    game = new_game(meadow("L01", "deer=1 tigers=3 mammoths=1 aurochs=1"), meadow("L02"))
    play(game, "L01@1,0r0 hunter:0", "L02@2,0r0")
    assert points(game, RED, "hunter") == 4


def test_each_aurochs_adds_2_points_to_its_meadow():
    """Bonus tile: "each aurochs adds 2 points to the meadow it stands in"."""
    game = new_game(meadow("L01", "aurochs=1"), meadow("L02", "deer=1"))
    play(game, "L01@1,0r0 hunter:0", "L02@2,0r0")
    assert points(game, RED, "hunter") == 4


def test_shrine_hunter_of_the_tiles_player_scores_the_meadow_alone():
    """Bonus tile: "if the player who lays this tile places a hunter on its meadow, he alone scores
    that meadow, however many hunters the others have there"."""
    joining = sketch_tile("L04", N="m0", E="m0", S="m0 r1 m0", W="m0", features={0: "deer=3"})
    game = _three_meadows_game(joining, shrine_at_east=True)
    play(game, "L01@-1,0r0 hunter:1", "L02@1,0r0 hunter:0", "L03@-1,-1r180 hunter:1", "L04@0,-1r0")
    assert game.is_over
    assert points(game, BLUE, "hunter") == 6   # Blue's one shrine hunter beats Red's two hunters
    assert points(game, RED, "hunter") == 0


def test_sacred_mushroom_clearing_adds_2_to_a_completed_forest():
    """Bonus tile: "each clearing of sacred mushrooms adds 2 points to the closed forest"."""
    game = new_game(forest_end("L01", "mushrooms=1"), forest_end("L02"), meadow("L03"))
    play(game, "L01@1,0r90 gatherer:0", "L02@2,0r270")
    assert points(game, RED, "forest") == 2 * 2 + 2


def test_no_second_bonus_tile_in_a_turn():
    """Rulebook: "a player gets only one bonus tile per turn, even if he closes another forest
    with a gold nugget"."""
    game = new_game(forest_end("L01", "gold=1"), forest_end("L02", "gold=1"), forest_end("L03"), meadow("L04"),
                    bonus=(forest_end("B01"), meadow("B02")))
    play(game, "L01@1,0r90", "L02@0,-1r0", "L03@2,0r270")
    assert game.phase == "bonus"
    play(game, "B01@0,-2r180")                 # closes Blue's gold forest too
    assert (game.phase, game.current_player) == ("landscape", BLUE)
    assert game.bonus_left == ("B02",)


def test_no_bonus_tile_once_the_bonus_pile_is_empty():
    """Rulebook: "when the bonus tiles run out, this action is dropped"."""
    game = new_game(forest_end("L01", "gold=1"), forest_end("L02"), meadow("L03"))
    play(game, "L01@1,0r90", "L02@2,0r270")
    assert (game.phase, game.current_player) == ("landscape", RED)


def test_forest_without_gold_gives_no_bonus_tile():
    game = new_game(forest_end("L01"), forest_end("L02"), meadow("L03"), bonus=(meadow("B01"),))
    play(game, "L01@1,0r90", "L02@2,0r270")
    assert game.phase == "landscape" and game.bonus_left == ("B01",)


def test_a_tile_that_fits_nowhere_leaves_the_game_and_the_player_draws_again():
    """Rulebook: "very rarely a tile cannot be laid: remove it from the game and draw another"."""
    all_forest = sketch_tile("L01", N="f0", E="f0", S="f0", W="f0")
    game = new_game(all_forest, meadow("L02"), meadow("L03"))
    assert game.legal_actions("L01") == [parse_action("L01 discard")]
    assert refusal(game, "L02 discard").reason == "tile_placeable"
    assert refusal(game, "L01@1,0r0").reason == "edge_mismatch"
    play(game, "L01 discard")
    assert game.discarded == ("L01",) and game.current_player == RED
    play(game, "L02@1,0r0")
    assert game.current_player == BLUE


def test_an_unplaceable_bonus_tile_is_discarded_and_another_drawn():
    """Reading 6 of the package docstring."""
    all_forest = sketch_tile("B01", N="f0", E="f0", S="f0", W="f0")
    game = new_game(forest_end("L01", "gold=1"), forest_end("L02"), meadow("L03"),
                    bonus=(all_forest, meadow("B02")))
    play(game, "L01@1,0r90", "L02@2,0r270", "B01 discard")
    assert (game.phase, game.current_player) == ("bonus", BLUE)
    play(game, "B02@0,1r0")
    assert (game.phase, game.current_player) == ("landscape", RED)


def test_game_ends_after_the_last_landscape_tile_even_with_bonus_tiles_left():
    game = new_game(meadow("L01"), bonus=(meadow("B01"),))
    play(game, "L01@1,0r0")
    assert game.is_over and game.current_player is None and game.bonus_left == ("B01",)
    assert refusal(game, "B01@2,0r0").reason == "game_over"
    assert game.legal_actions() == []


def test_last_landscape_tile_still_earns_its_bonus_tile():
    game = new_game(forest_end("L01", "gold=1"), forest_end("L02"), bonus=(meadow("B01"),))
    play(game, "L01@1,0r90", "L02@2,0r270")
    assert not game.is_over and game.phase == "bonus"
    play(game, "B01@0,1r0")
    assert game.is_over


def test_end_of_game_removes_gatherers_and_fishers_without_points_but_keeps_hunters_and_huts():
    """Rulebook: "at the end, figures on unfinished forests and rivers are removed and score
    nothing; huts and hunters stay for the final scoring"."""
    game = new_game(forest_end("L01"), lake_east("L02", 3), meadow("L03", "deer=1"), river_straight("L04"))
    play(game, "L01@1,0r90 gatherer:0", "L02@0,1r0 fisher:1", "L03@-1,0r0 hunter:0", "L04@1,1r0 hut:1")
    assert game.is_over
    assert {f.kind for f in game.figures_on_board()} == {"hunter", "hut"}
    assert game.supply(RED) == {"tribe_members": 4, "huts": 2}   # gatherer home, hunter stays
    assert game.supply(BLUE) == {"tribe_members": 5, "huts": 1}  # fisher home, hut stays
    assert points(game, RED, "forest") == 0 and points(game, BLUE, "river") == 0
    assert points(game, RED, "hunter") == 2 and points(game, BLUE, "hut") == 3
    assert game.final_ranks() == {RED: 2, BLUE: 1}


def test_ties_share_a_rank():
    game = new_game(meadow("L01"), players=3)
    play(game, "L01@1,0r0")
    assert game.final_ranks() == {0: 1, 1: 1, 2: 1}


@pytest.mark.parametrize("notation, reason", [
    ("L01@0,0r0", "occupied"),
    ("L01@5,5r0", "not_adjacent"),
    ("L01@1,1r0", "not_adjacent"),          # corners do not count
    ("L99@1,0r0", "tile_not_in_bag"),
    ("B01@1,0r0", "wrong_tile"),            # a bonus tile is not a landscape tile
    ("L01@1,0r0 gatherer:0", "wrong_feature"),
    ("L01@1,0r0 hunter:7", "unknown_feature"),
    ("P1:L01@1,0r0", "not_your_turn"),
])
def test_refusals_name_a_stable_reason(notation: str, reason: str):
    game = new_game(meadow("L01"), meadow("L02"), bonus=(meadow("B01"),))
    assert refusal(game, notation).reason == reason


def test_edge_mismatch_message_names_the_side_and_the_neighbour():
    game = new_game(forest_end("L01"), meadow("L02"))
    error = refusal(game, "L01@1,0r270")
    assert error.reason == "edge_mismatch"
    assert error.message == "the west edge is forest but the neighbour at (0,0) shows meadow"


def test_a_tile_already_laid_is_no_longer_in_the_bag():
    game = new_game(meadow("L01"), meadow("L02"), meadow("L03"))
    play(game, "L01@1,0r0")
    assert refusal(game, "L01@2,0r0").reason == "tile_not_in_bag"


def test_no_supply_after_both_huts():
    game = new_game(*(lake_east(f"L0{i}", 1) for i in range(1, 7)))
    play(game, "L01@0,1r0 hut:8", "L02@0,2r0", "L03@0,3r0 hut:8", "L04@0,4r0")
    assert refusal(game, "L05@0,5r0 hut:8").reason == "no_supply"


def test_no_supply_after_five_tribe_members():
    """Rulebook: "a player whose supply is empty can only lay tiles"."""
    game = new_game(*(lake_east(f"L{i:02d}", 1) for i in range(1, 13)))
    for i in range(1, 11):
        play(game, f"L{i:02d}@0,{i}r0" + (" fisher:1" if i % 2 else ""))   # Red's five fishers
    assert game.supply(RED)["tribe_members"] == 0
    assert refusal(game, "L11@0,11r0 fisher:1").reason == "no_supply"
    assert all(a.figure in (None, "hut") for a in game.legal_actions("L11"))


def test_seeded_game_requires_the_drawn_tile():
    game = Game.new(2, seed=1)
    drawn = game.next_tile
    other = next(t for t in game.landscape_left if t != drawn)
    assert refusal(game, f"{other}@1,0r0").reason == "wrong_tile"
    assert all(a.tile == drawn for a in game.legal_actions())
