"""Plays land on the right games (issue 36): the demo's engine games carry their BoardGameGeek ids
(in the demo data and, for an installation made before, by a migration); an import finds a game
by its BGG id, then by its titles in every language, never adding a record beside one the
catalogue has; the review lets the importer point a game at another record, or a new one, and
storing is a job whose page counts as it goes."""

from __future__ import annotations

import importlib
from datetime import date
from pathlib import Path

import pytest
from django.apps import apps as django_apps
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from accounts.roles import Role
from games.models import CatalogueRecord, OtherTitle, Publisher
from games.services import demo_catalogue_data, load_catalogue
from plays_exchange.formats import Play, PlayerScore, write_bgg
from plays_exchange.models import PlaysImport
from plays_exchange.services import NEW, plan_import, store
from records.models import GameRecord
from tests.factories import give_role, the_library

pytestmark = pytest.mark.django_db


def plays_of(game: str, bgg_id: int | None, count: int = 2, first_id: int = 1) -> list[Play]:
    return [Play(str(first_id + n), date(2026, 1, 1 + n), game, bgg_id,
                 (PlayerScore("Ann", str(100 + n), win=True), PlayerScore("Bob", "90"))) for n in range(count)]


def test_the_demo_engine_games_carry_their_boardgamegeek_ids():
    records = {record.engine_slug: record for record in load_catalogue(demo_catalogue_data())}
    assert {slug: records[slug].bgg_id for slug in ("carcassonne", "stone-age", "hunters-gatherers")} == {
        "carcassonne": 822, "stone-age": 34635, "hunters-gatherers": 4390}
    assert records["carcassonne-maps"].bgg_id is None  # the Benelux map: no BoardGameGeek entry of its own
    load_catalogue(demo_catalogue_data())
    assert CatalogueRecord.objects.count() == 4  # loading twice changes nothing


def test_the_migration_gives_the_ids_to_the_demo_records_where_they_are_free():
    migration = importlib.import_module("plays_exchange.migrations.0002_demo_engine_games_bgg_ids")
    stone_age = CatalogueRecord.objects.create(title="Stenen Tijdperk", engine_slug="stone-age")
    carcassonne = CatalogueRecord.objects.create(title="Carcassonne", engine_slug="carcassonne")
    CatalogueRecord.objects.create(title="Carcassonne (library's own)", bgg_id=822)  # 822 is taken
    hunters = CatalogueRecord.objects.create(title="Carcassonne à la prèhistoire", engine_slug="hunters-gatherers",
                                             bgg_id=999)  # its own id is kept
    migration.give_the_ids(django_apps, None)
    stone_age.refresh_from_db(), carcassonne.refresh_from_db(), hunters.refresh_from_db()
    assert (stone_age.bgg_id, carcassonne.bgg_id, hunters.bgg_id) == (34635, None, 999)


def test_a_game_is_found_by_its_bgg_id_then_by_its_titles_in_every_language():
    stone_age = CatalogueRecord.objects.create(title="Stenen Tijdperk", engine_slug="stone-age")
    OtherTitle.objects.create(record=stone_age, title="Stone Age")
    hunters = CatalogueRecord.objects.create(title="Carcassonne à la prèhistoire", bgg_id=4390)
    plan = plan_import(plays_of("Stone Age", 34635) + plays_of("Carcassonne: Hunters & Gatherers", 4390, first_id=10)
                       + plays_of("STONE  AGE", None, first_id=20), "bgg")
    landed = {game.key: (game.record, game.how) for game in plan.games}
    assert landed == {"bgg:34635": (stone_age, "title"), "bgg:4390": (hunters, "bgg_id"),
                      "title:stone age": (stone_age, "title")}
    store(plan)
    assert CatalogueRecord.objects.count() == 2  # never a record beside the catalogue's own
    assert GameRecord.objects.filter(catalogue_record=stone_age).count() == 4
    stone_age.refresh_from_db()
    assert stone_age.bgg_id == 34635  # kept: the next import finds it by its id


