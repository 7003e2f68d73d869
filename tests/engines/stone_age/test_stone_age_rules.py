"""Rules beyond the summary's examples: every reason an action is refused, every kind of card top,
the three kinds of building, the tool steps, games without a seed (reveals) and the text notation.

Where seed 002 is silent these follow ``shared/reference/stone_age/FACTS.md`` and the readings in
the engine's package docstring.
"""

from __future__ import annotations

import pytest

from games.engines.stone_age import Action, Game, IllegalAction, parse_action
from games.engines.stone_age.components import load

from .test_stone_age_rulebook import (
    ALL_CARDS, ROW, lay_cards, new_game, play, refusal, start_actions, to_feeding)

FACTS_TOOL_STEPS = [
    [1, 0, 0], [1, 1, 0], [1, 1, 1], [2, 1, 1], [2, 2, 1], [2, 2, 2],
    [3, 2, 2], [3, 3, 2], [3, 3, 3], [4, 3, 3], [4, 4, 3], [4, 4, 4],
]
VALUES = {"wood": 3, "clay": 4, "stone": 5, "gold": 6}


def buying(card: str, *, slot: int = 1, players: int = 2, seat: int = 0, **resources: int) -> Game:
    """Seat ``seat`` stands on card space ``slot`` holding ``card``, with ``resources``; the other
    seats each have one person hunting, so the round does not end with the purchase."""
    row = list(ROW)
    row[slot - 1] = card
    game = new_game(players, row=tuple(row))
    game.tribes[seat].resources.update(resources)
    placed = {s: {"hunting_grounds": 1} for s in range(players) if s != seat}
    placed[seat] = {f"card{slot}": 1}
    game.start_player = seat
    return start_actions(game, placed)


def building(tile: str, *, players: int = 2, **resources: int) -> Game:
    """Seat 0 stands on building stack 1, whose top is ``tile``; seat 1 hunts."""
    game = new_game(players)
    game.stacks[0] = [tile, "B28"]
    game.tribes[0].resources.update(resources)
    return start_actions(game, {0: {"building1": 1}, 1: {"hunting_grounds": 1}})


# -- refusals, one reason code at a time --------------------------------------------------------

def test_game_over():
    game = new_game(2)
    game.last_round = True
    start_actions(game, {0: {"field": 1}})
    play(game, "resolve field")
    assert game.is_over
    for action in ("place hunting_grounds 1", "resolve field", "feed starve", "reveal cards=C01"):
        assert refusal(game, action).reason == "game_over"


def test_not_your_turn():
    game = new_game(3)
    assert refusal(game, Action("place", location="forest", people=1, seat=1)).reason == "not_your_turn"
    game.apply(Action("place", location="forest", people=1, seat=0))
    assert game.current == 1


@pytest.mark.parametrize("text", ["resolve forest dice=1", "feed starve", "reveal cards=C01,C02,C03,C04"])
def test_wrong_phase(text: str):
    game = new_game(2)
    assert refusal(game, text).reason == "wrong_phase"


def test_wrong_phase_during_actions_and_feeding():
    game = start_actions(new_game(2), {0: {"forest": 1}})
    assert refusal(game, "place hunting_grounds 1").reason == "wrong_phase"
    game.tribes[0].resources["wood"] = 0
    game.tribes[0].food = 0
    game.tribes[0].resources["clay"] = 9
    play(game, "resolve forest dice=1")
    assert game.phase == "feeding"
    assert refusal(game, "place hunting_grounds 1").reason == "wrong_phase"
    assert refusal(game, "resolve forest dice=1").reason == "wrong_phase"


def test_unknown_location():
    game = new_game(2)
    assert refusal(game, "place cave 1").reason == "unknown_location"
    assert refusal(game, "place building3").reason == "no_building"  # 2 players: 2 stacks


@pytest.mark.parametrize("text", ["place hunting_grounds 6", "place forest 0", "place hunting_grounds -1"])
def test_not_enough_people(text: str):
    assert refusal(new_game(2), text).reason == "not_enough_people"


def test_not_enough_people_counts_those_already_placed():
    game = new_game(2)
    play(game, "place hunting_grounds 4", "place forest 1")
    assert refusal(game, "place clay_pit 2").reason == "not_enough_people"
    assert game.legal_actions() == [Action("place", location=loc, people=1)
                                    for loc in ("clay_pit", "quarry", "river", "field", "hut", "tool_maker",
                                                "card1", "card2", "card3", "card4", "building1", "building2")
                                    if loc != "hut"]


def test_already_there():
    game = new_game(2)
    play(game, "place card1", "place hunting_grounds 1")
    assert refusal(game, "place card1").reason == "already_there"


@pytest.mark.parametrize(("first", "second"), [
    ("place forest 6", "place forest 2"),
    ("place field", "place field"),
    ("place tool_maker", "place tool_maker"),
    ("place card2", "place card2"),
    ("place building1", "place building1"),
])
def test_location_full(first: str, second: str):
    game = new_game(4)
    game.tribes[0].people = 8
    play(game, first)
    assert refusal(game, second).reason == "location_full"


def test_site_limit():
    two = new_game(2)
    play(two, "place river 1")
    assert refusal(two, "place river 1").reason == "site_limit"
    three = new_game(3)
    play(three, "place clay_pit 1", "place clay_pit 1")
    assert refusal(three, "place clay_pit 1").reason == "site_limit"


@pytest.mark.parametrize("text", ["place hut 1", "place hut 3", "place field 2", "place card1 2", "place building1 2"])
def test_wrong_number(text: str):
    assert refusal(new_game(4), text).reason == "wrong_number"


def test_village_limit():
    game = new_game(2)
    play(game, "place hut 2", "place tool_maker")
    assert refusal(game, "place field").reason == "village_limit"


