"""Stone Age rulesets and variants: what each changes, and that ruleset 1 is the game as it was.

Ruleset 1 feeds as seed 002 words it ("Déduisez d'abord votre niveau d'agriculture du nombre de
membres ; payez le reste avec vos jetons Nourriture"): agriculture beyond the tribe's size gives
nothing. Ruleset 2 feeds as published (FACTS.md §6: "Each player gains food equal to his
agriculture level, then pays 1 food per person. Leftover food is kept."). The games in
``data/stone_age_recorded_games.json`` were recorded by the engine before rulesets existed.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines.stone_age import (
    DEFAULT_RULESET, LATEST_RULESET, RULESETS, VARIANTS, Game, IllegalAction, parse_action)
from games.engines.stone_age.__main__ import replay as cli_replay
from games.engines.stone_age.heuristic import heuristic_game
from games.engines.stone_age.simulate import random_game

from .test_stone_age_rulebook import lay_cards, play, refusal, start_actions, to_feeding

RECORDED = json.loads((Path(__file__).parents[1] / "data" / "stone_age_recorded_games.json").read_text())
GAMES = {f"{g['player']}-{g['players']}p-seed{g['seed']}": g for g in RECORDED["games"]}
ROW = ("C09", "C10", "C20", "C29")
NEWBORN, HUNTING = "newborn_eats_next_round", "hunting_grounds_again"


def new_game(ruleset: int = 1, variants: frozenset[str] = frozenset(), players: int = 2, seed: int = 1) -> Game:
    game = Game.new(players, seed=seed, ruleset=ruleset, variants=variants)
    lay_cards(game, *ROW)
    return game


def position(game: Game) -> str:
    """A position as the recorded games' digest reads it (what feeding and scoring touch)."""
    return json.dumps([
        game.phase, game.round, game.current, game.start_player,
        [[t.people, t.food, t.agriculture, t.resources, t.tools, t.tools_used, t.one_time_tools, t.cards,
          t.buildings, t.points] for t in game.tribes],
        game.display, game.deck_size, game.stack_sizes], sort_keys=True)


def replay_recorded(record: dict[str, Any], **rules: Any) -> tuple[Game, list[str]]:
    """The recorded actions applied to a new game of ``rules``; the positions after each one."""
    game = Game.new(record["players"], seed=record["seed"], **rules)
    positions = [position(game)]
    for text in record["actions"]:
        game.apply(game.complete(parse_action(text)))
        positions.append(position(game))
    return game, positions


def digest(positions: list[str]) -> str:
    chain = hashlib.sha256()
    for text in positions:
        chain.update(text.encode())
        chain.update(b"\n")
    return chain.hexdigest()


# -- what there is -------------------------------------------------------------------------------

def test_the_rulesets_and_variants_say_what_they_are_and_where_they_come_from():
    assert sorted(RULESETS) == [1, 2] and (DEFAULT_RULESET, LATEST_RULESET) == (1, 2)
    assert all(r.version == v and r.description and r.source for v, r in RULESETS.items())
    assert "Déduisez d'abord votre niveau d'agriculture du nombre de membres" in RULESETS[1].source
    assert "Leftover food is kept" in RULESETS[2].source
    assert sorted(VARIANTS) == [HUNTING, NEWBORN]
    for name, variant in VARIANTS.items():
        assert variant.name == name and variant.description and variant.default is False
        assert variant.rulesets == {1, 2}
    assert "pour la manche suivante" in VARIANTS[NEWBORN].source and "silent" in VARIANTS[NEWBORN].source
    assert "Yucata relaxes that for hunting only" in VARIANTS[HUNTING].source


