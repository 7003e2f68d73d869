"""A member's own page on a phone (390×844) and a laptop (1280×800), in English and French: the
household's loan with its due date, renewed with one tap; the game they reserved and their place
in the queue; the loans before. Nothing scrolls sideways, the buttons are thumb-sized.
Screenshots: account-<language>-<width>.png."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from games.models import CatalogueRecord, Copy
from accounts.roles import Role
from loans import memberships, services
from loans.models import CopyState, Household, Member
from tests.factories import give_role, the_library

from .recorder_driver import LAPTOP, PHONE, assert_no_sideways_scroll, at_each_width, logged_in_page

pytestmark = pytest.mark.django_db(transaction=True)

WORDS = {
    "en": {"heading": "Your loans", "renew": "Renew", "renewed": "renewed until", "line": "You are number 2 in line."},
    "fr": {"heading": "Vos prêts", "renew": "Prolonger", "renewed": "prolongé jusqu’au",
           "line": "Vous êtes 2e dans la file."},
}


@pytest.fixture
def member(django_user_model):
    desk = give_role(django_user_model.objects.create_user("desk", is_staff=True), Role.DESK)
    today = dt.date.today()
    far = today + dt.timedelta(days=300)
    martin, dubois, petit = (Household.objects.create(organisation=the_library(),
                                                      name=name, card_number=card, fee_paid=True,
                                                      membership_starts=today - dt.timedelta(days=60),
                                                      membership_ends=far)
                             for name, card in (("Famille Martin", "M-1"), ("Famille Dubois", "M-2"),
                                                ("Famille Petit", "M-3")))
    user = django_user_model.objects.create_user("claire")
    Member.objects.create(household=martin, display_name="Claire Martin", user=user)
    prehistory = CatalogueRecord.objects.create(title="Carcassonne à la préhistoire")
    stone_age = CatalogueRecord.objects.create(title="Stenen Tijdperk")
    first = Copy.objects.create(organisation=the_library(), record=prehistory, barcode="LUD-HG-1")
    other = Copy.objects.create(organisation=the_library(), record=stone_age, barcode="LUD-SA-1")
    services.lend(first, martin, desk, today=today - dt.timedelta(days=40))
    back = services.return_copy(first, desk, today=today - dt.timedelta(days=15))
    # Its late fee paid at the desk: a household owing late fees borrows nothing more (issue 39).
    memberships.pay_late_fee(desk, martin, amount=back.late_fee, method="cash")
    services.lend(first, martin, desk, today=today - dt.timedelta(days=5))
    services.lend(other, petit, desk, today=today - dt.timedelta(days=3))
    services.place_hold(stone_age, dubois, desk)
    services.place_hold(stone_age, martin, desk)
    return user


@pytest.mark.slow(seconds=10)
@pytest.mark.parametrize("language, viewport", [("en", LAPTOP), ("fr", PHONE)], ids=["en-1280", "fr-390"])
def test_a_member_reads_and_renews_their_loans(browser, live_server, artifacts: Path, member, viewport, language):
    """Done on a laptop in English and on a phone in French (the longer words on the narrower
    screen); the page looked at on both screens."""
    words = WORDS[language]
    page = logged_in_page(browser, live_server, member, viewport=viewport,
                          locale="fr-FR" if language == "fr" else "en-US")
    page.goto(f"{live_server.url}/")
    with page.expect_navigation():
        page.get_by_role("link", name=words["heading"]).first.click()
    assert page.url.endswith("/account/loans/")
    assert page.locator("h1").inner_text() == words["heading"]
    assert page.locator('[data-testid="account-loans"] li[data-copy="LUD-HG-1"]').count() == 1
    assert words["line"] in page.locator('[data-testid="account-holds"]').inner_text()
    assert page.locator('[data-testid="account-history"] li').count() == 2
    renew = page.locator('[data-testid="account-renew"]')
    assert renew.inner_text() == words["renew"]

    def loans_at(width: int) -> None:
        assert_no_sideways_scroll(page)
        box = renew.bounding_box()
        assert box is not None and box["height"] >= 44, (width, box)
        page.screenshot(path=str(artifacts / f"account-{language}-{width}.png"), full_page=True)

    at_each_width(page, loans_at)
    with page.expect_navigation():
        renew.click()
    assert words["renewed"] in page.locator(".messages").inner_text()
    assert CopyState.objects.get(copy__barcode="LUD-HG-1").renewals == 1
    assert page.locator('[data-testid="account-renew"]').count() == 0  # one renewal allowed
    assert page.script_errors == []
    page.context.close()
