"""A club's BoardGameGeek history lands on the right games (issue 36), in French: the organiser
uploads a BGG export on /history/import/; the review shows Stone Age (BGG id 34635) landing on
the catalogue's engine game, "Stenen Tijdperk" as the demo has it, and the importer points a game
the catalogue does not know by that name at a record it has, found by typing its title; stored,
the import's page shows its counts and the result. No page on the way is the Django admin's.
Screenshots: bgg-review-fr-<width>.png, bgg-stored-fr-<width>.png.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from urllib.parse import urlparse

import pytest

from accounts.roles import Role
from games.models import CatalogueRecord, Language, OtherTitle, Publisher
from plays_exchange.formats import Play, PlayerScore, write_bgg
from records.models import GameRecord
from tests.factories import give_role

from .recorder_driver import LAPTOP, PHONE, assert_no_sideways_scroll, logged_in_page

pytestmark = pytest.mark.django_db(transaction=True)


def club_export() -> bytes:
    """Three Stone Age plays as BoardGameGeek writes them (its English title and its id) and two of
    a game the catalogue knows under another name only ("Ticket to Ride", no id it holds)."""
    plays = [Play(f"9{n}", date(2026, 2, 1 + n), "Stone Age", 34635,
                  (PlayerScore("Zoé", str(150 + n), win=True), PlayerScore("Yann", "140"))) for n in range(3)]
    plays += [Play(f"8{n}", date(2026, 2, 10 + n), "Ticket to Ride", 9209,
                   (PlayerScore("Zoé", "98"), PlayerScore("Yann", str(110 + n), win=True))) for n in range(2)]
    return write_bgg(plays).encode()


@pytest.mark.slow(seconds=15)
@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["1280", "390"])
def test_a_bgg_history_reviewed_and_pointed_at_the_right_records(browser, live_server, artifacts: Path,
                                                               django_user_model, celery_eager, imports_root,
                                                               viewport):
    width = viewport["width"]
    # The catalogue as the demo has it: Stone Age's engine game under its Dutch title, with its id.
    Language.objects.get_or_create(code="dut", defaults={"name": "Nederlands"})
    stone_age = CatalogueRecord.objects.create(title="Stenen Tijdperk", engine_slug="stone-age", bgg_id=34635)
    OtherTitle.objects.create(record=stone_age, title="Stone Age")
    rail = CatalogueRecord.objects.create(title="Les Aventuriers du Rail", publication_year=2004,
                                          publisher=Publisher.objects.create(name="Days of Wonder"))
    CatalogueRecord.objects.create(title="Les Aventuriers du Rail", publication_year=2015)  # another edition
    records_before = CatalogueRecord.objects.count()
    organiser = give_role(django_user_model.objects.create_user("orga"), Role.ORGANISER)
    visited: list[str] = []
    page = logged_in_page(browser, live_server, organiser, viewport=viewport, locale="fr-FR")
    page.on("framenavigated", lambda frame: visited.append(frame.url) if frame == page.main_frame else None)

    page.goto(f"{live_server.url}/history/import/")
    assert page.locator("h1").inner_text() == "Importer l’historique du club"
    page.locator("select[name=format]").select_option("bgg")
    page.locator("input[name=file]").set_input_files(
        files=[{"name": "club-bgg.xml", "mimeType": "text/xml", "buffer": club_export()}])
    with page.expect_navigation():
        page.get_by_role("button", name="Vérifier les parties").click()

    # The review: Stone Age lands on the engine game, by its BGG id.
    stone_row = page.locator('[data-testid=game-row][data-key="bgg:34635"]')
    assert stone_row.get_by_test_id("found").inner_text() == "par identifiant BGG"
    landing = stone_row.get_by_test_id("landing")
    assert landing.input_value() == str(stone_age.pk)
    assert landing.locator("option:checked").inner_text().startswith("Stenen Tijdperk")

    # The game the catalogue knows under its French title: found by typing it, the editions told apart.
    rail_row = page.locator('[data-testid=game-row][data-key="bgg:9209"]')
    assert rail_row.get_by_test_id("landing").input_value() == "new"
    rail_row.get_by_test_id("find-record").fill("aventuriers")
    options = rail_row.locator("select[data-testid=landing] option")
    options.filter(has_text="Days of Wonder, 2004").wait_for(state="attached")
    assert options.filter(has_text="2015").count() == 1
    rail_row.get_by_test_id("landing").select_option(str(rail.pk))
    assert_no_sideways_scroll(page)
    page.screenshot(path=str(artifacts / f"bgg-review-fr-{width}.png"), full_page=True)

    with page.expect_navigation():
        page.get_by_test_id("store").click()
    job = page.get_by_test_id("import-job")
    page.locator('[data-testid=import-job][data-status="done"]').wait_for()
    assert page.locator("h1").inner_text() == "Enregistrement de l’historique du club"
    assert job.get_by_test_id("created").inner_text() == "5 / 5"
    assert "Import terminé." in job.get_by_test_id("result").inner_text()
    assert_no_sideways_scroll(page)
    page.screenshot(path=str(artifacts / f"bgg-stored-fr-{width}.png"), full_page=True)

    imported = GameRecord.objects.filter(source="bgg")
    assert sorted(imported.filter(catalogue_record=stone_age).values_list("source_id", flat=True)) == ["90", "91", "92"]
    assert sorted(imported.filter(catalogue_record=rail).values_list("source_id", flat=True)) == ["80", "81"]
    assert CatalogueRecord.objects.count() == records_before  # no record made beside the catalogue's
    rail.refresh_from_db()
    assert rail.bgg_id == 9209
    assert visited and not [url for url in visited if urlparse(url).path.startswith("/admin/")]
    page.context.close()
