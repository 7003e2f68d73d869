"""Hunters and Gatherers rulesets and variants: the freed figures and the bonus tile.

The two rulebooks differ on when gatherers and fishers freed by a scoring come home:

- the Czech rulebook (seed 001, "Návrat figurek k majiteli"), the default: "Pokud hráč získal
  nárok na tažení bonusové karty, může tutéž figurku dokonce ještě v tomto tahu znova umístit,
  pokud chce." (if the player has earned a bonus tile, he may place the same figure again this
  turn);
- the French rulebook (seed 000, "Retour des hommes dans la réserve des joueurs"), the variant
  ``figures_home_at_end_of_turn``: "Cela ne se produit cependant qu'à la fin du tour du joueur, et
  donc après qu'il a pu éventuellement placer un homme ou une hutte. Un joueur ne peut donc pas
  replacer au même tour un homme qu'il vient de récupérer."

Seats: Red 0, Blue 1. x grows east, y south; rotations are degrees clockwise. The games in
``data/hunters_gatherers_recorded_games.json`` were recorded by the engine before variants existed.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines.hunters_gatherers import (
    DEFAULT_RULESET, LATEST_RULESET, RULESETS, VARIANTS, Game, IllegalAction, parse_action)
from games.engines.hunters_gatherers.__main__ import ReplayError
from games.engines.hunters_gatherers.__main__ import replay as cli_replay
from games.engines.hunters_gatherers.actions import TRIBE_MEMBERS
from games.engines.hunters_gatherers.heuristic import heuristic_game
from games.engines.hunters_gatherers.sketch import sketch_tile, sketch_tileset

RED, BLUE = 0, 1
FRENCH = "figures_home_at_end_of_turn"
RECORDED = json.loads((Path(__file__).parents[1] / "data" / "hunters_gatherers_recorded_games.json").read_text())
GAMES = {f"{g['player']}-{g['players']}p-seed{g['seed']}": g for g in RECORDED["games"]}

START = sketch_tile("S", "start", N="m0", E="m0", S="m0", W="m0")


def meadow(tile_id: str) -> dict[str, object]:
    return sketch_tile(tile_id, N="m0", E="m0", S="m0", W="m0")


def forest_end(tile_id: str, forest: str = "") -> dict[str, object]:
    """A forest reaching the north side only (feature 0); meadow on the three others."""
    return sketch_tile(tile_id, N="f0", E="m1", S="m1", W="m1", features={0: forest} if forest else {})


def river_end(tile_id: str, side: str) -> dict[str, object]:
    """A river (feature 1) rising at a spring and reaching ``side``; meadow elsewhere."""
    sides = {s: "m0" for s in "NESW"} | {side: "m0 r1 m0"}
    return sketch_tile(tile_id, N=sides["N"], E=sides["E"], S=sides["S"], W=sides["W"])


def play(game: Game, *notations: str) -> Game:
    for text in notations:
        game.apply(parse_action(text))
    return game


def refusal(game: Game, notation: str) -> IllegalAction:
    before = game.to_dict()
    with pytest.raises(IllegalAction) as refused:
        game.apply(parse_action(notation))
    assert game.to_dict() == before, "a refused action must leave the game unchanged"
    return refused.value


def last_member_game(variants: frozenset[str]) -> Game:
    """Red puts four gatherers on four open forests while Blue lays meadows; Blue then lays a
    gold-nugget forest end, and Red closes it with its fifth and last tribe member."""
    tiles = [forest_end(f"L0{n}") for n in (1, 3, 5, 7)] + [meadow(f"L0{n}") for n in (2, 4, 6)]
    tiles += [forest_end("L08", "gold=1"), forest_end("L09"), meadow("L10"), forest_end("B01"), meadow("B02")]
    game = Game.new(2, tileset=sketch_tileset(START, tiles), variants=variants)
    return play(game,
                "L01@1,0r90 gatherer:0", "L02@1,1r0",      # Red's forest open east; Blue's meadow
                "L03@-1,0r270 gatherer:0", "L04@-1,1r0",   # ... open west
                "L05@0,-1r0 gatherer:0", "L06@1,2r0",      # ... open north
                "L07@1,-1r0 gatherer:0",                   # ... open north again: 4 out, 1 left
                "L08@0,1r180",                             # Blue: a gold forest open south
                "L09@0,2r0 gatherer:0")                    # Red closes it with its last member


# -- what there is -----------------------------------------------------------------------------------

def test_the_ruleset_and_the_variant_say_what_they_are_and_where_they_come_from():
    assert sorted(RULESETS) == [1] and DEFAULT_RULESET == LATEST_RULESET == 1
    assert RULESETS[1].description and "seed 001" in RULESETS[1].source
    variant = VARIANTS[FRENCH]
    assert sorted(VARIANTS) == [FRENCH]
    assert (variant.name, variant.default, variant.rulesets) == (FRENCH, False, {1})
    assert "Un joueur ne peut donc pas replacer au même tour un homme qu'il vient de récupérer" in variant.source
    assert "může tutéž figurku dokonce ještě v tomto tahu znova umístit" in variant.source


def test_a_game_told_nothing_plays_ruleset_1_with_the_default_variants():
    game = Game.new(2, 7)
    assert (game.ruleset, game.variants) == (1, frozenset())
    assert (game.view()["ruleset"], game.view()["variants"], game.view()["returning"]) == (1, [], [0, 0])
    french = Game.new(3, seed=7, variants={FRENCH: True})
    assert french.variants == {FRENCH} and french.view()["variants"] == [FRENCH]


@pytest.mark.parametrize("rules, named", [
    ({"ruleset": 2}, "2"),
    ({"ruleset": "1"}, "'1'"),
    ({"variants": {"bonus_tile_for_all"}}, "'bonus_tile_for_all'"),
    ({"variants": FRENCH}, FRENCH),
    ({"variants": {FRENCH: 1}}, FRENCH),
])
def test_an_unknown_ruleset_or_variant_is_refused_by_name(rules: dict[str, Any], named: str):
    with pytest.raises(ValueError, match="ruleset|variant") as refused:
        Game.new(2, 7, **rules)
    assert named in str(refused.value)


# -- the variant: both settings where it matters ---------------------------------------------------

def test_czech_default_the_freed_figure_goes_again_on_the_bonus_tile():
    """Seed 001: "může tutéž figurku dokonce ještě v tomto tahu znova umístit, pokud chce"."""
    game = last_member_game(frozenset())
    assert game.scores()[RED].breakdown["forest"] == 4
    assert (game.phase, game.current_player) == ("bonus", RED)
    assert game.supply(RED)["tribe_members"] == 1 and game.returning(RED) == 0
    play(game, "B01@-1,-1r0 gatherer:0")
    assert game.supply(RED)["tribe_members"] == 0
    assert (game.phase, game.current_player) == ("landscape", BLUE)


def test_french_variant_the_freed_figure_comes_home_at_the_end_of_the_turn():
    """Seed 000: "Cela ne se produit cependant qu'à la fin du tour du joueur [...] Un joueur ne peut
    donc pas replacer au même tour un homme qu'il vient de récupérer"."""
    game = last_member_game(frozenset({FRENCH}))
    assert game.scores()[RED].breakdown["forest"] == 4          # it scores all the same
    assert (game.phase, game.current_player) == ("bonus", RED)
    assert game.supply(RED)["tribe_members"] == 0 and game.returning(RED) == 1
    assert game.view()["returning"] == [1, 0]
    assert len([f for f in game.figures_on_board() if f.owner == RED]) == 4  # off the closed forest
    assert refusal(game, "B01@-1,-1r0 gatherer:0").reason == "no_supply"
    assert "B01@-1,-1r0 gatherer:0" not in {a.to_text() for a in game.legal_actions()}
    play(game, "B01@-1,-1r0")
    assert game.supply(RED)["tribe_members"] == 1 and game.returning(RED) == 0
    assert (game.phase, game.current_player) == ("landscape", BLUE)