def test_a_game_told_nothing_plays_ruleset_1_with_the_default_variants():
    game = Game.new(2, 1)
    assert (game.ruleset, game.variants) == (1, frozenset())
    view = game.view()
    assert (view["ruleset"], view["variants"]) == (1, [])
    chosen = Game.new(3, seed=4, ruleset=2, variants={NEWBORN: True, HUNTING: False})
    assert (chosen.ruleset, chosen.variants) == (2, {NEWBORN})
    assert (chosen.view()["ruleset"], chosen.view()["variants"]) == (2, [NEWBORN])


@pytest.mark.parametrize("rules, named", [
    ({"ruleset": 3}, "3"),
    ({"ruleset": 0}, "0"),
    ({"ruleset": "2"}, "'2'"),
    ({"ruleset": True}, "True"),
    ({"variants": {"feast_of_plenty"}}, "'feast_of_plenty'"),
    ({"variants": {"feast_of_plenty": False}}, "'feast_of_plenty'"),
    ({"variants": NEWBORN}, NEWBORN),
    ({"variants": {NEWBORN: "yes"}}, NEWBORN),
])
def test_an_unknown_ruleset_or_variant_is_refused_by_name(rules: dict[str, Any], named: str):
    with pytest.raises(ValueError, match="ruleset|variant") as refused:
        Game.new(2, 1, **rules)
    assert named in str(refused.value)


def test_a_snapshot_naming_an_unknown_ruleset_or_variant_is_refused():
    snapshot = new_game(2).to_dict()
    with pytest.raises(ValueError, match="ruleset 7"):
        Game.from_dict(dict(snapshot, ruleset=7))
    with pytest.raises(ValueError, match="'longer_winters'"):
        Game.from_dict(dict(snapshot, variants=["longer_winters"]))


# -- ruleset 2: the harvest is food, and a surplus is kept ------------------------------------------

@pytest.mark.parametrize("ruleset, food_left", [(1, 0), (2, 1)])
def test_agriculture_6_feeding_5_people(ruleset: int, food_left: int):
    """Ruleset 1: "Déduisez d'abord votre niveau d'agriculture du nombre de membres": agriculture
    6 feeds the 5 people and the sixth gives nothing. Ruleset 2 (FACTS §6): "Each player gains
    food equal to his agriculture level, then pays 1 food per person. Leftover food is kept.\""""
    game = new_game(ruleset)
    tribe = game.tribes[0]
    tribe.agriculture, tribe.food = 6, 0
    to_feeding(game)
    assert game.round == 2 and game.tribes[0].food == food_left and game.tribes[0].score == 0
    assert game.tribes[1].food == 12 - 5  # no agriculture: the same under both


@pytest.mark.parametrize("ruleset, food_left", [(1, 3), (2, 4)])
def test_a_surplus_adds_to_the_food_tokens(ruleset: int, food_left: int):
    game = new_game(ruleset)
    game.tribes[0].agriculture, game.tribes[0].food = 6, 3
    to_feeding(game)
    assert game.tribes[0].food == food_left


@pytest.mark.parametrize("ruleset", [1, 2])
@pytest.mark.parametrize("agriculture, food, left", [(3, 2, 0), (5, 0, 0), (2, 12, 9), (0, 12, 7)])
def test_up_to_the_tribes_size_both_rulesets_feed_alike(ruleset: int, agriculture: int, food: int, left: int):
    game = new_game(ruleset)
    game.tribes[0].agriculture, game.tribes[0].food = agriculture, food
    to_feeding(game)
    assert (game.round, game.tribes[0].food, game.tribes[0].score) == (2, left, 0)


def test_ruleset_2_tribes_take_their_harvest_before_anyone_pays():
    """The tribes short of food decide in turn; under ruleset 2 each already holds its harvest."""
    game = new_game(2)
    game.tribes[0].agriculture, game.tribes[0].food = 2, 1
    game.tribes[0].resources["wood"] = 5
    game.tribes[1].agriculture, game.tribes[1].food = 4, 0
    to_feeding(game)
    assert (game.phase, game.current) == ("feeding", 0)
    assert [t.food for t in game.tribes] == [1 + 2, 0 + 4]
    assert (game.hunger(0), game.shortfall(0)) == (5, 2)
    play(game, "feed pay=wood:2")
    assert game.round == 2 and [t.food for t in game.tribes] == [0, 0]
    assert game.tribes[0].resources["wood"] == 3


