"""Map-Chips Benelux: the chips, their set-up and the islands' stacks, sentence by sentence.

Every test of a set-up rule quotes seed 003 (Wikicarpedia, "Jetons de Carte – Benelux") and
checks it both ways: a layout that breaks it is refused with its reason code, and the layouts the
engine draws from any seed never break it.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines.carcassonne_maps import (
    CHIP_COLOURS, Chip, ChipValues, IllegalAction, IslandStack, PlacedChip, SetUp, SquareKind,
    check_island_stacks, check_layout, check_start_squares, chip_squares, draw_layout, draw_setup,
    draw_start_squares, layout_problems, load_benelux, make_island_stacks, removed_chips,
)
from games.engines.carcassonne_maps.chips import min_squared_distance
from games.engines.tiles import Position

BENELUX = load_benelux()
STARTS = ("Meppel", "Charleroi")
PAIRS = [("Meppel", "Eindhoven"), ("Meppel", "Charleroi"), ("Eindhoven", "Charleroi")]
FAST = settings(deadline=None, max_examples=15, suppress_health_check=[HealthCheck.too_slow])
LAND_TILES = [letter for letter, n in zip("ABCDEFGHIJKLMNOPQRSTUVWX", [2, 4, 1, 3, 5, 2, 1, 3, 2, 3, 3, 3, 2, 3,
                                                                        2, 3, 1, 3, 2, 1, 8, 9, 4, 1]) for _ in range(n)]
"""The base game's 71 tiles besides the start tile, by letter, plus 42 stand-ins: 113 in all."""
LAND_TILES += [f"X{i}" for i in range(42)]


@st.composite
def drawn_layouts(draw: st.DrawFn) -> tuple[tuple[str, str], tuple[PlacedChip, ...]]:
    starts = draw(st.sampled_from(PAIRS))
    return starts, draw_layout(BENELUX, starts, seed=draw(st.integers(0, 2**32)))


def reasons(starts: Sequence[str], chips: Sequence[PlacedChip]) -> list[str]:
    return [problem.reason for problem in layout_problems(BENELUX, starts, chips)]


def layout_with(*special: PlacedChip, starts: Sequence[str] = STARTS, total: int = 20) -> list[PlacedChip]:
    """The ``special`` chips plus fillers that keep every rule and stay clear of them: only the
    special chips can break a rule."""
    clear = {p.position for p in special}
    clear |= {q for p in special for q in BENELUX.orthogonal_neighbours(p.position)}
    box = Counter(ChipValues.default().chips())
    box.subtract(p.chip for p in special)
    spare = sorted(box.elements())
    chosen: list[Position] = []
    for square in chip_squares(BENELUX, starts):
        if square not in clear and not any(q in chosen for q in BENELUX.orthogonal_neighbours(square)):
            chosen.append(square)
        if len(chosen) + len(special) == total:
            break
    return [*special, *(PlacedChip(p, chip) for p, chip in zip(chosen, spare))]


VIOLET_1 = Chip("violet", 1)


def chip(x: int, y: int, colour: str = "orange", points: int = 2, face_down: bool = True) -> PlacedChip:
    return PlacedChip((x, y), Chip(colour, points), face_down)


def test_the_fillers_alone_keep_every_rule() -> None:
    assert reasons(STARTS, layout_with()) == []
    assert reasons(STARTS, layout_with(chip(3, 14))) == []


# -- Matériel --------------------------------------------------------------------------------------

def test_30_map_chips_10_chacun_en_violet_bleu_clair_et_orange() -> None:
    """"30 Map–Chips (10 chacun en violet, bleu clair et orange)." and the six groups "×6 ×4": six
    1-point and four 2-point chips per colour by default (not confirmed: configurable)."""
    chips = ChipValues.default().chips()
    assert len(chips) == 30
    assert Counter(c.colour for c in chips) == {"violet": 10, "light_blue": 10, "orange": 10}
    assert all(ChipValues.default().count(colour, 1) == 6 and ChipValues.default().count(colour, 2) == 4
               for colour in CHIP_COLOURS)
    other = ChipValues.of({"violet": {1: 5, 2: 5}, "light_blue": {1: 10}, "orange": {2: 8, 1: 2}})
    assert Counter(c.points for c in other.chips()) == {1: 17, 2: 13}
    assert ChipValues.from_dict(json.loads(json.dumps(other.to_dict()))) == other
    with pytest.raises(ValueError, match="there are 10 orange chips"):
        ChipValues.of({"violet": {1: 6, 2: 4}, "light_blue": {1: 6, 2: 4}, "orange": {1: 6, 2: 3}})
    with pytest.raises(ValueError, match="no chips are green"):
        ChipValues.of({"green": {1: 10}})