def test_french_variant_another_players_freed_figure_also_waits_for_the_end_of_the_turn():
    """Blue closes Red's gold-nugget forest: Red scores, Blue lays the bonus tile, and Red's
    gatherer is home once Blue's turn is over."""
    tiles = [forest_end("L01", "gold=1"), forest_end("L02"), meadow("L03"), meadow("B01")]
    for variants, during in ((frozenset(), 5), (frozenset({FRENCH}), 4)):
        game = Game.new(2, tileset=sketch_tileset(START, tiles), variants=variants)
        play(game, "L01@1,0r90 gatherer:0", "L02@2,0r270")
        assert (game.phase, game.current_player) == ("bonus", BLUE)
        assert game.supply(RED)["tribe_members"] == during
        play(game, "B01@0,1r0")
        assert game.supply(RED)["tribe_members"] == 5 and game.returning(RED) == 0


@pytest.mark.parametrize("variants", [frozenset(), frozenset({FRENCH})])
def test_without_a_bonus_tile_both_settings_bring_the_figure_home_with_the_turn(variants: frozenset[str]):
    """Both rulebooks' "1. close a river, 2. place a fisher, 3. score, 4. take it back" in one turn:
    with no bonus tile the turn ends with the scoring, under either setting."""
    tiles = [river_end("L01", "E"), meadow("L02"), river_end("L03", "W"), meadow("L04")]
    game = Game.new(2, tileset=sketch_tileset(START, tiles), variants=variants)
    play(game, "L01@0,-1r0", "L02@0,1r0", "L03@1,-1r0 fisher:1")
    assert game.scores()[RED].breakdown["river"] == 2
    assert game.supply(RED)["tribe_members"] == 5 and game.returning(RED) == 0
    assert (game.phase, game.current_player) == ("landscape", BLUE)