def test_the_importer_chooses_the_record_or_a_new_one_and_the_choice_is_stored():
    cafe = CatalogueRecord.objects.create(title="Café", publisher=Publisher.objects.create(name="A"),
                                          publication_year=2010)
    other_cafe = CatalogueRecord.objects.create(title="Café", publisher=Publisher.objects.create(name="B"),
                                                publication_year=2021)
    plays = plays_of("Cafe", None) + plays_of("Unknown Game", 1234, first_id=10) + plays_of("Go", 188, first_id=20)
    plan = plan_import(plays, "bgg")
    cafe_game = next(game for game in plan.games if game.key == "title:cafe")
    assert cafe_game.record == cafe and cafe_game.candidates == [cafe, other_cafe]
    go = CatalogueRecord.objects.create(title="Wei-chi")
    plan = plan_import(plays, "bgg", landings={"title:cafe": other_cafe.pk, "bgg:1234": go.pk, "bgg:188": NEW})
    store(plan)
    assert set(GameRecord.objects.filter(catalogue_record=other_cafe).values_list("source_id", flat=True)) == {"1", "2"}
    assert GameRecord.objects.filter(catalogue_record=go).count() == 2  # the unknown game, pointed at Wei-chi
    assert CatalogueRecord.objects.get(title="Go", bgg_id=188, added_with_a_result=True)  # chosen as a new record


@pytest.fixture
def organiser() -> Client:
    client = Client()
    client.force_login(give_role(User.objects.create_user("organiser"), Role.ORGANISER))
    return client


def test_the_search_offers_records_told_apart_by_publisher_and_year(organiser):
    CatalogueRecord.objects.create(title="Café", publisher=Publisher.objects.create(name="Ludo"), publication_year=2010)
    CatalogueRecord.objects.create(title="Café", publication_year=2021)
    page = organiser.get("/history/import/records/", {"q": "cafe", "row": "3", "title": "Cafe"}).content.decode()
    assert 'id="landing-3"' in page and "Café — Ludo, 2010" in page and "Café — 2021" in page
    assert '<option value="new"' in page


@pytest.mark.django_db(transaction=True)  # stored by a task queued when the confirmation commits
def test_the_review_choice_is_applied_and_the_job_page_counts(organiser, celery_eager, imports_root: Path, settings):
    settings.LUDOLOG_IMPORT_CHUNK = 3
    wei_chi = CatalogueRecord.objects.create(title="Wei-chi")
    data = write_bgg(plays_of("Go", 188, count=7)).encode()
    review = organiser.post("/history/import/", {"format": "bgg", "file": SimpleUploadedFile("go.xml", data)})
    assert review.status_code == 200 and 'data-key="bgg:188"' in review.content.decode()
    stored = organiser.post("/history/import/", {"confirm": "1", "token": review.context["token"],
                                                 "game": ["bgg:188"], "landing": [str(wei_chi.pk)]}, follow=True)
    job = PlaysImport.objects.get()
    assert stored.redirect_chain[-1][0] == f"/history/import/{job.pk}/"
    assert (job.status, job.total, job.done, job.report) == ("done", 7, 7, {"created": 7, "matched": 0, "skipped": 0})
    assert GameRecord.objects.filter(catalogue_record=wei_chi).count() == 7 and CatalogueRecord.objects.count() == 1
    fragment = organiser.get(f"/history/import/{job.pk}/", headers={"HX-Request": "true"}).content.decode()
    assert fragment.startswith('<div id="import-job"') and 'data-status="done"' in fragment and "hx-get" not in fragment


def test_the_job_page_follows_the_counts_while_it_runs(organiser, imports_root: Path):
    job = PlaysImport.objects.create(format="bgg", file_name="go.xml", file="x", status="importing", total=500,
                                     organisation=the_library(),
                                     done=200, report={"created": 200, "matched": 3, "skipped": 1})
    fragment = organiser.get(f"/history/import/{job.pk}/", headers={"HX-Request": "true"}).content.decode()
    assert 'hx-trigger="every 1s"' in fragment and "200 / 500" in fragment and 'value="200"' in fragment


def test_a_record_that_is_not_in_the_catalogue_is_refused(organiser, imports_root: Path):
    data = write_bgg(plays_of("Go", 188)).encode()
    review = organiser.post("/history/import/", {"format": "bgg", "file": SimpleUploadedFile("go.xml", data)})
    answer = organiser.post("/history/import/", {"confirm": "1", "token": review.context["token"],
                                                 "game": ["bgg:188"], "landing": ["987654"]})
    assert answer.status_code == 400 and not PlaysImport.objects.exists() and not GameRecord.objects.exists()
