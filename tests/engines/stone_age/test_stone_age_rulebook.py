"""Every rule example of the user's rules summary (seed 002, French and Dutch), as a position.

Each test quotes the sentence of the summary it checks. Where the summary is silent the test
says which fact of ``shared/reference/stone_age/FACTS.md`` (or which reading of the engine's
package docstring) it follows. Positions are seeded games edited directly; every die is given,
so nothing here depends on the seed's rolls.

Seats: 0, 1, 2, 3; seat 0 is the first start player.
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from games.engines.stone_age import Action, Game, IllegalAction, parse_action

ALL_CARDS = tuple(f"C{n:02d}" for n in range(1, 37))
ROW = ("C09", "C10", "C20", "C29")
"""A quiet card row: four food cards (1, 3, 3 and 2 food), cheapest space first."""


# -- positions ---------------------------------------------------------------------------------

def new_game(players: int = 2, seed: int = 1, row: tuple[str, ...] = ROW) -> Game:
    """A seeded game whose card row is ``row`` (card1 first); the rest of the deck in seed order."""
    game = Game.new(players, seed=seed)
    lay_cards(game, *row)
    return game


def lay_cards(game: Game, *row: str | None) -> None:
    """Put ``row`` on the card spaces (cheapest first); every other unseen card stays in the deck."""
    unseen = [c for c in [*game.display, *game.deck] if c is not None]
    game.display = list(row)
    game.deck = [c for c in unseen if c not in row]
    game.deck_size = len(game.deck)


def start_actions(game: Game, placed: Mapping[int, Mapping[str, int]]) -> Game:
    """Skip the placement: the tribes' people stand on ``placed`` and the action phase begins."""
    for seat, tribe in enumerate(game.tribes):
        tribe.placed = dict(placed.get(seat, {}))
    game.phase = "actions"
    order = [(game.start_player + s) % game.players for s in range(game.players)]
    game.current = next(seat for seat in order if game.tribes[seat].placed)
    game.clear_history()  # this position (and any change made by hand before it) is where undo stops
    return game


def play(game: Game, *texts: str) -> Game:
    for text in texts:
        game.apply(parse_action(text))
    return game


def refusal(game: Game, action: Action | str) -> IllegalAction:
    """Apply an action that must be refused; the game must be exactly as before."""
    before = game.to_dict()
    with pytest.raises(IllegalAction) as refused:
        game.apply(parse_action(action) if isinstance(action, str) else action)
    assert game.to_dict() == before, "a refused action must leave the game unchanged"
    return refused.value


def to_feeding(game: Game) -> Game:
    """Each tribe sends 1 person hunting and rolls a 1 (no food); then the tribes are fed."""
    start_actions(game, {seat: {"hunting_grounds": 1} for seat in range(game.players)})
    for _ in range(game.players):
        play(game, "resolve hunting_grounds dice=1")
    return game


def play_last_round(game: Game) -> Game:
    """End the game through the building end condition's path: this round is the last one."""
    game.last_round = True
    to_feeding(game)
    assert game.is_over
    return game


def final(game: Game, seat: int = 0) -> dict[str, int]:
    return next(s.breakdown for s in game.scores() if s.seat == seat)


# -- setting up --------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup(players: int):
    """"Mélangez les cartes Civilisation, formez une pioche face cachée et révélez les 4 premières
    cartes [...] Mélangez les tuiles Bâtiment et formez des piles face cachée selon le nombre de
    joueurs. Chaque joueur [...] reçoit [...] 5 membres de tribu [...], 12 nourritures et 2
    marqueurs : un sur la case « 0 » de la piste de score et un sur la case « 0 » de la piste
    d'agriculture. Le premier joueur reçoit la figurine premier joueur.\""""
    game = Game.new(players, seed=7)
    assert len([c for c in game.display if c]) == 4 and game.deck_size == len(game.deck) == 32
    assert set(game.display) | set(game.deck) == set(ALL_CARDS)
    assert len(game.stacks) == players and all(len(s) == 7 for s in game.stacks)
    assert game.stack_sizes == [7] * players
    assert len({b for s in game.stacks for b in s}) == 7 * players
    for tribe in game.tribes:
        assert (tribe.people, tribe.food, tribe.agriculture, tribe.score) == (5, 12, 0, 0)
        assert tribe.tools == [0, 0, 0] and sum(tribe.resources.values()) == 0
    assert (game.phase, game.start_player, game.current, game.round) == ("placement", 0, 0, 1)