def test_ruleset_2_a_starving_tribe_loses_its_harvest_too():
    """FACTS §6: a tribe that will not pay "loses 10 points once ... and still loses all his food"."""
    game = new_game(2)
    game.tribes[0].agriculture, game.tribes[0].food = 2, 1
    game.tribes[0].resources["wood"] = 5
    to_feeding(game)
    play(game, "feed starve")
    assert (game.tribes[0].food, game.tribes[0].score, game.tribes[0].resources["wood"]) == (0, -10, 5)


# -- the same actions under ruleset 2 ------------------------------------------------------------------

def three_rounds(*, wood: int) -> list[str]:
    """Seat 0 (agriculture 6, 5 people, no food, ``wood`` wood) gathers nothing on the river, then
    takes the hut twice; seat 1 hunts. The third feeding finds 7 people and agriculture 6."""
    hunt = "resolve hunting_grounds dice=6,6,6,6,6"
    rounds = [
        "place river 5", "place hunting_grounds 5", "resolve river dice=1,1,1,1,1", hunt,
        "place hunting_grounds 5", "place hut 2", "place river 3", hunt, "resolve hut", "resolve river dice=1,1,1",
        "place hut 2", "place hunting_grounds 5", "place river 4", "resolve hut", "resolve river dice=1,1,1,1", hunt,
    ]
    return rounds + (["feed pay=wood:1"] if wood else [])


def surplus_game(ruleset: int, *, wood: int, variants: frozenset[str] = frozenset()) -> Game:
    game = new_game(ruleset, variants)
    tribe = game.tribes[0]
    tribe.agriculture, tribe.food, tribe.resources["wood"] = 6, 0, wood
    return game


def test_the_same_actions_under_ruleset_2_can_be_refused():
    """Under ruleset 1 the tribe banks nothing and, at 7 people, pays a wood; under ruleset 2 the
    food it kept in the first round feeds the seventh person, so no feeding is asked for."""
    actions = three_rounds(wood=1)
    first = play(surplus_game(1, wood=1), *actions)
    assert (first.round, first.tribes[0].food, first.tribes[0].resources["wood"]) == (4, 0, 0)
    second = play(surplus_game(2, wood=1), *actions[:-1])
    assert (second.round, second.phase, second.tribes[0].food) == (4, "placement", 0)
    assert second.tribes[0].resources["wood"] == 1
    assert refusal(second, actions[-1]).reason == "wrong_phase"


def test_the_same_actions_under_ruleset_2_can_score_differently():
    """Without resources the tribe cannot pay the shortfall, so ruleset 1 takes the −10 without
    asking (reading 4); ruleset 2's kept food feeds it: the same actions, 10 points apart."""
    actions = three_rounds(wood=0)
    first, second = (play(surplus_game(r, wood=0), *actions) for r in (1, 2))
    assert first.round == second.round == 4
    assert first.tribes[0].points["starvation"] == -10 and second.tribes[0].points["starvation"] == 0
    assert [s.total for s in first.scores()] == [-10, 0] and [s.total for s in second.scores()] == [0, 0]


def test_a_recorded_game_replays_under_ruleset_2_with_more_food_and_the_same_scores():
    """The random 3-player game of seed 4 has agriculture above the tribe's size in some feedings:
    ruleset 2 accepts every action and only the food differs."""
    record = GAMES["random-3p-seed4"]
    first, _ = replay_recorded(record, ruleset=1)
    second, _ = replay_recorded(record, ruleset=2)
    assert second.is_over and [s.total for s in second.scores()] == record["final_scores"]
    assert [t.food for t in first.tribes] == [11, 36, 0] and [t.food for t in second.tribes] == [13, 36, 0]


