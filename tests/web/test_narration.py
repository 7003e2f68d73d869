"""Every recorded action said in words, with the points it made (ludolog.web.narration).

Two kinds of specification. Whole simulated games of each engine, narrated step by step from the
views before and after each event (as the recording page and the replay viewer will): every step
names who acted, its points are the difference of the score totals, and scoring sentences come
exactly with the scorings. Then positions built by hand, as in the engines' rule tests, with the
exact sentences expected, in English and in French.

No database: the narration reads engine views only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from django.utils import translation

from games.engines.carcassonne import Game as CarcassonneGame
from games.engines.hunters_gatherers.sketch import sketch_tile
from games.engines.stone_age import Game as StoneAgeGame
from games.engines.stone_age.components import load as stone_age_data
from games.registry import get_engine
from ludolog.web.narration import Narration, narrate

from ..engines.hunters_gatherers.test_hunters_gatherers_rulebook import (
    forest_end, forest_straight, lake_east, lake_west, meadow, new_game as hunters_gatherers_game, river_straight,
)
from ..engines.stone_age.test_stone_age_rulebook import lay_cards, new_game as stone_age_game, start_actions

pytestmark = pytest.mark.usefixtures("in_english")

NAMES = ("Bastien", "Chloé", "Elif", "Dana", "Yusuf")


def seats(players: int, names: Sequence[str] = NAMES) -> list[dict[str, Any]]:
    return [{"seat": seat, "player": names[seat], "colour": ""} for seat in range(players)]


class Recording:
    """A game at the table: each action given in the engine's notation is applied through the
    platform's adapter, as the recording page does, and narrated from the views around it."""

    def __init__(self, slug: str, state: Any, names: Sequence[str] = NAMES) -> None:
        self.slug = slug
        self.engine = get_engine(slug)
        assert self.engine is not None
        self.state = state
        self.seats = seats(len(self.engine.view(state).get("scores", [])), names)

    def play(self, *texts: str) -> Narration:
        """Apply each action; the narration of the last one."""
        narration = None
        for text in texts:
            event_type, payload = self.engine.parse_notation(text)
            narration = self.event(event_type, payload)
        assert narration is not None
        return narration

    def event(self, event_type: str, payload: Mapping[str, Any]) -> Narration:
        before = self.engine.view(self.state)
        stored = self.engine.apply(self.state, event_type, payload)
        return narrate(self.slug, event_type, stored, before, self.engine.view(self.state), self.seats)


def totals(view: Mapping[str, Any]) -> dict[int, int]:
    return {score["seat"]: score["total"] for score in view["scores"]}


def difference(before: Mapping[str, Any], after: Mapping[str, Any]) -> dict[int, int]:
    then, now = totals(before), totals(after)
    return {seat: now[seat] - then[seat] for seat in now if now[seat] != then[seat]}


def breakdown_moved(before: Mapping[str, Any], after: Mapping[str, Any], source: str) -> list[int]:
    then = {s["seat"]: s["breakdown"][source] for s in before["scores"]}
    return [s["seat"] for s in after["scores"] if s["breakdown"][source] != then[s["seat"]]]


# -- whole simulated games ----------------------------------------------------------------------

def expected_scorings(slug: str, event_type: str, payload: Mapping[str, Any], before: Mapping[str, Any],
                      after: Mapping[str, Any], seat: int | None) -> int:
    """How many scoring sentences a step owes: one per award it added (tile games); in Stone Age one
    per starvation its own sentence does not already say, and one per final source that scored."""
    if slug != "stone-age":
        # A final scoring worth nothing (farmers beside no completed city) is not said.
        added = after["awards"][len(before["awards"]):]
        final = {"hut", "hunter"} if slug == "hunters-gatherers" else None
        return sum(1 for award in added
                   if award["points"] or not (award.get("final") if final is None else award["source"] in final))
    starving = [s for s in breakdown_moved(before, after, "starvation")
                if not (event_type == "feed" and payload.get("starve") and s == seat)]
    final = 0
    if after["phase"] == "over" and before["phase"] != "over":
        final = sum(1 for source in ("leftover_resources", "green_cards", "farmers", "tool_makers", "hut_builders",
                                     "shamans") if breakdown_moved(before, after, source))
    return len(starving) + final