def test_setup_shuffles_with_the_seed():
    """"Mélangez les cartes Civilisation [...] Mélangez les tuiles Bâtiment": a seed fixes the deal."""
    assert Game.new(3, seed=5).to_dict() == Game.new(3, seed=5).to_dict()
    deals = {tuple(Game.new(3, seed=s).display) + tuple(Game.new(3, seed=s).stacks[0]) for s in range(6)}
    assert len(deals) > 1


# -- 1. placement ------------------------------------------------------------------------------

def test_placement_goes_clockwise_from_the_first_player_one_location_at_a_time():
    """"En commençant par le premier joueur puis dans le sens des aiguilles d'une montre, chacun
    place un ou plusieurs membres de sa tribu sur un seul lieu du plateau.\""""
    game = new_game(3)
    play(game, "place hunting_grounds 2")
    assert game.current == 1 and game.tribes[0].placed == {"hunting_grounds": 2}
    play(game, "place forest 3")
    assert game.current == 2 and game.tribes[1].placed == {"forest": 3}
    play(game, "place field")
    assert game.current == 0


def test_placement_goes_on_until_everyone_has_placed_all_people():
    """"Les tours de table se poursuivent jusqu'à ce que tous les joueurs aient placé l'intégralité
    de leurs membres disponibles.\""""
    game = new_game(2)
    play(game, "place hunting_grounds 5")
    assert game.current == 1
    play(game, "place forest 1")
    assert game.current == 1, "seat 0 has no one left, so seat 1 places again"
    play(game, "place quarry 2", "place card1", "place field")
    assert game.phase == "actions" and game.current == 0
    assert [t.unplaced for t in game.tribes] == [0, 0]


def test_resource_sites_take_several_people_up_to_their_spaces():
    """"Sur les lieux de ressources, plusieurs membres peuvent être placés, dans la limite des
    espaces disponibles." (FACTS: 7 spaces on forest, clay pit, quarry and river.)"""
    game = new_game(4)
    play(game, "place forest 5")
    assert refusal(game, "place forest 3").reason == "location_full"
    play(game, "place forest 2")
    assert sum(t.placed.get("forest", 0) for t in game.tribes) == 7
    assert refusal(game, "place forest 1").reason == "location_full"
    play(game, "place hunting_grounds 5", "place hunting_grounds 5")  # the hunting grounds have no limit
    assert sum(t.placed.get("hunting_grounds", 0) for t in game.tribes) == 10


def test_village_places_are_limited():
    """"Les lieux du village (le champ, la hutte et le fabricant d'outils) disposent de places
    limitées." (FACTS: field 1, tool maker 1, hut exactly 2 of one player.)"""
    game = new_game(4)
    assert refusal(game, "place field 2").reason == "wrong_number"
    assert refusal(game, "place tool_maker 2").reason == "wrong_number"
    assert refusal(game, "place hut 1").reason == "wrong_number"
    play(game, "place field")
    assert refusal(game, "place field").reason == "location_full"
    play(game, "place hut 2")
    assert refusal(game, "place hut 2").reason == "location_full"


def test_a_player_never_adds_people_to_a_location_he_already_uses():
    """Seed: "chacun place un ou plusieurs membres de sa tribu sur un seul lieu"; FACTS: "A player
    may never add figures to a location where he already has figures this round. This includes the
    hunting grounds.\""""
    game = new_game(4)
    play(game, "place hunting_grounds 2", "place forest 1", "place forest 1", "place forest 1")
    assert refusal(game, "place hunting_grounds 1").reason == "already_there"
    play(game, "place quarry 1")
    assert game.current == 1
    assert refusal(game, "place forest 1").reason == "already_there"


@pytest.mark.parametrize("players", [2, 3])
def test_with_2_or_3_players_only_2_of_the_3_village_places(players: int):
    """"bij 2 of 3 spelers zijn de drie dorpslocaties (akker, hut, gereedschapsmaker) aan strengere
    restricties gebonden en mag niet zomaar elke plek bezet worden" and "à 2 ou 3 joueurs,
    appliquez scrupuleusement les limitations d'emplacements prévues par la règle" (FACTS: only 2 of
    the 3 village spaces may be occupied in a round; which one stays empty can change)."""
    game = new_game(players)
    play(game, "place field", "place tool_maker")
    if players == 3:
        play(game, "place hunting_grounds 1")
    assert game.current == 0
    assert refusal(game, "place hut 2").reason == "village_limit"
    assert ("hut", 2) not in game.legal_placements()

    other = new_game(players)                                      # another round: the hut and the field
    play(other, "place hut 2", "place field")
    if players == 3:
        play(other, "place hunting_grounds 1")
    assert refusal(other, "place tool_maker").reason == "village_limit"


