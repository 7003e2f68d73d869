"""Issue 27's full cycle at the desk, on a phone (390×844) and a laptop (1280×800): a household
created (in the admin), its card and the copies scanned (typed codes), three games lent, a fourth
refused by the household's limit, one renewed, one reserved by another household so that its
renewal is refused, one returned with two pieces missing (the copy flagged, its history shows it),
and the reserved copy, once back, set aside for the next household, which is told.
Screenshots: desk-cycle-*-<width>.png."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from games.models import CatalogueRecord, Copy
from loans.models import Component, CopyEvent, Household, Notification
from tests.factories import the_library

from .recorder_driver import LAPTOP, PHONE, assert_no_sideways_scroll, logged_in_page

pytestmark = pytest.mark.django_db(transaction=True)

GAMES = ["Carcassonne à la préhistoire", "Stenen Tijdperk", "Azul", "Dixit"]


@pytest.fixture
def library(django_user_model):
    librarian = django_user_model.objects.create_user("librarian", is_staff=True, is_superuser=True)
    for number, title in enumerate(GAMES, start=1):
        record = CatalogueRecord.objects.create(title=title)
        for position, (kind, count) in enumerate([("tuiles", 40), ("pions", 20), ("règle du jeu", 1)]):
            Component.objects.create(record=record, kind=kind, count=count, position=position)
        Copy.objects.create(organisation=the_library(), record=record, barcode=f"LUD-{number:04d}")
    Household.objects.create(organisation=the_library(), name="Famille Dubois", card_number="CARD-2", fee_paid=True,
                             membership_starts=dt.date(2026, 1, 1), membership_ends=dt.date(2099, 12, 31))
    return librarian


def at(page, live_server, path: str) -> None:
    page.goto(f"{live_server.url}{path}")


def submit(page, selector: str) -> None:
    with page.expect_navigation():
        page.locator(selector).click()


def status_of(page) -> str:
    return page.locator('[data-testid="copy-status"]').get_attribute("data-status")


@pytest.mark.slow(seconds=25)
@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["390", "1280"])
def test_a_full_cycle_at_the_desk(browser, live_server, artifacts: Path, library, viewport):
    width = viewport["width"]
    page = logged_in_page(browser, live_server, library, viewport=viewport)
    # A household joins: created in the admin with its card.
    at(page, live_server, "/admin/loans/household/add/")
    page.fill("#id_name", "Famille Martin")
    page.fill("#id_card_number", "CARD-1")
    page.fill("#id_membership_starts", "2026-01-01")
    page.fill("#id_membership_ends", "2099-12-31")
    page.locator("#id_fee_paid").check()
    submit(page, 'input[name="_save"]')
    martin = Household.objects.get(card_number="CARD-1")
    assert martin.loan_limit == 3

    # The card scanned at the desk, then three copies: lent.
    at(page, live_server, "/desk/")
    page.fill("#code", "CARD-1")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.url.endswith("/desk/households/CARD-1/")
    for barcode in ("LUD-0001", "LUD-0002", "LUD-0003"):
        page.fill("#copy", barcode)
        with page.expect_navigation():
            page.keyboard.press("Enter")
    assert page.locator('[data-testid="household-loans"] li[data-copy]').count() == 3
    # A fourth: refused by the household's limit.
    page.fill("#copy", "LUD-0004")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.locator('[data-testid="desk-refusal"]').get_attribute("data-reason") == "loan_limit_reached"
    assert_no_sideways_scroll(page)
    page.screenshot(path=str(artifacts / f"desk-cycle-household-{width}.png"), full_page=True)

    # One renewed.
    at(page, live_server, "/desk/copies/LUD-0002/")
    submit(page, '[data-testid="desk-renew"]')
    assert CopyEvent.objects.filter(copy__barcode="LUD-0002", type="renewed").count() == 1

    # Another household reserves the first game: its renewal is then refused.
    at(page, live_server, "/desk/households/CARD-2/")
    page.fill("#title", GAMES[0])
    submit(page, '[data-testid="desk-hold"]')
    assert "waiting" in page.locator('[data-testid="household-holds"]').inner_text()
    at(page, live_server, "/desk/copies/LUD-0001/")
    submit(page, '[data-testid="desk-renew"]')
    assert page.locator('[data-testid="desk-refusal"]').get_attribute("data-reason") == "renewal_refused_hold_waiting"

    # One returned with two pieces missing: flagged, and its history says so.
    at(page, live_server, "/desk/copies/LUD-0003/")
    page.fill("#count_0", "39")
    page.fill("#count_1", "19")
    submit(page, '[data-testid="desk-return"]')
    assert status_of(page) == "needs_check"
    history = page.locator('[data-testid="copy-history"]').inner_text()
    assert history.count("Piece missing") == 2
    assert_no_sideways_scroll(page)
    page.screenshot(path=str(artifacts / f"desk-cycle-missing-{width}.png"), full_page=True)

    # The reserved game comes back whole: set aside for the Dubois household, who are told.
    at(page, live_server, "/desk/copies/LUD-0001/")
    submit(page, '[data-testid="desk-return"]')
    assert status_of(page) == "on_hold_shelf"
    assert "Famille Dubois" in page.locator('[data-testid="copy-status"]').inner_text()
    told = Notification.objects.get(household__card_number="CARD-2")
    assert GAMES[0] in told.text
    page.screenshot(path=str(artifacts / f"desk-cycle-set-aside-{width}.png"), full_page=True)
    assert page.script_errors == []  # type: ignore[attr-defined]
