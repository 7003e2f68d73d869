"""The agenda's API: its status codes and reasons, and who may do what (anonymous and plain
members read the public calendar and register; the desk and the librarians count and check in)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone, translation
from django.utils.translation import gettext

from agenda import services
from agenda.models import DoorCount, Registration, Session
from games.models import CatalogueRecord
from tests.factories import api_client

pytestmark = pytest.mark.django_db


def tap(api, session, key="k1", public="adult", delta=1):
    return api.post(f"/api/sessions/{session.pk}/counts/", {"public": public, "delta": delta, "key": key},
                    format="json")


def test_a_tap_is_201_then_200_with_the_same_totals(session_now, desk_user):
    api = api_client(desk_user)
    first, again = tap(api, session_now), tap(api, session_now)
    assert (first.status_code, again.status_code) == (201, 200)
    assert first.data["totals"] == again.data["totals"] and first.data["persons"] == 1
    assert (first.data["created"], again.data["created"]) == (True, False)
    assert DoorCount.objects.count() == 1


def test_below_zero_is_422_with_its_reason_in_the_readers_language(session_now, desk_user):
    response = api_client(desk_user).post(f"/api/sessions/{session_now.pk}/counts/",
                                          {"public": "senior", "delta": -1, "key": "x"}, format="json",
                                          HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 422 and response.data["reason"] == "count_below_zero"
    with translation.override("fr"):
        assert response.data["detail"] == gettext(
            "Nobody of this public has been counted yet: there is nothing to take back.")
    assert not DoorCount.objects.exists()


def test_a_closed_session_is_409_and_bad_fields_400(library, desk_user):
    ended = timezone.now() - dt.timedelta(days=9)
    old = Session.objects.create(organisation=library, kind="opening", starts_at=ended - dt.timedelta(hours=3),
                                 ends_at=ended)
    api = api_client(desk_user)
    response = tap(api, old)
    assert response.status_code == 409 and response.data["reason"] == "session_closed_for_counting"
    bad = api.post(f"/api/sessions/{old.pk}/counts/", {"public": "martian", "delta": 0, "key": ""}, format="json")
    assert bad.status_code == 400 and set(bad.data["fields"]) == {"public", "delta", "key"}


@pytest.mark.parametrize("who", ["anonymous", "member", "other_library_desk"])
def test_only_the_organisations_staff_count(session_now, who, member, django_user_model):
    from accounts.models import Organisation
    from accounts.roles import Role
    from tests.factories import give_role

    user = {"anonymous": None, "member": member,
            "other_library_desk": give_role(django_user_model.objects.create_user("ailleurs"), Role.DESK,
                                            Organisation.objects.create(slug="ailleurs", name="Ailleurs"))}[who]
    response = tap(api_client(user), session_now)
    assert response.status_code in (401, 403)
    assert not DoorCount.objects.exists()


def test_plays_are_tallied_by_record(session_now, desk_user):
    record = CatalogueRecord.objects.create(title="Dixit")
    api = api_client(desk_user)
    url = f"/api/sessions/{session_now.pk}/plays/"
    assert api.post(url, {"record": record.pk, "delta": 1, "key": "p"}, format="json").data["plays"] == 1
    assert api.post(url, {"record": record.pk, "delta": 1, "key": "p"}, format="json").status_code == 200
    assert api.post(url, {"record": 999999, "delta": 1, "key": "q"}, format="json").status_code == 404
    refused = api.post(url, {"record": record.pk, "delta": -1, "key": "r"}, format="json")
    assert refused.status_code == 201 and refused.data["plays"] == 0
    below = api.post(url, {"record": record.pk, "delta": -1, "key": "s"}, format="json")
    assert below.status_code == 422 and below.data["reason"] == "count_below_zero"


def event(library, librarian, capacity=2) -> Session:
    start = timezone.now() + dt.timedelta(days=2)
    return services.plan_session(library, librarian, kind="event", title="Tournoi", capacity=capacity,
                                 registration=True, starts_at=start, ends_at=start + dt.timedelta(hours=4))


def test_anyone_registers_and_learns_their_place_on_the_waiting_list(library, librarian):
    tournoi = event(library, librarian)
    url = f"/api/sessions/{tournoi.pk}/registrations/"
    registered = api_client().post(url, {"name": "Anne", "places": 2}, format="json")
    waiting = api_client().post(url, {"name": "Bruno", "email": "b@example.org"}, format="json")
    assert (registered.status_code, registered.data["status"], registered.data["position"]) == (201, "registered", None)
    assert (waiting.data["status"], waiting.data["position"]) == ("waiting", 1)
    assert api_client().post(url, {"name": "", "places": 0}, format="json").status_code == 400
    assert api_client().get(url).status_code in (401, 403)
    assert [entry["name"] for entry in api_client(librarian).get(url).data] == ["Anne", "Bruno"]


def test_no_registration_for_an_opening_is_409(session_now):
    response = api_client().post(f"/api/sessions/{session_now.pk}/registrations/", {"name": "Anne"}, format="json")
    assert response.status_code == 409 and response.data["reason"] == "registration_closed"


def test_check_in_by_the_desk(library, librarian, desk_user, member):
    now = timezone.now()
    soon = services.plan_session(library, librarian, kind="event", title="Jeux", registration=True,
                                 starts_at=now - dt.timedelta(minutes=5), ends_at=now + dt.timedelta(hours=2))
    entry = services.register(soon, name="Anne").registration
    url = f"/api/registrations/{entry.pk}/check-in/"
    assert api_client(member).post(url, {}, format="json").status_code == 403
    checked = api_client(desk_user).post(url, {}, format="json")
    assert checked.status_code == 200 and checked.data["checked_in_at"]
    assert api_client(desk_user).post(url, {"undo": True}, format="json").data["checked_in_at"] is None
    Registration.objects.filter(pk=entry.pk).update(status="waiting")
    refused = api_client(desk_user).post(url, {}, format="json")
    assert refused.status_code == 409 and refused.data["reason"] == "not_registered"


def test_the_sessions_list_shows_the_public_ones_to_anyone_and_every_one_to_the_staff(library, librarian):
    today = timezone.localdate()
    start = timezone.now() + dt.timedelta(days=1)
    services.plan_session(library, librarian, kind="event", title="Public", starts_at=start,
                          ends_at=start + dt.timedelta(hours=2))
    services.plan_session(library, librarian, kind="group_visit", structure_kind="school", structure_name="École",
                          starts_at=start, ends_at=start + dt.timedelta(hours=2))
    url = f"/api/organisations/{library.pk}/sessions/?from={today}&to={today + dt.timedelta(days=7)}"
    assert [s["name"] for s in api_client().get(url).data] == ["Public"]
    staff = api_client(librarian).get(url).data
    assert sorted(s["name"] for s in staff) == ["Public", "École"] and "persons" in staff[0]
    bad = api_client().get(f"/api/organisations/{library.pk}/sessions/?from=demain")
    assert bad.status_code == 400 and bad.data["reason"] == "invalid_query"
