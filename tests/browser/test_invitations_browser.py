"""Joining a club from the table, on a phone (390×844) and a laptop (1280×800), in English and
French: the organiser makes a link invitation and shows its QR code; a new person opens the link
in their own browser, creates an account, is a member at once and starts recording a game with
their own name among the club's. No page on the way is the Django admin's. (A visitor asking to
join a club: tests/browser/test_accounts_browser.py, from the sign-up on.)
Screenshots: invitation-qr-<language>-<width>.png, invitation-accept-….
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlparse

import pytest

from accounts.models import Membership, Organisation
from accounts.roles import Role
from records.models import GameRecord, Player
from tests.factories import give_role

from .recorder_driver import LAPTOP, PHONE, assert_no_sideways_scroll, at_each_width, logged_in_page

pytestmark = pytest.mark.django_db(transaction=True)

WORDS = {
    "en": {"area": "Members and invitations", "welcome": "Welcome to Club du Jeudi: you are a member.",
           "record": "Record a game"},
    "fr": {"area": "Membres et invitations", "welcome": "Club du Jeudi\u00a0: bienvenue, vous en êtes membre.",
           "record": "Enregistrer une partie"},
}
PASSWORD = "un-mot-de-passe-long"


def watched(page, visited: list[str]):
    """``page``, each of its navigations noted in ``visited``."""
    page.on("framenavigated", lambda frame: visited.append(frame.url) if frame == page.main_frame else None)
    return page


@pytest.mark.slow(seconds=20)
@pytest.mark.parametrize("language, viewport", [("en", LAPTOP), ("fr", PHONE)], ids=["en-1280", "fr-390"])
def test_an_invitation_at_the_table_and_a_request_to_join(browser, live_server, artifacts: Path, django_user_model,
                                                          viewport, language):
    """Clicked through on a laptop in English and on a phone in French (the longer words on the
    narrower screen); the invitation and the form it opens looked at on both screens."""
    words = WORDS[language]
    locale = "fr-FR" if language == "fr" else "en-US"
    thursday = Organisation.objects.create(name="Club du Jeudi", slug="club-du-jeudi", language=language)
    organiser = give_role(django_user_model.objects.create_user("orga"), Role.ORGANISER, thursday)
    Player.objects.create(display_name="Orphée", user=organiser)
    visited: list[str] = []

    # The organiser, at the table: a link invitation and its QR code.
    table = watched(logged_in_page(browser, live_server, organiser, viewport=viewport, locale=locale), visited)
    table.goto(f"{live_server.url}/")
    with table.expect_navigation():
        table.get_by_role("link", name=words["area"]).click()
    assert table.locator("h1").inner_text() == words["area"]
    assert_no_sideways_scroll(table)
    with table.expect_navigation():
        table.get_by_test_id("invite").click()
    qr = table.get_by_test_id("invitation-qr").locator("svg")

    def qr_at(width: int) -> None:
        box = qr.bounding_box()
        assert box is not None and box["width"] >= min(300, width - 60), (width, box)
        assert_no_sideways_scroll(table)
        table.screenshot(path=str(artifacts / f"invitation-qr-{language}-{width}.png"), full_page=True)

    at_each_width(table, qr_at)
    link = table.get_by_test_id("invitation-address").input_value()
    assert link.startswith(f"{live_server.url}/invitations/")

    # The new person, on their own phone: an account, a member at once, a game started.
    newcomer = watched(browser.new_context(viewport=dict(viewport), locale=locale).new_page(), visited)
    newcomer.set_default_timeout(15_000)
    newcomer.goto(link)
    assert "Club du Jeudi" in newcomer.locator("h1").inner_text()
    form = newcomer.get_by_test_id("sign-up-form")
    form.locator("input[name=username]").fill("noa")
    form.locator("input[name=email]").fill("noa@example.org")
    form.locator("input[name=password1]").fill(PASSWORD)
    form.locator("input[name=password2]").fill(PASSWORD)

    def form_at(width: int) -> None:
        assert_no_sideways_scroll(newcomer)
        newcomer.screenshot(path=str(artifacts / f"invitation-accept-{language}-{width}.png"), full_page=True)

    at_each_width(newcomer, form_at)
    with newcomer.expect_navigation():
        newcomer.get_by_test_id("sign-up-and-join").click()
    assert urlparse(newcomer.url).path == "/"
    assert words["welcome"] in newcomer.locator(".messages").inner_text()
    assert Membership.objects.filter(organisation=thursday, user__username="noa").exists()
    with newcomer.expect_navigation():
        newcomer.get_by_role("link", name=words["record"]).first.click()
    newcomer.locator("input[name=game][value=hunters-gatherers]").check()
    newcomer.get_by_role("button", name="noa", exact=True).click()
    newcomer.get_by_role("button", name="Orphée", exact=True).click()
    with newcomer.expect_navigation(url=re.compile(r"/scorekeeping/\d+/$")):
        newcomer.locator("button.start-button").click()
    record = GameRecord.objects.get()
    assert [seat.player.display_name for seat in record.seats.order_by("seat_order")] == ["noa", "Orphée"]
    assert record.organisation == thursday and record.seats.get(seat_order=0).player.user.username == "noa"

    assert visited and not [url for url in visited if urlparse(url).path.startswith("/admin/")], visited
    for page in (table, newcomer):
        assert getattr(page, "script_errors", []) == []