def test_hut_refused_to_a_tribe_of_10():
    """Reading 2: "The hut cannot be used by a tribe of 10 people" (FACTS: 10 figures per colour)."""
    game = new_game(4)
    game.tribes[0].people = 10
    assert refusal(game, "place hut 2").reason == "tribe_full"
    assert not any(a.location == "hut" for a in game.legal_actions())
    game.tribes[0].people = 9
    play(game, "place hut 2")
    start_actions(game, {0: {"hut": 2}, 1: {"hunting_grounds": 1}})
    play(game, "resolve hut")
    assert game.tribes[0].people == 10


def test_field_and_tool_maker_stay_open_at_their_maximum():
    """Reading 2: "the field and the tool maker can always be used (no gain at their maximum)"."""
    game = new_game(4)
    game.tribes[0].agriculture = 10
    game.tribes[0].tools = [4, 4, 4]
    play(game, "place field", "place hunting_grounds 1", "place hunting_grounds 1", "place hunting_grounds 1",
         "place tool_maker")
    start_actions(game, {0: {"field": 1, "tool_maker": 1}, 1: {"hunting_grounds": 1}})
    play(game, "resolve field", "resolve tool_maker")
    assert game.tribes[0].agriculture == 10 and game.tribes[0].tools == [4, 4, 4]


def test_no_card():
    """A card space without a card (state edited: the row is always full at placement)."""
    game = new_game(2)
    game.display[1] = None
    assert refusal(game, "place card2").reason == "no_card"
    assert ("card2", 1) not in game.legal_placements()


def test_no_building():
    game = new_game(3)
    game.stack_sizes[2], game.stacks[2] = 0, []
    assert refusal(game, "place building3").reason == "no_building"
    assert refusal(game, "place building4").reason == "no_building"


def test_not_placed():
    game = start_actions(new_game(2), {0: {"forest": 1}})
    assert refusal(game, "resolve quarry dice=6").reason == "not_placed"
    assert refusal(game, Action("resolve")).reason == "not_placed"


@pytest.mark.parametrize("text", ["resolve field dice=6", "resolve field tools=0", "resolve hut once=3",
                                  "resolve building1 dice=4", "resolve card1 pay=wood:1 tools=0"])
def test_no_roll(text: str):
    """Tools add to a roll only (FACTS): nothing is rolled on the field, the hut, a building or a
    card without dice."""
    game = new_game(2)
    game.tribes[0].tools = [2, 0, 0]
    game.tribes[0].one_time_tools = [3]
    game.tribes[0].resources["wood"] = 1
    start_actions(game, {0: {"field": 1, "hut": 2, "building1": 1, "card1": 1}})
    assert refusal(game, text).reason == "no_roll"


def test_no_such_tool():
    game = new_game(2)
    game.tribes[0].tools = [1, 0, 0]
    game.tribes[0].one_time_tools = [2]
    start_actions(game, {0: {"forest": 1}})
    assert refusal(game, "resolve forest dice=2 tools=1").reason == "no_such_tool"
    assert refusal(game, "resolve forest dice=2 tools=3").reason == "no_such_tool"
    assert refusal(game, "resolve forest dice=2 once=3").reason == "no_such_tool"
    assert refusal(game, "resolve forest dice=2 once=2,2").reason == "no_such_tool"


def test_tool_used():
    game = new_game(2)
    game.tribes[0].tools = [1, 0, 0]
    start_actions(game, {0: {"forest": 1}})
    assert refusal(game, "resolve forest dice=2 tools=0,0").reason == "tool_used"
    game.tribes[0].tools_used = [True, False, False]
    assert refusal(game, "resolve forest dice=2 tools=0").reason == "tool_used"


def test_dice_missing():
    game = start_actions(new_game(2), {0: {"forest": 2}})
    assert refusal(game, "resolve forest").reason == "dice_missing"
    card = buying("C04", slot=1, wood=1)
    assert refusal(card, "resolve card1 pay=wood:1").reason == "dice_missing"


@pytest.mark.parametrize("dice", ["1", "1,2,3", "0,4", "7,1"])
def test_wrong_dice(dice: str):
    game = start_actions(new_game(2), {0: {"river": 2}})
    assert refusal(game, f"resolve river dice={dice}").reason == "wrong_dice"


def test_bad_payment():
    """Food never pays for a card or a building (FACTS), nor does a negative amount."""
    game = buying("C09", slot=1, wood=3)
    game.tribes[0].food = 12
    assert refusal(game, "resolve card1 pay=food:1").reason == "bad_payment"
    assert refusal(game, Action("resolve", location="card1", pay={"wood": 2, "clay": -1})).reason == "bad_payment"
    any_tile = building("B26", wood=3)
    assert refusal(any_tile, "resolve building1 pay=food:2").reason == "bad_payment"


def test_cannot_pay():
    game = buying("C09", slot=2, wood=1, clay=1)
    assert refusal(game, "resolve card2 pay=wood:2").reason == "cannot_pay"
    assert refusal(building("B01", wood=1, clay=1), "resolve building1 pay=wood:2,clay:1").reason == "cannot_pay"


def test_wrong_payment_for_a_card():
    """"the card on the n-th space costs n resources" (FACTS): no more, no less."""
    game = buying("C09", slot=3, wood=5)
    assert refusal(game, "resolve card3 pay=wood:2").reason == "wrong_payment"
    assert refusal(game, "resolve card3 pay=wood:4").reason == "wrong_payment"
    assert refusal(game, "resolve card3").reason == "wrong_payment"
    play(game, "resolve card3 pay=wood:3")
    assert game.tribes[0].cards == ["C09"]


