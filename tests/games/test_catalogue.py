"""The catalogue behaves like a library system: validation names the field, demo data loads once."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from games.models import CatalogueRecord, Copy
from games.services import demo_catalogue_data, load_catalogue

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


def test_min_players_above_max_names_the_field():
    record = CatalogueRecord(title="Test", min_players=5, max_players=2)
    with pytest.raises(ValidationError) as error:
        record.full_clean()
    assert "max_players" in error.value.message_dict
    assert "at least the minimum (5)" in error.value.message_dict["max_players"][0]


def test_min_age_above_max_names_the_field():
    record = CatalogueRecord(title="Test", min_age=12, max_age=8)
    with pytest.raises(ValidationError) as error:
        record.full_clean()
    assert list(error.value.message_dict) == ["max_age"]


@pytest.mark.parametrize("minutes", [0])
def test_duration_must_be_positive(minutes):
    record = CatalogueRecord(title="Test", duration_minutes=minutes)
    with pytest.raises(ValidationError) as error:
        record.full_clean()
    assert "duration_minutes" in error.value.message_dict


def test_database_refuses_inverted_player_counts_even_without_validation():
    with pytest.raises(IntegrityError), transaction.atomic():
        CatalogueRecord.objects.create(title="Broken", min_players=6, max_players=2)


def test_barcodes_are_unique_and_the_error_names_the_field():
    record = CatalogueRecord.objects.create(title="Test")
    Copy.objects.create(record=record, barcode="B-1")
    duplicate = Copy(record=record, barcode="B-1")
    with pytest.raises(ValidationError) as error:
        duplicate.full_clean()
    assert "barcode" in error.value.message_dict
    with pytest.raises(IntegrityError), transaction.atomic():
        duplicate.save()


def test_demo_catalogue_holds_the_seed_record_as_written():
    load_catalogue(demo_catalogue_data())
    record = CatalogueRecord.objects.get(title="Carcassonne à la prèhistoire")
    assert record.document_type == "objet à 3 dimensions, artefacts, ..."
    assert [str(c) for c in record.contributions.all()] == ["Klaus-Jürgen Wrede, author"]
    assert record.publisher.name == "Hans im gluck"
    assert [lang.code for lang in record.languages.all()] == ["fre"]
    assert [(c.code, c.label) for c in record.categories.all()] == [("A 406", "jeu de stratégie (jeu de règles)")]
    assert (record.min_players, record.max_players, record.min_age, record.max_age) == (2, 5, 10, 99)
    assert record.duration_minutes == 45
    assert record.contents.startswith("79 tuiles paysage, 12 tuiles bonus")
    assert record.engine_slug == "hunters-gatherers"
    assert record.copies.count() == 2
    stone_age = CatalogueRecord.objects.get(title="Stenen Tijdperk")
    assert "7 dés" in stone_age.contents
    assert stone_age.duration_minutes is None  # not in the seed: left empty, not invented


def test_loading_the_demo_twice_duplicates_nothing():
    load_catalogue(demo_catalogue_data())
    counts = (CatalogueRecord.objects.count(), Copy.objects.count())
    load_catalogue(demo_catalogue_data())
    assert (CatalogueRecord.objects.count(), Copy.objects.count()) == counts == (4, 6)


def test_admin_lists_and_filters_the_demo_catalogue(admin_client):
    load_catalogue(demo_catalogue_data())
    page = admin_client.get("/admin/games/cataloguerecord/")
    assert page.status_code == 200
    for title in ("Carcassonne à la prèhistoire", "Stenen Tijdperk", "Carcassonne"):
        assert title in page.content.decode()
    five_players = admin_client.get("/admin/games/cataloguerecord/", {"players": "5"}).content.decode()
    assert "Carcassonne à la prèhistoire" in five_players
    assert "Stenen Tijdperk" not in five_players
    by_author = admin_client.get("/admin/games/cataloguerecord/", {"q": "Wrede"}).content.decode()
    assert "1 result" in by_author
    short = admin_client.get("/admin/games/cataloguerecord/", {"duration": "medium"}).content.decode()
    assert "Carcassonne à la prèhistoire" in short and "Stenen Tijdperk" not in short


def test_what_the_catalogue_reads_as_unstated():
    """PMB's placeholders are gaps, not facts: the site hides them (ludolog.web.catalogue)."""
    from ludolog.web.catalogue import document_type_label, language_label, stated_max_age, stated_min_age

    assert document_type_label("objet à 3 dimensions, artefacts, ...") is None  # the model's default
    assert document_type_label("jeu de plateau…") is None  # cut short: not a statement either
    assert document_type_label("") is None and document_type_label(None) is None
    assert document_type_label("Texte imprimé") == "printed text"
    assert document_type_label("maquette") == "maquette"
    assert stated_max_age(CatalogueRecord(max_age=99)) is None and stated_max_age(CatalogueRecord(max_age=12)) == 12
    assert stated_min_age(CatalogueRecord(min_age=0)) is None and stated_min_age(CatalogueRecord(min_age=8)) == 8
    assert (language_label("fre", "Français"), language_label("fra"), language_label("zxx")) == (
        "French", "French", "no text")
    assert language_label("epo", "Esperanto") == "Esperanto"