# -- Mise en place ---------------------------------------------------------------------------------

def test_utilisez_2_des_3_cases_de_depart_disponibles() -> None:
    """"Utilisez 2 des 3 cases de départ disponibles (Meppel, Eindhoven et Charleroi)." """
    for pair in PAIRS:
        check_start_squares(BENELUX, pair)
    refused = {("Meppel",): "start_squares_count", ("Meppel", "Eindhoven", "Charleroi"): "start_squares_count",
               ("Meppel", "Amsterdam"): "not_a_start_square", ("Meppel", "Meppel"): "start_square_twice"}
    for starts, code in refused.items():
        with pytest.raises(IllegalAction) as caught:
            check_start_squares(BENELUX, starts)
        assert caught.value.reason == code
        with pytest.raises(IllegalAction):
            draw_layout(BENELUX, starts, seed=1)


@settings(FAST)
@given(st.integers(0, 2**32))
def test_utilisez_2_des_3_cases_de_depart_the_drawn_start_squares(seed: int) -> None:
    """"Utilisez 2 des 3 cases de départ disponibles": any seed draws two different ones of the three."""
    starts = draw_start_squares(BENELUX, random.Random(seed))
    assert starts in PAIRS
    check_start_squares(BENELUX, starts)


def test_placez_20_d_entre_eux_refused_with_another_number() -> None:
    """"Mélangez les 30 Map-Chips face cachée. Placez 20 d'entre eux [...] sur les cases de la carte" """
    assert reasons(STARTS, layout_with(total=19)) == ["wrong_chip_count"]
    assert reasons(STARTS, layout_with(total=21)) == ["wrong_chip_count"]
    too_many_violet = [PlacedChip(p.position, Chip("violet", 2)) for p in layout_with()]
    assert set(reasons(STARTS, too_many_violet)) == {"chip_not_in_box"}


def test_sur_les_cases_de_la_carte_where_a_tile_can_take_the_chip() -> None:
    """"sur les cases de la carte": read as the squares a tile may go on (a laid tile takes the chip)."""
    assert reasons(STARTS, layout_with(chip(0, 0))) == ["chip_off_map"]
    assert reasons(STARTS, layout_with(chip(9, 4))) == ["chip_on_wave"]
    assert reasons(STARTS, layout_with(chip(7, 2))) == ["chip_on_island"]


@settings(FAST)
@given(drawn_layouts())
def test_melangez_les_30_map_chips_placez_20_d_entre_eux_drawn(drawn: tuple[tuple[str, str],
                                                                             tuple[PlacedChip, ...]]) -> None:
    """"Mélangez les 30 Map-Chips face cachée. Placez 20 d'entre eux [...] sur les cases de la carte" """
    starts, chips = drawn
    assert len(chips) == 20
    assert not Counter(c.chip for c in chips) - Counter(ChipValues.default().chips())
    assert all(BENELUX.takes_tile(c.position) for c in chips)
    check_layout(BENELUX, starts, chips)


def test_the_chips_are_shuffled_and_the_same_seed_gives_the_same_layout() -> None:
    """"Mélangez les 30 Map-Chips": which 20 chips come out, and where, changes with the seed."""
    assert draw_layout(BENELUX, STARTS, seed=11) == draw_layout(BENELUX, STARTS, seed=11)
    layouts = [draw_layout(BENELUX, STARTS, seed=s) for s in range(12)]
    assert len({frozenset(Counter(c.chip for c in chips).items()) for chips in layouts}) > 1
    assert len({frozenset(c.position for c in chips) for chips in layouts}) == 12