def test_wrong_payment_when_feeding():
    """Reading 4: "A tribe short of food pays the whole shortfall in resources or takes the −10
    penalty; it cannot split.\""""
    game = new_game(2)
    game.tribes[0].food = 2
    game.tribes[0].resources.update(wood=5)
    start_actions(game, {0: {"hunting_grounds": 1}})
    play(game, "resolve hunting_grounds dice=1")
    assert (game.phase, game.shortfall(0)) == ("feeding", 3)
    assert refusal(game, "feed pay=wood:2").reason == "wrong_payment"
    assert refusal(game, "feed pay=wood:4").reason == "wrong_payment"
    assert refusal(game, "feed").reason == "wrong_payment"
    assert refusal(game, "feed pay=food:3").reason == "bad_payment"
    assert len(game.legal_actions()) == 2                       # starve, or pay 3 wood
    play(game, "feed pay=wood:3")
    assert game.tribes[0].resources["wood"] == 2 and game.round == 2


def test_no_tools_on_a_dice_roll_for_all_players():
    """FACTS: "Tools cannot change these dice.\""""
    game = buying("C06", slot=1, wood=1)
    game.tribes[0].tools = [2, 0, 0]
    game.tribes[0].one_time_tools = [3]
    assert refusal(game, "resolve card1 pay=wood:1 dice=1,2 picks=1,2 tools=0").reason == "no_tools"
    assert refusal(game, "resolve card1 pay=wood:1 dice=1,2 picks=1,2 once=3").reason == "no_tools"


def test_wrong_choice():
    game = buying("C02", slot=1, wood=1)
    for choice in ("gold:3", "gold:1", "food:2", "wood:1,food:1", ""):
        text = f"resolve card1 pay=wood:1 choose={choice}" if choice else "resolve card1 pay=wood:1"
        assert refusal(game, text).reason == "wrong_choice"


def test_card_missing():
    game = buying("C05", slot=1, wood=1)
    assert refusal(game, "resolve card1 pay=wood:1").reason == "card_missing"


def test_wrong_card_drawn_in_a_seeded_game():
    game = buying("C05", slot=1, wood=1)
    second = game.deck[1]
    assert refusal(game, f"resolve card1 pay=wood:1 drawn={second}").reason == "wrong_card"
    assert refusal(game, "resolve card1 pay=wood:1 drawn=C09").reason == "wrong_card"


def test_wrong_picks():
    game = buying("C06", slot=1, players=3, wood=1)
    for picks in ("1,2", "1,2,2", "1,2,4", "1,2,3,3", ""):
        text = "resolve card1 pay=wood:1 dice=1,2,3" + (f" picks={picks}" if picks else "")
        assert refusal(game, text).reason == "wrong_picks"


def test_wrong_payment_for_buildings():
    assert refusal(building("B01", wood=3, clay=3), "resolve building1 pay=wood:1,clay:2").reason == "wrong_payment"
    assert refusal(building("B01", wood=3, clay=3), "resolve building1 pay=wood:3,clay:1").reason == "wrong_payment"
    assert refusal(building("B18", wood=5), "resolve building1 pay=wood:5").reason == "wrong_payment"
    assert refusal(building("B26", wood=9), "resolve building1 pay=wood:8").reason == "wrong_payment"
    assert refusal(building("B26", wood=9), "resolve building1").reason == "wrong_payment"


def test_nothing_to_undo():
    game = new_game(2)
    before = game.to_dict()
    with pytest.raises(IllegalAction) as refused:
        game.undo()
    assert refused.value.reason == "nothing_to_undo" and game.to_dict() == before


def test_undo_and_refusals_between_checkpoints_and_after_a_change_by_hand():
    """Undo replays from the last kept state (every CHECKPOINT_EVERY actions); a position
    changed by hand and marked with clear_history is where undo stops and refusals return to."""
    from games.engines.stone_age.game import CHECKPOINT_EVERY

    game = new_game(2)
    states = [game.to_dict()]
    for _ in range(CHECKPOINT_EVERY + 3):
        game.apply(game.complete(game.legal_actions()[0]))
        states.append(game.to_dict())
    assert len(game.checkpoints) == 2
    assert refusal(game, "feed starve").reason == "wrong_phase" and game.to_dict() == states[-1]
    while game.history:
        game.undo()
        assert game.to_dict() == states[len(game.history)]
    game.tribes[0].resources["gold"] = 3                     # a change by hand, then marked
    game.clear_history()
    changed = game.to_dict()
    assert refusal(game, "feed starve").reason == "wrong_phase" and game.to_dict() == changed
    with pytest.raises(IllegalAction) as refused:
        game.undo()
    assert refused.value.reason == "nothing_to_undo" and game.to_dict() == changed


def test_reveal_refusals():
    """Games without a seed are told the cards and tiles turned up (``reveal``)."""
    game = Game.new(2)
    cases = {
        "reveal cards=C01,C02,C03 building1=B01 building2=B02": "wrong_reveal",
        "reveal cards=C01,C02,C03,C04,C05 building1=B01 building2=B02": "wrong_reveal",
        "reveal cards=C01,C02,C03,C04 building1=B01": "wrong_reveal",
        "reveal cards=C01,C02,C03,C04 building1=B01 building3=B02": "wrong_reveal",
        "reveal cards=C01,C02,C03,C99 building1=B01 building2=B02": "wrong_card",
        "reveal cards=C01,C02,C03,C01 building1=B01 building2=B02": "wrong_card",
        "reveal cards=C01,C02,C03,C04 building1=B01 building2=B01": "wrong_building",
        "reveal cards=C01,C02,C03,C04 building1=B01 building2=B29": "wrong_building",
        "place hunting_grounds 1": "wrong_phase",
    }
    for text, reason in cases.items():
        assert refusal(game, text).reason == reason, text
    play(game, "reveal cards=C01,C02,C03,C04 building1=B01 building2=B02")
    game.tribes[0].resources["wood"] = 1
    start_actions(game, {0: {"card1": 1}, 1: {"hunting_grounds": 1}})
    play(game, "resolve card1 pay=wood:1", "resolve hunting_grounds dice=1")
    assert game.phase == "reveal" and game.pending_reveal == {"cards": 1, "stacks": []}
    assert refusal(game, "reveal cards=C01").reason == "wrong_card"          # already taken
    assert refusal(game, "reveal cards=C02").reason == "wrong_card"          # on display
    assert refusal(game, "reveal cards=C05 building1=B03").reason == "wrong_reveal"