def check_gathering(narration: Narration, payload: Mapping[str, Any], before: Mapping[str, Any]) -> None:
    """A roll said with its yield says what the dice and tools give by the rules (the narration
    itself only reads the tribes before and after)."""
    location = payload["location"]
    resource = {"hunting_grounds": "food", "forest": "wood", "clay_pit": "clay", "quarry": "stone",
                "river": "gold"}[location]
    if "tribes eat" in narration.text:
        assert resource == "food"
        return
    tribe = before["tribes"][narration.seat]
    bonus = sum(tribe["tools"][slot] for slot in payload.get("tools", [])) + sum(payload.get("one_time", []))
    gained = (sum(payload["dice"]) + bonus) // stone_age_data().value(resource)
    assert narration.text.endswith(f": {gained} {resource}" if gained else ": nothing"), narration.text


@pytest.mark.parametrize(("slug", "players", "seed"), [
    ("hunters-gatherers", 2, 3), ("hunters-gatherers", 4, 8),
    ("carcassonne", 2, 5), ("carcassonne", 5, 9),
    ("stone-age", 2, 4), ("stone-age", 3, 1), ("stone-age", 4, 6),
])
def test_every_step_of_a_simulated_game(slug: str, players: int, seed: int):
    """Each step (and an undo now and then, played again at once) names who acted, makes the points
    the totals moved by, and says a scoring for each scoring."""
    engine = get_engine(slug)
    assert engine is not None
    state = engine.new_state(players, seed)
    at_table = seats(players)
    kinds: set[str] = set()
    for index, (event_type, payload) in enumerate(engine.random_game(players, seed)):
        before = engine.view(state)
        stored = engine.apply(state, event_type, payload)
        after = engine.view(state)
        narration = narrate(slug, event_type, stored, before, after, at_table)
        assert narration.text.strip()
        if event_type == "reveal":
            assert narration.seat is None
        else:
            assert narration.seat == before["current_player"]
            assert NAMES[narration.seat] in narration.text
        assert narration.points == difference(before, after)
        assert len(narration.scoring) == expected_scorings(slug, event_type, stored, before, after, narration.seat)
        assert all(sentence.strip() for sentence in narration.scoring)
        if slug == "stone-age" and event_type == "resolve" and "dice" in stored and \
                stored["location"] in ("hunting_grounds", "forest", "clay_pit", "quarry", "river"):
            check_gathering(narration, stored, before)
        kinds.add(event_type)
        if index % 9 == 4:
            engine.apply(state, "undo", {})
            taken_back = engine.view(state)
            assert taken_back == before
            undone = narrate(slug, "undo", {}, after, taken_back, at_table)
            assert undone.seat == narration.seat and undone.seat is not None
            assert undone.text == f"{NAMES[undone.seat]} takes back the last move"
            assert undone.points == {seat: -points for seat, points in narration.points.items()}
            assert undone.scoring == ()
            engine.apply(state, event_type, stored)
    assert engine.is_over(state)
    assert narration.scoring[-1].startswith("Final scoring")
    assert kinds >= ({"place", "resolve"} if slug == "stone-age" else {"place_tile"})


# -- Hunters and Gatherers by hand --------------------------------------------------------------

def test_hunters_gatherers_lays_a_tile_and_puts_a_figure_on_what_the_tile_prints():
    game = Recording("hunters-gatherers", hunters_gatherers_game(
        meadow("L01", "deer=2"), forest_end("L02"), lake_east("L03", 1), lake_east("L04", 2), river_straight("L05"),
        meadow("L06")))
    said = game.play("L01@-1,0r0 hunter:0")
    assert said == Narration(0, "Bastien lays tile L01 at (−1, 0) and puts a hunter in the meadow", (), {})
    assert game.play("L02@0,-1r0 gatherer:0").text == \
        "Chloé lays tile L02 at (0, −1) and puts a gatherer in the forest"
    assert game.play("L03@1,0r0 fisher:1").text == "Bastien lays tile L03 at (1, 0) and puts a fisher on the river"
    assert game.play("L04@0,1r0 hut:8").text == "Chloé lays tile L04 at (0, 1) and builds a hut on the lake"
    assert game.play("L05@2,0r0").text == "Bastien lays tile L05 at (2, 0)"


