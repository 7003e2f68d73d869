"""The rules of play of Map-Chips Benelux, sentence by sentence (seed 003, Wikicarpedia, "Jetons
de Carte – Benelux", French): each test quotes the sentence it checks. The set-up's sentences
("Mise en place") are checked in ``test_carcassonne_maps_chips.py``; here the game starts from
them.
"""

from __future__ import annotations

from collections import Counter

from games.engines.carcassonne import INNS_CATHEDRALS, TRADERS_BUILDERS, Options
import pytest

from games.engines.carcassonne_maps import CHIPS, Action, Chip, ChipValues, Game, SquareKind, parse_action
from games.engines.carcassonne_maps.simulate import random_game

from .carcassonne_maps_tables import (
    BENELUX, dealt, filler, holding, last_tile, play, reason, table_game, to_amsterdam, with_stack,
)

ONLY_ONES = ChipValues.of({"violet": {1: 10}, "light_blue": {1: 10}, "orange": {1: 10}})
TRADING = Options(expansions=(INNS_CATHEDRALS, TRADERS_BUILDERS), rules=(TRADERS_BUILDERS,))


def island_actions(game: Game, colour: str | None = None, stack: int | None = None) -> list[Action]:
    found = [Action.of(a) for a in game.legal_actions()]
    return [a for a in found if a.from_island and colour in (None, a.island) and stack in (None, a.stack)]


def first_plain(actions: list[Action]) -> Action:
    """The first action with no figure (legal actions list each placement bare first)."""
    return next(a for a in actions if not a.figures)


# -- Matériel, Mise en place: the game starts from them ---------------------------------------------

def test_il_est_recommande_de_jouer_avec_110_120_tuiles() -> None:
    """"Il est recommandé de jouer avec 110-120 tuiles, par exemple avec le jeu de base et les
    première et deuxième extensions, c'est-à-dire, Ext. 1 - Auberges et Cathédrales et Ext. 2 -
    Marchands et Bâtisseurs." The default game: 72 + 18 + 24 = 114 tiles."""
    game = Game.new(2, seed=1)
    assert game.options.expansions == (INNS_CATHEDRALS, TRADERS_BUILDERS)
    every = len(game.board.placed) + sum(s.left for s in game.islands) + game.face_down_left
    assert every == 114 and 110 <= every <= 120


def test_placez_les_premieres_tuiles_des_piles_face_visible_puis_les_piles_habituelles() -> None:
    """"Utilisez 2 des 3 cases de départ disponibles [...] faites 6 piles de 5 tuiles chacune.
    Placez-les toutes sur les 6 carrés d'île (2 piles par île) sur la carte. Placez les premières
    tuiles des piles face visible. Enfin, vous faites les piles habituelles avec les tuiles
    Terrain restantes." """
    for seed in range(5):
        game = Game.new(3, seed=seed)
        assert len(game.start_squares) == 2 and len(game.board.placed) == 2
        view = game.view()
        assert [(i["colour"], i["stack"], i["left"]) for i in view["islands"]] == [
            (colour, stack, 5) for colour in ("violet", "light_blue", "orange") for stack in (1, 2)]
        assert all(i["face_up"] == s.face_up for i, s in zip(view["islands"], game.islands))
        assert all(BENELUX.square((i["x"], i["y"])).colour == i["colour"] for i in view["islands"])
        on_table = Counter(game.letters) + Counter(t for s in game.islands for t in [s.face_up, *(s.below or [])])
        assert on_table + Counter(game.pile) == Counter(game.tileset.pile() + [game.tileset.start])


# -- 1. Pose d'une tuile: les vagues -------------------------------------------------------------------

def test_vous_ne_pouvez_pas_placer_de_tuile_terrain_sur_les_cases_de_vagues() -> None:
    """"Il y a trois cases marquées de vagues sur la carte. Vous ne pouvez pas placer de tuile
    Terrain sur ces cases." (Exemple 1 : "Une case avec des vagues où aucune tuile ne peut être
    placée.") The wave at (9,5) lies beside the road west of Zwolle; no tile may go there, from the
    draw or from an island, and no game lays one there."""
    waves = BENELUX.squares_of(SquareKind.WAVE)
    assert len(waves) == 3
    game = holding(table_game(), 0, "violet:1")
    play(game, "U@12,6r0", "U@11,6r0", "U@10,6r0", "U@9,6r0")
    assert (9, 5) in waves and (9, 5) not in game.board.frontier
    for rotation in (0, 90, 180, 270):
        assert reason(game, f"B@9,5r{rotation}") == "wave_square"
        assert reason(game, f"E@9,5r{rotation} island:violet/1 reveal:N") == "wave_square"
    assert not any((a.x, a.y) in waves for a in game.legal_actions())
    finished, _ = random_game(5, 3)
    assert not set(waves) & set(finished.board.tiles)