@settings(FAST)
@given(drawn_layouts())
def test_uniformement_repartis_sur_les_cases_de_la_carte(drawn: tuple[tuple[str, str],
                                                                       tuple[PlacedChip, ...]]) -> None:
    """"Placez 20 d'entre eux uniformément répartis sur les cases de la carte": read as spread over
    the whole map. Drawn chips keep well apart (never closer than a knight's move), and no square
    a chip could lie on is farther than 5 squares from one."""
    starts, chips = drawn
    positions = [c.position for c in chips]
    assert min_squared_distance(positions) >= 5
    farthest = max(min((x - a) ** 2 + (y - b) ** 2 for a, b in positions) for x, y in chip_squares(BENELUX, starts))
    assert farthest <= 25


def test_placez_les_jetons_face_vers_le_bas() -> None:
    """"Placez les jetons face vers le bas" """
    assert reasons(STARTS, layout_with(chip(3, 14, face_down=False))) == ["chip_face_up"]
    assert all(c.face_down for c in draw_layout(BENELUX, STARTS, seed=3))


def test_ne_placer_qu_un_seul_jeton_par_case() -> None:
    """"Ne placer qu'un seul jeton par case." """
    assert reasons(STARTS, layout_with(chip(7, 20), chip(7, 20, "violet", 1))) == ["two_chips_on_square"]


@settings(FAST)
@given(drawn_layouts())
def test_ne_placer_qu_un_seul_jeton_par_case_drawn(drawn: tuple[tuple[str, str], tuple[PlacedChip, ...]]) -> None:
    """"Ne placer qu'un seul jeton par case." """
    _, chips = drawn
    assert len({c.position for c in chips}) == len(chips)


def test_ne_placez_pas_de_jetons_sur_les_cases_des_grandes_villes_ou_les_cases_des_villes() -> None:
    """"Ne placez pas de jetons sur les cases des grandes villes ou les cases des villes"; a start
    square shows a small town (C&Co English rules), so none on a start square either."""
    assert BENELUX.kind((8, 7)) is SquareKind.LARGE_CITY and BENELUX.kind((6, 16)) is SquareKind.LARGE_CITY
    assert reasons(STARTS, layout_with(chip(8, 7))) == ["chip_on_large_city"]
    assert reasons(STARTS, layout_with(chip(6, 16))) == ["chip_on_large_city"]
    assert BENELUX.square((9, 8)).name == "Utrecht"
    assert reasons(STARTS, layout_with(chip(9, 8))) == ["chip_on_town"]
    assert reasons(STARTS, layout_with(chip(10, 12))) == ["chip_on_start_square"]   # Eindhoven, not used
    assert reasons(STARTS, layout_with(chip(12, 5))) == ["chip_on_start_square"]    # Meppel, used


@settings(FAST)
@given(drawn_layouts())
def test_ne_placez_pas_de_jetons_sur_les_grandes_villes_ou_les_villes_drawn(
        drawn: tuple[tuple[str, str], tuple[PlacedChip, ...]]) -> None:
    """"Ne placez pas de jetons sur les cases des grandes villes ou les cases des villes" """
    _, chips = drawn
    kinds = {BENELUX.kind(c.position) for c in chips}
    assert kinds == {SquareKind.NORMAL}


def test_ne_placez_aucun_jeton_l_un_a_cote_de_l_autre_uniquement_en_diagonale() -> None:
    """"Ne placez aucun jeton l'un à côté de l'autre verticalement ou horizontalement (uniquement en
    diagonale)" """
    assert reasons(STARTS, layout_with(chip(3, 14), chip(3, 15, "violet", 1))) == ["chips_adjacent"]
    assert reasons(STARTS, layout_with(chip(7, 20), chip(8, 20, "violet", 1))) == ["chips_adjacent"]
    assert reasons(STARTS, layout_with(chip(7, 20), chip(8, 21, "violet", 1))) == []     # diagonally: fine


@settings(FAST)
@given(drawn_layouts())
def test_ne_placez_aucun_jeton_l_un_a_cote_de_l_autre_drawn(drawn: tuple[tuple[str, str],
                                                                          tuple[PlacedChip, ...]]) -> None:
    """"Ne placez aucun jeton l'un à côté de l'autre verticalement ou horizontalement" """
    _, chips = drawn
    squares = {c.position for c in chips}
    assert not any(q in squares for p in squares for q in BENELUX.orthogonal_neighbours(p))