# -- ruleset 1 is the game as it was ---------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_game_recorded_before_rulesets_replays_identically_under_ruleset_1(name: str):
    record = GAMES[name]
    for rules in ({}, {"ruleset": 1}, {"ruleset": 1, "variants": {NEWBORN: False}}):
        game, positions = replay_recorded(record, **rules)
        assert digest(positions) == record["positions_sha256"]
        scores = game.scores()
        assert [s.total for s in scores] == record["final_scores"]
        assert [s.breakdown for s in scores] == record["breakdown"]
        assert {str(k): v for k, v in game.final_ranks().items()} == record["ranks"]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_simulator_and_the_simple_player_still_play_the_recorded_games(name: str):
    record = GAMES[name]
    play_out = random_game if record["player"] == "random" else heuristic_game
    _game, actions = play_out(record["players"], record["seed"])
    assert [a.to_text() for a in actions] == record["actions"]


# -- variant newborn_eats_next_round ---------------------------------------------------------------

def hut_round(ruleset: int, variants: frozenset[str]) -> Game:
    """Seat 0: 5 people, agriculture 5 (ruleset 2: 5 harvested), no food or resources, takes the hut."""
    game = new_game(ruleset, variants)
    game.tribes[0].agriculture, game.tribes[0].food = 5, 0
    start_actions(game, {0: {"hut": 2, "hunting_grounds": 1}, 1: {"hunting_grounds": 5}})
    play(game, "resolve hut", "resolve hunting_grounds dice=1", "resolve hunting_grounds dice=6,6,6,6,6")
    return game


@pytest.mark.parametrize("ruleset", [1, 2])
def test_by_default_the_newborn_eats_in_the_round_it_arrives(ruleset: int):
    """FACTS §6: "Hut: +1 person", then "pays 1 food per person"; the English rulebook feeds "each
    figure she has on her player board", where the hut's figure already stands. 6 mouths,
    agriculture 5, nothing to pay with: −10."""
    game = hut_round(ruleset, frozenset())
    assert game.round == 2 and game.tribes[0].people == 6
    assert game.tribes[0].points["starvation"] == -10


@pytest.mark.parametrize("ruleset", [1, 2])
def test_newborn_eats_next_round_feeds_the_newborn_from_the_next_round(ruleset: int):
    """Seed 002: "dans la hutte, vous gagnez 1 nouveau membre pour la manche suivante"; with the
    variant the newborn eats from the next round: 5 mouths this round, 6 the next."""
    game = hut_round(ruleset, frozenset({NEWBORN}))
    assert game.round == 2 and game.tribes[0].people == 6
    assert game.tribes[0].points["starvation"] == 0 and game.tribes[0].newborn == 0
    to_feeding(game)                                   # round 2: the newborn eats, nothing to pay
    assert game.round == 3 and game.tribes[0].points["starvation"] == -10


def test_newborn_eats_next_round_in_the_feeding_prompt():
    game = new_game(1, frozenset({NEWBORN}))
    tribe = game.tribes[0]
    tribe.food, tribe.resources["wood"] = 0, 9
    start_actions(game, {0: {"hut": 2, "hunting_grounds": 1}, 1: {"hunting_grounds": 5}})
    play(game, "resolve hut", "resolve hunting_grounds dice=1", "resolve hunting_grounds dice=6,6,6,6,6")
    assert (game.phase, game.eaters(0), game.hunger(0), game.shortfall(0)) == ("feeding", 5, 5, 5)
    assert game.view()["tribes"][0]["newborn"] == 1
    play(game, "feed pay=wood:5")
    assert game.round == 2 and game.tribes[0].resources["wood"] == 4


def test_the_newborn_variant_changes_nothing_without_a_hut():
    for variants in (frozenset(), frozenset({NEWBORN})):
        game = new_game(1, variants)
        to_feeding(game)
        assert game.tribes[0].food == 12 - 5


