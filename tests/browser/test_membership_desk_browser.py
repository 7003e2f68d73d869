"""The desk's household page on a phone (390×844) and a laptop (1280×800), in French (issue 39): a
household with a game nine days overdue is refused in words naming the game, the librarian lends
anyway saying why, then takes the membership (the in-town tariff offered for a household of the
library's town); nothing scrolls sideways. Screenshots: desk-membership-<width>-fr[-…].png."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path

import pytest
from django.utils import timezone

from accounts.models import Organisation
from accounts.roles import Role
from games.models import CatalogueRecord, Copy
from loans import services
from loans.models import CopyEvent, HouseholdEvent, Tariff
from tests.factories import give_role, make_household, the_library

from .recorder_driver import LAPTOP, PHONE, assert_no_sideways_scroll, logged_in_page

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def librarian(django_user_model):
    """A librarian of the tests' library (in Boulogne-sur-Mer), its two tariffs, and the
    Lefèvre-Dubois household of Boulogne with Azul nine days overdue."""
    library = the_library()
    Organisation.objects.filter(pk=library.pk).update(town="Boulogne-sur-Mer")
    Tariff.objects.bulk_create([
        Tariff(organisation=library, name="Adhésion commune", kind="resident", amount=Decimal("15.00"),
               deposit=Decimal("50.00")),
        Tariff(organisation=library, name="Hors commune", kind="non_resident", amount=Decimal("8.00"), per="person")])
    user = give_role(django_user_model.objects.create_user("bibliothecaire"), Role.LIBRARIAN)
    azul, catan = CatalogueRecord.objects.bulk_create([CatalogueRecord(title="Azul"), CatalogueRecord(title="Catan")])
    out = Copy.objects.create(organisation=library, record=azul, barcode="LUD-AZ-0001")
    Copy.objects.create(organisation=library, record=catan, barcode="LUD-CA-0001")
    household = make_household("Famille Lefèvre-Dubois", town="Boulogne-sur-Mer",
                               membership_ends=timezone.localdate() + dt.timedelta(days=20))
    services.lend(out, household, user, today=timezone.localdate() - dt.timedelta(days=30))
    return user, household


@pytest.mark.slow(seconds=12)
@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["390", "1280"])
def test_a_late_household_refused_then_lent_anyway_and_its_membership_taken(browser, live_server, artifacts: Path,
                                                                            librarian, viewport):
    user, household = librarian
    width = viewport["width"]
    page = logged_in_page(browser, live_server, user, viewport=viewport, locale="fr-FR")
    page.goto(f"{live_server.url}/desk/households/{household.card_number}/")
    standing = page.locator('[data-testid="membership-standing"]')
    assert standing.get_attribute("data-reason") == "games_overdue" and "Azul" in standing.inner_text()
    page.screenshot(path=str(artifacts / f"desk-membership-{width}-fr.png"), full_page=True)
    assert_no_sideways_scroll(page)

    page.fill("#copy", "LUD-CA-0001")
    with page.expect_navigation():
        page.locator('[data-testid="desk-lend-copy"]').click()
    refusal = page.locator('[data-testid="desk-refusal"]')
    assert refusal.get_attribute("data-reason") == "games_overdue" and "LUD-AZ-0001" in refusal.inner_text()
    page.screenshot(path=str(artifacts / f"desk-membership-{width}-fr-refused.png"), full_page=True)
    assert_no_sideways_scroll(page)
    page.fill("#override_reason", "Rapporte Azul demain, prévenu au téléphone")
    with page.expect_navigation():
        page.locator('[data-testid="desk-lend-anyway"]').click()
    assert CopyEvent.objects.get(copy__barcode="LUD-CA-0001", type="lent").payload["override"] == "games_overdue"

    # The membership: the in-town tariff offered, from the day after the running one ends.
    page.locator('[data-testid="take-membership"] summary').click() if not page.locator(
        '[data-testid="membership-pay"]').is_visible() else None
    chosen = page.locator('[data-testid="membership-tariff"] option:checked')
    assert chosen.inner_text().startswith("Adhésion commune")
    assert page.input_value('[data-testid="membership-amount"]') == "15,00"  # as a French reader writes it
    page.select_option('[data-testid="membership-tariff"]', label=page.locator(
        '[data-testid="membership-tariff"] option').nth(1).inner_text())
    assert page.input_value('[data-testid="membership-amount"]') == "8,00"  # one member: 8.00 × 1
    page.select_option('[data-testid="membership-tariff"]', index=0)
    page.select_option('[data-testid="membership-method"]', "cheque")
    with page.expect_navigation():
        page.locator('[data-testid="membership-pay"]').click()
    paid = HouseholdEvent.objects.get(type="membership_paid")
    assert (paid.amount, paid.payload["method"], paid.payload["starts"]) == (
        Decimal("15.00"), "cheque", (household.membership_ends + dt.timedelta(days=1)).isoformat())
    assert page.locator('[data-testid="household-history"] li').count() == 2
    # Renewed before it ends: the membership runs on, nothing to refuse about it.
    assert page.locator('[data-testid="membership-standing"][data-reason^="membership_"]').count() == 0
    page.screenshot(path=str(artifacts / f"desk-membership-{width}-fr-paid.png"), full_page=True)
    assert_no_sideways_scroll(page)
    # The librarian's tariffs (the one paid under may be retired, not deleted) and lending rules.
    page.goto(f"{live_server.url}/library/tariffs/")
    in_use = page.locator('[data-tariff="Adhésion commune"]')
    assert in_use.locator('[data-testid="tariff-delete"]').count() == 0
    assert page.locator('[data-tariff="Hors commune"] [data-testid="tariff-delete"]').count() == 1
    page.screenshot(path=str(artifacts / f"library-tariffs-{width}-fr.png"), full_page=True)
    assert_no_sideways_scroll(page)
    page.goto(f"{live_server.url}/library/lending-rules/")
    assert page.locator('[data-field="refuse_overdue"] input').is_checked()
    page.screenshot(path=str(artifacts / f"library-lending-rules-{width}-fr.png"), full_page=True)
    assert_no_sideways_scroll(page)
    assert page.script_errors == []  # type: ignore[attr-defined]