def test_with_4_players_all_three_village_places():
    """The limit is for "2 of 3 spelers" only: with 4 players the field, the hut and the tool maker
    are all used."""
    game = new_game(4)
    play(game, "place field", "place tool_maker", "place hut 2")
    assert {loc for t in game.tribes for loc in t.placed} == {"field", "tool_maker", "hut"}


def test_with_2_players_one_tribe_per_resource_site():
    """FACTS (2 players): "figures of only 1 player on each of forest, clay pit, quarry, river"; the
    hunting grounds have no extra restriction."""
    game = new_game(2)
    play(game, "place forest 1")
    assert refusal(game, "place forest 1").reason == "site_limit"
    play(game, "place clay_pit 1", "place hunting_grounds 1", "place hunting_grounds 1")
    for site in ("forest", "clay_pit", "quarry", "river"):
        assert len([t for t in game.tribes if t.placed.get(site)]) <= 1
    assert all(t.placed.get("hunting_grounds") for t in game.tribes)


def test_with_3_players_two_tribes_per_resource_site():
    """FACTS (3 players): "figures of at most 2 different players on each of forest, clay pit,
    quarry, river (the 7-figure cap still applies)"."""
    game = new_game(3)
    play(game, "place quarry 1", "place quarry 2")
    assert refusal(game, "place quarry 1").reason == "site_limit"
    play(game, "place hunting_grounds 1", "place hunting_grounds 1", "place hunting_grounds 1")
    assert all(t.placed.get("hunting_grounds") for t in game.tribes)


def test_with_4_players_four_tribes_share_a_site():
    game = new_game(4)
    play(game, *["place river 1"] * 4)
    assert all(t.placed == {"river": 1} for t in game.tribes)


# -- 2. actions --------------------------------------------------------------------------------

def test_actions_start_with_the_first_player_who_resolves_all_his_people_in_any_order():
    """"En commençant par le premier joueur, chacun résout les actions de tous ses membres placés,
    dans l'ordre de son choix.\""""
    game = new_game(2)
    play(game, "place forest 2", "place hunting_grounds 2", "place field", "place quarry 1",
         "place tool_maker", "place clay_pit 2", "place hunting_grounds 1")
    assert game.phase == "actions" and game.current == 0
    play(game, "resolve tool_maker")                               # the last but one placed first
    assert game.current == 0
    play(game, "resolve forest dice=3,3", "resolve hunting_grounds dice=2", "resolve field")
    assert game.current == 1
    assert game.tribes[0].tools == [1, 0, 0] and game.tribes[0].agriculture == 1
    assert game.tribes[0].resources["wood"] == 2 and game.tribes[0].food == 12 + 1


@pytest.mark.parametrize(("location", "resource", "dice", "gained"), [
    ("hunting_grounds", "food", (3, 4), 3),       # 7 / 2
    ("forest", "wood", (2, 6, 5), 4),             # 13 / 3
    ("clay_pit", "clay", (6, 6, 3), 3),           # 15 / 4
    ("quarry", "stone", (4, 4, 6), 2),            # 14 / 5
    ("river", "gold", (6, 5, 6, 6), 3),           # 23 / 6
    ("river", "gold", (5,), 0),                   # 5 / 6
])
def test_gathering_divides_the_dice_by_the_value_and_rounds_down(location, resource, dice, gained):
    """"Pour les zones de ressources, lancez un dé par membre présent. Additionnez les résultats
    [...] puis divisez le total par la valeur de la ressource (bois = 3, glaise = 4, pierre = 5,
    or = 6, zone de chasse/nourriture = 2). Arrondissez toujours à l'entier inférieur pour savoir
    combien de ressources vous récupérez.\""""
    game = start_actions(new_game(4), {0: {location: len(dice)}, 1: {"hunting_grounds": 1}})
    food_before = game.tribes[0].food
    game.apply(Action("resolve", location=location, dice=dice))
    tribe = game.tribes[0]
    got = tribe.food - food_before if resource == "food" else tribe.resources[resource]
    assert got == gained == sum(dice) // {"food": 2, "wood": 3, "clay": 4, "stone": 5, "gold": 6}[resource]