def test_every_reason_code_of_the_engine_is_tested():
    """The codes above are all the codes ``game.py`` raises (a new one needs a test here)."""
    import inspect
    import re

    from games.engines.stone_age import game as module
    raised = set(re.findall(r'IllegalAction\("([a-z_]+)"', inspect.getsource(module)))
    tested = set(re.findall(r'== "([a-z_]+)"', inspect.getsource(inspect.getmodule(test_game_over))))
    tested |= set(re.findall(r'": "([a-z_]+)",', inspect.getsource(test_reveal_refusals)))
    assert raised and raised <= tested, sorted(raised - tested)


def test_resources_and_food_are_not_limited():
    """Reading 1: "Resources and food are not limited" (FACTS: the English rulebook says "Resources
    are not limited. If need be, use replacement pieces"), although the box holds 20 gold and 53
    food tokens."""
    game = new_game(2)
    game.tribes[0].resources["gold"] = 20
    game.tribes[1].resources["gold"] = 20
    game.tribes[0].people, game.tribes[0].food = 10, 198
    start_actions(game, {0: {"river": 7, "hunting_grounds": 3}, 1: {"hunting_grounds": 1}})
    play(game, "resolve river dice=6,6,6,6,6,6,6", "resolve hunting_grounds dice=6,6,6")
    assert game.tribes[0].resources["gold"] == 27 and game.tribes[0].food == 198 + 9


def test_a_tribe_with_no_place_left_keeps_its_people_home():
    """Reading 6: "A player with people left but no legal place keeps them home for the round"
    (FACTS: "No passing while a legal place exists")."""
    game = new_game(2)
    game.tribes[0].people = 10
    game.tribes[0].placed = {loc: 1 for loc in ("hunting_grounds", "forest", "clay_pit", "quarry", "river",
                                                "field", "tool_maker", "card1")}
    game.tribes[1].placed = {"card2": 1, "card3": 1, "card4": 1, "building1": 1}
    game.current = 1
    assert game.legal_placements(0) == [("building2", 1)]
    play(game, "place building2")
    assert game.legal_placements(0) == []                 # the hut would be the third village place
    assert (game.phase, game.current, game.tribes[0].unplaced) == ("actions", 0, 2)


def test_tribes_short_of_food_decide_in_turn_from_the_start_player():
    """The start player feeds first, then clockwise (FACTS §6: "the tribes eat in turn")."""
    game = new_game(3)
    game.start_player = 1
    for seat in (0, 1):
        game.tribes[seat].food = 0
        game.tribes[seat].resources["wood"] = 9
    to_feeding(game)
    assert (game.phase, game.current) == ("feeding", 1)
    assert refusal(game, Action("feed", starve=True, seat=0)).reason == "not_your_turn"
    play(game, "feed starve")
    assert (game.phase, game.current) == ("feeding", 0)
    play(game, "feed pay=wood:5")
    assert [t.score for t in game.tribes] == [0, -10, 0] and game.tribes[0].resources["wood"] == 4
    assert (game.phase, game.round, game.start_player) == ("placement", 2, 2)


# -- card tops ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("card", "food"), [("C01", 5), ("C07", 7), ("C09", 1), ("C10", 3), ("C20", 3),
                                            ("C27", 4), ("C29", 2)])
def test_food_cards(card: str, food: int):
    game = buying(card, slot=2, clay=2)
    play(game, "resolve card2 pay=clay:2")
    assert game.tribes[0].food == 12 + food and game.tribes[0].cards == [card]
    assert game.display[1] is None and game.tribes[0].resources["clay"] == 0


@pytest.mark.parametrize(("card", "resource", "amount"), [("C13", "stone", 2), ("C17", "stone", 1),
                                                          ("C32", "stone", 1), ("C33", "gold", 1), ("C35", "clay", 1)])
def test_resource_cards(card: str, resource: str, amount: int):
    game = buying(card, slot=1, wood=1)
    play(game, "resolve card1 pay=wood:1")
    assert game.tribes[0].resources == {"wood": 0, "clay": 0, "stone": 0, "gold": 0} | {resource: amount}


@pytest.mark.parametrize("card", ["C15", "C16", "C31"])
def test_points_cards(card: str):
    game = buying(card, slot=4, gold=4)
    play(game, "resolve card4 pay=gold:4")
    assert game.tribes[0].points["card_points"] == 3 and game.tribes[0].score == 3


@pytest.mark.parametrize("card", ["C11", "C18"])
def test_agriculture_cards(card: str):
    game = buying(card, slot=1, stone=1)
    game.tribes[0].agriculture = 3
    play(game, "resolve card1 pay=stone:1")
    assert game.tribes[0].agriculture == 4


def test_agriculture_card_at_10_gives_nothing():
    """FACTS: "agriculture track: starts at 0, max 10"."""
    game = buying("C11", slot=1, stone=1)
    game.tribes[0].agriculture = 10
    play(game, "resolve card1 pay=stone:1")
    assert game.tribes[0].agriculture == 10 and game.tribes[0].cards == ["C11"]


def test_permanent_tool_card_is_a_tool_step():
    """FACTS: "+1 permanent tool (as tool maker)"; it counts as tool tile value."""
    game = buying("C03", slot=1, wood=1)
    game.tribes[0].tools = [2, 2, 1]
    play(game, "resolve card1 pay=wood:1")
    assert game.tribes[0].tools == [2, 2, 2] and game.scores()[0].tiebreak == 0 + 6 + 5