# -- the same actions under the variant ----------------------------------------------------------------

def test_a_recorded_game_can_replay_unchanged_under_the_variant():
    """Random 3-player game of seed 12: no figure freed before a bonus tile was wanted again."""
    record = GAMES["random-3p-seed12"]
    game = replay_recorded(record, variants={FRENCH})[0]
    assert game.is_over and [s.total for s in game.scores()] == record["final_scores"]


def test_a_recorded_game_can_be_refused_under_the_variant():
    """Random 2-player game of seed 11: action 11 puts on the bonus tile a gatherer just freed."""
    record = GAMES["random-2p-seed11"]
    game = Game.new(2, seed=11, variants={FRENCH})
    play(game, *record["actions"][:11])
    assert game.phase == "bonus" and game.returning(game.current_player or 0) > 0
    assert refusal(game, record["actions"][11]).reason == "no_supply"


# -- the default is the game as it was ---------------------------------------------------------------

def position(game: Game) -> str:
    """A position as the recorded games' digest reads it."""
    return json.dumps([
        game.phase, game.current_player, [game.supply(s) for s in range(game.players)],
        [s.to_dict() for s in game.scores()], len(game.landscape_left), len(game.bonus_left), list(game.discarded),
        sorted((f.owner, f.kind, f.node) for f in game.figures_on_board())], sort_keys=True)


def replay_recorded(record: dict[str, Any], **rules: Any) -> tuple[Game, str]:
    game = Game.new(record["players"], seed=record["seed"], **rules)
    chain = hashlib.sha256()
    chain.update(position(game).encode() + b"\n")
    for text in record["actions"]:
        game.apply(parse_action(text))
        chain.update(position(game).encode() + b"\n")
    return game, chain.hexdigest()


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_game_recorded_before_variants_replays_identically_by_default(name: str):
    record = GAMES[name]
    for rules in ({}, {"ruleset": 1}, {"variants": {FRENCH: False}}):
        game, digest = replay_recorded(record, **rules)
        assert digest == record["positions_sha256"]
        assert [s.total for s in game.scores()] == record["final_scores"]
        assert [dict(s.breakdown) for s in game.scores()] == record["breakdown"]
        assert list(game.final_ranks().values()) == record["ranks"]


@pytest.mark.parametrize("name", [n for n in sorted(GAMES) if n.startswith("heuristic")])
def test_the_simple_player_still_plays_the_recorded_games(name: str):
    record = GAMES[name]
    _game, actions = heuristic_game(record["players"], record["seed"])
    assert [a.to_text() for a in actions] == record["actions"]


# -- state: to_dict, snapshot, view ----------------------------------------------------------------

def test_to_dict_and_snapshot_keep_the_variant_and_the_figures_on_their_way_home():
    game = last_member_game(frozenset({FRENCH}))
    record = json.loads(json.dumps(game.to_dict()))
    assert (record["ruleset"], record["variants"]) == (1, [FRENCH])
    assert record["position"]["returning"] == [1, 0]
    tileset = game.tileset
    snapshot = json.loads(json.dumps(game.snapshot()))
    assert (snapshot["ruleset"], snapshot["variants"], snapshot["returning"]) == (1, [FRENCH], [1, 0])
    for restored in (Game.from_dict(record, tileset), Game.from_snapshot(snapshot, tileset), game.copy()):
        assert restored.variants == {FRENCH} and restored.returning(RED) == 1
        assert restored.to_dict() == game.to_dict() and restored.snapshot() == game.snapshot()
        assert refusal(restored, "B01@-1,-1r0 gatherer:0").reason == "no_supply"
        play(restored, "B01@-1,-1r0")
        assert restored.supply(RED)["tribe_members"] == 1
    play(game, "B01@-1,-1r0")
    assert game.undo() == parse_action("B01@-1,-1r0")
    assert game.variants == {FRENCH} and game.returning(RED) == 1