def test_hunters_gatherers_hut_on_a_river():
    game = Recording("hunters-gatherers", hunters_gatherers_game(lake_east("L01", 1), meadow("L02")))
    assert game.play("L01@1,0r0 hut:1").text == "Bastien lays tile L01 at (1, 0) and builds a hut on the river"


def _joined_forests() -> Recording:
    return Recording("hunters-gatherers", hunters_gatherers_game(
        forest_end("L01"), forest_end("L02"), *[sketch_tile(f"L0{n}", N="f0", E="f0", S="m1", W="m1") for n in (3, 4)],
        forest_straight("L05"), meadow("L06")))


def test_hunters_gatherers_forest_completed_tie():
    """The rulebook's joined forests: Bastien and Chloé tied, 10 each."""
    game = _joined_forests()
    game.play("L01@-1,0r0 gatherer:0", "L02@1,0r0 gatherer:0", "L03@-1,-1r90", "L04@1,-1r180")
    said = game.play("L05@0,-1r90")
    assert said == Narration(0, "Bastien lays tile L05 at (0, −1)", ("Forest completed: Bastien +10, Chloé +10",),
                             {0: 10, 1: 10})


def test_hunters_gatherers_river_completed_with_and_without_a_fisher():
    tiles = (lake_east("L01", 1), river_straight("L02"), lake_west("L03", 2), meadow("L04"))
    game = Recording("hunters-gatherers", hunters_gatherers_game(*tiles))
    said = game.play("L01@1,0r0 fisher:1", "L02@2,0r0", "L03@3,0r0")
    assert said == Narration(0, "Bastien lays tile L03 at (3, 0)", ("River completed: Bastien +6",), {0: 6})
    game = Recording("hunters-gatherers", hunters_gatherers_game(*tiles))
    said = game.play("L01@1,0r0", "L02@2,0r0", "L03@3,0r0")
    assert said == Narration(0, "Bastien lays tile L03 at (3, 0)", ("River completed (6 points): no fisher on it",), {})


def test_hunters_gatherers_bonus_tile():
    """A gold-nugget forest completed earns a bonus tile, laid by the same player and said to be one."""
    game = Recording("hunters-gatherers", hunters_gatherers_game(
        forest_end("L01", "gold=1"), forest_end("L02"), forest_end("L03"), meadow("L04"),
        bonus=(forest_end("B01"), meadow("B02"))))
    game.play("L01@1,0r90", "L02@0,-1r0")
    said = game.play("L03@2,0r270 gatherer:0")
    assert said == Narration(0, "Bastien lays tile L03 at (2, 0) and puts a gatherer in the forest",
                             ("Forest completed: Bastien +4",), {0: 4})
    said = game.play("B01@0,-2r180 gatherer:0")
    assert said == Narration(0, "Bastien lays the bonus tile B01 at (0, −2) and puts a gatherer in the forest",
                             ("Forest completed: Bastien +4",), {0: 4})


def test_hunters_gatherers_discards():
    all_forest = sketch_tile("L01", N="f0", E="f0", S="f0", W="f0")
    game = Recording("hunters-gatherers", hunters_gatherers_game(all_forest, meadow("L02"), meadow("L03")))
    assert game.play("L01 discard") == Narration(0, "Bastien's tile L01 fits nowhere: discarded", (), {})
    bonus_forest = sketch_tile("B01", N="f0", E="f0", S="f0", W="f0")
    game = Recording("hunters-gatherers", hunters_gatherers_game(
        forest_end("L01", "gold=1"), forest_end("L02"), meadow("L03"), bonus=(bonus_forest, meadow("B02"))))
    game.play("L01@1,0r90", "L02@2,0r270")
    assert game.play("B01 discard").text == "Chloé's bonus tile B01 fits nowhere: discarded"


