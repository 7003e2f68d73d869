"""``loans.selectors.membership_figures``: a small year of the tests' library (in Boulogne-sur-Mer)
counted by hand, households made and paid through the desk's own services.

The households and what 2026 makes of them:

- Anciens (Boulogne-sur-Mer): a membership typed for 2025, renewed on 10 January 2026 (15.00,
  Adhésion commune) until 9 January 2027: active, not new (renewed), not lapsed; resident.
- Nouveaux (boulogne sur mer): first membership 1 March 2026 (15.00, Adhésion commune) until
  28 February 2027: active, new; resident (the same town, otherwise written). A loan returned
  3 days late (0.60): 0.40 paid, 0.20 waived.
- Partis (Wimereux): a membership typed from 1 July 2025 to 30 June 2026, never renewed: active,
  lapsed; non-resident.
- Emprunteurs (no town): no membership, lent a game on 2 May 2026 by a librarian's override:
  active (a loan in the year), town unknown; the year's one override.
- Annulés (Le Portel): first membership 1 February 2026 (2 × 8.00, Hors commune), cancelled on
  1 May 2026 (its last day 30 April): active, new, lapsed; non-resident.
- Futurs (Wimereux): first membership paid on 5 January 2027: nothing in 2026.
- Vieux (Boulogne-sur-Mer): a membership typed for 2020: nothing in 2026.
- A household of another library, paid in 2026: not counted.

So: 5 active, 2 new, 2 lapsed; by town Boulogne-sur-Mer 2, Wimereux 1, Le Portel 1, unknown 1;
2 residents, 2 non-residents, 1 unknown; income 46.00 (Adhésion commune 30.00, Hors commune
16.00); late fees 0.40 paid and 0.20 waived; 1 override.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from accounts.models import Organisation
from accounts.roles import Role
from loans import memberships, selectors, services
from loans.models import Tariff
from tests.factories import give_role, make_copies, make_household, the_library

D = dt.date


@pytest.fixture
def year_2026(record, desk_user, django_user_model):
    library = the_library()
    Organisation.objects.filter(pk=library.pk).update(town="Boulogne-sur-Mer")
    librarian = give_role(django_user_model.objects.create_user("libby"), Role.LIBRARIAN)
    resident, outside = Tariff.objects.bulk_create([
        Tariff(organisation=library, name="Adhésion commune", kind="resident", amount=Decimal("15.00")),
        Tariff(organisation=library, name="Hors commune", kind="non_resident", amount=Decimal("8.00"), per="person")])
    none = {"membership_starts": None, "membership_ends": None, "fee_paid": False}
    anciens = make_household("Anciens", town="Boulogne-sur-Mer", membership_starts=D(2025, 1, 1),
                             membership_ends=D(2025, 12, 31))
    memberships.take_membership(desk_user, anciens, resident, method="cash", today=D(2026, 1, 10))
    nouveaux = make_household("Nouveaux", town="boulogne sur mer", **none)
    memberships.take_membership(desk_user, nouveaux, resident, method="card", today=D(2026, 3, 1))
    copy, other_copy = make_copies(record, 2, prefix="YEAR")
    services.lend(copy, nouveaux, desk_user, today=D(2026, 4, 1))
    services.return_copy(copy, desk_user, today=D(2026, 4, 25))  # due 22 April: 0.60
    memberships.pay_late_fee(desk_user, nouveaux, amount="0.40", method="cash", today=D(2026, 4, 25))
    memberships.waive_late_fee(librarian, nouveaux, amount="0.20", reason="rounded", today=D(2026, 4, 26))
    make_household("Partis", town="Wimereux", membership_starts=D(2025, 7, 1), membership_ends=D(2026, 6, 30))
    emprunteurs = make_household("Emprunteurs", **none)
    services.lend(other_copy, emprunteurs, librarian, today=D(2026, 5, 2), override_reason="their card is coming")
    annules = make_household("Annulés", town="Le Portel", **none)
    memberships.take_membership(desk_user, annules, outside, method="cheque", persons=2, today=D(2026, 2, 1))
    memberships.cancel_membership(desk_user, annules, reason="moved away", today=D(2026, 5, 1))
    futurs = make_household("Futurs", town="Wimereux", **none)
    memberships.take_membership(desk_user, futurs, outside, method="cash", persons=1, today=D(2027, 1, 5))
    make_household("Vieux", town="Boulogne-sur-Mer", membership_starts=D(2020, 1, 1), membership_ends=D(2020, 12, 31))
    elsewhere = Organisation.objects.create(slug="ailleurs", name="Ailleurs", town="Boulogne-sur-Mer")
    theirs = Tariff.objects.create(organisation=elsewhere, name="Adhésion commune", amount=Decimal("99.00"))
    memberships.take_membership(give_role(django_user_model.objects.create_user("their-desk"), Role.DESK, elsewhere),
                                make_household("D'ailleurs", organisation=elsewhere, **none), theirs, method="cash",
                                today=D(2026, 6, 1))
    library.refresh_from_db()  # its town, set above
    return library


def test_the_years_figures_are_the_hand_counted_ones(year_2026, django_assert_max_num_queries):
    with django_assert_max_num_queries(8):
        figures = selectors.membership_figures(year_2026, 2026)
    assert (figures.households_active, figures.households_new, figures.households_lapsed) == (5, 2, 2)
    assert figures.households_by_town == {"Boulogne-sur-Mer": 2, "Wimereux": 1, "Le Portel": 1, "": 1}
    assert (figures.residents, figures.non_residents, figures.town_unknown) == (2, 2, 1)
    assert figures.membership_income == Decimal("46.00")
    assert figures.income_by_tariff == {"Adhésion commune": Decimal("30.00"), "Hors commune": Decimal("16.00")}
    assert (figures.late_fees_paid, figures.late_fees_waived, figures.overrides) == (
        Decimal("0.40"), Decimal("0.20"), 1)
    # In cents as the report's CSV prints them, whatever the database sums with (SQLite: floats).
    assert [str(amount) for amount in (figures.membership_income, *figures.income_by_tariff.values(),
                                       figures.late_fees_paid, figures.late_fees_waived)] == [
        "46.00", "30.00", "16.00", "0.40", "0.20"]


def test_the_next_year_counts_the_renewals_and_the_newcomers_of_its_own(year_2026):
    """2027: Anciens and Nouveaux still valid in January/February (active, lapsed: not renewed by
    the end of 2027); Futurs new and active (until 4 January 2028: not lapsed)."""
    figures = selectors.membership_figures(year_2026.pk, 2027)
    assert (figures.households_active, figures.households_new, figures.households_lapsed) == (3, 1, 2)
    assert figures.membership_income == Decimal("8.00") and figures.overrides == 0