def test_one_die_per_person():
    """"lancez un dé par membre présent": three people, three dice."""
    game = start_actions(new_game(2), {0: {"forest": 3}})
    assert refusal(game, "resolve forest dice=6,6").reason == "wrong_dice"
    assert refusal(game, "resolve forest dice=6,6,6,6").reason == "wrong_dice"
    seeded = game.complete(Action("resolve", location="forest"))
    assert seeded.dice is not None and len(seeded.dice) == 3


def test_11_on_stone_gives_2_stone_and_the_rest_is_lost():
    """Seed: "(bijvoorbeeld 11 gegooid op steen (waarde 5) levert 2 steen op, de rest vervalt)"."""
    game = start_actions(new_game(2), {0: {"quarry": 2, "river": 1}})
    play(game, "resolve quarry dice=5,6")
    assert game.tribes[0].resources["stone"] == 2
    play(game, "resolve river dice=5")                  # the lost 1 pip does not help the next roll
    assert game.tribes[0].resources == {"wood": 0, "clay": 0, "stone": 2, "gold": 0}


def test_tools_are_added_to_the_dice():
    """Seed: "Additionnez les résultats, ajoutez-y la valeur des outils utilisés si nécessaire, puis
    divisez le total par la valeur de la ressource"."""
    game = new_game(2)
    game.tribes[0].tools = [2, 1, 1]
    start_actions(game, {0: {"quarry": 2, "forest": 1}, 1: {"hunting_grounds": 1}})
    play(game, "resolve quarry dice=4,4 tools=0")        # 8 + 2 = 10: 2 stone (without the tool: 1)
    assert game.tribes[0].resources["stone"] == 2
    play(game, "resolve forest dice=1 tools=1,2")        # 1 + 1 + 1 = 3: 1 wood
    assert game.tribes[0].resources["wood"] == 1
    assert game.tribes[0].tools_used == [True, True, True]


def test_a_tool_tile_is_used_once_per_round_then_refreshed():
    """"een gereedschapstegel mag je slechts één keer per ronde gebruiken. Draai gebruikte tegels
    90 graden zodat je weet wat al is ingezet.\""""
    game = new_game(2)
    game.tribes[0].tools = [3, 0, 0]
    start_actions(game, {0: {"forest": 1, "hunting_grounds": 1}, 1: {"hunting_grounds": 1}})
    play(game, "resolve forest dice=3 tools=0")
    assert game.tribes[0].resources["wood"] == 2 and game.tribes[0].tools_used == [True, False, False]
    assert refusal(game, "resolve hunting_grounds dice=1 tools=0").reason == "tool_used"
    play(game, "resolve hunting_grounds dice=1", "resolve hunting_grounds dice=1")
    assert game.phase == "placement" and game.round == 2
    assert game.tribes[0].tools_used == [False, False, False]   # turned back for the new round
    start_actions(game, {0: {"forest": 1}})
    play(game, "resolve forest dice=3 tools=0")
    assert game.tribes[0].resources["wood"] == 4


def test_the_field_raises_agriculture_by_1():
    """Seed: "Sur le champ, votre niveau d'agriculture augmente de 1"."""
    game = new_game(2)
    play(game, "place field", "place hunting_grounds 5", "place hunting_grounds 4")
    play(game, "resolve field")
    assert game.tribes[0].agriculture == 1


def test_the_hut_gives_a_new_person_for_the_next_round_and_takes_2_people():
    """"dans la hutte, vous gagnez 1 nouveau membre pour la manche suivante (coûte 2 membres pour
    s'activer)". FACTS: the new person eats at the end of this round."""
    game = new_game(2)
    assert refusal(game, "place hut 1").reason == "wrong_number"
    play(game, "place hut 2", "place hunting_grounds 5", "place hunting_grounds 3")
    play(game, "resolve hut")
    assert game.tribes[0].people == 6
    play(game, "resolve hunting_grounds dice=1,1,1", "resolve hunting_grounds dice=1,1,1,1,1")
    assert game.round == 2
    assert game.tribes[0].food == 12 + 1 - 6 and game.tribes[1].food == 12 + 2 - 5
    assert game.current == 1
    play(game, "place hunting_grounds 5")
    play(game, "place hunting_grounds 6")                   # the new person is placed this round
    assert game.tribes[0].unplaced == 0 and game.phase == "actions"


