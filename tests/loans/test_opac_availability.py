"""The OPAC's record page reads where each copy is from the desk's events: a copy lent shows its due
date and no longer counts as available; the households waiting are counted; a signed-in member
reserves the game for their household (set aside at once if a copy is on the shelves), twice is
refused with its reason (409) and nothing changes, and only members may."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client

from loans import services
from loans.models import Hold
from tests.factories import make_household, member_client

pytestmark = pytest.mark.django_db

FAR = dt.date(2099, 12, 31)


def test_a_lent_copy_shows_its_due_date_and_is_not_counted_available(record, copies, desk_user):
    martin = make_household("Martin", membership_ends=FAR)
    before = Client().get(f"/catalogue/{record.pk}/").content.decode()
    assert "4 copies available for loan." in before
    services.lend(copies[0], martin, desk_user, today=dt.date(2026, 12, 5))
    page = Client().get(f"/catalogue/{record.pk}/").content.decode()
    assert "3 copies available for loan." in page
    assert "On loan until Dec. 26, 2026" in page


def test_a_member_reserves_a_game_that_is_out_and_the_waiting_are_counted(record, copies, desk_user,
                                                                         django_user_model):
    martin = make_household("Martin", membership_ends=FAR, loan_limit=4)
    for copy in copies:
        services.lend(copy, martin, desk_user)
    dubois = make_household("Dubois", membership_ends=FAR)
    client = member_client(django_user_model, dubois, "claire-dubois")
    page = client.get(f"/catalogue/{record.pk}/").content.decode()
    assert 'data-testid="reserve"' in page
    answer = client.post(f"/catalogue/{record.pk}/reserve/", follow=True)
    assert "Reserved: you will be told when a copy is back." in answer.content.decode()
    assert Hold.objects.get(household=dubois).status == Hold.Status.WAITING
    assert "1 household waiting for it." in Client().get(f"/catalogue/{record.pk}/").content.decode()
    again = client.post(f"/catalogue/{record.pk}/reserve/")
    assert again.status_code == 409 and "This household already waits for this game." in again.content.decode()
    assert Hold.objects.filter(household=dubois).count() == 1


def test_a_reservation_with_a_copy_on_the_shelves_sets_it_aside_at_once(record, copies, django_user_model):
    dubois = make_household("Dubois", membership_ends=FAR)
    client = member_client(django_user_model, dubois, "claire-dubois")
    answer = client.post(f"/catalogue/{record.pk}/reserve/", follow=True)
    assert "A copy is set aside for you at the desk." in answer.content.decode()
    assert Hold.objects.get(household=dubois).status == Hold.Status.READY
    assert "Set aside for a reservation" in answer.content.decode()


def test_only_members_reserve(record, copies, django_user_model):
    assert Client().post(f"/catalogue/{record.pk}/reserve/").status_code == 302  # to the login page
    stranger = Client()
    stranger.force_login(django_user_model.objects.create_user("no-household"))
    assert 'data-testid="reserve"' not in stranger.get(f"/catalogue/{record.pk}/").content.decode()
    assert stranger.post(f"/catalogue/{record.pk}/reserve/").status_code == 403
    assert not Hold.objects.exists()