# -- variant hunting_grounds_again -----------------------------------------------------------------

def test_by_default_a_tribe_never_goes_back_to_the_hunting_grounds():
    """The English rulebook: "A player may never place figures on a location where he already has
    figures"; FACTS §6: "This includes the hunting grounds"."""
    game = play(new_game(), "place hunting_grounds 2", "place forest 1")
    assert refusal(game, "place hunting_grounds 3").reason == "already_there"


def test_hunting_grounds_again_lets_a_tribe_add_hunters():
    """FACTS §6: "Yucata relaxes that for hunting only": the hunters join, and roll one die each."""
    game = play(new_game(1, frozenset({HUNTING})), "place hunting_grounds 2", "place forest 1",
                "place hunting_grounds 3")
    assert game.tribes[0].placed == {"hunting_grounds": 5} and game.current == 1
    assert refusal(game, "place forest 1").reason == "already_there"  # the hunting grounds only
    play(game, "place hunting_grounds 4")
    assert game.phase == "actions" and game.tribes[1].placed == {"forest": 1, "hunting_grounds": 4}
    assert refusal(game, "resolve hunting_grounds dice=6,6").reason == "wrong_dice"
    play(game, "resolve hunting_grounds dice=6,6,6,6,6")
    assert game.tribes[0].food == 12 + 15


# -- state, snapshots, replays ---------------------------------------------------------------------

def test_to_dict_and_copies_keep_the_ruleset_and_variants():
    game = new_game(2, frozenset({NEWBORN, HUNTING}))
    play(game, "place hut 2", "place hunting_grounds 5", "place hunting_grounds 1")
    snapshot = json.loads(json.dumps(game.to_dict()))
    assert (snapshot["ruleset"], snapshot["variants"]) == (2, [HUNTING, NEWBORN])
    for restored in (Game.from_dict(snapshot), game.copy()):
        assert (restored.ruleset, restored.variants) == (2, {NEWBORN, HUNTING})
        assert restored.to_dict() == game.to_dict() and restored.view() == game.view()
    play(game, "place hunting_grounds 2")
    game.undo()
    assert (game.ruleset, game.variants) == (2, {NEWBORN, HUNTING})


def test_a_snapshot_between_the_hut_and_the_feeding_keeps_the_newborn():
    game = new_game(1, frozenset({NEWBORN}))
    game.tribes[0].agriculture, game.tribes[0].food = 5, 0
    start_actions(game, {0: {"hut": 2, "hunting_grounds": 1}, 1: {"hunting_grounds": 5}})
    play(game, "resolve hut")
    restored = Game.from_dict(json.loads(json.dumps(game.to_dict())))
    assert restored.tribes[0].newborn == 1
    for g in (game, restored):
        play(g, "resolve hunting_grounds dice=1", "resolve hunting_grounds dice=6,6,6,6,6")
    assert restored.to_dict() == game.to_dict() and restored.tribes[0].points["starvation"] == 0


def test_a_snapshot_from_before_rulesets_reads_as_ruleset_1():
    game = play(new_game(), "place hut 2", "place hunting_grounds 5")
    snapshot = game.to_dict()
    older = {k: v for k, v in snapshot.items() if k not in ("ruleset", "variants")}
    older["tribes"] = [{k: v for k, v in t.items() if k != "newborn"} for t in snapshot["tribes"]]
    restored = Game.from_dict(older)
    assert (restored.ruleset, restored.variants) == (1, frozenset())
    assert restored.to_dict() == snapshot