def test_the_tool_maker_gives_a_tool_then_improves_one():
    """"chez le fabricant d'outils, vous prenez ou améliorez une tuile Outil.\""""
    game = new_game(2)
    start_actions(game, {0: {"tool_maker": 1}, 1: {"hunting_grounds": 1}})
    play(game, "resolve tool_maker")
    assert game.tribes[0].tools == [1, 0, 0]                 # takes a tool tile
    game.tribes[0].tools = [1, 1, 1]
    start_actions(game, {0: {"tool_maker": 1}})
    play(game, "resolve tool_maker")
    assert game.tribes[0].tools == [2, 1, 1]                 # improves one: the 1 turns to 2


def test_a_card_is_bought_by_paying_its_space():
    """"Pour les cartes et les bâtiments, vous payez les ressources requises pour les acquérir."
    (FACTS: the card on the n-th space costs n resources of any kinds, never food.)"""
    game = new_game(2)
    game.tribes[0].resources.update(wood=1, clay=1, gold=1)
    start_actions(game, {0: {"card3": 1}, 1: {"hunting_grounds": 1}})
    play(game, "resolve card3 pay=wood:1,clay:1,gold:1")
    tribe = game.tribes[0]
    assert tribe.cards == ["C20"] and tribe.food == 12 + 3 and sum(tribe.resources.values()) == 0
    assert game.display == ["C09", "C10", None, "C29"]


def test_a_building_is_bought_by_paying_its_cost_and_scores_at_once():
    """"Pour les cartes et les bâtiments, vous payez les ressources requises pour les acquérir"
    and "Vous gagnez ces points directement au cours de la partie en construisant des bâtiments à
    l'aide des ressources récoltées.\""""
    game = new_game(2)
    game.stacks[0] = ["B01", "B10"]                         # B01: 2 wood + 1 clay
    game.tribes[0].resources.update(wood=3, clay=1)
    start_actions(game, {0: {"building1": 1}, 1: {"hunting_grounds": 1}})
    play(game, "resolve building1 pay=wood:2,clay:1")
    tribe = game.tribes[0]
    assert tribe.buildings == ["B01"] and tribe.score == 2 * 3 + 4
    assert tribe.resources == {"wood": 1, "clay": 0, "stone": 0, "gold": 0}
    assert game.stacks[0] == ["B10"]                         # the next tile of the stack shows


def test_a_player_may_place_on_a_card_he_cannot_pay_and_decline():
    """FACTS: "A player may place on a card or building he cannot afford" and "A player may decline
    to buy; the figure just returns.\""""
    game = new_game(2)
    play(game, "place card4", "place hunting_grounds 5", "place building1", "place hunting_grounds 3")
    assert refusal(game, "resolve card4 pay=wood:4").reason == "cannot_pay"
    assert game.legal_actions()[:1] == [Action("resolve", location="building1", decline=True)]
    play(game, "resolve card4 decline", "resolve building1 decline")
    assert game.display[3] == "C29" and game.tribes[0].cards == [] and game.tribes[0].buildings == []


# -- 3. feeding --------------------------------------------------------------------------------

def test_each_person_eats_1_food_after_agriculture():
    """"Chaque membre consomme 1 nourriture. Déduisez d'abord votre niveau d'agriculture du nombre
    de membres ; payez le reste avec vos jetons Nourriture.\""""
    game = new_game(2)
    game.tribes[0].agriculture = 2
    game.tribes[1].people = 7
    to_feeding(game)
    assert game.round == 2
    assert game.tribes[0].food == 12 - (5 - 2)
    assert game.tribes[1].food == 12 - 7


def test_agriculture_counts_before_the_food_tokens():
    """"Déduisez d'abord votre niveau d'agriculture du nombre de membres ; payez le reste avec vos
    jetons Nourriture": 5 people, agriculture 3, 2 food tokens is enough."""
    game = new_game(2)
    game.tribes[0].agriculture, game.tribes[0].food = 3, 2
    to_feeding(game)
    assert game.round == 2 and game.tribes[0].food == 0 and game.tribes[0].score == 0