# -- Collecte des jetons -----------------------------------------------------------------------------

def test_vous_prenez_le_jeton_vous_le_retournez_et_marquez_immediatement_1_ou_2_points() -> None:
    """"Si vous placez une tuile sur une case avec un jeton, vous prenez le jeton, vous le
    retournez et vous marquez immédiatement 1 ou 2 points. Ensuite, vous placez le jeton face
    visible devant vous." Exemple 2 : "Rouge place une tuile sur une case avec un jeton et le
    prend. Rouge obtient alors 2 points pour cela." """
    game = Game.new(2, setup=dealt(((10, 6), "orange:2")))
    play(game, "U@12,6r0", "U@11,6r0")
    assert game.legal_actions("U")[0].to_text() != "U@10,6r0"
    assert "U@10,6r0 chip:orange:2" in {a.to_text() for a in game.legal_actions("U")}
    play(game, "U@10,6r0")                                    # a game that knows the chip needs no word of it
    assert game.scores()[0].breakdown[CHIPS] == 2 and game.scores()[0].total == 2
    assert game.chips_held == [[Chip("orange", 2)], []] and (10, 6) not in game.chips
    assert next(c for c in game.view()["chips"] if (c["x"], c["y"]) == (10, 6))["face_down"] is False


def test_at_a_table_the_chip_turned_over_is_named_and_must_be_one_left_in_the_box() -> None:
    """"vous le retournez": at a table the scorekeeper says what the chip shows."""
    game = table_game((10, 6))
    play(game, "U@12,6r0", "U@11,6r0")
    assert reason(game, "U@10,6r0") == "chip_missing"
    assert reason(game, "U@10,6r0 chip:violet:3") == "chip_not_in_box"
    assert {a.chip for a in game.legal_actions("U") if (a.x, a.y) == (10, 6) and not a.figures} == {
        Chip(colour, points) for colour in ("violet", "light_blue", "orange") for points in (1, 2)}
    play(game, "U@10,6r0 chip:light_blue:1")
    assert game.scores()[0].breakdown[CHIPS] == 1
    game = table_game((10, 6), values=ONLY_ONES)
    play(game, "U@12,6r0", "U@11,6r0")
    assert reason(game, "U@10,6r0 chip:orange:2") == "chip_not_in_box"


def test_marquez_immediatement_the_chip_scores_before_the_feature_the_tile_completes() -> None:
    """"vous marquez immédiatement": the chip is part of laying the tile ("1. Pose d'une tuile"),
    before the features are scored ("3. Évaluation"): its award comes first."""
    game = table_game((12, 2), start_tiles=("U", "B"), start_turns=(1, 0), keep_clear=[(12, 3), (12, 4)])
    play(game, "U@12,4r90 meeple:0", "U@12,3r90", "A@12,6r180", "U@12,2r90 chip:violet:2")
    assert [(a.source, a.seats, a.points) for a in game.awards] == [("chips", (1,), 2), ("road", (0,), 5)]


def test_a_chip_is_taken_once() -> None:
    game, _ = random_game(4, 8)
    squares = [t.position for t in game.chips_taken]
    assert len(squares) == len(set(squares)) and not set(squares) & set(game.chips)
    assert sum(t.chip.points for t in game.chips_taken) == sum(s.breakdown[CHIPS] for s in game.scores())


# -- Prendre une tuile face visible de l'île ----------------------------------------------------------

