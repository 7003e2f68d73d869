"""Carcassonne with the expansions: the options, the notation and payloads of the new figures and
tiles, snapshots and views, every reason an action is refused, and the command line (plain
pytest, no Django).

The start tile D lies at (0,0): city north, road east-west, field south. Feature numbers: U 0
road, 1 north field, 2 south field; E 0 city, 1 field; B 0 field, 1 cloister.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from games.engines.carcassonne import (
    BASE_GAME, INNS_CATHEDRALS, TRADERS_BUILDERS, Action, Game, IllegalAction, Options, parse_action,
)
from games.engines.carcassonne.game import SNAPSHOT_VERSION

ROOT = Path(__file__).resolve().parents[3]
BOTH = Options.with_expansions(INNS_CATHEDRALS, TRADERS_BUILDERS)


def play(game: Game, *texts: str) -> Game:
    for text in texts:
        game.apply(parse_action(text))
    return game


# -- options -------------------------------------------------------------------------------------------

def test_options_are_checked_and_put_in_order():
    named = Options((TRADERS_BUILDERS, INNS_CATHEDRALS, INNS_CATHEDRALS))
    assert named.expansions == (INNS_CATHEDRALS, TRADERS_BUILDERS)
    assert Options() == BASE_GAME and BASE_GAME.is_base_game and not BOTH.is_base_game
    for bad in (dict(expansions=("river",)), dict(rules=(INNS_CATHEDRALS,)), dict(meeples=0), dict(meeples=21),
                dict(meeples=True)):
        with pytest.raises(ValueError):
            Options(**bad)  # type: ignore[arg-type]
    assert Options.from_dict(None) == Options.from_dict({}) == BASE_GAME
    options = Options((INNS_CATHEDRALS, TRADERS_BUILDERS), (TRADERS_BUILDERS,), 9)
    assert Options.from_dict(options.to_dict()) == options
    assert options.to_dict() == {"expansions": ["inns_cathedrals", "traders_builders"], "rules": ["traders_builders"],
                                 "meeples": 9}


def test_options_are_part_of_the_state_and_the_view():
    options = Options.tiles_only(INNS_CATHEDRALS, TRADERS_BUILDERS, meeples=9)
    game = Game.new(3, seed=4, options=options)
    assert game.meeples_left == [9, 9, 9] and game.figures_left == [{}, {}, {}]
    assert game.to_dict()["options"] == game.view()["options"] == options.to_dict()
    assert Game.from_dict(game.to_dict()).options == options
    assert len(game.pile) == 113
    assert any(t.startswith("IC") for t in game.pile) and any(t.startswith("TB") for t in game.pile)
    assert Game.new(3, seed=4, options=options).pile == game.pile, "the same seed, the same pile"
    assert Game.new(3, seed=4).pile == Game.new(3, seed=4, options=BASE_GAME).pile != game.pile
    assert game.sources == ("city", "road", "cloister", "field")


def test_the_view_shows_figures_goods_and_the_second_tile():
    game = play(Game.new(2, options=BOTH), "U@1,0r0 meeple:0", "U@0,1r0 big:0", "U@2,0r0 builder:0")
    view = game.view()
    assert view["figures_left"] == [{"big": 1, "builder": 0, "pig": 1}, {"big": 0, "builder": 1, "pig": 1}]
    assert view["goods"] == [{"wine": 0, "grain": 0, "cloth": 0}] * 2
    assert view["double_turn"] is False
    assert [(m["seat"], m["kind"], m["type"]) for m in view["meeples"]] == [
        (1, "big", "road"), (0, "meeple", "road"), (0, "builder", "road")]
    assert view["scores"][0]["breakdown"] == {"city": 0, "road": 0, "cloister": 0, "field": 0, "goods": 0}


def test_a_base_snapshot_written_before_the_expansions_reads_as_a_base_game():
    """A version 3 snapshot without options, figures in hand, goods or a second tile is a base
    game: it restores and plays on as the base game does."""
    game = play(Game.new(2, seed=3), "N@0,-1r180 meeple:0")
    old = {key: value for key, value in game.to_dict().items()
           if key not in ("options", "figures_left", "goods", "double_turn")}
    assert old["snapshot_version"] == SNAPSHOT_VERSION == 3
    restored = Game.from_dict(old)
    assert restored.options == BASE_GAME and restored.to_dict() == game.to_dict()
    action = game.legal_actions()[0]
    game.apply(action)
    restored.apply(action)
    assert restored.to_dict() == game.to_dict()


# -- notation and payloads -------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["IC05@1,0r90 big:2", "TB08@0,-1r0 builder:1", "U@1,0r0 pig:2", "IC17 discard",
                                  "TB24@-3,12r270 meeple:0 seat:5", "IC01@0,-1r0", "V@1,0r90 big:0 seat:1"])
def test_notation_round_trip(text: str):
    assert parse_action(text).to_text() == text


def test_notation_of_the_new_figures_and_tiles():
    assert parse_action("IC05@1,0r90 big:2") == Action("IC05", 1, 0, 90, big=2)
    assert parse_action("TB08@0,-1r0 builder:1").builder == 1 and parse_action("U@1,0r0 pig:2").pig == 2
    two = parse_action("U@1,0r0 meeple:1 pig:2")  # it reads, the rules refuse it (one_figure)
    assert two.figures == [("meeple", 1), ("pig", 2)] and two.to_text() == "U@1,0r0 meeple:1 pig:2"
    for bad in ("IC5@1,0r0", "ic05@1,0r0", "IC05@1,0r0 big:", "U@1,0r0 pig:1 big:2", "U@1,0r0 horse:1", "ICC1@0,0r0"):
        with pytest.raises(ValueError):
            parse_action(bad)


def test_payloads_carry_the_new_fields_only_when_set():
    assert Action("V", 1, 0, 90, meeple=2).to_dict() == {"tile": "V", "x": 1, "y": 0, "rotation": 90, "meeple": 2}
    assert Action("IC05", 1, 0, 90, big=2).to_dict() == {"tile": "IC05", "x": 1, "y": 0, "rotation": 90, "big": 2}
    for action in (Action("TB08", 0, -1, 0, builder=1, seat=0), Action("U", 1, 0, 0, pig=2),
                   Action("IC17", discard=True)):
        assert Action.from_dict(action.to_dict(), discard=action.discard) == action
    assert Action("U", 1, 0, 0, pig=2).to_dict() == {"tile": "U", "x": 1, "y": 0, "rotation": 0, "pig": 2}


# -- every reason an action is refused --------------------------------------------------------------

REASONS = {
    "game_over", "not_your_turn", "tile_missing", "wrong_tile", "no_such_tile", "tile_fits", "bad_rotation",
    "occupied", "not_adjacent", "edge_mismatch", "no_such_feature", "no_meeples", "feature_taken", "nothing_to_undo",
    "one_figure", "not_in_this_game", "no_big", "no_builder", "no_pig", "builder_not_on_road_or_city",
    "pig_not_on_field", "builder_needs_meeple", "pig_needs_farmer",
}


def test_the_reasons_listed_are_the_engines():
    """Every literal reason code in the engine is in REASONS (the figure families are built from
    the figure's name, and listed by hand)."""
    source = (ROOT / "games" / "engines" / "carcassonne" / "game.py").read_text(encoding="utf-8")
    assert set(re.findall(r'IllegalAction\("([a-z_]+)"', source)) <= REASONS


def test_every_reason_code_is_reached_and_leaves_the_game_unchanged():
    reached: set[str] = set()

    def refused(game: Game, action: Action | str) -> None:
        before = game.to_dict()
        with pytest.raises(IllegalAction) as error:
            game.apply(parse_action(action) if isinstance(action, str) else action)
        assert game.to_dict() == before, error.value.reason
        reached.add(error.value.reason)

    game = Game(2, None, ["E", "U", "U", "U", "U", "U", "B", "B"], False, Options.with_expansions(
        INNS_CATHEDRALS, TRADERS_BUILDERS, meeples=1))
    with pytest.raises(IllegalAction) as undo:
        game.undo()
    reached.add(undo.value.reason)                                            # nothing_to_undo
    refused(game, Action(tile=None, x=0, y=-1, rotation=180))                 # tile_missing
    refused(game, "X@0,-1r0")                                                 # no_such_tile
    refused(game, "E@0,-1r180 seat:1")                                        # not_your_turn
    refused(game, Action("E", 0, -1, 45))                                     # bad_rotation
    refused(game, "E@0,0r0")                                                  # occupied
    refused(game, "E@5,5r0")                                                  # not_adjacent
    refused(game, "E@0,-1r0")                                                 # edge_mismatch
    refused(game, "U discard")                                                # tile_fits
    refused(game, "E@0,-1r180 meeple:7")                                      # no_such_feature
    refused(game, "E@0,-1r180 meeple:0 big:1")                                # one_figure
    refused(game, "E@0,-1r180 builder:0")                                     # builder_needs_meeple
    refused(game, "E@0,-1r180 builder:1")                                     # builder_not_on_road_or_city
    refused(game, "E@0,-1r180 pig:0")                                         # pig_not_on_field
    refused(game, "E@0,-1r180 pig:1")                                         # pig_needs_farmer
    play(game, "E@0,-1r180 meeple:1", "U@1,0r0 meeple:0")                     # each seat's one meeple out
    refused(game, "U@-1,0r0 meeple:0")                                        # no_meeples
    refused(game, "U@-1,0r0 big:0")                                           # feature_taken (seat 1's road)
    play(game, "U@-1,0r0 big:1", "U@2,0r0 builder:0")
    refused(game, "U@-2,0r0 big:2")                                           # no_big
    play(game, "B@-1,-1r0 pig:0")                                             # seat 0's pig joins its farmer
    refused(game, "U@3,0r0 builder:0")                                        # no_builder
    play(game, "U@3,0r0", "U@4,0r0")                                          # seat 1's second tile
    refused(game, "B@0,1r0 pig:0")                                            # no_pig
    seeded = Game.new(2, seed=3, options=Options.tiles_only(TRADERS_BUILDERS))
    refused(seeded, "U@1,0r0" if seeded.next_tile != "U" else "V@1,0r0")     # wrong_tile
    laid = seeded.legal_actions()[0]
    refused(seeded, Action(laid.tile, laid.x, laid.y, laid.rotation, builder=0))  # not_in_this_game
    over = play(Game(2, None, ["E"], False, BOTH), "E@0,-1r180")
    refused(over, "U@1,0r0")                                                  # game_over
    assert reached == REASONS


# -- complete games and docstrings ---------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_finish_with_both_expansions(players: int):
    from games.engines.carcassonne.simulate import random_game

    game, actions = random_game(players, seed=players, options=BOTH)
    assert game.is_over and len(actions) >= 113
    assert game.meeples_left == [7] * players and game.figures_left == [{"big": 1, "builder": 1, "pig": 1}] * players


@pytest.mark.parametrize("players, options", [(2, BOTH), (6, Options.tiles_only(INNS_CATHEDRALS, TRADERS_BUILDERS,
                                                                                     meeples=9))])
def test_the_simple_player_plays_the_expansions(players: int, options: Options):
    """The simple player finishes a game with any options, and the same seed plays the same game."""
    from games.engines.carcassonne.heuristic import heuristic_game

    game, actions = heuristic_game(players, 7, options)
    assert game.is_over and game.options == options
    assert heuristic_game(players, 7, options)[1] == actions
    if options.rules:
        assert {kind for action in actions for kind, _ in action.figures} >= {"meeple", "big", "builder"}


def test_docstring_examples():
    import doctest

    from games.engines.carcassonne import actions, figures, game, goods, options, tileset
    for module in (actions, figures, game, goods, options, tileset):
        result = doctest.testmod(module)
        assert result.attempted >= 1 and result.failed == 0, module.__name__