def test_ne_placez_aucun_jeton_a_cote_d_une_case_de_depart_utilisee_ou_d_un_bord_ouvert() -> None:
    """"Ne placez aucun jeton verticalement ou horizontalement à côté d'une case de départ utilisée
    ou d'un bord ouvert d'une grande ville" """
    assert reasons(STARTS, layout_with(chip(11, 5))) == ["chip_next_to_start"]      # west of Meppel, used
    assert reasons(STARTS, layout_with(chip(10, 11))) == []                         # north of Eindhoven, unused
    assert reasons(("Meppel", "Eindhoven"), layout_with(chip(10, 11), starts=("Meppel", "Eindhoven"))) == [
        "chip_next_to_start"]
    assert reasons(STARTS, layout_with(chip(8, 8))) == ["chip_next_to_large_city"]  # south of Amsterdam, open
    assert reasons(STARTS, layout_with(chip(5, 16))) == []                          # west of Bruxelles, closed
    assert reasons(STARTS, layout_with(chip(7, 7))) == []                           # west of Amsterdam, closed


@settings(FAST)
@given(drawn_layouts())
def test_ne_placez_aucun_jeton_a_cote_d_une_case_de_depart_utilisee_ou_d_un_bord_ouvert_drawn(
        drawn: tuple[tuple[str, str], tuple[PlacedChip, ...]]) -> None:
    """"Ne placez aucun jeton verticalement ou horizontalement à côté d'une case de départ utilisée
    ou d'un bord ouvert d'une grande ville" """
    starts, chips = drawn
    near_starts = {q for name in starts for q in BENELUX.orthogonal_neighbours(BENELUX.start_position(name))}
    squares = {c.position for c in chips}
    assert not squares & near_starts
    assert not squares & BENELUX.open_edge_squares()


def test_les_10_jetons_restants_sont_retires_du_jeu_sans_qu_on_les_regarde() -> None:
    """"Les 10 jetons restants sont retirés du jeu sans qu'on les regarde." The set-up keeps only
    their number; what the players see names no chip's colour or value."""
    setup, _ = draw_setup(BENELUX, LAND_TILES, start_tile="D", seed=4)
    removed = removed_chips(setup.chips, setup.chip_values)
    assert len(removed) == 10 and setup.removed_chips == 10
    assert Counter(removed) + Counter(c.chip for c in setup.chips) == Counter(ChipValues.default().chips())
    stored = setup.to_dict()
    assert stored["chips_removed_unseen"] == 10
    assert "removed" not in json.dumps({k: v for k, v in stored.items() if k != "chips_removed_unseen"})
    view = setup.face_down_view()
    assert view["chips_removed_unseen"] == 10
    assert view["chip_squares"] == [[c.position[0], c.position[1]] for c in setup.chips]   # squares only
    assert "points" not in json.dumps(view) and "chips" not in view


# -- the islands -------------------------------------------------------------------------------

def test_faites_6_piles_de_5_tuiles_sur_les_6_carres_d_ile() -> None:
    """"Maintenant, mélangez toutes les tuiles Terrain et faites 6 piles de 5 tuiles chacune.
    Placez-les toutes sur les 6 carrés d'île (2 piles par île) sur la carte." """
    stacks, rest = make_island_stacks(BENELUX, LAND_TILES, random.Random(8))
    check_island_stacks(BENELUX, stacks)
    assert [len(s.tiles) for s in stacks] == [5] * 6
    assert Counter(s.colour for s in stacks) == {"violet": 2, "light_blue": 2, "orange": 2}
    assert all(BENELUX.square(s.position).kind is SquareKind.ISLAND
               and BENELUX.square(s.position).colour == s.colour for s in stacks)
    assert Counter(t for s in stacks for t in s.tiles) + Counter(rest) == Counter(LAND_TILES)
    assert make_island_stacks(BENELUX, LAND_TILES, random.Random(8)) == (stacks, rest)
    unshuffled = [t for s in stacks for t in s.tiles]
    assert unshuffled != LAND_TILES[:30]                                   # shuffled first
    refused = {"island_stack_count": stacks[:5],
               "island_stack_size": (stacks[0], IslandStack(stacks[1].colour, 2, stacks[1].position,
                                                            stacks[1].tiles[:4]), *stacks[2:]),
               "island_stack_not_on_island": (IslandStack("violet", 1, (0, 0), stacks[0].tiles), *stacks[1:])}
    for code, bad in refused.items():
        with pytest.raises(IllegalAction) as caught:
            check_island_stacks(BENELUX, bad)
        assert caught.value.reason == code
    with pytest.raises(ValueError, match="cannot make"):
        make_island_stacks(BENELUX, LAND_TILES[:29], random.Random(1))