def test_avec_un_jeton_devant_vous_prendre_une_tuile_face_visible_d_une_ile_de_la_couleur() -> None:
    """"Si c'est votre tour et que vous avez au moins un jeton devant vous, c'est à vous de décider...
    a) ... si vous voulez prendre une tuile face visible d'une île de la couleur correspondante au
    lieu d'une de la pile habituelle." (The players "peuvent naviguer vers différentes îles de la
    mer du Nord pour ramasser des tuiles Terrain face visible qui peuvent être placées à la place
    des tuiles piochées dans la pile".)"""
    game = Game.new(2, seed=4)
    assert island_actions(game) == [], "no chip, no island tile"
    assert reason(game, f"{game.islands[0].face_up}@0,0r0 island:violet/1") == "no_such_chip"
    game = holding(game, 0, "violet:1")
    assert {(a.island, a.stack) for a in island_actions(game)} == {("violet", 1), ("violet", 2)}
    assert reason(game, f"{game.islands[4].face_up}@0,0r0 island:orange/1") == "no_such_chip"
    drawn, left = game.next_tile, game.face_down_left
    action = first_plain(island_actions(game, "violet", 1))
    game.apply(action)
    assert game.letters[-1] == action.tile != None and game.board.placed[-1].position == (action.x, action.y)
    assert game.next_tile == drawn and game.face_down_left == left, "the usual stack is not touched"


def test_si_les_deux_piles_sont_encore_sur_l_ile_vous_pouvez_choisir() -> None:
    """"Si les deux piles sont encore sur l'île, vous pouvez choisir de prendre la première tuile
    de n'importe laquelle d'entre elles." """
    for stack, tile in ((1, "E"), (2, "U")):
        game = holding(table_game(), 0, "violet:1")
        chosen = first_plain(island_actions(game, "violet", stack))
        assert chosen.tile == tile
        game.apply(chosen)
        assert game.letters[-1] == tile and game.islands[stack - 1].left == 4 and game.islands[2 - stack].left == 5


def test_s_il_ne_reste_qu_une_seule_pile_vous_prenez_la_premiere_tuile_de_la_pile_restante() -> None:
    """"S'il ne reste qu'une seule pile, vous prenez la première tuile de la pile restante." Five
    violet chips empty the violet island's stack 1 (E, then the four it turns up: N, V, U, E);
    then only stack 2 is offered."""
    game = holding(Game.new(2, setup=dealt()), 0, *["violet:1"] * 6)
    taken = []
    for _ in range(5):
        action = first_plain(island_actions(game, "violet", 1))
        taken.append(action.tile)
        game.apply(action)
        filler(game)                                                           # seat 1 draws face down
    assert taken == ["E", "N", "V", "U", "E"] and game.islands[0].left == 0
    assert {(a.island, a.stack) for a in island_actions(game)} == {("violet", 2)}
    assert reason(game, "E@12,6r180 island:violet/1") == "island_empty"
    game.apply(first_plain(island_actions(game, "violet", 2)))
    assert game.chips_held[0] == [] and len(game.chips_spent[0]) == 6


def test_vous_vous_debarrassez_de_votre_jeton_et_vous_placez_votre_tuile() -> None:
    """"Ensuite, vous vous débarrassez de votre jeton (il n'est plus dans le jeu) et vous placez
    votre tuile." Its points stay scored; the tile takes a meeple as usual."""
    game = table_game((10, 6))
    play(game, "U@12,6r0", "U@11,6r0", "U@10,6r0 chip:violet:2", "U@9,6r0")
    play(game, "E@12,7r180 meeple:0 island:violet/1 reveal:N")
    assert game.chips_held[0] == [] and game.chips_spent[0] == [Chip("violet", 2)]
    assert game.scores()[0].breakdown[CHIPS] == 2 and game.meeples_left[0] == 6
    assert game.view()["chips_spent"] == [[{"colour": "violet", "points": 2}], []]