@pytest.mark.parametrize(("card", "value"), [("C22", 4), ("C23", 3), ("C24", 2)])
def test_one_time_tool_is_used_once_then_gone(card: str, value: int):
    """FACTS: "One-time tools (cards worth 2, 3 or 4) are used once and then discarded. They can be
    combined with tool tiles.\""""
    game = buying(card, slot=1, wood=1)
    play(game, "resolve card1 pay=wood:1")
    tribe = game.tribes[0]
    assert tribe.one_time_tools == [value] and tribe.tools == [0, 0, 0]
    tribe.tools = [1, 0, 0]
    start_actions(game, {0: {"quarry": 1, "river": 1}, 1: {"hunting_grounds": 1}})
    play(game, f"resolve quarry dice=4 tools=0 once={value}")
    assert tribe.resources["stone"] == (4 + 1 + value) // 5 and tribe.one_time_tools == []
    assert refusal(game, f"resolve river dice=6 once={value}").reason == "no_such_tool"


def test_one_time_tools_last_until_used():
    """A one-time tool is not refreshed nor lost at the end of the round: it waits to be used."""
    game = buying("C23", slot=1, wood=1)
    play(game, "resolve card1 pay=wood:1", "resolve hunting_grounds dice=1")
    assert game.round == 2 and game.tribes[0].one_time_tools == [3]


def test_any_two_resources():
    """FACTS: "any 2 resources" (reading 3: taken at once), the same or different kinds."""
    for choose, expected in (("gold:2", {"gold": 2}), ("wood:1,stone:1", {"wood": 1, "stone": 1})):
        game = buying("C02", slot=1, clay=1)
        play(game, f"resolve card1 pay=clay:1 choose={choose}")
        assert game.tribes[0].resources == {"wood": 0, "clay": 0, "stone": 0, "gold": 0} | expected
    game = buying("C02", slot=1, clay=1)
    assert {a.to_text() for a in game.legal_actions()} == {
        "resolve card1 decline", *(f"resolve card1 pay=clay:1 choose={r}:2" for r in VALUES)}


@pytest.mark.parametrize(("card", "resource", "dice", "tools", "gained"), [
    ("C04", "gold", (5, 6), (), 1),
    ("C04", "gold", (5, 6), (0,), 2),       # 11 + 2 = 13 → 2 gold
    ("C34", "stone", (2, 2), (0, 1), 1),    # 4 + 3 = 7 → 1 stone
    ("C36", "wood", (6, 6), (0, 1), 5),     # 12 + 3 = 15 → 5 wood
])
def test_resource_dice_cards_roll_two_dice_with_tools(card, resource, dice, tools, gained):
    """FACTS: "roll 2 dice; tools not yet used this round may be added", divided by the resource's
    value."""
    game = buying(card, slot=1, clay=1)
    game.tribes[0].tools = [2, 1, 0]
    play(game, Action("resolve", location="card1", pay={"clay": 1}, dice=dice, tools=tools).to_text())
    assert game.tribes[0].resources[resource] == gained
    assert game.tribes[0].tools_used == [0 in tools, 1 in tools, False]


def test_resource_dice_card_with_a_one_time_tool_and_a_used_tile():
    game = buying("C04", slot=1, clay=1)
    tribe = game.tribes[0]
    tribe.tools, tribe.tools_used, tribe.one_time_tools = [3, 0, 0], [True, False, False], [4]
    assert refusal(game, "resolve card1 pay=clay:1 dice=1,1 tools=0").reason == "tool_used"
    play(game, "resolve card1 pay=clay:1 dice=4,4 once=4")
    tribe = game.tribes[0]                      # a refusal restores the tribes: look them up again
    assert tribe.resources["gold"] == 2 and tribe.one_time_tools == []


def test_resource_dice_card_rolls_two_dice_in_a_seeded_game():
    game = buying("C36", slot=1, clay=1)
    action = game.complete(Action("resolve", location="card1", pay={"clay": 1}))
    assert action.dice is not None and len(action.dice) == 2
    game.apply(action)
    assert game.tribes[0].resources["wood"] == sum(action.dice) // 3


def test_draw_card_takes_the_top_of_the_pile_in_a_seeded_game():
    """FACTS: "draw top card of the civ deck (its top is ignored)"; "taking the top card shrinks the
    deck, which can bring on the end of the game"."""
    game = buying("C05", slot=2, wood=2)
    top = game.deck[0]
    size = game.deck_size
    action = game.complete(Action("resolve", location="card2", pay={"wood": 2}))
    assert action.drawn == top
    food, resources = game.tribes[0].food, dict(game.tribes[0].resources)
    game.apply(action)
    tribe = game.tribes[0]
    assert tribe.cards == ["C05", top] and game.deck_size == len(game.deck) == size - 1
    assert tribe.food == food and tribe.resources == resources | {"wood": 0}, "the drawn card's top is ignored"


def test_draw_card_with_an_empty_pile_gives_only_itself():
    game = buying("C05", slot=1, wood=1)
    game.deck, game.deck_size = [], 0
    action = game.complete(Action("resolve", location="card1", pay={"wood": 1}))
    assert action.drawn is None
    game.apply(action)
    assert game.tribes[0].cards == ["C05"]


def test_draw_card_in_an_unseeded_game_names_any_card_not_yet_seen():
    game = Game.new(2)
    play(game, "reveal cards=C05,C01,C02,C03 building1=B01 building2=B02")
    game.tribes[0].resources["wood"] = 1
    start_actions(game, {0: {"card1": 1}, 1: {"hunting_grounds": 1}})
    assert game.complete(Action("resolve", location="card1", pay={"wood": 1})).drawn is None
    assert refusal(game, "resolve card1 pay=wood:1").reason == "card_missing"
    assert refusal(game, "resolve card1 pay=wood:1 drawn=C02").reason == "wrong_card"   # on display
    assert refusal(game, "resolve card1 pay=wood:1 drawn=C37").reason == "wrong_card"
    play(game, "resolve card1 pay=wood:1 drawn=C36")
    assert game.tribes[0].cards == ["C05", "C36"] and game.deck_size == 36 - 4 - 1
    assert game.tribes[0].resources["wood"] == 0


