"""The desk's copy page on a phone (390×844) and a laptop (1280×800), in English and French: a
volunteer types a member card's number (as a scanner would) to lend the copy, then takes it back
with one piece short; nothing scrolls sideways. Screenshots: desk-copy-<width>-<lang>.png."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from games.models import CatalogueRecord, Copy
from loans.models import Component, Household
from tests.factories import the_library

from .recorder_driver import LAPTOP, PHONE, assert_no_sideways_scroll, at_each_width, logged_in_page

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def desk_user(desk_user):
    """The desk volunteer (``tests/conftest.py``), with a Hunters and Gatherers copy on the shelves
    and a household to lend it to."""
    record = CatalogueRecord.objects.create(title="Carcassonne à la préhistoire")
    for position, (kind, count) in enumerate([("tuiles paysage", 79), ("tuiles bonus", 12), ("huttes en bois", 10)]):
        Component.objects.create(record=record, kind=kind, count=count, position=position)
    Copy.objects.create(organisation=the_library(),
                        record=record, barcode="LUD-HG-0001", shelf_location="Jeux de stratégie – C")
    Household.objects.create(organisation=the_library(),
                             name="Famille Lefèvre-Dubois", card_number="CARD-00042", fee_paid=True,
                             membership_starts=dt.date(2026, 1, 1), membership_ends=dt.date(2099, 12, 31))
    return desk_user


@pytest.mark.slow(seconds=10)
def test_lending_and_taking_back_at_the_desk(browser, live_server, artifacts: Path, desk_user):
    """Done on a laptop in English and on a phone in French (the longer words on the narrower
    screen); the copy lent and returned looked at on both screens."""
    # Each language takes a different piece out: one already known missing is not missing anew.
    for language, locale, short, viewport in (("en", "en-US", "#count_1", LAPTOP), ("fr", "fr-FR", "#count_2", PHONE)):
        page = logged_in_page(browser, live_server, desk_user, viewport=viewport, locale=locale)
        page.goto(f"{live_server.url}/desk/copies/LUD-HG-0001/")
        page.fill("#card", "CARD-00042")
        with page.expect_navigation():
            page.keyboard.press("Enter")  # a scanner ends its code with Enter
        assert page.locator('[data-testid="copy-status"]').get_attribute("data-status") == "on_loan"

        def lent_at(width: int) -> None:
            page.screenshot(path=str(artifacts / f"desk-copy-{width}-{language}.png"), full_page=True)
            assert_no_sideways_scroll(page)

        at_each_width(page, lent_at)
        page.fill(short, "9")
        with page.expect_navigation():
            page.locator('[data-testid="desk-return"]').click()
        assert page.locator('[data-testid="copy-status"]').get_attribute("data-status") == "needs_check"
        assert "tuiles bonus" in page.locator('[data-testid="copy-missing"]').inner_text()

        def returned_at(width: int) -> None:
            page.screenshot(path=str(artifacts / f"desk-copy-returned-{width}-{language}.png"), full_page=True)
            print(page.evaluate("""() => [...document.querySelectorAll('body *')].filter(n =>
                n.getBoundingClientRect().right > document.documentElement.clientWidth + 1).slice(0, 8)
                .map(n => n.tagName + '.' + n.className + '#' + n.id + ' ' + Math.round(n.getBoundingClientRect().right))"""))
            assert_no_sideways_scroll(page)

        at_each_width(page, returned_at)
        assert page.script_errors == []  # type: ignore[attr-defined]
        # Checked, the copy is back on the shelves for the next language's round.
        with page.expect_navigation():
            page.locator('[data-testid="desk-check"]').click()
        assert page.locator('[data-testid="copy-status"]').get_attribute("data-status") == "available"
        page.context.close()