def test_hunters_gatherers_final_scoring():
    """The last tile ends the game: what it completes scores first, then the huts their river
    systems and the hunters their meadows."""
    red_pond = sketch_tile("L01", N="m0", E="m0", S="m0", W="m0 r1 m0", features={1: "lake=8", 8: "lake fish=1"})
    two_rivers_lake = sketch_tile("L03", N="m0", E="m0 r2 m3", S="m3", W="m3 r1 m0",
                                  features={1: "lake=8", 2: "lake=8", 8: "lake fish=3"})
    game = Recording("hunters-gatherers", hunters_gatherers_game(red_pond, lake_east("L02", 2), two_rivers_lake))
    game.play("L01@-1,0r0 hut:8", "L02@1,0r0 hut:8")
    said = game.play("L03@2,0r0")
    assert said == Narration(0, "Bastien lays tile L03 at (2, 0)", (
        "River completed (7 points): no fisher on it",
        "Final scoring, huts on a river system: Bastien +1",
        "Final scoring, huts on a river system: Chloé +5",
    ), {0: 1, 1: 5})
    game = Recording("hunters-gatherers", hunters_gatherers_game(meadow("L01", "deer=2"), meadow("L02", "mammoths=1")))
    said = game.play("L01@1,0r0 hunter:0", "L02@-1,0r0")
    assert said.scoring == ("Final scoring, hunters in a meadow: Bastien +6",)


def test_hunters_gatherers_undo_names_the_player_whose_move_is_taken_back():
    game = Recording("hunters-gatherers", hunters_gatherers_game(*(meadow(f"L0{n}") for n in range(1, 6)), players=3))
    game.play("L01@1,0r0", "L02@2,0r0", "L03@3,0r0 hunter:0")
    assert game.play("undo") == Narration(2, "Elif takes back the last move", (), {})
    assert game.play("undo").text == "Chloé takes back the last move"


def test_undo_of_a_scoring_move_takes_its_points_back():
    tiles = (lake_east("L01", 1), river_straight("L02"), lake_west("L03", 2), meadow("L04"))
    game = Recording("hunters-gatherers", hunters_gatherers_game(*tiles))
    game.play("L01@1,0r0 fisher:1", "L02@2,0r0", "L03@3,0r0")
    assert game.play("undo") == Narration(0, "Bastien takes back the last move", (), {0: -6})


# -- Carcassonne by hand ------------------------------------------------------------------------

def carcassonne(pile: list[str] | None = None, players: int = 2) -> Recording:
    """An unseeded game (any tile may be named); with ``pile`` only those tiles are left."""
    state = CarcassonneGame.new(players) if pile is None else CarcassonneGame(players, None, list(pile), ordered=False)
    return Recording("carcassonne", state, names=("Ada", "Bo", "Chloé"))


def test_carcassonne_meeples_and_completed_features():
    game = carcassonne()
    assert game.play("E@0,-1r180 meeple:0") == Narration(
        0, "Ada lays tile E at (0, −1) and puts a knight in the city", ("City completed: Ada +4",), {0: 4})
    game = carcassonne()
    game.play("M@0,-1r180 meeple:0")
    assert game.play("E@1,-1r270") == Narration(1, "Bo lays tile E at (1, −1)", ("City completed: Ada +8",), {0: 8})
    game = carcassonne()
    assert game.play("U@1,0r0 meeple:0").text == "Ada lays tile U at (1, 0) and puts a thief on the road"
    game.play("W@2,0r0")
    assert game.play("X@-1,0r0") == Narration(0, "Ada lays tile X at (−1, 0)", ("Road completed: Ada +4",), {0: 4})
    game = carcassonne()
    assert game.play("B@0,1r0 meeple:1").text == "Ada lays tile B at (0, 1) and puts a monk in the cloister"
    game.play("U@-1,0r0", "U@1,0r0", "E@-1,1r270", "E@1,1r90", "E@-1,2r180", "E@0,2r180")
    assert game.play("E@1,2r180") == Narration(1, "Bo lays tile E at (1, 2)", ("Cloister completed: Ada +9",), {0: 9})
    game = carcassonne()
    game.play("N@0,-1r180 meeple:0", "D@1,0r0 meeple:0")
    assert game.play("N@1,-1r270").scoring == ("City completed: Ada +8, Bo +8",)


def test_carcassonne_discard():
    game = carcassonne()
    game.play("E@0,-1r180")
    assert game.play("C discard") == Narration(1, "Bo's tile C fits nowhere: discarded", (), {})


