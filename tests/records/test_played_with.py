"""Which catalogue record a game was played with is one rule (``records.selectors``): the record
it names, else the record of the copy it names. The query (:func:`played_with`, which the
catalogue's counts, the desk's usage page and its subqueries use) and the function for a record
in hand (:func:`catalogue_record_played`, which the statistics' projections use) agree over a
table of cases, and a game counts for one catalogue record only."""

from __future__ import annotations

import pytest
from django.db.models import Count, OuterRef, Subquery
from django.db.models.functions import Coalesce

from games.models import CatalogueRecord, Copy
from records import selectors
from records.models import GameRecord

pytestmark = pytest.mark.django_db

# What the game names: (its catalogue record, the record of the copy it was played with), and the
# catalogue record it counts for.
CASES = {
    "nothing": ((None, None), None),
    "the record": (("azul", None), "azul"),
    "a copy": ((None, "azul"), "azul"),
    "the record and its copy": (("azul", "azul"), "azul"),
    # The forms refuse a copy of another record; a game stored so before counts for the record it names.
    "a record and another's copy": (("dixit", "azul"), "dixit"),
}


@pytest.fixture
def catalogue():
    records = {title: CatalogueRecord.objects.create(title=title.capitalize()) for title in ("azul", "dixit")}
    copies = {title: Copy.objects.create(record=record, barcode=f"{title}-1") for title, record in records.items()}
    return records, copies


@pytest.mark.parametrize("case", list(CASES))
def test_the_query_and_the_function_agree_on_the_catalogue_record_a_game_was_played_with(catalogue, case):
    records, copies = catalogue
    (named, copy_of), expected = CASES[case]
    game = GameRecord.objects.create(game_slug="azul", catalogue_record=records.get(named),
                                     copy=copies.get(copy_of))
    expected_id = records[expected].pk if expected else None

    assert selectors.catalogue_record_played(GameRecord.objects.get(pk=game.pk)) == expected_id
    by_query = {title for title, record in records.items()
                if GameRecord.objects.filter(pk=game.pk).filter(selectors.played_with(record)).exists()}
    assert by_query == ({expected} if expected else set())
    # As a correlated subquery beside each catalogue record, as the usage page counts.
    counted = (GameRecord.objects.filter(pk=game.pk).filter(selectors.played_with(OuterRef("pk"))).order_by()
               .values("game_slug").annotate(n=Count("pk")).values("n"))
    counts = dict(CatalogueRecord.objects.annotate(plays=Coalesce(Subquery(counted[:1]), 0))
                  .values_list("title", "plays"))
    assert counts == {"Azul": int(expected == "azul"), "Dixit": int(expected == "dixit")}