def test_the_command_line_replays_under_the_record_s_ruleset_and_variants():
    record = GAMES["random-3p-seed4"]
    game, _texts = cli_replay({**record, "ruleset": 2, "variants": []})
    assert game.ruleset == 2 and [t.food for t in game.tribes] == [13, 36, 0]
    with pytest.raises(ValueError, match="ruleset 9"):
        cli_replay({**record, "ruleset": 9})
    refused = {"players": 2, "seed": 1, "variants": [HUNTING],
               "actions": ["place hunting_grounds 2", "place forest 1", "place hunting_grounds 3"]}
    assert cli_replay(refused)[0].tribes[0].placed == {"hunting_grounds": 5}
    with pytest.raises(ValueError, match="already_there"):
        cli_replay({**refused, "variants": []})


# -- properties of random complete games ------------------------------------------------------------

RULES = st.tuples(st.sampled_from([1, 2]), st.sets(st.sampled_from(sorted(VARIANTS))))


@settings(max_examples=8, deadline=None)
@given(st.integers(2, 4), st.integers(0, 2**32), RULES, st.floats(0, 1))
def test_random_games_under_every_ruleset_and_variant(players: int, seed: int, rules: tuple[int, set[str]],
                                                      where: float):
    """Every random game ends; food, people and agriculture stay in bounds; replaying its actions
    gives the same game; a snapshot at any step, through JSON, plays on to the same end."""
    ruleset, variants = rules
    game, actions = random_game(players, seed, ruleset=ruleset, variants=variants)
    assert game.is_over and (game.ruleset, game.variants) == (ruleset, variants)
    again = Game.new(players, seed=seed, ruleset=ruleset, variants=variants)
    cut = int(where * len(actions))
    for index, action in enumerate(actions):
        if index == cut:
            again = Game.from_dict(json.loads(json.dumps(again.to_dict())))
        again.apply(action)
        assert all(t.food >= 0 and 5 <= t.people <= 10 and 0 <= t.agriculture <= 10 for t in again.tribes)
    assert again.to_dict() == game.to_dict()
    assert [s.total for s in again.scores()] == [s.total for s in game.scores()]


@settings(max_examples=5, deadline=None)
@given(st.integers(2, 4), st.integers(0, 2**32), RULES)
def test_the_simple_player_finishes_under_every_ruleset_and_variant(players: int, seed: int,
                                                                    rules: tuple[int, set[str]]):
    ruleset, variants = rules
    game, actions = heuristic_game(players, seed, ruleset=ruleset, variants=variants)
    assert game.is_over and len(actions) > 0


@settings(max_examples=8, deadline=None)
@given(st.integers(2, 4), st.integers(0, 2**32), st.sampled_from(["random", "heuristic"]))
def test_ruleset_2_replaying_a_ruleset_1_game_only_ever_gives_more_food(players: int, seed: int, player: str):
    """The same actions under ruleset 2: refused where a feeding no longer asks (``wrong_phase``)
    or asks for less (``wrong_payment``); otherwise the same game at every step, but for more food
    and no more starvation."""
    first, actions = (random_game if player == "random" else heuristic_game)(players, seed)
    one = Game.new(players, seed=seed)
    two = Game.new(players, seed=seed, ruleset=2)
    for action in actions:
        one.apply(action)
        try:
            two.apply(action)
        except IllegalAction as refused:
            assert refused.reason in ("wrong_phase", "wrong_payment")
            return
        assert (two.phase, two.current, two.round) == (one.phase, one.current, one.round)
        assert all(t2.food >= t1.food for t1, t2 in zip(one.tribes, two.tribes))
    for s1, s2 in zip(one.scores(), two.scores()):
        assert s2.breakdown["starvation"] >= s1.breakdown["starvation"]
        assert {k: v for k, v in s2.breakdown.items() if k != "starvation"} == \
            {k: v for k, v in s1.breakdown.items() if k != "starvation"}


def test_the_docstring_examples_run():
    import doctest

    from games.engines.stone_age import game as game_module
    from games.engines.stone_age import rulesets

    for module in (rulesets, game_module):
        result = doctest.testmod(module)
        assert result.failed == 0 and result.attempted > 0
