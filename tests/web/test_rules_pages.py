"""The rules a record is played by, on its pages: the ruleset (and a move to another one), the
variants and the set-up's choices on the game and replay pages, in English and French; the
rulesets and variants a game offers on its catalogue record and in the catalogue API."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import CatalogueRecord
from games.registry import get_engine
from records.files import import_document, simulate_document
from records.rulesets import migrate_ruleset

pytestmark = pytest.mark.django_db


def stone_age(**fields):
    document = simulate_document("stone-age", 2, 4, ruleset_version=fields.pop("ruleset", None), **fields)
    return import_document(document)


def test_the_game_and_replay_pages_say_the_ruleset_and_variants(client: Client):
    record = stone_age(setup={"variants": ["newborn_eats_next_round"]})
    for url in (f"/games/{record.pk}/", f"/games/{record.pk}/replay/"):
        html = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        assert "Ruleset 2: feeding as published, the food not eaten is kept" in html
        assert "A hut&#x27;s newborn eats from the next round on" in html
    french = client.get(f"/games/{record.pk}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Règles 2\u00a0: nourrir comme dans la règle publiée" in french and "Variantes" in french


def test_a_moved_record_says_which_rules_it_was_recorded_under(client: Client):
    record = stone_age(ruleset=next(iter(get_engine("stone-age").rulesets)))
    html = client.get(f"/games/{record.pk}/").content.decode()
    assert "Ruleset 1: agriculture beyond the tribe&#x27;s size feeds nobody" in html
    assert "none (the default rules)" in html
    migrate_ruleset("stone-age", "2")
    html = client.get(f"/games/{record.pk}/").content.decode()
    assert "Ruleset 2: feeding as published" in html and "recorded under Ruleset 1" in html


def test_carcassonne_s_expansions_show_on_its_game_page(client: Client):
    record = import_document(simulate_document("carcassonne", 2, 3, setup={
        "expansions": ["inns_cathedrals", "traders_builders"], "rules": [], "meeples": 9}))
    html = client.get(f"/games/{record.pk}/").content.decode()
    assert "Inns &amp; Cathedrals (tiles only), Traders &amp; Builders (tiles only)" in html
    assert "<dt>Meeples per player</dt><dd class=\"rules\">9</dd>" in html


def test_the_catalogue_says_which_rulesets_and_variants_a_game_offers(client: Client):
    from games.services import demo_catalogue_data, load_catalogue

    load_catalogue(demo_catalogue_data())
    box = CatalogueRecord.objects.get(engine_slug="stone-age")
    html = client.get(f"/catalogue/{box.pk}/").content.decode()
    assert 'data-testid="rules-offered"' in html and "Ruleset 1: agriculture" in html and "(new games)" in html
    assert "A tribe may send more hunters where it already hunts" in html
    api = client.get(f"/api/catalogue/{box.pk}/").json()
    assert [(r["key"], r["current"]) for r in api["rules"]["rulesets"]] == [("1", False), ("2", True)]
    assert {v["name"] for v in api["rules"]["variants"]} == {"newborn_eats_next_round", "hunting_grounds_again"}
    assert all(v["source"] for v in api["rules"]["variants"])