def test_a_snapshot_or_record_naming_an_unknown_ruleset_or_variant_is_refused():
    game = Game.new(2, seed=5)
    game.apply(game.legal_actions()[0])
    with pytest.raises(ValueError, match="ruleset 4"):
        Game.from_snapshot(dict(game.snapshot(), ruleset=4))
    with pytest.raises(ValueError, match="'endless_bonus'"):
        Game.from_snapshot(dict(game.snapshot(), variants=["endless_bonus"]))
    with pytest.raises(ValueError, match="'endless_bonus'"):
        Game.from_dict(dict(game.to_dict(), variants=["endless_bonus"]))
    with pytest.raises(ValueError, match="does not match"):  # a record's variant is replay-checked too
        Game.from_dict(dict(game.to_dict(), variants=[FRENCH]))


def test_a_record_and_a_snapshot_from_before_variants_read_as_the_default():
    game = Game.new(3, seed=9)
    chooser = random.Random(9)
    for _ in range(25):
        game.apply(chooser.choice(game.legal_actions()))
    added = ("ruleset", "variants", "returning")
    record = {k: v for k, v in game.to_dict().items() if k not in added}
    record["position"] = {k: v for k, v in record["position"].items() if k not in added}
    snapshot = {k: v for k, v in game.snapshot().items() if k not in added}
    for restored in (Game.from_dict(record), Game.from_snapshot(snapshot)):
        assert (restored.ruleset, restored.variants) == (1, frozenset())
        assert restored.to_dict() == game.to_dict()


def test_the_command_line_replays_under_the_record_s_variants():
    record = GAMES["random-2p-seed11"]
    assert cli_replay({**record, "variants": []}, 2, None).is_over
    with pytest.raises(ReplayError, match="no_supply"):
        cli_replay({**record, "variants": [FRENCH]}, 2, None)
    with pytest.raises(ValueError, match="'nope'"):
        cli_replay({**record, "variants": ["nope"]}, 2, None)


# -- properties of random complete games ------------------------------------------------------------

def assert_figures_conserved(game: Game) -> None:
    """Every tribe member is on the board, in the supply or on its way home; and on its way home
    only during a bonus tile of the variant's games."""
    for seat in range(game.players):
        on_board = sum(1 for f in game.figures_on_board() if f.owner == seat and f.kind in TRIBE_MEMBERS)
        assert game.supply(seat)["tribe_members"] + game.returning(seat) + on_board == 5
        if game.returning(seat):
            assert game.phase == "bonus" and FRENCH in game.variants


@settings(max_examples=10, deadline=None)
@given(st.integers(2, 5), st.integers(0, 2**32), st.booleans(), st.floats(0, 1))
def test_random_games_under_each_setting(players: int, seed: int, french: bool, where: float):
    """Figures conserved at every step; a snapshot at any step, through JSON, plays on to the
    same end; the record replays to the same game."""
    variants = frozenset({FRENCH}) if french else frozenset()
    game = Game.new(players, seed=seed, variants=variants)
    chooser = random.Random(seed)
    snapshots: dict[int, dict[str, Any]] = {}
    while not game.is_over:
        step = len(game.history)
        if step == int(where * 80) or (game.phase == "bonus" and not snapshots):
            snapshots[step] = json.loads(json.dumps(game.snapshot()))
        game.apply(chooser.choice(game.legal_actions()))
        assert_figures_conserved(game)
    for step, snapshot in snapshots.items():
        restored = Game.from_snapshot(snapshot)
        assert restored.variants == variants
        for action in game.history[step:]:
            restored.apply(action)
        assert restored.to_dict() == game.to_dict()
    replayed = Game.from_dict(json.loads(json.dumps(game.to_dict())))
    assert replayed.to_dict() == game.to_dict() and replayed.variants == variants


@settings(max_examples=4, deadline=None)
@given(st.integers(2, 5), st.integers(0, 2**32), st.booleans())
def test_the_simple_player_finishes_under_each_setting(players: int, seed: int, french: bool):
    variants = {FRENCH} if french else set()
    game, actions = heuristic_game(players, seed, variants=variants)
    assert game.is_over and game.variants == variants and len(actions) >= 78
    assert_figures_conserved(game)


def test_the_docstring_examples_run():
    import doctest

    from games.engines.hunters_gatherers import game as game_module
    from games.engines.hunters_gatherers import rulesets

    for module in (rulesets, game_module):
        result = doctest.testmod(module)
        assert result.failed == 0 and result.attempted > 0