def test_carcassonne_final_scoring():
    game = carcassonne(["M", "U"])
    game.play("M@0,-1r180 meeple:0")
    assert game.play("U@1,0r0 meeple:0") == Narration(
        1, "Bo lays tile U at (1, 0) and puts a thief on the road",
        ("Final scoring, unfinished city: Ada +3", "Final scoring, unfinished road: Bo +2"), {0: 3, 1: 2})
    game = carcassonne(["B", "U"])
    game.play("B@0,1r0 meeple:1")
    assert game.play("U@1,0r0").scoring == ("Final scoring, unfinished cloister: Ada +3",)
    game = carcassonne(["E", "U", "D", "B", "E", "B"])
    assert game.play("E@0,-1r180 meeple:1").text == "Ada lays tile E at (0, −1) and puts a farmer in the field"
    game.play("U@1,0r0 meeple:1", "D@2,0r0", "B@0,1r0", "E@2,-1r180 meeple:1")
    assert game.play("B@1,-1r0") == Narration(1, "Bo lays tile B at (1, −1)",
                                              ("Final scoring, farmers in a field: Ada +6",), {0: 6})


def test_carcassonne_a_last_tile_that_completes_a_city_says_both():
    game = carcassonne(["H", "E"])
    game.play("H@0,-1r0 meeple:2")
    assert game.play("E@0,-2r180 meeple:0").scoring == (
        "City completed: Bo +4", "Final scoring, farmers in a field: Ada +6")


def test_carcassonne_undo():
    game = carcassonne(players=3)
    game.play("U@1,0r0", "U@2,0r0", "E@0,-1r180 meeple:0")
    assert game.play("undo") == Narration(2, "Chloé takes back the last move", (), {2: -4})


# -- Stone Age by hand --------------------------------------------------------------------------

def stone_age(state: StoneAgeGame) -> Recording:
    return Recording("stone-age", state, names=("Alice", "Bo", "Chloé", "Dana"))


def test_stone_age_reveal_and_placements():
    """A game without a seed is told what is turned up; then the people go out."""
    game = stone_age(StoneAgeGame.new(2))
    said = game.play("reveal cards=C07,C17,C30,C09 building1=B03 building2=B21")
    assert said == Narration(None, "Cards turned up: C07 (7 food; green: pottery), C17 (1 stone; sand: 1 farmer), "
                             "C30 (dice for everyone; sand: 2 hut builders), C09 (1 food; green: weaving); "
                             "Buildings turned up: B03 (2 wood and 1 gold), B21 (4 resources of 4 kinds)", (), {})
    assert game.play("place forest 3") == Narration(0, "Alice places 3 people in the forest", (), {})
    assert game.play("place card2").text == "Bo places 1 person on the 2-resource card (C17)"
    assert game.play("place building1").text == "Alice places 1 person on building B03"
    assert game.play("place hut 2").text == "Bo places 2 people in the hut"
    assert game.play("place hunting_grounds 1").text == "Alice places 1 person on the hunting grounds"
    assert game.play("place river 1").text == "Bo places 1 person at the river"


def test_stone_age_reveal_of_one_building():
    table = stone_age(StoneAgeGame.new(2))
    table.play("reveal cards=C07,C17,C30,C09 building1=B03 building2=B21")
    table.state.stack_sizes[0] = 2
    table.state.tribes[0].resources.update(wood=2, gold=1)
    start_actions(table.state, {0: {"building1": 1}, 1: {"hunting_grounds": 1}})
    table.play("resolve building1 pay=wood:2,gold:1")
    assert table.play("reveal building1=B26") == Narration(
        None, "Building turned up: B26 (1 to 7 resources of any kind)", (), {})


def test_stone_age_gathering():
    """The yield is what the tribe gained; tools are added to the dice."""
    game = stone_age_game(2)
    game.tribes[0].tools = [2, 0, 0]
    table = stone_age(start_actions(game, {0: {"forest": 3, "hunting_grounds": 2}, 1: {"quarry": 1}}))
    assert table.play("resolve forest dice=3,5,6 tools=0") == Narration(
        0, "Alice rolls 3, 5, 6 + 2 (tool) in the forest: 5 wood", (), {})
    assert table.play("resolve hunting_grounds dice=4,5").text == "Alice rolls 4, 5 on the hunting grounds: 4 food"
    assert table.play("resolve quarry dice=4").text == "Bo rolls 4 in the quarry: nothing"