def test_agriculture_above_the_tribe_size_gives_no_food():
    """"Déduisez d'abord votre niveau d'agriculture du nombre de membres ; payez le reste avec vos
    jetons Nourriture": agriculture only lowers what the tribe eats. FACTS (English rulebook) has
    the tribe take its agriculture in food and keep the leftover; where they disagree the seed
    wins (engine docstring)."""
    game = new_game(2)
    game.tribes[0].agriculture, game.tribes[0].food = 7, 3
    to_feeding(game)
    assert game.round == 2 and game.tribes[0].food == 3 and game.tribes[0].score == 0


def test_short_of_food_a_tribe_may_pay_with_resources_1_for_1():
    """"Si vous manquez de nourriture, vous pouvez payer avec des ressources (1 ressource = 1
    nourriture)" and "als je te weinig voedsel hebt, mag je willekeurige grondstoffen als
    vervangend voedsel inzetten\""""
    game = new_game(2)
    tribe = game.tribes[0]
    tribe.food, tribe.agriculture = 1, 1
    tribe.resources.update(wood=2, gold=2)
    to_feeding(game)
    assert (game.phase, game.current) == ("feeding", 0)
    assert game.shortfall(0) == 3
    assert Action("feed", starve=True) in game.legal_actions()
    assert Action("feed", pay={"wood": 1, "gold": 2}) in game.legal_actions()
    play(game, "feed pay=wood:1,gold:2")
    tribe = game.tribes[0]
    assert tribe.food == 0 and tribe.resources == {"wood": 1, "clay": 0, "stone": 0, "gold": 0}
    assert tribe.score == 0 and game.round == 2


def test_a_tribe_that_will_not_pay_loses_10_points():
    """"Si vous ne pouvez pas ou ne souhaitez pas le faire, vous perdez immédiatement 10 points de
    victoire sur la piste de score.\""""
    game = new_game(2)
    game.tribes[0].food = 3
    game.tribes[0].resources["stone"] = 5
    to_feeding(game)
    play(game, "feed starve")
    tribe = game.tribes[0]
    assert tribe.score == -10 and tribe.points["starvation"] == -10
    assert tribe.food == 0 and tribe.resources["stone"] == 5
    assert game.round == 2


@pytest.mark.parametrize("food", [4, 2, 0])
def test_the_penalty_is_always_10_however_much_food_was_missing(food: int):
    """"kies je ervoor om dit niet te doen, dan kost dat áltijd 10 punten, ongeacht hoeveel voedsel
    je tekortkwam." A tribe without resources cannot pay: "Si vous ne pouvez pas [...] vous perdez
    immédiatement 10 points" (the engine takes the penalty without asking, reading 4)."""
    game = new_game(2)
    game.tribes[0].food = food
    to_feeding(game)
    assert game.round == 2, "no decision to make: the penalty is the only way"
    assert game.tribes[0].score == -10 and game.tribes[0].food == 0
    assert game.tribes[1].score == 0 and game.tribes[1].food == 7


def test_the_penalty_comes_back_every_hungry_round():
    """"vous perdez immédiatement 10 points" in each round the tribe goes hungry; the score may go
    below zero (FACTS)."""
    game = new_game(2)
    game.tribes[0].food = 0
    to_feeding(game)
    to_feeding(game)
    assert game.tribes[0].score == -20 and game.round == 3


# -- the end of a round ------------------------------------------------------------------------

def test_end_of_round_cards_slide_row_refills_first_player_passes_left():
    """"Pour terminer, faites glisser les cartes Civilisation restantes, complétez la rangée pour en
    avoir à nouveau 4, et passez la figurine premier joueur au voisin de gauche.\""""
    game = new_game(3)
    top_of_deck = game.deck[:2]
    game.tribes[0].resources["wood"] = 2
    game.tribes[1].resources["wood"] = 4
    start_actions(game, {0: {"card2": 1}, 1: {"card4": 1}, 2: {"hunting_grounds": 1}})
    play(game, "resolve card2 pay=wood:2", "resolve card4 pay=wood:4", "resolve hunting_grounds dice=1")
    assert game.round == 2 and game.phase == "placement"
    assert game.display == ["C09", "C20", *top_of_deck]       # slid to the cheap end, refilled after
    assert game.deck_size == 36 - 4 - 2
    assert (game.start_player, game.current) == (1, 1)
    play(game, "place hunting_grounds 1")
    assert game.current == 2