def test_dice_roll_for_all_players_picks_from_the_buyer_clockwise():
    """FACTS: "the buyer rolls one die per player. Starting with the buyer and going clockwise, each
    player takes one die: 1 = wood, 2 = clay, 3 = stone, 4 = gold, 5 = one tool step, 6 =
    agriculture +1.\""""
    game = buying("C06", slot=1, players=4, seat=2, gold=1)
    play(game, "resolve card1 pay=gold:1 dice=6,1,5,4 picks=6,1,5,4")
    seat2, seat3, seat0, seat1 = (game.tribes[s] for s in (2, 3, 0, 1))
    assert seat2.agriculture == 1 and seat2.cards == ["C06"] and seat2.resources["gold"] == 0
    assert seat3.resources["wood"] == 1
    assert seat0.tools == [1, 0, 0]
    assert seat1.resources["gold"] == 1


@pytest.mark.parametrize(("face", "effect"), [
    (1, ("wood", 1)), (2, ("clay", 1)), (3, ("stone", 1)), (4, ("gold", 1)), (5, ("tools", [2, 1, 1])),
    (6, ("agriculture", 3)),
])
def test_dice_roll_for_all_players_faces(face: int, effect):
    game = buying("C12", slot=1, players=2, seat=1, wood=1)
    game.tribes[1].tools, game.tribes[1].agriculture = [1, 1, 1], 2
    other = 3 if face != 3 else 2
    play(game, f"resolve card1 pay=wood:1 dice={other},{face} picks={face},{other}")
    name, value = effect
    buyer = game.tribes[1]
    got = buyer.resources[name] if name in VALUES else getattr(buyer, name)
    assert got == value
    assert game.tribes[0].resources[load().dice_faces[other]] == 1


def test_dice_roll_for_all_players_in_a_seeded_game_rolls_one_die_per_player():
    game = buying("C08", slot=1, players=3, wood=1)
    action = game.complete(Action("resolve", location="card1", pay={"wood": 1}))
    assert action.dice is not None and len(action.dice) == 3 and action.picks == ()
    game.apply(action.replace(picks=tuple(sorted(action.dice))))
    gained = sum(sum(t.resources.values()) + t.agriculture + sum(t.tools) for t in game.tribes)
    assert gained == 3


def test_a_card_top_happens_once_a_card_is_taken():
    """Declining leaves the card on its space (FACTS: "A player may decline to buy")."""
    game = buying("C07", slot=1, wood=1)
    play(game, "resolve card1 decline")
    assert game.display[0] == "C07" and game.tribes[0].food == 12 and game.tribes[0].resources["wood"] == 1


# -- buildings ---------------------------------------------------------------------------------

FIXED = {"B01": 10, "B02": 11, "B03": 12, "B04": 11, "B05": 13, "B06": 13, "B07": 14, "B08": 14, "B09": 16,
         "B10": 12, "B11": 12, "B12": 13, "B13": 13, "B14": 14, "B15": 14, "B16": 15, "B17": 15}
"""FACTS' table of the fixed-cost tiles' points."""


@pytest.mark.parametrize("tile", sorted(FIXED))
def test_fixed_buildings_cost_exactly_their_resources_and_score_their_value(tile: str):
    """FACTS: "Fixed-cost tiles (17); points = sum of resource values, scored immediately"."""
    cost = dict(load().buildings[tile].cost)
    game = building(tile, wood=3, clay=3, stone=3, gold=3)
    legal = [a for a in game.legal_actions() if not a.decline]
    assert legal == [Action("resolve", location="building1", pay=cost)]
    play(game, legal[0].to_text())
    tribe = game.tribes[0]
    assert tribe.points["buildings"] == FIXED[tile] == sum(VALUES[r] * n for r, n in cost.items())
    assert tribe.buildings == [tile] and all(tribe.resources[r] == 3 - cost.get(r, 0) for r in VALUES)
    assert game.stacks[0] == ["B28"] and game.stack_sizes[0] == 6


@pytest.mark.parametrize(("tile", "pay", "points"), [
    ("B18", "gold:4", 24),                          # 4 of 1 kind
    ("B19", "wood:3,gold:1", 15),                   # 4 of 2 kinds
    ("B20", "wood:2,clay:1,stone:1", 15),           # 4 of 3 kinds
    ("B21", "wood:1,clay:1,stone:1,gold:1", 18),    # 4 of 4 kinds
    ("B22", "wood:5", 15),
    ("B23", "stone:2,gold:3", 28),
    ("B24", "clay:3,stone:1,gold:1", 23),
    ("B25", "wood:2,clay:1,stone:1,gold:1", 21),
])
def test_variable_buildings_take_n_resources_of_exactly_k_kinds(tile: str, pay: str, points: int):
    """FACTS: "pay exactly 4 or 5 resources drawn from exactly k different resource types [...]
    Points = sum of the values paid" (the engine reads "exactly k", as three implementations do)."""
    game = building(tile, wood=5, clay=5, stone=5, gold=5)
    play(game, f"resolve building1 pay={pay}")
    assert game.tribes[0].points["buildings"] == points


@pytest.mark.parametrize(("tile", "pay"), [
    ("B18", "wood:3,clay:1"), ("B18", "wood:3"), ("B18", "wood:5"),
    ("B19", "wood:4"), ("B19", "wood:2,clay:1,stone:1"), ("B19", "wood:3,clay:2"),
    ("B21", "wood:2,clay:1,stone:1"), ("B25", "wood:2,clay:1,stone:1,gold:0"),
])
def test_variable_buildings_refuse_other_counts_or_kinds(tile: str, pay: str):
    game = building(tile, wood=5, clay=5, stone=5, gold=5)
    assert refusal(game, f"resolve building1 pay={pay}").reason == "wrong_payment"


def test_variable_building_lists_every_way_to_pay():
    game = building("B21", wood=2, clay=2, stone=2, gold=2)
    legal = [a for a in game.legal_actions() if not a.decline]
    assert legal == [Action("resolve", location="building1", pay={"wood": 1, "clay": 1, "stone": 1, "gold": 1})]
    game = building("B19", wood=4, gold=1)
    paid = sorted(tuple(sorted(a.pay.items())) for a in game.legal_actions() if not a.decline)
    assert paid == [(("gold", 1), ("wood", 3))]


