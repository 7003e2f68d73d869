"""Carcassonne with Inns & Cathedrals and Traders & Builders in words: the large meeple, the builder
and the pig named, the builder's second tile, the goods a city's completer takes, and the end of
the game explained with the goods' majorities, every line's points adding up to the scores."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.registry import get_engine
from ludolog.web.narration import narrate
from ludolog.web.narration.final import explain_end

EXPANSIONS = {"expansions": ["inns_cathedrals", "traders_builders"]}
NAMES = ["Ada", "Bastien", "Chloé", "Dara", "Elif", "Fei"]


pytestmark = pytest.mark.usefixtures("in_english")


@pytest.mark.parametrize(("players", "seed"), [(2, 3), (4, 8), (6, 2)])
def test_every_step_of_an_expansion_game_is_said(players, seed):
    engine = get_engine("carcassonne")
    setup = engine.prepare_setup(players, seed, EXPANSIONS)
    state = engine.new_state(players, seed, setup)
    seats = [{"seat": seat, "player": NAMES[seat]} for seat in range(players)]
    said: dict[str, int] = {"large meeple": 0, "builder": 0, "pig": 0, "second tile": 0, "takes": 0}
    for event_type, payload in engine.demo_game(players, seed, setup):  # the simple player uses every figure
        before = engine.view(state)
        stored = engine.apply(state, event_type, payload)
        after = engine.view(state)
        narration = narrate("carcassonne", event_type, stored, before, after, seats)
        assert NAMES[narration.seat] in narration.text
        for kind, words in (("big", "large meeple"), ("builder", "builder"), ("pig", "pig")):
            if kind in stored:
                assert f"puts the {words}" in narration.text
                said[words] += 1
        if after["double_turn"] and not before["double_turn"]:
            assert narration.text.endswith("The builder gives a second tile.")
            said["second tile"] += 1
        goods_before = before["goods"][narration.seat]
        if after["goods"][narration.seat] != goods_before:
            assert any(line.startswith(f"{NAMES[narration.seat]} takes ") for line in narration.scoring)
            said["takes"] += 1
    assert engine.is_over(state)
    assert all(said.values()), said
    end = explain_end("carcassonne", engine.view(state))
    assert end.totals == {score.seat: score.score for score in engine.final_scores(state)}
    assert all(end.before[seat] + end.final[seat] == end.totals[seat] for seat in end.totals)
    goods = [group for group in end.groups if group.heading == "Goods (Traders & Builders)"]
    assert goods and all(line.feature.split(":")[0] in ("Wine", "Grain", "Cloth") for line in goods[0].lines)


def test_the_expansions_words_in_french():
    engine = get_engine("carcassonne")
    setup = engine.prepare_setup(2, 3, EXPANSIONS)
    state = engine.new_state(2, 3, setup)
    seats = [{"seat": 0, "player": "Ada"}, {"seat": 1, "player": "Bastien"}]
    lines = []
    with translation.override("fr"):
        for event_type, payload in engine.demo_game(2, 3, setup):
            before = engine.view(state)
            stored = engine.apply(state, event_type, payload)
            narration = narrate("carcassonne", event_type, stored, before, engine.view(state), seats)
            lines += [narration.text, *narration.scoring]
        end = explain_end("carcassonne", engine.view(state))
    text = "\n".join(lines)
    assert "pose le grand meeple" in text and "Le bâtisseur donne une deuxième tuile." in text
    assert "pose le cochon dans le pré" in text
    assert any(group.heading == "Marchandises (Marchands et Bâtisseurs)" for group in end.groups)