def test_the_first_player_token_goes_round_the_table():
    """"passez la figurine premier joueur au voisin de gauche": 0, 1, 2, 0 with 3 players."""
    game = new_game(3)
    starts = []
    for _ in range(4):
        starts.append(game.start_player)
        to_feeding(game)
    assert starts == [0, 1, 2, 0]


def test_the_tribes_resolve_from_the_new_first_player():
    """"En commençant par le premier joueur, chacun résout les actions": in round 2, seat 1."""
    game = new_game(2)
    to_feeding(game)
    play(game, "place hunting_grounds 5", "place hunting_grounds 5")
    assert game.phase == "actions" and game.current == 1


# -- the end of the game -----------------------------------------------------------------------

def test_game_ends_when_the_deck_cannot_refill_the_row():
    """"La première situation survient lorsqu'au début d'un nouveau tour, la pioche ne contient plus
    assez de cartes civilisation pour remplir les quatre emplacements prévus.\""""
    game = new_game(2)
    game.deck, game.deck_size = game.deck[:1], 1
    game.tribes[0].resources["wood"] = 3
    start_actions(game, {0: {"card1": 1, "card2": 1}, 1: {"hunting_grounds": 1}})
    play(game, "resolve card1 pay=wood:1", "resolve card2 pay=wood:2", "resolve hunting_grounds dice=1")
    assert game.is_over and game.round == 1
    assert game.tribes[1].food == 12 - 5, "the round was finished, feeding included"
    assert refusal(game, "place hunting_grounds 1").reason == "game_over"


def test_game_goes_on_while_the_deck_can_refill_the_row():
    """The same with exactly as many cards in the deck as empty spaces: a new round begins."""
    game = new_game(2)
    game.deck, game.deck_size = game.deck[:2], 2
    game.tribes[0].resources["wood"] = 3
    start_actions(game, {0: {"card1": 1, "card2": 1}, 1: {"hunting_grounds": 1}})
    play(game, "resolve card1 pay=wood:1", "resolve card2 pay=wood:2", "resolve hunting_grounds dice=1")
    assert not game.is_over and game.round == 2 and game.deck_size == 0
    assert None not in game.display


def test_game_ends_after_the_round_in_which_a_building_stack_runs_out():
    """"La seconde a lieu dès qu'au moins une pile de tuiles bâtiment est totalement épuisée au
    cours d'une manche ; le tour actuel est alors mené à son terme, jusqu'à la phase d'alimentation
    de la tribu comprise.\""""
    game = new_game(2)
    game.stacks[0], game.stack_sizes[0] = ["B01"], 1
    game.tribes[0].resources.update(wood=2, clay=1)
    start_actions(game, {0: {"building1": 1, "field": 1}, 1: {"river": 2}})
    play(game, "resolve building1 pay=wood:2,clay:1")
    assert game.stack_sizes[0] == 0 and game.last_round and not game.is_over
    play(game, "resolve field", "resolve river dice=6,6")     # the round goes on to its end
    assert game.is_over and game.round == 1
    assert game.tribes[0].agriculture == 1 and game.tribes[1].resources["gold"] == 2
    assert [t.food for t in game.tribes] == [12 + 1 - 5, 12 - 5], "feeding included"
    assert game.scores()[0].breakdown["buildings"] == 10


# -- final scoring -----------------------------------------------------------------------------

def test_one_point_per_resource_left():
    """"Les joueurs obtiennent d'abord 1 point pour chaque ressource restante dans leur réserve
    personnelle." (FACTS: food scores nothing.)"""
    game = new_game(2)
    game.tribes[0].resources.update(wood=3, clay=1, stone=2, gold=1)
    game.tribes[0].food = 30
    play_last_round(game)
    assert final(game)["leftover_resources"] == 7
    assert game.scores()[0].total == 7


def test_leftover_resources_count_only_once_the_game_is_over():
    """The final scoring ("Vient ensuite le décompte final") comes after the end of the game."""
    game = new_game(2)
    game.tribes[0].resources["gold"] = 4
    assert final(game)["leftover_resources"] == 0 and game.scores()[0].total == 0


