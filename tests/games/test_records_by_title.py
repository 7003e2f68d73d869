"""A game is found in the catalogue by its title whatever its case, accents and spaces, one way
(``games.selectors.records_by_title``) for a title typed on the result form and for the titles
of an imported history."""

from __future__ import annotations

import pytest

from games.models import CatalogueRecord
from games.selectors import record_titled, records_by_title

pytestmark = pytest.mark.django_db


@pytest.fixture
def shelf():
    return {title: CatalogueRecord.objects.create(title=title) for title in
            ("Carcassonne à la préhistoire", "Die Straße", "Azul", "AZUL")}


@pytest.mark.parametrize(("typed", "found"), [
    ("Carcassonne à la préhistoire", "Carcassonne à la préhistoire"),
    ("carcassonne a la prehistoire", "Carcassonne à la préhistoire"),
    ("  CARCASSONNE   À LA PRÉHISTOIRE ", "Carcassonne à la préhistoire"),
    ("die strasse", "Die Straße"),  # case folding, not only lower case: ß is ss
    ("azul", "Azul"),  # the oldest of two records sharing a key
    ("Azul 2", None),
    ("", None),
])
def test_a_title_finds_its_record_whatever_its_case_accents_and_spaces(shelf, typed, found):
    record = record_titled(typed)
    assert (record.title if record else None) == found


def test_many_titles_in_one_query(shelf, django_assert_num_queries):
    with django_assert_num_queries(1):
        found = records_by_title(["AZUL", "die strasse", "Pandemic"])
    assert {key: record.title for key, record in found.items()} == {"azul": "Azul", "die strasse": "Die Straße"}