def test_stone_age_a_hunt_that_ends_the_round_gives_the_dice_not_the_meal():
    """The last action of a round goes on to feed the tribes: the hunter's food then mixes the
    catch with the meal, and the sentence gives the dice only."""
    table = stone_age(start_actions(stone_age_game(2), {0: {"river": 1}, 1: {"hunting_grounds": 2}}))
    table.play("resolve river dice=6")
    assert table.play("resolve hunting_grounds dice=6,6") == Narration(
        1, "Bo rolls 6, 6 on the hunting grounds, and the tribes eat", (), {})


def test_stone_age_village():
    game = stone_age_game(4)
    game.tribes[0].agriculture = 2
    table = stone_age(start_actions(game, {0: {"field": 1}, 1: {"hut": 2}, 2: {"tool_maker": 1},
                                           3: {"forest": 1}}))
    assert table.play("resolve field").text == "Alice works the field: agriculture 3"
    assert table.play("resolve hut").text == "Bo gains a person in the hut: 6 in the tribe"
    assert table.play("resolve tool_maker").text == "Chloé gets a tool from the tool maker: tools 1/0/0"


def buying(card: str, slot: int = 1, **resources: int) -> Recording:
    """Alice stands on card space ``slot`` holding ``card``; Bo hunts (the round goes on)."""
    game = stone_age_game(2)
    row = ["C09", "C10", "C20", "C29"]
    row[slot - 1] = card
    lay_cards(game, *row)
    game.tribes[0].resources.update(resources)
    return stone_age(start_actions(game, {0: {f"card{slot}": 1}, 1: {"hunting_grounds": 1}}))


def test_stone_age_cards():
    assert buying("C07", slot=2, wood=1, clay=1).play("resolve card2 pay=wood:1,clay:1") == Narration(
        0, "Alice buys the card on the 2-resource space (C07: 7 food; green: pottery) for 1 wood and 1 clay", (), {})
    assert buying("C20", slot=3, wood=3).play("resolve card3 pay=wood:3").text == \
        "Alice buys the card on the 3-resource space (C20: 3 food; sand: 2 farmers) for 3 wood"
    assert buying("C31", slot=1, gold=1).play("resolve card1 pay=gold:1") == Narration(
        0, "Alice buys the card on the 1-resource space (C31: 3 points; sand: 3 hut builders) for 1 gold", (), {0: 3})
    assert buying("C02", slot=1, clay=1).play("resolve card1 pay=clay:1 choose=gold:2").text == \
        "Alice buys the card on the 1-resource space (C02: any 2 resources; green: medicine) for 1 clay, and takes 2 gold"
    assert buying("C04", slot=1, gold=1).play("resolve card1 pay=gold:1 dice=5,6").text == \
        "Alice buys the card on the 1-resource space (C04: 2 dice for gold; green: art) for 1 gold, and rolls 5, 6: 1 gold"
    table = buying("C05", slot=1, wood=1)
    drawn = table.state.deck[0]
    assert table.play(f"resolve card1 pay=wood:1 drawn={drawn}").text == \
        f"Alice buys the card on the 1-resource space (C05: draw a card; green: writing) for 1 wood, and draws {drawn}"
    assert buying("C22", slot=1, wood=1).play("resolve card1 pay=wood:1").text == \
        "Alice buys the card on the 1-resource space (C22: one-time tool 4; sand: 1 tool maker) for 1 wood"
    assert buying("C07", slot=2).play("resolve card2 decline").text == \
        "Alice does not buy the 2-resource card (C07)"


def test_stone_age_dice_for_everyone():
    """Each player's die from the buyer on, with what it brought them."""
    table = buying("C06", slot=1, wood=1)
    assert table.play("resolve card1 pay=wood:1 dice=2,6 picks=6,2").text == (
        "Alice buys the card on the 1-resource space (C06: dice for everyone; green: writing) for 1 wood; "
        "the dice show 2, 6: Alice takes the 6 (agriculture), Bo the 2 (clay)")
    table = buying("C06", slot=1, wood=1)
    table.state.tribes[1].tools = [4, 4, 4]
    assert table.play("resolve card1 pay=wood:1 dice=1,5 picks=1,5").text.endswith(
        "the dice show 1, 5: Alice takes the 1 (wood), Bo the 5")


