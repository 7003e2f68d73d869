"""Stone Age's view at the end of a game explains the final scoring: for each tribe, the
resources left, the sets of different green symbols, and each kind of figure on sand cards with
what it multiplies. The points are the score breakdown's own."""

from __future__ import annotations

from games.engines.stone_age.simulate import random_game

from .test_stone_age_rulebook import final, new_game, play_last_round


def test_the_final_scoring_says_what_each_source_multiplies():
    game = new_game(2)
    tribe = game.tribes[0]
    tribe.cards = ["C01", "C03", "C02", "C17", "C20"]   # green: two symbols then a repeat; 3 farmers
    tribe.agriculture = 4
    tribe.resources["clay"] = 2
    play_last_round(game)
    explained = game.view()["final_scoring"][0]
    assert explained["seat"] == 0
    assert explained["green_cards"] == {"sets": [2, 1], "points": 2 ** 2 + 1 ** 2} and final(game)["green_cards"] == 5
    assert explained["farmers"] == {"figures": 3, "times": 4, "points": 12}
    assert explained["leftover_resources"]["points"] == final(game)["leftover_resources"]
    assert explained["leftover_resources"]["resources"]["clay"] == 2


def test_before_the_end_there_is_nothing_to_explain():
    assert new_game(2).view()["final_scoring"] == []


def test_every_source_of_a_whole_game_is_explained_by_its_factors():
    game, _actions = random_game(3, seed=5)
    view = game.view()
    for explained, score in zip(view["final_scoring"], view["scores"], strict=True):
        for source, factors in explained.items():
            if source == "seat":
                continue
            assert factors["points"] == score["breakdown"][source]
            if "figures" in factors:
                assert factors["points"] == factors["figures"] * factors["times"]
        assert explained["green_cards"]["points"] == sum(size ** 2 for size in explained["green_cards"]["sets"])
        assert explained["leftover_resources"]["points"] == sum(explained["leftover_resources"]["resources"].values())
