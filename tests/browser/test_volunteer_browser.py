"""A ludothèque runs itself from its own pages, on a phone (390×844) and a laptop (1280×800), in
English and French (issue 35, "Done when" 4): the librarian sets the lending rules, registers a
household with its address and a member, and invites a desk volunteer by a link; the volunteer
opens the link on their own phone, creates their account, and lends a copy to the household at
the desk, due back after the rules' loan days. No page on the way is the Django admin's.
Screenshots: volunteer-<step>-<language>-<width>.png.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from urllib.parse import urlparse

import pytest
from django.utils import timezone

from accounts.models import Membership, MembershipRole
from accounts.roles import Role
from games.models import CatalogueRecord, Copy
from loans import selectors
from loans.models import Household, LoanRules
from tests.factories import give_role, the_library

from .recorder_driver import LAPTOP, PHONE, assert_no_sideways_scroll, at_each_width, logged_in_page

pytestmark = pytest.mark.django_db(transaction=True)

WORDS = {
    "en": {"desk": "Loans desk", "rules": "Lending rules", "households": "Households",
           "volunteers": "Desk volunteers", "invitations": "Members and invitations", "lent": "lent until"},
    "fr": {"desk": "Accueil des prêts", "rules": "Règles de prêt", "households": "Foyers",
           "volunteers": "Bénévoles de l’accueil", "invitations": "Membres et invitations", "lent": "prêté jusqu’au"},
}
PASSWORD = "un-mot-de-passe-long"


def watched(page, visited: list[str]):
    """``page``, each of its navigations noted in ``visited``."""
    page.on("framenavigated", lambda frame: visited.append(frame.url) if frame == page.main_frame else None)
    return page


def look(page, artifacts: Path, name: str, language: str) -> None:
    """Each step on a phone and on a laptop: ``volunteer-<step>-<language>-<width>.png``."""
    def at(width: int) -> None:
        assert_no_sideways_scroll(page)
        page.screenshot(path=str(artifacts / f"{name}-{language}-{width}.png"), full_page=True)

    at_each_width(page, at)


@pytest.mark.slow(seconds=25)
@pytest.mark.parametrize("language, viewport", [("en", LAPTOP), ("fr", PHONE)], ids=["en-1280", "fr-390"])
def test_a_librarian_invites_a_desk_volunteer_who_lends_a_copy(browser, live_server, artifacts: Path,
                                                               django_user_model, viewport, language):
    """Clicked through on a laptop in English and on a phone in French (the longer words on the
    narrower screen); each step looked at on both screens."""
    words = WORDS[language]
    locale = "fr-FR" if language == "fr" else "en-US"
    library = the_library()
    librarian = give_role(django_user_model.objects.create_user("bibliothecaire"), Role.LIBRARIAN)
    record = CatalogueRecord.objects.create(title="Carcassonne à la préhistoire")
    Copy.objects.create(organisation=library, record=record, barcode="LUD-HG-0001")
    visited: list[str] = []

    # The librarian: the lending rules, from the desk.
    desk = watched(logged_in_page(browser, live_server, librarian, viewport=viewport, locale=locale), visited)
    desk.goto(f"{live_server.url}/")
    with desk.expect_navigation():
        desk.get_by_role("link", name=words["desk"], exact=True).first.click()
    with desk.expect_navigation():
        desk.get_by_test_id("lending-rules-link").click()
    assert desk.locator("h1").inner_text() == words["rules"]
    desk.fill("#id_loan_days", "28")
    look(desk, artifacts, "volunteer-rules", language)
    with desk.expect_navigation():
        desk.get_by_test_id("lending-rules-save").click()
    assert LoanRules.current(library).loan_days == 28

    # A household registered, with where it lives and a member born in 2016.
    with desk.expect_navigation():
        desk.get_by_test_id("library-nav").get_by_role("link", name=words["households"]).click()
    with desk.expect_navigation():
        desk.get_by_test_id("household-new").click()
    for field, value in (("name", "Famille Lefèvre-Dubois"), ("card_number", "CARD-00042"),
                         ("address", "12 rue des Dunes"), ("postcode", "62930"), ("town", "Wimereux"),
                         ("phone", "03 21 00 00 00"), ("membership_starts", "2026-01-01"),
                         ("membership_ends", "2099-12-31")):
        desk.fill(f"#id_{field}", value)
    desk.check("#id_fee_paid")
    look(desk, artifacts, "volunteer-household-new", language)
    with desk.expect_navigation():
        desk.get_by_test_id("household-save").click()
    household = Household.objects.get(card_number="CARD-00042")
    assert (household.organisation, household.town) == (library, "Wimereux")
    member_form = desk.get_by_test_id("member-form")
    member_form.locator("input[name=display_name]").fill("Léo Lefèvre")
    member_form.locator("input[name=birth_year]").fill("2016")
    with desk.expect_navigation():
        desk.get_by_test_id("member-add").click()
    assert "Léo Lefèvre" in desk.get_by_test_id("household-members").inner_text()
    look(desk, artifacts, "volunteer-household", language)

    # The volunteers, and an invitation for a desk volunteer: a link shown on the librarian's phone.
    with desk.expect_navigation():
        desk.get_by_test_id("library-nav").get_by_role("link", name=words["volunteers"]).click()
    assert desk.locator("h1").inner_text() == words["volunteers"]
    assert "bibliothecaire" in desk.get_by_test_id("desk-staff").inner_text()
    look(desk, artifacts, "volunteer-staff", language)
    with desk.expect_navigation():
        desk.get_by_test_id("invite-desk-volunteer").click()
    assert desk.locator("h1").inner_text() == words["invitations"]
    assert desk.locator("input[name=role][value=desk]").is_checked()
    look(desk, artifacts, "volunteer-invite", language)
    with desk.expect_navigation():
        desk.get_by_test_id("invite").click()
    link = desk.get_by_test_id("invitation-address").input_value()
    assert link.startswith(f"{live_server.url}/invitations/")

    # The volunteer, on their own phone: an account, at the desk at once, a copy lent.
    volunteer = watched(browser.new_context(viewport=dict(viewport), locale=locale).new_page(), visited)
    volunteer.set_default_timeout(15_000)
    errors: list[str] = []
    volunteer.on("pageerror", lambda error: errors.append(str(error)))
    volunteer.goto(link)
    form = volunteer.get_by_test_id("sign-up-form")
    form.locator("input[name=username]").fill("benevole")
    form.locator("input[name=email]").fill("benevole@example.org")
    form.locator("input[name=password1]").fill(PASSWORD)
    form.locator("input[name=password2]").fill(PASSWORD)
    look(volunteer, artifacts, "volunteer-sign-up", language)
    with volunteer.expect_navigation():
        volunteer.get_by_test_id("sign-up-and-join").click()
    membership = Membership.objects.get(organisation=library, user__username="benevole")
    assert list(MembershipRole.objects.filter(membership=membership).values_list("role", flat=True)) == ["desk"]
    with volunteer.expect_navigation():
        volunteer.get_by_role("link", name=words["desk"], exact=True).first.click()
    volunteer.fill("#code", "CARD-00042")
    with volunteer.expect_navigation():
        volunteer.keyboard.press("Enter")  # a scanner ends its code with Enter
    assert urlparse(volunteer.url).path == "/desk/households/CARD-00042/"
    assert "Léo Lefèvre" in volunteer.get_by_test_id("household-members").inner_text()
    assert "Wimereux" in volunteer.get_by_test_id("household-address").inner_text()
    volunteer.fill("#copy", "LUD-HG-0001")
    with volunteer.expect_navigation():
        volunteer.keyboard.press("Enter")
    assert words["lent"] in volunteer.locator(".messages").inner_text()
    assert "LUD-HG-0001" in volunteer.get_by_test_id("household-loans").inner_text()
    look(volunteer, artifacts, "volunteer-lent", language)

    state = selectors.copy_state(Copy.objects.get(barcode="LUD-HG-0001"))
    assert (state.status.value, state.household) == ("on_loan", household.pk)
    assert state.due_on == timezone.localdate() + dt.timedelta(days=28)
    assert visited and not [url for url in visited if urlparse(url).path.startswith("/admin/")], visited
    assert desk.script_errors == [] and errors == []  # type: ignore[attr-defined]