def test_stone_age_buildings():
    game = stone_age_game(2)
    game.stacks[0] = ["B03", "B28"]
    game.tribes[0].resources.update(wood=2, gold=1)
    table = stone_age(start_actions(game, {0: {"building1": 1}, 1: {"hunting_grounds": 1}}))
    assert table.play("resolve building1 pay=wood:2,gold:1") == Narration(
        0, "Alice builds B03 for 2 wood and 1 gold: +12", (), {0: 12})
    game = stone_age_game(2)
    game.stacks[0] = ["B03", "B28"]
    table = stone_age(start_actions(game, {0: {"building1": 1}, 1: {"hunting_grounds": 1}}))
    assert table.play("resolve building1 decline").text == "Alice does not build B03"


def test_stone_age_feeding_and_starving():
    """A tribe short of food pays with resources or starves; a tribe that cannot pay starves
    without a word from its player, on the step that fed the tribes."""
    game = stone_age_game(2)
    game.tribes[0].food = 3
    game.tribes[0].resources.update(wood=2)
    game.tribes[1].food = 0
    table = stone_age(start_actions(game, {0: {"hunting_grounds": 1}, 1: {"river": 1}}))
    table.play("resolve hunting_grounds dice=1")
    assert table.play("resolve river dice=1") == Narration(1, "Bo rolls 1 at the river: nothing", (), {})
    assert table.play("feed pay=wood:2") == Narration(
        0, "Alice feeds the tribe with 2 wood", ("Bo's tribe starves: −10",), {1: -10})
    game = stone_age_game(2)
    game.tribes[0].food = 0
    game.tribes[0].resources.update(wood=9)
    table = stone_age(start_actions(game, {0: {"hunting_grounds": 1}, 1: {"river": 1}}))
    table.play("resolve hunting_grounds dice=1", "resolve river dice=1")
    assert table.play("feed starve") == Narration(0, "Alice's tribe starves: −10", (), {0: -10})


def test_stone_age_final_scoring():
    """The step that ends the game says the final scoring, source by source."""
    game = stone_age_game(2)
    game.last_round = True
    game.tribes[0].resources.update(wood=2, gold=1)
    game.tribes[0].cards = ["C01", "C03"]
    game.tribes[1].cards = ["C17"]
    game.tribes[1].agriculture = 2
    table = stone_age(start_actions(game, {0: {"hunting_grounds": 1}, 1: {"hunting_grounds": 1}}))
    table.play("resolve hunting_grounds dice=1")
    said = table.play("resolve hunting_grounds dice=1")
    assert said == Narration(1, "Bo rolls 1 on the hunting grounds, and the tribes eat", (
        "Final scoring, resources left: Alice +3",
        "Final scoring, green cards: Alice +4",
        "Final scoring, farmers: Bo +2",
    ), {0: 7, 1: 2})


def test_stone_age_undo():
    game = stone_age(stone_age_game(2))
    game.play("place forest 3", "place quarry 2")
    assert game.play("undo") == Narration(1, "Bo takes back the last move", (), {})


def test_an_unknown_game_or_event_is_refused():
    with pytest.raises(ValueError):
        narrate("chess", "move", {}, {}, {}, [])
    with pytest.raises(ValueError):
        narrate("carcassonne", "result", {}, {"scores": []}, {"scores": []}, [])


# -- French -------------------------------------------------------------------------------------