def test_a_la_fin_de_votre_tour_vous_revelez_la_tuile_superieure_de_la_pile_utilisee() -> None:
    """"À la fin de votre tour, vous révélez la tuile supérieure de la pile de l'île utilisée."
    Exemple 3 : "Rouge paie un jeton violet et prend une des tuiles face visible de l'île
    violette. Ensuite, Rouge place sa tuile. À la fin de son tour, Rouge révèle la tuile suivante." """
    game = holding(Game.new(2, setup=dealt()), 0, "violet:1")
    assert "E@12,6r180 island:violet/1 reveal:N" in {a.to_text() for a in island_actions(game)}
    assert reason(game, "E@12,6r180 island:violet/1 reveal:V") == "wrong_reveal"
    play(game, "E@12,6r180 island:violet/1")
    assert game.islands[0].face_up == "N" and game.islands[0].left == 4
    at_table = holding(table_game(), 0, "violet:1")
    assert reason(at_table, "E@12,6r180 island:violet/1") == "reveal_missing"
    assert reason(at_table, "E@12,6r180 island:violet/1 reveal:Z") == "no_such_tile"
    play(at_table, "E@12,6r180 island:violet/1 reveal:X")
    assert at_table.islands[0].face_up == "X" and "X" not in at_table.pile   # X: the box's only crossroads
    used_up = with_stack(holding(table_game(), 0, "violet:1"), "violet", 1, "E")
    assert reason(used_up, "E@12,6r180 island:violet/1 reveal:N") == "nothing_to_reveal"
    play(used_up, "E@12,6r180 island:violet/1")
    assert used_up.islands[0].face_up is None and used_up.islands[0].left == 0


def test_a_la_fin_de_votre_tour_not_before_a_builders_second_tile() -> None:
    """"À la fin de votre tour": with Traders & Builders' rules a builder's second tile is part of
    the same turn, so the stack used for the first shows its next tile only after the second."""
    game = holding(table_game(options=TRADING), 0, "violet:1", "violet:1")
    play(game, "U@12,6r0 meeple:0", "B@12,4r0", "U@11,6r0 builder:0", "B@13,5r0",
         "U@10,6r0 island:violet/2 reveal:N")
    assert game.double_turn and game.current == 0
    assert game.islands[1].face_up is None and game.view()["islands"][1]["turning_up"] is True
    assert reason(game, "U@9,6r0 island:violet/2 reveal:V") == "island_turning_up"
    assert {(a.island, a.stack) for a in island_actions(game)} == {("violet", 1)}
    play(game, "U@9,6r0")
    assert game.current == 1 and game.islands[1].face_up == "N"


def test_ou_vous_prenez_une_tuile_face_cachee_comme_d_habitude() -> None:
    """"OU b) ... si vous prenez une tuile face cachée comme d'habitude." A player with a chip
    may still draw face down (``draw``), and keeps the chip."""
    game = holding(Game.new(2, seed=4), 0, "violet:1")
    drawn = [a for a in game.legal_actions() if not Action.of(a).from_island]
    assert [a.to_text() for a in drawn] == ["draw"]
    play(game, "draw")
    assert game.legal_actions() and all(a.tile == game.next_tile for a in game.legal_actions())
    game.apply(game.legal_actions()[0])
    assert game.chips_held[0] == [Chip("violet", 1)]


def test_une_fois_que_vous_avez_pioche_une_tuile_face_cachee_vous_ne_pouvez_pas_changer_d_avis() -> None:
    """"Note ! Une fois que vous avez pioché une tuile face cachée, vous ne pouvez pas changer
    d'avis, vous devez donc utiliser la tuile que vous venez de piocher." The tile drawn is not an
    island's; once drawn (``draw``) no island tile may be paid for; and after discarding a drawn
    tile that fits nowhere the player draws again face down, not from an island."""
    game = holding(Game.new(2, seed=4), 0, "violet:1")
    drawn = game.next_tile
    assert drawn not in (game.islands[0].face_up, game.islands[1].face_up)
    assert reason(game, f"{drawn}@12,6r0 island:violet/1") == "wrong_tile"
    play(game, "draw")
    place = next(a for a in game.legal_actions() if not Action.of(a).from_island)
    assert reason(game, f"{place.to_text()} island:violet/1") == "drew_face_down"
    assert reason(game, "E@12,6r180 island:violet/1") == "drew_face_down"
    at_table = holding(table_game(), 0, "violet:1")
    play(at_table, "C discard")                           # all city: beside the two cloisters it fits nowhere
    assert at_table.current == 0 and at_table.drew_face_down
    assert island_actions(at_table) == [] and "island" not in at_table.view()["legal_action_kinds"]
    assert reason(at_table, "E@12,6r180 island:violet/1 reveal:N") == "drew_face_down"
    assert reason(at_table, "draw") == "nothing_to_choose"
    play(at_table, "U@12,6r0")
    assert not at_table.drew_face_down and at_table.current == 1


