"""The read-only catalogue API: records with their copies, searched and filtered like the OPAC."""

from __future__ import annotations

import pytest
from django.db import connection
from rest_framework.test import APIClient

from games.models import CatalogueRecord, Category
from games.services import demo_catalogue_data, load_catalogue

pytestmark = pytest.mark.django_db


@pytest.fixture
def api() -> APIClient:
    load_catalogue(demo_catalogue_data())
    return APIClient()


def titles(answer) -> list[str]:
    return [record["title"] for record in answer.json()["results"]]


def test_the_catalogue_lists_every_record_with_its_copies(api):
    answer = api.get("/api/catalogue/")
    assert answer.status_code == 200 and answer.json()["count"] == 4
    assert titles(answer) == ["Carcassonne", "Carcassonne à la prèhistoire", "Jetons de Carte – Benelux", "Stenen Tijdperk"]
    hg = CatalogueRecord.objects.get(title="Carcassonne à la prèhistoire")
    record = api.get(f"/api/catalogue/{hg.pk}/").json()
    assert record["contributors"] == [{"name": "Klaus-Jürgen Wrede", "role": "author"}]
    assert record["publisher"] == "Hans im gluck" and record["languages"] == ["fre"]
    assert record["categories"] == [{"code": "A 406", "label": "jeu de stratégie (jeu de règles)"}]
    assert (record["min_players"], record["max_players"], record["duration_minutes"]) == (2, 5, 45)
    assert [copy["barcode"] for copy in record["copies"]] == ["LUD-HG-0001", "LUD-HG-0002"]
    assert record["engine_slug"] == "hunters-gatherers"


def test_search_words_and_facets_filter_like_the_opac(api):
    word = "prehistoire" if connection.vendor == "postgresql" else "prèhistoire"
    assert titles(api.get("/api/catalogue/", {"q": word})) == ["Carcassonne à la prèhistoire"]
    assert titles(api.get("/api/catalogue/", {"language": "dut"})) == ["Stenen Tijdperk"]
    assert titles(api.get("/api/catalogue/", {"players": 5})) == ["Carcassonne à la prèhistoire"]
    assert titles(api.get("/api/catalogue/", {"duration": "medium"})) == ["Carcassonne à la prèhistoire"]
    assert titles(api.get("/api/catalogue/", {"engine_slug": "stone-age"})) == ["Stenen Tijdperk"]
    category = Category.objects.get(code="A 406")
    assert titles(api.get("/api/catalogue/", {"category": category.pk})) == ["Carcassonne à la prèhistoire"]


def test_bad_filters_and_unknown_records_answer_with_a_reason(api):
    bad = api.get("/api/catalogue/", {"duration": "forever"})
    assert bad.status_code == 400 and bad.json()["reason"] == "invalid_query" and bad.json()["fields"] == ["duration"]
    missing = api.get("/api/catalogue/999999/")
    assert missing.status_code == 404 and missing.json()["reason"] == "not_found"


def test_the_catalogue_is_read_only_and_in_the_schema(api):
    assert api.post("/api/catalogue/", {"title": "x"}, format="json").status_code in (401, 403, 405)
    assert CatalogueRecord.objects.count() == 4
    schema = api.get("/api/schema/").content.decode()
    assert "/api/catalogue/{id}/" in schema
    assert "/api/records/" in api.get("/api/").content.decode(), "the API root still lists the records"
