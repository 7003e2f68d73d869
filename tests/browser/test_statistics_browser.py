"""The club's statistics and a game's, on a phone (390×844) and a laptop (1280×800), in English and
French, as a club member reads them: every bar drawn with its figure beside it, nothing scrolling
sideways, a game's bar leading to its own page. Screenshots: statistics-club-<width>-<lang>.png and
statistics-game-<width>-<lang>.png in tests/artifacts/."""

from __future__ import annotations

import io
from datetime import date, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from accounts.models import Organisation
from accounts.roles import Role
from games.models import CatalogueRecord, Copy
from tests.factories import give_role, result_game

from .recorder_driver import LAPTOP, PHONE, assert_no_sideways_scroll, logged_in_page

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def club(celery_eager):
    """The demo club, small, and a season of Azul logged as results (one copy of the library's
    named), scored in this process."""
    call_command("load_demo", "--games", "2", "--stone-age-games", "1", "--carcassonne-games", "1", "--maps-games", "0",
                 stdout=io.StringIO())
    demo = Organisation.objects.get(slug="ludotheque-demo")  # the demo's ludothèque and its club
    azul = CatalogueRecord.objects.create(title="Azul", min_players=2, max_players=4)
    copy = Copy.objects.create(organisation=demo, record=azul, barcode="LUD-0042", shelf_location="J-AZU")
    tables = [{"Élodie Lefèvre-Dubois": 61, "Bastien": 52, "Chloé": 40}, {"Bastien": 70, "Élodie Lefèvre-Dubois": 44},
              {"Chloé": 58, "Bastien": 58}, {"Élodie Lefèvre-Dubois": 75, "Chloé": 49, "Bastien": 66}]
    for week in range(12):
        result_game(tables[week % 4], date(2026, 6, 6) + timedelta(weeks=week), game="azul",
                    catalogue_record=azul, copy=copy if week % 2 else None, organisation=demo)
    return give_role(get_user_model().objects.create_user("member"), Role.MEMBER, demo)


@pytest.mark.slow(seconds=25)
def test_the_statistics_pages_read_well_on_a_phone_and_a_laptop_in_both_languages(browser, live_server, artifacts,
                                                                                  club):
    """Both widths on the one demo (loading it takes longer than reading the pages)."""
    for viewport in (PHONE, LAPTOP):
        the_statistics_pages_read_well(browser, live_server, artifacts, club, viewport)


def the_statistics_pages_read_well(browser, live_server, artifacts, club, viewport) -> None:
    width = viewport["width"]
    for language, locale in (("en", "en-US"), ("fr", "fr-FR")):
        page = logged_in_page(browser, live_server, club, viewport=viewport, locale=locale)
        page.goto(f"{live_server.url}/statistics/")
        bars = page.locator("#games-chart .bar-row")
        assert bars.count() >= 4  # Azul and the demo's three engine games
        assert page.locator("#games-chart svg.bar").count() == bars.count()
        azul = page.locator('#games-chart .bar-row[data-label="Azul"]')
        assert azul.locator('[data-testid="bar-figure"]').inner_text() == "12"
        figure = azul.locator('[data-testid="bar-figure"]').bounding_box()
        bar = azul.locator("svg.bar").bounding_box()
        assert figure["x"] >= bar["x"] + bar["width"] - 1, "the figure sits beside its bar"
        assert_no_sideways_scroll(page)
        page.screenshot(path=str(artifacts / f"statistics-club-{width}-{language}.png"), full_page=True)

        with page.expect_navigation():
            azul.locator("a").click()
        assert page.url.endswith("/statistics/azul/")
        assert page.locator("#seat-chart-2 .bar-row").count() == 2
        assert page.locator("#seat-chart-3 .bar-row").count() == 3
        assert page.locator("#game-copies-chart .bar-row").count() == 1
        assert_no_sideways_scroll(page)
        page.screenshot(path=str(artifacts / f"statistics-game-{width}-{language}.png"), full_page=True)
        assert page.script_errors == []  # type: ignore[attr-defined]
        page.context.close()