def test_a_seeded_game_shows_the_drawn_tile_only_once_the_player_chose_to_draw() -> None:
    """No change of mind once a tile is drawn face down: while a chip may pay for an island tile,
    a seeded game hides the tile it dealt (``next_tile``: ``None``; its legal actions are ``draw``
    and the island tiles); after ``draw`` the tile shows, the islands are gone, and undo hides it
    again."""
    game = holding(Game.new(2, seed=4), 0, "violet:1")
    dealt_tile = game.pile[0]
    hidden = game.view()
    assert game.choosing and hidden["next_tile"] is None
    assert hidden["legal_action_kinds"] == ["draw", "island"]
    texts = [a.to_text() for a in game.legal_actions()]
    assert texts[0] == "draw" and all(" island:" in t for t in texts[1:]) and len(texts) > 1
    assert not any(t.startswith(f"{dealt_tile}@") and " island:" not in t for t in texts)
    play(game, "draw")
    shown = game.view()
    assert not game.choosing and shown["next_tile"] == dealt_tile and shown["drew_face_down"] is True
    assert "island" not in shown["legal_action_kinds"] and island_actions(game) == []
    assert all(a.tile == dealt_tile and not Action.of(a).draw for a in game.legal_actions())
    assert reason(game, "draw") == "nothing_to_choose"
    game.undo()
    assert game.choosing and game.view() == hidden
    assert reason(game, "draw seat:1") == "not_your_turn"


def test_a_draw_is_refused_when_there_is_nothing_to_choose() -> None:
    """Without a chip that may pay, the tile is drawn face down anyway: ``draw`` is refused and
    the drawn tile shows at once (a seeded game)."""
    game = Game.new(2, seed=4)
    assert not game.choosing and game.view()["next_tile"] == game.pile[0]
    assert "draw" not in [a.to_text() for a in game.legal_actions()]
    assert reason(game, "draw") == "nothing_to_choose"
    fresh = holding(table_game((10, 6)), 0)
    play(fresh, "U@12,6r0", "U@11,6r0", "U@10,6r0 chip:violet:2")
    assert fresh.current == 1 and reason(fresh, "draw") == "nothing_to_choose"


def test_a_face_down_tile_laid_without_a_draw_is_still_read_as_drawn() -> None:
    """Records kept before the draw was an action lay the drawn tile straight away: that is
    the draw and the tile at once (the island choice is over)."""
    game = holding(Game.new(2, seed=4), 0, "violet:1")
    other = holding(Game.new(2, seed=4), 0, "violet:1")
    play(other, "draw")
    lay = other.legal_actions()[0]
    game.apply(lay)
    other.apply(lay)
    assert game.to_dict() == other.to_dict()


def test_the_draw_reads_and_writes_as_text() -> None:
    for text in ("draw", "draw seat:1"):
        assert Action.from_dict(parse_action(text).to_dict()).to_text() == text
    for bad in ("draw now", "draw seat:1 meeple:2"):
        with pytest.raises(ValueError):
            parse_action(bad)


def test_les_jetons_collectes_pendant_un_tour_ne_peuvent_pas_etre_utilises_avant_un_tour_ulterieur() -> None:
    """"Vous pouvez collecter des jetons et les utiliser plus tard dans le jeu", and the community
    reading of it: "Les jetons que vous collectez pendant un tour ne peuvent pas être utilisés avant
    un tour ultérieur". A builder's second tile is the same turn: the chip its first tile took does
    not pay for it; the player's next turn it does."""
    game = table_game((10, 6), options=TRADING)
    play(game, "U@12,6r0 meeple:0", "B@12,4r0", "U@11,6r0 builder:0", "B@13,5r0", "U@10,6r0 chip:violet:1")
    assert game.double_turn and game.chips_held[0] == [Chip("violet", 1)]
    assert reason(game, "E@12,7r180 island:violet/1 reveal:N") == "chip_taken_this_turn"
    assert island_actions(game) == [] and game.view()["chips_to_pay"] == []
    filler(game)
    filler(game)
    assert game.current == 0 and island_actions(game)
    play(game, "E@12,7r180 island:violet/1 reveal:N")
    assert game.chips_spent[0] == [Chip("violet", 1)]


