"""A record's checklist beside its engine's box (loans.checklists): the demo catalogue's contents,
parsed as the librarian's first checklist, agree with the engines; a count typed wrong, a line
left out, a box's other words for a piece, and the checks a checklist passes before it is saved."""

from __future__ import annotations

import pytest

from games.registry import box_contents
from games.services import demo_catalogue_data
from loans.checklists import add_missing, compare, normalise, piece_name, problems, take_engine_count
from loans.contents import ContentLine, parse_contents
from tests.factories import HUNTERS_AND_GATHERERS_CONTENTS


def demo_contents(engine_slug: str) -> str:
    return next(record["contents"] for record in demo_catalogue_data()["records"]
                if record["engine_slug"] == engine_slug)


def pieces(slug: str):
    box = box_contents(slug)
    assert box is not None
    return box.pieces


def test_the_hunters_and_gatherers_box_agrees_with_its_engine():
    assert demo_contents("hunters-gatherers") == HUNTERS_AND_GATHERERS_CONTENTS
    found = compare(parse_contents(HUNTERS_AND_GATHERERS_CONTENTS), pieces("hunters-gatherers"))
    assert [(pair.line.kind, pair.line.count, pair.piece.key) for pair in found.agreeing] == [
        ("tuiles paysage", 79, "landscape_tiles"), ("tuiles bonus", 12, "bonus_tiles"),
        ("hommes de Cro-Magnon", 30, "tribe_members"), ("huttes en bois", 10, "huts")]
    assert found.differing == () and found.missing == () and found.agrees
    # What the engine never uses: its score is a number, a tiger cancels a deer without a disc.
    assert [(index, line.kind) for index, line in found.unknown] == [
        (2, "tuiles de score"), (3, "piste de score"), (6, "jetons en bois vert"), (7, "Livret de règles")]


def test_a_count_typed_wrong_and_a_line_left_out_are_disagreements():
    lines = parse_contents(HUNTERS_AND_GATHERERS_CONTENTS.replace("79 tuiles", "78 tuiles")
                           .replace("10 huttes en bois dans 5 couleurs, ", ""))
    found = compare(lines, pieces("hunters-gatherers"))
    assert [(pair.index, pair.line.count, pair.piece.count) for pair in found.differing] == [(0, 78, 79)]
    assert [piece.key for piece in found.missing] == ["huts"]
    assert not found.agrees
    assert found.pairing_at(0) is found.differing[0] and found.pairing_at(2) is None


def test_the_stone_age_box_agrees_with_its_engine_but_for_the_dice_cup():
    found = compare(parse_contents(demo_contents("stone-age")), pieces("stone-age"))
    assert found.differing == () and found.missing == ()
    assert len(found.agreeing) == 11
    assert [line.kind for _, line in found.unknown] == ["gobelet à dés en cuir"]
    resources = next(pair for pair in found.agreeing if pair.piece.key == "resources")
    assert resources.line.kind.startswith("ressources en bois (20 bois")


def test_the_map_chips_box_agrees_with_its_engine():
    found = compare(parse_contents(demo_contents("carcassonne-maps")), pieces("carcassonne-maps"))
    assert [(pair.line.count, pair.piece.key) for pair in found.agreeing] == [(30, "map_chips")]
    assert found.unknown == ()


def test_other_words_for_the_same_piece_pair_it():
    # An older French Carcassonne box: "tuiles Terrain" and "partisans"; an English one.
    french = compare(parse_contents("72 tuiles Terrain, 35 partisans, 1 règle du jeu"), pieces("carcassonne"))
    assert [(pair.line.kind, pair.line.count, pair.piece.count) for pair in french.differing] == [("partisans", 35, 40)]
    assert [pair.piece.key for pair in french.agreeing] == ["land_tiles"]
    english = compare([ContentLine("Land Tiles", 72, None), ContentLine("wooden Meeples", 40, 5)], pieces("carcassonne"))
    assert english.agrees and len(english.agreeing) == 2


@pytest.mark.parametrize("typed, declared", [
    ("TUILES BONUS", "tuiles bonus"), ("tuile bonus", "tuiles bonus"), ("Hutte", "huttes"),
    ("huttes en bois", "huttes"), ("Dés", "dés"), ("plateau individuel de joueur", "plateaux individuels de joueur"),
    ("Map-Chips", "Map–Chips (10 chacun en violet, bleu clair et orange)"), ("tuiles batiment", "tuiles Bâtiment"),
])
def test_case_accents_plurals_and_materials_are_set_aside(typed, declared):
    assert piece_name(typed) == piece_name(declared)


def test_dice_are_not_a_small_word_and_wood_alone_stays_wood():
    assert normalise("7 dés") == "7 des" and normalise("jetons en bois vert") == "jeton vert"
    assert normalise("ressources en bois") == "ressource" and normalise("bois") != ""
    assert piece_name("gobelet à dés") != piece_name("dés")


def test_a_checklist_with_an_empty_kind_a_negative_count_or_a_kind_twice_is_refused():
    lines = [ContentLine("tuiles paysage", 79, None), ContentLine("", 3, None), ContentLine("Tuiles  paysage", 1, None),
             ContentLine("huttes", -2, None), ContentLine("hommes", 30, -5), ContentLine("x" * 121, 1, None)]
    assert [(problem.reason, problem.index) for problem in problems(lines)] == [
        ("empty_kind", 1), ("duplicate_kind", 2), ("negative_count", 3), ("negative_colours", 4), ("kind_too_long", 5)]
    assert problems(parse_contents(HUNTERS_AND_GATHERERS_CONTENTS)) == []


def test_taking_the_engines_count_changes_that_line_only():
    lines = parse_contents("78 tuiles paysage, 8 huttes, Livret de règles")
    taken = take_engine_count(lines, pieces("hunters-gatherers"), 0)
    assert taken == [ContentLine("tuiles paysage", 79, None), *lines[1:]]
    assert take_engine_count(lines, pieces("hunters-gatherers"), 1)[1] == ContentLine("huttes", 10, 5)
    assert take_engine_count(lines, pieces("hunters-gatherers"), 2) == lines, "the engine does not know the booklet"


def test_adding_the_missing_pieces_in_the_checklists_language():
    lines = parse_contents("79 tuiles paysage, Livret de règles")
    french = add_missing(lines, pieces("hunters-gatherers"), french=True)
    assert french[:2] == lines
    assert french[2:] == [ContentLine("tuiles bonus", 12, None), ContentLine("hommes de Cro-Magnon", 30, 5),
                          ContentLine("huttes", 10, 5)]
    assert compare(french, pieces("hunters-gatherers")).agrees
    english = add_missing([], pieces("carcassonne"), french=False)
    assert english == [ContentLine("land tiles", 72, None), ContentLine("meeples", 40, 5)]