def test_placez_les_premieres_tuiles_des_piles_face_visible() -> None:
    """"Placez les premières tuiles des piles face visible." Only the top tile of each stack is seen."""
    setup, _ = draw_setup(BENELUX, LAND_TILES, start_tile="D", seed=9)
    view = setup.face_down_view()["island_face_up"]
    assert [v["tile"] for v in view] == [s.tiles[0] for s in setup.island_stacks]
    assert all(v["left"] == 5 for v in view)
    assert IslandStack("orange", 1, (11, 0), ()).face_up is None


def test_enfin_vous_faites_les_piles_habituelles_avec_les_tuiles_terrain_restantes() -> None:
    """"Enfin, vous faites les piles habituelles avec les tuiles Terrain restantes." The draw pile is
    every tile not on an island, less the one on the second start square."""
    setup, pile = draw_setup(BENELUX, LAND_TILES, start_tile="D", seed=2)
    on_islands = [t for s in setup.island_stacks for t in s.tiles]
    second_start = [t.tile for t in setup.start_tiles[1:]]
    assert len(pile) == len(LAND_TILES) - 30 - 1
    assert Counter(pile) + Counter(on_islands) + Counter(second_start) == Counter(LAND_TILES)


# -- the whole set-up -------------------------------------------------------------------------

@settings(FAST)
@given(st.integers(0, 2**32))
def test_a_drawn_set_up_keeps_every_rule_and_round_trips_through_json(seed: int) -> None:
    setup, pile = draw_setup(BENELUX, LAND_TILES, start_tile="D", seed=seed)
    setup.check(BENELUX)
    assert setup.start_tiles[0].tile == "D" and [t.start for t in setup.start_tiles] == list(setup.start_squares)
    again = SetUp.from_dict(json.loads(json.dumps(setup.to_dict())))
    assert again == setup and again.to_dict() == setup.to_dict()
    assert draw_setup(BENELUX, LAND_TILES, start_tile="D", seed=seed) == (setup, pile)


def test_a_set_up_with_chosen_start_squares_and_chip_values() -> None:
    values = ChipValues.of({"violet": {1: 10}, "light_blue": {2: 10}, "orange": {1: 4, 2: 6}})
    setup, _ = draw_setup(BENELUX, LAND_TILES, start_tile="D", seed=5, start_squares=("Eindhoven", "Meppel"),
                          values=values)
    setup.check(BENELUX)
    assert setup.start_squares == ("Eindhoven", "Meppel")
    assert [t.start for t in setup.start_tiles] == ["Meppel", "Eindhoven"]   # the start tile in map order
    assert all(c.chip.points == 1 for c in setup.chips if c.chip.colour == "violet")
    assert SetUp.from_dict(setup.to_dict()).chip_values == values
    assert setup.chip_at(setup.chips[0].position) == setup.chips[0] and setup.chip_at((0, 0)) is None


def test_a_set_up_that_breaks_a_rule_or_its_format_is_refused() -> None:
    setup, _ = draw_setup(BENELUX, LAND_TILES, start_tile="D", seed=6)
    stored = setup.to_dict()
    for change, code in (({"map": {"name": "benelux", "version": "benelux-exact@1"}}, "wrong_map"),
                         ({"start_tiles": stored["start_tiles"][:1]}, "start_tiles"),
                         ({"chips": stored["chips"][:19]}, "wrong_chip_count"),
                         ({"island_stacks": stored["island_stacks"][:5]}, "island_stack_count")):
        broken = SetUp.from_dict({**stored, **change, "chips_removed_unseen": None})
        with pytest.raises(IllegalAction) as caught:
            broken.check(BENELUX)
        assert caught.value.reason == code
    with pytest.raises(ValueError, match="version"):
        SetUp.from_dict({**stored, "version": 99})
    with pytest.raises(ValueError, match="said removed"):
        SetUp.from_dict({**stored, "chips_removed_unseen": 9})