@pytest.mark.parametrize(("pay", "points"), [("wood:1", 3), ("gold:7", 42), ("wood:2,clay:1,stone:1,gold:3", 33)])
def test_any_building_takes_1_to_7_resources(pay: str, points: int):
    """FACTS: ""1–7" tiles (3): pay 1 to 7 resources of any types; points = sum of values, so 3 to 42"."""
    for tile in ("B26", "B27", "B28"):
        game = building(tile, wood=9, clay=9, stone=9, gold=9)
        play(game, f"resolve building1 pay={pay}")
        assert game.tribes[0].points["buildings"] == points and game.tribes[0].buildings == [tile]


def test_declining_a_building_keeps_it_on_its_stack():
    game = building("B01", wood=2, clay=1)
    play(game, "resolve building1 decline")
    assert game.stacks[0][0] == "B01" and game.tribes[0].resources["wood"] == 2


# -- tools -------------------------------------------------------------------------------------

def test_tool_steps_rise_lowest_first_up_to_4_4_4():
    """FACTS: "After step n the three tiles show: 1:[1,0,0] 2:[1,1,0] 3:[1,1,1] 4:[2,1,1] ... 12:[4,4,4]";
    the tool maker has "no effect at [4,4,4]"."""
    game = new_game(2)
    seen = []
    for _ in range(13):
        game.tribes[0].food = 12
        start_actions(game, {0: {"tool_maker": 1}})
        play(game, "resolve tool_maker")
        seen.append(list(game.tribes[0].tools))
    assert seen == FACTS_TOOL_STEPS + [[4, 4, 4]]


def test_the_three_tool_step_sources_share_the_sequence():
    """Tool maker, the permanent-tool card and a 5 of the dice for all give the same step."""
    for source in ("tool_maker", "C03", "C14"):
        game = buying("C03" if source == "C03" else "C14", slot=1, wood=1)
        game.tribes[0].tools = [2, 2, 1]
        if source == "tool_maker":
            start_actions(game, {0: {"tool_maker": 1}, 1: {"hunting_grounds": 1}})
            play(game, "resolve tool_maker")
        elif source == "C03":
            play(game, "resolve card1 pay=wood:1")
        else:
            play(game, "resolve card1 pay=wood:1 dice=5,1 picks=5,1")
        assert game.tribes[0].tools == [2, 2, 2], source


def test_a_new_tool_can_be_used_in_the_same_round():
    """FACTS: "A newly gained tool is unused, so it can be used later in the same action phase"."""
    game = new_game(2)
    start_actions(game, {0: {"tool_maker": 1, "forest": 1}, 1: {"hunting_grounds": 1}})
    play(game, "resolve tool_maker", "resolve forest dice=2 tools=0")
    assert game.tribes[0].resources["wood"] == 1


def test_a_used_tool_stays_used_when_upgraded():
    """Reading 5: "A tool upgraded after it was used this round stays used until the next round"."""
    game = new_game(2)
    game.tribes[0].tools = [1, 1, 1]
    start_actions(game, {0: {"forest": 1, "tool_maker": 1, "quarry": 1}, 1: {"hunting_grounds": 1}})
    play(game, "resolve forest dice=2 tools=0", "resolve tool_maker")
    assert game.tribes[0].tools == [2, 1, 1]
    assert refusal(game, "resolve quarry dice=3 tools=0").reason == "tool_used"


# -- games without a seed: reveals -------------------------------------------------------------

def test_unseeded_setup_asks_for_the_row_and_the_stack_tops():
    """Reading 7: "Civilisation cards are laid cheapest space first, at setup and when the row is
    refilled"."""
    for players in (2, 3, 4):
        game = Game.new(players)
        assert game.phase == "reveal" and game.legal_actions() == []
        assert game.pending_reveal == {"cards": 4, "stacks": list(range(players))}
        tiles = " ".join(f"building{i + 1}=B{10 + i}" for i in range(players))
        play(game, f"reveal cards=C30,C01,C17,C09 {tiles}")
        assert game.display == ["C30", "C01", "C17", "C09"]
        assert game.stacks == [[f"B{10 + i}"] for i in range(players)] and game.stack_sizes == [7] * players
        assert (game.phase, game.current, game.deck_size, game.deck) == ("placement", 0, 32, [])


def test_unseeded_game_reveals_the_next_tile_after_a_building_is_bought():
    game = Game.new(2)
    play(game, "reveal cards=C01,C02,C03,C04 building1=B01 building2=B02")
    game.tribes[0].resources.update(wood=2, clay=1)
    start_actions(game, {0: {"building1": 1, "forest": 1}, 1: {"hunting_grounds": 1}})
    play(game, "resolve building1 pay=wood:2,clay:1")
    assert game.phase == "reveal" and game.pending_reveal == {"cards": 0, "stacks": [0]}
    assert refusal(game, "resolve forest dice=3").reason == "wrong_phase"
    assert refusal(game, "reveal building1=B02").reason == "wrong_building"    # on stack 2
    assert refusal(game, "reveal building1=B01").reason == "wrong_building"    # built
    play(game, "reveal building1=B17")
    assert (game.phase, game.current, game.stacks[0], game.stack_sizes[0]) == ("actions", 0, ["B17"], 6)
    play(game, "resolve forest dice=3")
    assert game.current == 1


def test_unseeded_reveal_after_the_buyers_last_person_passes_to_the_next_tribe():
    game = Game.new(2)
    play(game, "reveal cards=C01,C02,C03,C04 building1=B01 building2=B02")
    game.tribes[0].resources.update(wood=2, stone=1)
    start_actions(game, {0: {"building2": 1}, 1: {"hunting_grounds": 1}})
    play(game, "resolve building2 pay=wood:2,stone:1", "reveal building2=B03")
    assert (game.phase, game.current) == ("actions", 1)