def test_the_same_sentences_in_french():
    with translation.override("fr"):
        hg = _joined_forests()
        hg.play("L01@-1,0r0 gatherer:0", "L02@1,0r0 gatherer:0", "L03@-1,-1r90", "L04@1,-1r180")
        assert hg.play("L05@0,-1r90") == Narration(
            0, "Bastien pose la tuile L05 en (0, −1)", ("Forêt achevée\u00a0: Bastien +10, Chloé +10",), {0: 10, 1: 10})
        hg = Recording("hunters-gatherers", hunters_gatherers_game(meadow("L01", "deer=2"), lake_east("L02", 1),
                                                               meadow("L03")))
        assert hg.play("L01@-1,0r0 hunter:0").text == \
            "Bastien pose la tuile L01 en (−1, 0) et place un chasseur dans la prairie"
        assert hg.play("L02@1,0r0 hut:1").text == "Chloé pose la tuile L02 en (1, 0) et construit une hutte sur la rivière"
        assert hg.play("L03@0,1r0").scoring == ("Décompte final, huttes sur un réseau fluvial\u00a0: Chloé +1",
                                                "Décompte final, chasseurs dans une prairie\u00a0: Bastien +4")
        assert hg.play("undo").text == "Bastien reprend le dernier coup"

        game = carcassonne()
        assert game.play("E@0,-1r180 meeple:0") == Narration(
            0, "Ada pose la tuile E en (0, −1) et place un chevalier dans la ville", ("Ville achevée\u00a0: Ada +4",), {0: 4})
        assert game.play("C discard").text == "La tuile C ne va nulle part\u00a0: Bo la défausse"
        game = carcassonne(["M", "U"])
        game.play("M@0,-1r180 meeple:0")
        assert game.play("U@1,0r0 meeple:0").scoring == (
            "Décompte final, ville inachevée\u00a0: Ada +3", "Décompte final, route inachevée\u00a0: Bo +2")

        table = stone_age(StoneAgeGame.new(2))
        assert table.play("reveal cards=C07,C17,C30,C09 building1=B03 building2=B21").text == (
            "Cartes retournées\u00a0: C07 (7 nourriture\u00a0; vert\u00a0: poterie), C17 (1 pierre\u00a0; sable\u00a0: 1 agriculteur), "
            "C30 (dés pour tous\u00a0; sable\u00a0: 2 bâtisseurs de huttes), C09 (1 nourriture\u00a0; vert\u00a0: tissage)\u00a0; "
            "Bâtiments retournés\u00a0: B03 (2 bois et 1 or), B21 (4 ressources de 4 sortes)")
        assert table.play("place forest 3").text == "Alice place 3 membres dans la forêt"
        game = stone_age_game(2)
        game.tribes[0].tools = [2, 0, 0]
        table = stone_age(start_actions(game, {0: {"forest": 3}, 1: {"quarry": 1}}))
        assert table.play("resolve forest dice=3,5,6 tools=0").text == \
            "Alice lance 3, 5, 6 + 2 (outil) dans la forêt\u00a0: 5 bois"
        assert buying("C07", slot=2, wood=1, clay=1).play("resolve card2 pay=wood:1,clay:1").text == \
            "Alice achète la carte de coût 2 en ressources (C07\u00a0: 7 nourriture\u00a0; vert\u00a0: poterie) pour 1 bois et 1 glaise"
        assert buying("C06", slot=1, wood=1).play("resolve card1 pay=wood:1 dice=2,6 picks=6,2").text == (
            "Alice achète la carte de coût 1 en ressources (C06\u00a0: dés pour tous\u00a0; vert\u00a0: écriture) pour 1 bois\u00a0; "
            "les dés montrent 2, 6\u00a0: Alice prend le 6 (agriculture), Bo le 2 (glaise)")
        game = stone_age_game(2)
        game.stacks[0] = ["B03", "B28"]
        game.tribes[0].resources.update(wood=2, gold=1)
        table = stone_age(start_actions(game, {0: {"building1": 1}, 1: {"hunting_grounds": 1}}))
        assert table.play("resolve building1 pay=wood:2,gold:1").text == "Alice construit B03 pour 2 bois et 1 or\u00a0: +12"
        game = stone_age_game(2)
        game.tribes[0].food = 3
        game.tribes[0].resources.update(wood=2)
        game.tribes[1].food = 0
        table = stone_age(start_actions(game, {0: {"hunting_grounds": 1}, 1: {"river": 1}}))
        table.play("resolve hunting_grounds dice=1", "resolve river dice=1")
        assert table.play("feed pay=wood:2") == Narration(
            0, "Alice nourrit sa tribu avec 2 bois", ("Famine dans la tribu de Bo\u00a0: −10",), {1: -10})