def test_an_island_tile_that_fits_nowhere_is_not_taken() -> None:
    """Seed 003 has the island tile taken to be laid ("vous placez votre tuile"), and the player
    sees it before paying: one that fits nowhere stays on its island, the chip kept."""
    game = with_stack(holding(table_game(), 0, "violet:1"), "violet", 1, "C", 4)
    assert reason(game, "C@12,6r0 island:violet/1 reveal:N") == "island_tile_does_not_fit"
    assert reason(game, "C discard island:violet/1 reveal:N") == "island_tile_does_not_fit"
    assert {(a.island, a.stack) for a in island_actions(game)} == {("violet", 2)}


# -- Fin de la partie ---------------------------------------------------------------------------------

def test_le_jeu_se_termine_apres_la_derniere_tuile_face_cachee() -> None:
    """"Le jeu se termine comme d'habitude après que la dernière tuile face cachée a été placée.
    Les jetons restants ou les tuiles d'île n'ont pas d'importance." """
    game = holding(last_tile(table_game(), "U"), 0, "violet:2", "orange:1")
    assert game.face_down_left == 1 and sum(s.left for s in game.islands) == 6
    play(game, "U@12,6r0")
    assert game.is_over and game.legal_actions() == []
    assert [s.total for s in game.scores()] == [0, 0], "the chips held and the island tiles left count nothing"
    finished, actions = random_game(3, 21)
    assert finished.face_down_left == 0 and finished.is_over
    assert sum(s.breakdown[CHIPS] for s in finished.scores()) == sum(t.chip.points for t in finished.chips_taken)
    assert len(actions) == 82 + sum(1 for a in actions if a.from_island or a.draw)


def test_the_game_ends_at_the_last_face_down_tile_even_in_a_builders_double_turn() -> None:
    game = last_tile(table_game(options=TRADING), "U")
    data = game.to_dict()
    data["pile"] = ["U", "U", "B", "B", "U"]
    game = Game.from_dict(data)
    play(game, "U@12,6r0 meeple:0", "B@12,4r0", "U@11,6r0 builder:0", "B@13,5r0")
    assert game.face_down_left == 1
    play(game, "U@10,6r0")
    assert game.is_over and not game.double_turn


# -- 2. Pose d'un meeple, 3. Évaluation des zones ----------------------------------------------------------

def test_apres_avoir_place_une_tuile_vous_pouvez_poser_un_meeple_selon_les_regles_habituelles() -> None:
    """"Après avoir placé une tuile, vous pouvez maintenant poser un meeple selon les règles
    habituelles." On a tile from an island or on a chip's square as on any other; not on a feature
    somebody holds, a large city's too."""
    game = holding(table_game((10, 6)), 0, "violet:1")
    play(game, "E@12,4r0 meeple:0 island:violet/1 reveal:N", "U@12,6r0", "U@11,6r0 meeple:0",
         "U@10,6r0 chip:orange:1 meeple:1")
    assert game.meeples_left == [5, 6]
    game = table_game()
    to_amsterdam(game)
    assert reason(game, "E@9,7r270 meeple:0") == "feature_taken"


def test_l_evaluation_se_fait_selon_les_regles_habituelles() -> None:
    """"L'évaluation se fait selon les règles habituelles." A completed road 1 a tile (the map's
    border closes it), a city 2 a tile and a pennant (a large city's squares and coats of arms
    among them), at the end a cloister 1 and 1 a neighbour; the chips' points apart."""
    game = table_game()
    to_amsterdam(game)
    play(game, "B@12,4r0 meeple:1", "E@9,7r270")
    game = last_tile(game, "E")
    play(game, "E@8,8r0")
    assert game.is_over
    by_source = [(a.source, a.seats, a.points, a.final) for a in game.awards]
    assert ("city", (0,), 12, False) in by_source                 # D, two caps, Amsterdam: 4 tiles, 2 coats of arms
    assert ("cloister", (1,), 1 + 1, True) in by_source           # Meppel's start tile beside it
    assert [s.breakdown for s in game.scores()] == [{"city": 12, "road": 0, "cloister": 0, "field": 0, CHIPS: 0},
                                                    {"city": 0, "road": 0, "cloister": 2, "field": 0, CHIPS: 0}]