def test_unseeded_row_slides_and_the_new_cards_are_named_cheapest_first():
    """"faites glisser les cartes Civilisation restantes, complétez la rangée pour en avoir à
    nouveau 4" (seed); reading 7 for the order of the new cards."""
    game = Game.new(3)
    play(game, "reveal cards=C01,C02,C03,C04 building1=B01 building2=B02 building3=B03")
    game.tribes[0].resources["wood"] = 1
    game.tribes[1].resources["wood"] = 3
    start_actions(game, {0: {"card1": 1}, 1: {"card3": 1}, 2: {"hunting_grounds": 1}})
    play(game, "resolve card1 pay=wood:1", "resolve card3 pay=wood:3", "resolve hunting_grounds dice=1")
    assert game.phase == "reveal" and game.pending_reveal == {"cards": 2, "stacks": []}
    assert game.display == ["C02", "C04", None, None] and game.round == 2
    play(game, "reveal cards=C30,C31")
    assert game.display == ["C02", "C04", "C30", "C31"] and game.deck_size == 30
    assert (game.phase, game.current, game.start_player) == ("placement", 1, 1)


def test_unseeded_game_ends_when_the_pile_cannot_refill_the_row():
    game = Game.new(2)
    play(game, "reveal cards=C09,C10,C20,C29 building1=B01 building2=B02")
    game.deck_size = 1
    game.tribes[0].resources["wood"] = 3
    start_actions(game, {0: {"card1": 1, "card2": 1}})
    play(game, "resolve card1 pay=wood:1", "resolve card2 pay=wood:2")
    assert game.is_over and game.pending_reveal == {}


def test_seeded_row_refills_cheapest_empty_space_first():
    game = new_game(2)
    game.tribes[0].resources["wood"] = 7
    start_actions(game, {0: {"card1": 1, "card4": 1}, 1: {"hunting_grounds": 1}})
    first, second = game.deck[:2]
    play(game, "resolve card4 pay=wood:4", "resolve card1 pay=wood:1", "resolve hunting_grounds dice=1")
    assert game.display == [ROW[1], ROW[2], first, second]


# -- text notation -----------------------------------------------------------------------------

EXAMPLES = [
    Action("place", location="forest", people=3),
    Action("place", location="hut", people=2),
    Action("place", location="card4", people=1),
    Action("resolve", location="forest", dice=(3, 5, 6)),
    Action("resolve", location="quarry", dice=(1, 2), tools=(0, 2), one_time=(4, 2)),
    Action("resolve", location="tool_maker"),
    Action("resolve", location="card2", pay={"wood": 1, "clay": 1}, choose={"gold": 2}),
    Action("resolve", location="card1", pay={"stone": 1}, dice=(6, 1, 5), picks=(5, 6, 1)),
    Action("resolve", location="card3", pay={"gold": 3}, drawn="C17"),
    Action("resolve", location="card1", pay={"clay": 1}, dice=(2, 6), tools=(1,)),
    Action("resolve", location="card3", decline=True),
    Action("resolve", location="building1", pay={"wood": 2, "clay": 1}),
    Action("resolve", location="building2", decline=True),
    Action("feed", pay={"wood": 2, "gold": 1}),
    Action("feed", starve=True),
    Action("reveal", cards=("C01", "C17", "C30", "C09"), buildings={0: "B03", 1: "B21"}),
    Action("reveal", cards=("C05",)),
    Action("reveal", buildings={2: "B11"}),
]


@pytest.mark.parametrize("action", EXAMPLES, ids=lambda a: a.to_text())
def test_notation_round_trips(action: Action):
    assert parse_action(action.to_text()) == action
    assert Action.from_dict(action.kind, action.to_dict()) == action


@pytest.mark.parametrize(("text", "action"), [
    ("place forest 3", Action("place", location="forest", people=3)),
    ("place field", Action("place", location="field", people=1)),
    ("resolve forest dice=3,5,6 tools=0", Action("resolve", location="forest", dice=(3, 5, 6), tools=(0,))),
    ("resolve card2 pay=wood:1,clay:1 choose=gold:2",
     Action("resolve", location="card2", pay={"wood": 1, "clay": 1}, choose={"gold": 2})),
    ("resolve building1 pay=wood:2,clay:1", Action("resolve", location="building1", pay={"wood": 2, "clay": 1})),
    ("feed pay=wood:2", Action("feed", pay={"wood": 2})),
    ("reveal cards=C01,C17,C30,C09 building1=B03 building2=B21",
     Action("reveal", cards=("C01", "C17", "C30", "C09"), buildings={0: "B03", 1: "B21"})),
])
def test_the_documented_examples_parse(text: str, action: Action):
    """The notation of ``actions.py``'s docstring."""
    assert parse_action(text) == action
    assert action.to_text() == text


@pytest.mark.parametrize("text", ["", "jump forest", "place forest 3 4", "resolve forest dice=a",
                                  "resolve forest colour=red", "resolve forest 3"])
def test_bad_notation_is_a_value_error(text: str):
    with pytest.raises(ValueError):
        parse_action(text)


def test_the_legal_actions_of_a_position_round_trip():
    game = building("B21", wood=2, clay=2, stone=2, gold=2)
    game.tribes[0].placed.update({"card2": 1, "forest": 2})
    game.display[1] = "C02"
    game.tribes[0].tools = [1, 0, 0]
    game.tribes[0].one_time_tools = [3]
    actions = game.legal_actions()
    assert len(actions) > 10
    for action in actions:
        assert parse_action(action.to_text()) == action


def test_all_cards_are_known():
    assert set(load().cards) == set(ALL_CARDS)
    game = new_game(2)
    lay_cards(game, "C01", "C02", "C03", "C04")
    assert len(game.deck) == 32 and not {"C01", "C02", "C03", "C04"} & set(game.deck)
