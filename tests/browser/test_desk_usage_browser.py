"""The librarian's usage page on a phone (390×844) and a laptop (1280×800), in English and French:
the table readable without sideways scrolling (a card per game on the phone), a game's copies
opened, another period and sort chosen; and the copy page of a copy a game asked to be checked.
Screenshots: desk-usage-<width>-<language>.png, desk-usage-copies-<width>-<language>.png,
desk-copy-check-wanted-<width>.png.

The French words are those of /work/notes/fr-plays.json (compiled into locale/ by the lead)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.utils import timezone

from tests.loans.test_usage import library

from .recorder_driver import LAPTOP, PHONE, assert_no_sideways_scroll, at_each_width, logged_in_page

pytestmark = pytest.mark.django_db(transaction=True)

WORDS = {
    "en": {"title": "Loans and plays", "hint": "More waiting than copies", "all": "All time", "copies": "1 copy",
           "loans": "Loans", "waiting": "Waiting now"},
    "fr": {"title": "Prêts et parties", "hint": "Plus d’attente que d’exemplaires", "all": "Depuis le début",
           "copies": "1 exemplaire", "loans": "Prêts", "waiting": "En attente"},
}


@pytest.fixture
def volunteer(desk_user):
    """The desk volunteer who reads the figures (``desk_user``, of ``tests/conftest.py``)."""
    return desk_user


@pytest.mark.slow(seconds=20)
@pytest.mark.parametrize("language, locale, viewport", [("en", "en-US", LAPTOP), ("fr", "fr-FR", PHONE)],
                         ids=["en-1280", "fr-390"])
def test_the_usage_table_reads_on_a_phone_and_a_laptop(browser, live_server, artifacts: Path, volunteer, viewport,
                                                       language, locale):
    """Clicked through on a laptop in English and on a phone in French (the longer words on the
    narrower screen); each state of the table looked at on both screens."""
    lib = library(timezone.localdate())
    words = WORDS[language]
    page = logged_in_page(browser, live_server, volunteer, viewport=viewport, locale=locale)
    page.goto(f"{live_server.url}/desk/")
    page.wait_for_selector("html[data-camera-ready]", state="attached")  # the scan box's buttons settled
    with page.expect_navigation():
        page.locator('[data-testid="desk-usage-link"] a').click()
    assert page.locator("h1").inner_text() == words["title"]
    cards = page.locator('[data-testid="usage-table"] tbody[data-record]')
    assert cards.count() == 4
    dixit = page.locator(f'tbody[data-record="{lib.dixit.pk}"]')
    assert words["hint"] in dixit.locator("th").inner_text()
    waiting = dixit.locator('[data-figure="waiting"]')

    def table_at(width: int) -> None:
        assert waiting.is_visible() and waiting.inner_text().strip().endswith("2")
        if width < 640:  # a card per game: each figure with its name beside it
            assert words["waiting"] in waiting.evaluate("cell => getComputedStyle(cell, '::before').content")
            assert page.locator('[data-testid="usage-table"] thead').is_hidden()
        else:
            assert words["loans"] in page.locator('[data-testid="usage-table"] thead').inner_text()
        assert_no_sideways_scroll(page)
        page.screenshot(path=str(artifacts / f"desk-usage-{width}-{language}.png"), full_page=True)

    at_each_width(page, table_at)

    dixit.locator("summary").click()
    copy_line = dixit.locator('li[data-copy="B1"]')
    assert copy_line.is_visible() and words["copies"] in dixit.locator("summary").inner_text()
    with page.expect_navigation():
        page.locator('[data-testid="usage-choices"] a[data-period="all"]').click()
    with page.expect_navigation():
        page.locator('[data-testid="usage-choices"] a[data-sort="demand"]').click()
    assert page.locator('a[data-period="all"]').get_attribute("aria-current") == "true"
    assert page.locator('a[data-period="all"]').inner_text() == words["all"]
    order = [cards.nth(index).get_attribute("data-record") for index in range(cards.count())]
    assert order == [str(lib.catan.pk), str(lib.dixit.pk), str(lib.azul.pk), str(lib.scrabble.pk)]
    azul = page.locator(f'tbody[data-record="{lib.azul.pk}"]')
    azul.locator("summary").click()

    def copies_at(width: int) -> None:
        assert azul.locator('li[data-copy="A2"]').is_visible()
        assert_no_sideways_scroll(page)
        page.screenshot(path=str(artifacts / f"desk-usage-copies-{width}-{language}.png"), full_page=True)

    at_each_width(page, copies_at)
    page.context.close()


@pytest.mark.slow(seconds=10)
@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["390", "1280"])
def test_a_copy_a_game_asked_to_check_says_why_on_its_page(browser, live_server, artifacts: Path, volunteer,
                                                           viewport, django_user_model):
    from records.services import SeatSpec, append_event, start_game

    lib = library(timezone.localdate())
    copy = lib.copies["B1"]  # out on loan to Martin
    keeper = django_user_model.objects.get(username="keeper")
    record = start_game(game_slug="carcassonne", seats=[SeatSpec("Ada"), SeatSpec("Bo")], seed=None,
                        created_by=keeper, copy=copy)
    append_event(record, 0, "end_game", {"reason": "missing_tile"}, recorded_by=keeper)  # committed: the signal runs
    page = logged_in_page(browser, live_server, volunteer, viewport=viewport)
    page.goto(f"{live_server.url}/desk/copies/{copy.barcode}/")
    notice = page.locator('[data-testid="check-wanted"]')
    assert "ended short of its tiles" in notice.inner_text()
    assert notice.locator("a").get_attribute("href") == f"/games/{record.pk}/"
    assert page.locator(f'[data-testid="copy-play"][data-record="{record.pk}"]').is_visible()
    assert_no_sideways_scroll(page)
    page.screenshot(path=str(artifacts / f"desk-copy-check-wanted-{viewport['width']}.png"), full_page=True)
    with page.expect_navigation():
        page.locator('[data-testid="desk-return"]').click()
    assert page.locator('[data-testid="copy-status"]').get_attribute("data-status") == "needs_check"
    with page.expect_navigation():
        page.locator('[data-testid="desk-check"]').click()
    assert page.locator('[data-testid="copy-status"]').get_attribute("data-status") == "on_hold_shelf"
    assert page.locator('[data-testid="check-wanted"]').count() == 0
    page.context.close()
