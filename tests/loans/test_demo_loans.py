"""The demo's loans desk (``make run``: ``load_demo_loans`` after ``load_demo``): checklists read
from the catalogue's contents, three households (where they live, their members and years of birth), the Martins' member account with a game out and
one back late, the Dubois waiting for that game, the Nguyens overdue; loading it again adds
nothing."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from accounts.models import Organisation
from games.services import demo_catalogue_data, load_catalogue
from loans import selectors
from loans.models import Component, CopyEvent, Hold, Household, Member

pytestmark = pytest.mark.django_db


def test_the_demo_desk_has_a_day_to_show_and_loads_once(django_user_model):
    # The demo ludothèque as load_demo makes it, with its catalogue and copies.
    library = Organisation.objects.create(slug="ludotheque-demo", name="Ludothèque", kind=Organisation.Kind.BOTH)
    load_catalogue(demo_catalogue_data(), library)
    django_user_model.objects.create_superuser("admin", password="x")
    call_command("load_demo_loans")
    assert Household.objects.count() == 3
    assert Component.objects.filter(record__title="Carcassonne à la prèhistoire").count() >= 4
    martin = Household.objects.get(card_number="M-0001")
    assert [row.copy.barcode for row in selectors.current_loans(martin)] == ["LUD-HG-0001"]
    assert [(loan.copy.barcode, loan.days_late) for loan in selectors.loan_history(martin)] == [
        ("LUD-HG-0001", 0), ("LUD-CA-0001", 3)]
    assert Hold.objects.get(household__card_number="M-0002").status == Hold.Status.WAITING
    overdue = selectors.overdue_loans(timezone.localdate())
    assert [(row.copy.barcode, row.household.card_number) for row in overdue] == [("LUD-MC-0001", "M-0003")]
    assert (martin.town, martin.postcode) == ("Lille", "59000")
    assert all(household.town for household in Household.objects.all())
    assert dict(martin.members.values_list("display_name", "birth_year")) == {
        "Famille Martin": None, "Léo Martin": 2016, "Jeanne Martin": 2019}
    events, members = CopyEvent.objects.count(), Member.objects.count()
    call_command("load_demo_loans")
    assert CopyEvent.objects.count() == events and Household.objects.count() == 3
    assert Member.objects.count() == members
    member = Client()
    assert member.login(username="famille-martin", password="ludolog-demo")
    assert "LUD-HG-0001" in member.get("/account/loans/").content.decode()
    assert 'data-copy="LUD-HG-0001"' in member.get("/account/").content.decode()  # their account page too
