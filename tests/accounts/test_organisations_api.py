"""The organisations in the API, with the pages' rules: every organisation's public face to
anyone, an organisation's members to those who may see them, an invitation made by those who
invite there (answered with its link, which opens the invitation's page); refusals in the API's
error shape, changing nothing; the three in the OpenAPI schema."""

from __future__ import annotations

import pytest

from accounts.models import Invitation
from accounts.roles import Role
from records.models import Player
from tests.factories import api_client

pytestmark = pytest.mark.django_db


def test_every_organisation_is_listed_to_anyone(library, dunes):
    answer = api_client().get("/api/organisations/")
    assert answer.status_code == 200
    listed = {found["slug"]: found for found in answer.json()["results"]}
    assert set(listed) == {library.slug, "les-dunes"}
    assert listed["les-dunes"]["open_to_requests"] is True and listed["les-dunes"]["language"] == "fr"
    assert listed["les-dunes"]["page"] == "http://testserver/organisations/les-dunes/"


def test_the_members_are_shown_to_those_who_may_see_them(library, organiser, member, dunes_organiser):
    Player.objects.create(display_name="Orphée", user=organiser)
    path = f"/api/organisations/{library.pk}/members/"
    for reader in (None, dunes_organiser):
        refused = api_client(reader).get(path)
        assert refused.status_code == 403 and refused.json()["reason"] == "members_hidden"
    answer = api_client(member).get(path)
    assert answer.status_code == 200
    members = {found["name"]: found for found in answer.json()["results"]}
    assert members["Orphée"]["roles"] == ["organiser"] and members["Orphée"]["player"] is not None
    assert members["membre"] == {"name": "membre", "player": None, "roles": [],
                                 "joined_at": members["membre"]["joined_at"]}
    library.members_public = True
    library.save()
    assert api_client().get(path).status_code == 200
    assert api_client(member).get("/api/organisations/987654/members/").status_code == 404


def test_an_organiser_invites_through_the_api_and_the_link_opens_the_invitation(client, library, organiser):
    answer = api_client(organiser).post(f"/api/organisations/{library.pk}/invitations/",
                                        {"role": "scorekeeper", "days": 3}, format="json")
    assert answer.status_code == 201, answer.json()
    made = answer.json()
    assert made["role"] == "scorekeeper" and made["email"] == "" and made["organisation"] == library.pk
    assert made["link"].startswith("http://testserver/invitations/")
    assert Invitation.objects.get().pk == made["id"]
    assert client.get(made["link"].removeprefix("http://testserver")).status_code == 200


@pytest.mark.parametrize("who, body, status, reason", [
    ("librarian", {"role": "organiser"}, 403, "may_not_grant_role"),
    ("dunes_organiser", {"role": "member"}, 403, "may_not_invite"),
    ("member", {}, 403, "may_not_invite"),
    (None, {}, 403, "not_authenticated"),
    ("organiser", {"role": "operator"}, 400, "invalid"),
    ("organiser", {"days": 0}, 400, "invalid"),
    ("organiser", {"email": "nobody"}, 400, "invalid"),
    ("organiser", {"player": 123456}, 400, "player_not_claimable"),
])
def test_a_refused_invitation_says_why_and_makes_nothing(request, library, who, body, status, reason):
    user = request.getfixturevalue(who) if who else None
    answer = api_client(user).post(f"/api/organisations/{library.pk}/invitations/", body, format="json")
    assert (answer.status_code, answer.json()["reason"]) == (status, reason), answer.json()
    assert not Invitation.objects.exists()


def test_an_invitation_into_an_unknown_organisation_is_not_found(organiser):
    answer = api_client(organiser).post("/api/organisations/987654/invitations/", {}, format="json")
    assert answer.status_code == 404


def test_the_organisations_are_in_the_schema():
    schema = api_client().get("/api/schema/?format=json").json()
    assert {"/api/organisations/", "/api/organisations/{id}/members/",
            "/api/organisations/{id}/invitations/"} <= set(schema["paths"])
    assert "post" in schema["paths"]["/api/organisations/{id}/invitations/"]
    assert set(schema["components"]["schemas"]["RoleEnum"]["enum"]) == {"member", *(r.value for r in Role
                                                                                   if r not in (Role.MEMBER, Role.OPERATOR))}
