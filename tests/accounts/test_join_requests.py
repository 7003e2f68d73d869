"""Asking to join: a signed-in visitor asks an organisation that takes requests, once; those who
invite there accept (a member at once, with a player) or decline, and the asker is told by mail
in their language. Refusals have their reason and change nothing. And the organisation's public
page: who it is, its members where the reader may see them."""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import Client

from accounts import joining
from accounts.models import JoinRequest, Membership, Person
from accounts.roles import Role, roles_of
from ludolog import newcomers
from records.models import Player

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


def test_a_visitor_asks_once_and_an_organiser_accepts(dunes, dunes_organiser, newcomer,
                                                      django_capture_on_commit_callbacks):
    asked = joining.ask_to_join(newcomer, dunes, "  Je joue le jeudi.  ")
    assert asked.message == "Je joue le jeudi." and list(joining.open_requests(dunes)) == [asked]
    with pytest.raises(joining.AlreadyAsked) as refused:
        joining.ask_to_join(newcomer, dunes)
    assert refused.value.status_code == 409 and JoinRequest.objects.count() == 1
    with django_capture_on_commit_callbacks(execute=True):
        membership = newcomers.decide(dunes_organiser, asked, True, page="http://testserver/organisations/les-dunes/")
    assert membership.user == newcomer and roles_of(newcomer, dunes) == {Role.MEMBER}
    assert Player.objects.get(user=newcomer).display_name == "camille"
    asked.refresh_from_db()
    assert asked.accepted is True and asked.decided_by == dunes_organiser and list(joining.open_requests(dunes)) == []
    told, = mail.outbox
    # In the club's language: the asker chose none.
    assert told.to == ["camille@example.org"] and told.subject == "Club des Dunes vous souhaite la bienvenue"
    assert "http://testserver/organisations/les-dunes/" in told.body


def test_a_declined_request_makes_no_member_and_is_told_in_the_askers_language(
        dunes, dunes_organiser, newcomer, django_capture_on_commit_callbacks):
    Person.objects.create(user=newcomer, language="en")
    asked = joining.ask_to_join(newcomer, dunes)
    with django_capture_on_commit_callbacks(execute=True):
        assert newcomers.decide(dunes_organiser, asked, False) is None
    assert not Membership.objects.filter(user=newcomer).exists() and not Player.objects.filter(user=newcomer).exists()
    assert mail.outbox[0].subject == "Your request to join Club des Dunes"
    with pytest.raises(joining.AlreadyAsked):  # once: an organiser may still invite them
        joining.ask_to_join(newcomer, dunes)


def test_an_organisation_that_takes_no_requests_and_a_member_asking_are_refused(library, member, newcomer):
    assert not library.open_to_requests
    with pytest.raises(joining.NotOpenToRequests) as refused:
        joining.ask_to_join(newcomer, library)
    assert (refused.value.reason, refused.value.status_code) == ("not_open_to_requests", 403)
    library.open_to_requests = True
    library.save()
    with pytest.raises(joining.AlreadyMember):
        joining.ask_to_join(member, library)
    assert not JoinRequest.objects.exists()


def test_only_those_who_invite_there_answer_and_only_once(dunes, dunes_organiser, organiser, newcomer):
    asked = joining.ask_to_join(newcomer, dunes)
    with pytest.raises(joining.MayNotInvite):
        newcomers.decide(organiser, asked, True)  # an organiser of the other organisation
    asked.refresh_from_db()
    assert asked.decided_at is None and not Membership.objects.filter(user=newcomer).exists()
    newcomers.decide(dunes_organiser, asked, False)
    with pytest.raises(joining.RequestDecided) as refused:
        newcomers.decide(dunes_organiser, asked, True)
    assert refused.value.status_code == 409 and not Membership.objects.filter(user=newcomer).exists()


# The pages

def test_asking_from_the_organisations_page_and_answering_from_its_members_area(
        client, dunes, dunes_organiser, newcomer):
    page = client.get("/organisations/les-dunes/")
    assert page.status_code == 200 and b"Log in to ask to join" in page.content
    assert client.post("/organisations/les-dunes/join/").status_code == 302  # to the sign-in page
    client.force_login(newcomer)
    assert b'data-testid="ask-to-join"' in client.get("/organisations/les-dunes/").content
    answer = client.post("/organisations/les-dunes/join/", {"message": "Bonjour"}, follow=True)
    assert b'data-testid="request-pending"' in answer.content
    again = client.post("/organisations/les-dunes/join/")
    assert again.status_code == 409 and b'data-reason="already_asked"' in again.content
    asked = JoinRequest.objects.get()
    client.force_login(dunes_organiser)
    area = client.get("/organisations/les-dunes/members/").content.decode()
    assert f'data-request="{asked.pk}"' in area and "Bonjour" in area
    assert client.post(f"/organisations/les-dunes/requests/{asked.pk}/", {"decision": "accept"}).status_code == 302
    assert Membership.objects.filter(user=newcomer, organisation=dunes).exists()


def test_a_request_is_answered_only_by_those_who_invite_there(client, dunes, organiser, newcomer):
    asked = joining.ask_to_join(newcomer, dunes)
    client.force_login(organiser)
    answer = client.post(f"/organisations/les-dunes/requests/{asked.pk}/", {"decision": "accept"})
    assert answer.status_code == 403 and b'data-reason="may_not_invite"' in answer.content
    assert not Membership.objects.filter(user=newcomer).exists()


def test_a_closed_organisation_says_how_to_join_and_refuses_a_request(client, library, newcomer):
    client.force_login(newcomer)
    assert b"ask one of its organisers for an invitation" in client.get(f"/organisations/{library.slug}/").content
    answer = client.post(f"/organisations/{library.slug}/join/")
    assert answer.status_code == 403 and b'data-reason="not_open_to_requests"' in answer.content


def test_the_member_list_shows_where_it_may_be_seen(client, library, member, newcomer):
    Player.objects.create(display_name="Morgane", user=member)
    assert b"Morgane" not in client.get(f"/organisations/{library.slug}/").content
    client.force_login(newcomer)
    assert b"Morgane" not in client.get(f"/organisations/{library.slug}/").content
    client.force_login(member)
    assert b"Morgane" in client.get(f"/organisations/{library.slug}/").content
    library.members_public = True
    library.save()
    client.logout()
    assert b"Morgane" in client.get(f"/organisations/{library.slug}/").content
    listed = client.get("/organisations/").content.decode()
    assert f'href="/organisations/{library.slug}/"' in listed


def test_a_visitor_looking_at_an_organisations_page_is_in_its_pages(client, library, dunes, member):
    client.get("/organisations/les-dunes/")
    assert client.session["ludolog:organisation"] == dunes.pk
    other = Client()
    other.force_login(member)  # a member of another stays in their own
    other.get("/organisations/les-dunes/")
    assert other.session.get("ludolog:organisation") is None
