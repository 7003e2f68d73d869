"""Cataloguing by hand (the catalogue has no create form outside the operator's admin: a record is
created there, or imported on the catalogue's import page). A likely duplicate is told before it
is saved: the same EAN (refused: the catalogue holds an EAN once), or the same title, publisher and
year (saved once "Catalogue it anyway" is ticked). A record catalogued gets its checklist from its
contents at once (the loans desk listens to ``games.signals.records_catalogued``)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.models import CatalogueRecord, Identifier, Publisher
from games.selectors import likely_duplicates
from loans.models import Component

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


@pytest.fixture
def admin_client(db) -> Client:
    client = Client()
    client.force_login(User.objects.create_superuser("operator", password="pw"))
    return client


@pytest.fixture
def catan(db) -> CatalogueRecord:
    record = CatalogueRecord.objects.create(title="Catane", publisher=Publisher.objects.create(name="Kosmos"),
                                            publication_year=1995)
    Identifier.objects.create(record=record, scheme="ean", value="4002051690823")
    return record


def record_form(title: str, publisher: Publisher | None = None, year: int | str = "", ean: str = "",
                **more: str) -> dict[str, str]:
    data = {"title": title, "document_type": "jeu", "publisher": publisher.pk if publisher else "",
            "publication_year": year, "contents": "", "summary": "", "notes": "", "engine_slug": "", **more}
    for prefix in ("other_titles", "contributions", "identifiers", "copies"):
        data.update({f"{prefix}-TOTAL_FORMS": "0", f"{prefix}-INITIAL_FORMS": "0"})
    if ean:
        data.update({"identifiers-TOTAL_FORMS": "1", "identifiers-0-scheme": "ean", "identifiers-0-value": ean})
    return data


def test_the_same_title_publisher_and_year_is_told_then_saved_when_ticked(admin_client, catan):
    answer = admin_client.post("/admin/games/cataloguerecord/add/", record_form("CATANE", catan.publisher, 1995))
    text = answer.content.decode()
    assert answer.status_code == 200 and CatalogueRecord.objects.count() == 1
    assert "Likely a duplicate" in text and "Catane — Kosmos, 1995 (n° %s)" % catan.pk in text
    assert f"/admin/games/cataloguerecord/{catan.pk}/change/" in text
    saved = admin_client.post("/admin/games/cataloguerecord/add/",
                              record_form("CATANE", catan.publisher, 1995, catalogue_anyway="on"))
    assert saved.status_code == 302 and CatalogueRecord.objects.count() == 2


def test_another_year_or_publisher_is_no_duplicate(admin_client, catan):
    assert admin_client.post("/admin/games/cataloguerecord/add/",
                             record_form("Catane", catan.publisher, 2015)).status_code == 302
    assert likely_duplicates("Catane", None, 1995) == []


def test_the_same_ean_is_told_whatever_the_title(admin_client, catan):
    answer = admin_client.post("/admin/games/cataloguerecord/add/",
                               record_form("Les Colons de Catane", ean="4002051690823", catalogue_anyway="on"))
    assert "already has this EAN" in answer.content.decode() and CatalogueRecord.objects.count() == 1
    assert [(record.pk, why) for record, why in likely_duplicates("x", None, None, ["4002051690823"])] == [
        (catan.pk, "ean")]


def test_a_record_edited_is_not_its_own_duplicate(admin_client, catan):
    answer = admin_client.post(f"/admin/games/cataloguerecord/{catan.pk}/change/",
                               record_form("Catane", catan.publisher, 1995, notes="Boîte abîmée"))
    assert answer.status_code == 302


def test_a_record_catalogued_by_hand_gets_its_checklist_from_its_contents(admin_client):
    admin_client.post("/admin/games/cataloguerecord/add/",
                      record_form("Dixit", contents="84 cartes, 6 lapins en bois, 1 règle du jeu"))
    dixit = CatalogueRecord.objects.get(title="Dixit")
    assert list(Component.objects.filter(record=dixit).values_list("kind", "count")) == [
        ("cartes", 84), ("lapins en bois", 6), ("règle du jeu", 1)]


def test_a_checklist_the_librarian_made_is_kept_when_the_record_is_saved_again(admin_client):
    record = CatalogueRecord.objects.create(title="Dixit", contents="84 cartes")
    Component.objects.create(record=record, kind="cartes illustrées", count=84)
    admin_client.post(f"/admin/games/cataloguerecord/{record.pk}/change/",
                      record_form("Dixit", contents="84 cartes, 6 lapins"))
    assert list(Component.objects.filter(record=record).values_list("kind", flat=True)) == ["cartes illustrées"]


def test_a_record_added_with_a_result_gets_no_checklist_it_has_no_contents():
    """The one other place a record is made (a title typed with a result) sends nothing: it
    catalogues nothing, a librarian completes it."""
    record = CatalogueRecord.objects.create(title="Jeu inconnu", added_with_a_result=True, contents="3 dés")
    assert not Component.objects.filter(record=record).exists()
