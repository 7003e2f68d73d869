"""Carcassonne's expansion tiles and figures as the board draws them: every inn, cathedral and
good printed on its tile, the large meeple, the builder and the pig told apart, and named in the
text alternative."""

from __future__ import annotations

import re
from html import unescape

import pytest

from games.engines.carcassonne import tileset_for
from ludolog.web.games.carcassonne.drawing import carcassonne_svg

EVERY_TILE = tileset_for(("inns_cathedrals", "traders_builders"))


def lone_tile(letter: str, rotation: int = 0) -> dict:
    record = EVERY_TILE.types[letter].record
    return {"tiles": [{"tile": letter, "x": 0, "y": 0, "rotation": rotation, "order": 0, **record}], "meeples": []}


@pytest.mark.parametrize("letter", sorted(t for t in EVERY_TILE.types if t.startswith(("IC", "TB"))))
@pytest.mark.parametrize("rotation", [0, 90])
def test_each_expansion_tile_shows_what_is_printed_on_it(letter, rotation):
    features = EVERY_TILE.types[letter].record["features"]
    svg = carcassonne_svg(lone_tile(letter, rotation))
    assert svg.count('class="inn"') == sum(1 for f in features if f.get("inn"))
    assert svg.count('class="cathedral"') == sum(1 for f in features if f.get("cathedral"))
    for good in ("wine", "grain", "cloth"):
        assert svg.count(f'class="good {good}"') == sum(1 for f in features if f.get("good") == good)


def test_the_text_alternative_names_inns_cathedrals_and_goods():
    cathedral = next(t for t, kind in EVERY_TILE.types.items() if any(f.get("cathedral") for f in kind.record["features"]))
    inn = next(t for t, kind in EVERY_TILE.types.items() if any(f.get("inn") for f in kind.record["features"]))
    wine = next(t for t, kind in EVERY_TILE.types.items() if any(f.get("good") == "wine" for f in kind.record["features"]))
    assert "city with a cathedral" in carcassonne_svg(lone_tile(cathedral))
    assert "road with an inn" in carcassonne_svg(lone_tile(inn))
    assert "city with wine" in carcassonne_svg(lone_tile(wine))


def test_the_large_meeple_the_builder_and_the_pig_are_drawn_apart_and_named():
    position = lone_tile("TB08")  # a city with wine, a road each side of it
    kinds = {f["type"]: f["id"] for f in position["tiles"][0]["features"]}
    position["meeples"] = [
        {"seat": 0, "x": 0, "y": 0, "feature": kinds["city"], "type": "city", "kind": "big"},
        {"seat": 0, "x": 0, "y": 0, "feature": kinds["road"], "type": "road", "kind": "builder"},
        {"seat": 1, "x": 0, "y": 0, "feature": kinds["field"], "type": "field", "kind": "pig"},
    ]
    svg = carcassonne_svg(position, [{"seat": 0, "player": "Ada"}, {"seat": 1, "player": "Bo"}])
    figures = {kind: unescape(title) for kind, title in
               re.findall(r'class="meeple[^"]*" data-seat="\d" data-kind="(\w+)"[^>]*><title>([^<]*)</title>', svg)}
    assert figures == {"big": "Ada's large knight", "builder": "Ada's builder", "pig": "Bo's pig"}
    assert "<ellipse" in svg.split('data-kind="pig"')[1].split("</g>")[0], "the pig is a pig, not a meeple"


@pytest.mark.parametrize("letter", sorted(EVERY_TILE.types))
def test_every_feature_of_a_tile_has_a_spot_of_its_own(letter):
    """Figure targets sit on these spots: two at one place could not both be tapped."""
    import math

    from ludolog.web.games.carcassonne.drawing import SEPARATE, shape_of as _shape_of

    _art, anchors = _shape_of(dict(EVERY_TILE.types[letter].record, rotation=0))
    spots = list(anchors.values())
    assert all(math.dist(a, b) >= SEPARATE - 1e-9 for i, a in enumerate(spots) for b in spots[i + 1:]), anchors
