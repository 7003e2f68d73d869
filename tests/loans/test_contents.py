"""The "Contenu" field read as a checklist, on the catalogue's own contents texts."""

from __future__ import annotations

from games.services import demo_catalogue_data
from loans.contents import ContentLine, parse_contents

# The seed record of Carcassonne: Hunters and Gatherers, as the library's catalogue exported it:
# the list, then the publisher's text.
SEED_CONTENTS = (
    "Contenu: 79 tuiles paysage, 12 tuiles bonus, 5 tuiles de score, 1 piste de score, 30 hommes de Cro-Magnon "
    "en 5 couleurs, 10 huttes en bois dans 5 couleurs, 10 jetons en bois vert, Livret de règles. Des milliers "
    "d'années avant que ne fussent érigés les romparts de la cité de Carcasonne, la région était habitée.Pour se "
    "nourrir, les hommes de l'âge de pierre chassaient les animaux sauvagesn cueillaient les baies et les racines"
)
HUNTERS_AND_GATHERERS = [
    ContentLine("tuiles paysage", 79, None),
    ContentLine("tuiles bonus", 12, None),
    ContentLine("tuiles de score", 5, None),
    ContentLine("piste de score", 1, None),
    ContentLine("hommes de Cro-Magnon", 30, 5),
    ContentLine("huttes en bois", 10, 5),
    ContentLine("jetons en bois vert", 10, None),
    ContentLine("Livret de règles", 1, None),
]


def demo_contents(title: str) -> str:
    return next(r["contents"] for r in demo_catalogue_data()["records"] if r["title"] == title)


def test_the_hunters_and_gatherers_seed_record_stops_before_the_prose():
    assert parse_contents(SEED_CONTENTS) == HUNTERS_AND_GATHERERS


def test_the_hunters_and_gatherers_catalogue_record():
    assert parse_contents(demo_contents("Carcassonne à la prèhistoire")) == HUNTERS_AND_GATHERERS


def test_a_bulleted_list_one_item_a_line():
    lines = parse_contents(demo_contents("Stenen Tijdperk"))
    assert lines[0] == ContentLine("grand plateau de jeu", 1, None)
    assert ContentLine("ressources en bois (20 bois, 16 argile, 12 pierre, 20 or)", 68, None) in lines
    assert ContentLine("dés", 7, None) in lines
    assert len(lines) == 12


def test_the_rules_booklet_and_number_words():
    assert parse_contents("1 règle du jeu") == [ContentLine("règle du jeu", 1, None)]
    assert parse_contents("deux dés; une règle") == [ContentLine("dés", 2, None), ContentLine("règle", 1, None)]


def test_colours_given_in_words():
    assert parse_contents("40 pions en quatre couleurs") == [ContentLine("pions", 40, 4)]


def test_nothing_in_an_empty_field():
    assert parse_contents("") == []
    assert parse_contents("  \n ") == []
