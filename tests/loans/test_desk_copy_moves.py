"""The copy page's moves: a piece found or replaced leaves the missing list (more than are missing:
refused, nothing changed); desk staff send a copy to repair and take it back (a household waiting
gets it then); only librarians withdraw one (desk staff 403, nothing changed)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client

from accounts.roles import Role
from loans import services
from loans.models import CopyEvent, CopyState, Hold
from tests.factories import give_role, make_household

pytestmark = pytest.mark.django_db
FAR = dt.date(2099, 12, 31)


def post(client: Client, copy, **data):
    return client.post(f"/desk/copies/{copy.barcode}/", data)


def test_a_piece_found_leaves_the_missing_list(desk, copies, desk_user):
    copy = copies[0]
    services.lend(copy, make_household("Martin", membership_ends=FAR), desk_user)
    services.return_copy(copy, desk_user, {"tuiles bonus": 9})  # three short
    page = desk.get(f"/desk/copies/{copy.barcode}/").content.decode()
    assert 'data-testid="desk-found"' in page and "tuiles bonus (3 missing)" in page
    events = CopyEvent.objects.count()
    too_many = post(desk, copy, action="found", kind="tuiles bonus", count="4")
    assert too_many.status_code == 400 and 'data-reason="unknown_component"' in too_many.content.decode()
    assert post(desk, copy, action="found", kind="tuiles bonus", count="0").status_code == 400
    assert CopyEvent.objects.count() == events
    assert post(desk, copy, action="found", kind="tuiles bonus", count="2").status_code == 302
    assert CopyState.objects.get(copy=copy).missing == [{"kind": "tuiles bonus", "count": 1}]


def test_repair_and_back_and_the_household_waiting_gets_it(desk, record, copies, desk_user):
    dubois = make_household("Dubois", membership_ends=FAR)
    for other in copies[1:]:
        services.lend(other, make_household(other.barcode, membership_ends=FAR), desk_user)
    copy = copies[0]
    assert post(desk, copy, action="repair").status_code == 302
    assert CopyState.objects.get(copy=copy).status == "in_repair"
    services.place_hold(record, dubois, desk_user)  # nothing on the shelves: Dubois waits
    assert post(desk, copy, action="repaired").status_code == 302
    assert CopyState.objects.get(copy=copy).status == "on_hold_shelf"
    assert Hold.objects.get(household=dubois).status == Hold.Status.READY


def test_only_librarians_withdraw(desk, copies, django_user_model):
    copy = copies[0]
    events = CopyEvent.objects.count()
    refused = post(desk, copy, action="withdraw", note="boîte détruite")
    assert refused.status_code == 403 and 'data-reason="librarians_only"' in refused.content.decode()
    assert CopyEvent.objects.count() == events
    assert 'data-testid="desk-withdraw"' not in desk.get(f"/desk/copies/{copy.barcode}/").content.decode()
    librarian = django_user_model.objects.create_user("bibliothecaire")
    give_role(librarian, Role.LIBRARIAN)
    client = Client()
    client.force_login(librarian)
    assert 'data-testid="desk-withdraw"' in client.get(f"/desk/copies/{copy.barcode}/").content.decode()
    assert post(client, copy, action="withdraw", note="boîte détruite").status_code == 302
    withdrawn = CopyEvent.objects.get(copy=copy, type="withdrawn")
    assert withdrawn.payload == {"note": "boîte détruite"}
    assert CopyState.objects.get(copy=copy).status == "withdrawn"