@pytest.mark.parametrize(("cards", "points"), [
    (("C01",), 1),
    (("C01", "C03", "C05", "C07", "C09"), 25),             # 5 different symbols
    (("C01", "C03", "C05", "C07", "C09", "C02"), 26),       # 5 different + 1 repeat: 25 + 1
    (("C01", "C02", "C03", "C04"), 8),                      # two sets of 2
    (("C01", "C02", "C15", "C16", "C03"), 9 + 4),
    (tuple(f"C{n:02d}" for n in range(1, 17)), 128),        # both full sets of 8
    (("C17", "C22"), 0),                                    # sand cards are no symbols
])
def test_green_cards_score_the_square_of_each_set_of_different_symbols(cards, points):
    """"Celles sur fond vert rapportent des points sous forme de collections de symboles distincts :
    le nombre de symboles uniques dans une série est élevé au carré (par exemple, 5 symboles
    différents = 25 points, avec la possibilité de former plusieurs séries).\""""
    game = new_game(2)
    game.tribes[0].cards = list(cards)
    play_last_round(game)
    assert final(game)["green_cards"] == points


@pytest.mark.parametrize(("cards", "figure", "setup", "points"), [
    (("C17", "C20"), "farmers", {"agriculture": 4}, 3 * 4),               # farmers x agriculture
    (("C22", "C24"), "tool_makers", {"tools": [3, 2, 2]}, 3 * 7),        # tool makers x tool value
    (("C31", "C27"), "hut_builders", {"buildings": ["B01", "B02", "B10"]}, 4 * 3),  # x buildings
    (("C35", "C32"), "shamans", {"people": 8}, 3 * 8),                    # shamans x people
])
def test_sand_cards_multiply_figures_by_the_tribes_development(cards, figure, setup, points):
    """"Les cartes sur fond sable affichent des multiplicateurs liés à votre développement : vous
    multipliez le nombre de personnages représentés (bâtisseurs, fabricants d'outils, chamans ou
    agriculteurs) par votre total final de bâtiments, votre valeur d'outils, vos membres de tribu ou
    votre niveau sur la piste d'agriculture.\""""
    game = new_game(2)
    tribe = game.tribes[0]
    tribe.cards = list(cards)
    for name, value in setup.items():
        setattr(tribe, name, value)
    play_last_round(game)
    breakdown = final(game)
    assert breakdown[figure] == points
    assert all(breakdown[f] == 0 for f in ("farmers", "tool_makers", "hut_builders", "shamans") if f != figure)


def test_one_time_tools_are_not_tool_value():
    """"votre valeur d'outils": the tool tiles (FACTS: one-time tools are not Tool tiles)."""
    game = new_game(2)
    game.tribes[0].cards = ["C23"]
    game.tribes[0].one_time_tools = [4, 3]
    game.tribes[0].tools = [1, 0, 0]
    play_last_round(game)
    assert final(game)["tool_makers"] == 1 and game.scores()[0].tiebreak == 0 + 1 + 5


def test_the_total_is_every_part_together():
    """"Le joueur qui accumule le plus de points remporte la victoire.\""""
    game = new_game(2)
    tribe = game.tribes[0]
    tribe.cards = ["C01", "C03", "C17"]
    tribe.agriculture = 2
    tribe.resources["clay"] = 2
    tribe.points["buildings"] = 12
    tribe.points["starvation"] = -10
    game.tribes[1].points["buildings"] = 11
    play_last_round(game)
    score = game.scores()[0]
    assert score.breakdown["green_cards"] == 4 and score.breakdown["farmers"] == 2
    assert score.total == 12 - 10 + 2 + 4 + 2 == sum(score.breakdown.values())
    assert game.final_ranks() == {0: 2, 1: 1}


def test_the_tie_break_is_agriculture_tools_and_people():
    """"En cas d'égalité, le joueur ayant la valeur combinée la plus élevée en agriculture, outils
    et membres de tribu l'emporte.\""""
    game = new_game(3)
    for tribe in game.tribes:
        tribe.points["buildings"] = 20
    game.tribes[0].agriculture = 1                  # 1 + 0 + 5 = 6
    game.tribes[1].tools = [1, 1, 0]                # 0 + 2 + 5 = 7
    game.tribes[2].people = 6                       # 0 + 0 + 6 = 6
    play_last_round(game)
    assert [s.total for s in game.scores()] == [20, 20, 20]
    assert [s.tiebreak for s in game.scores()] == [6, 7, 6]
    assert game.final_ranks() == {0: 2, 1: 1, 2: 2}, "still equal after the tie-break: a shared place"
