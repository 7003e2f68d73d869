"""A member's roles and membership, changed from the organisation's own pages: those who manage
its members give and take away the roles they may give, and no other; nobody makes themselves
more than they are; an organisation keeps someone who manages its members; a person of another
organisation changes nothing. The organisation's settings are its administrators'."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts import membership as services
from accounts.joining import MayNotGrant
from accounts.models import Membership, MembershipRole, Organisation
from accounts.roles import Role, roles_of
from tests.factories import give_role

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


def membership_of(user, organisation) -> Membership:
    return Membership.objects.get(user=user, organisation=organisation)


def snapshot() -> list[tuple]:
    return sorted(MembershipRole.objects.values_list("membership_id", "role")) + sorted(
        Membership.objects.values_list("pk", "organisation_id", "user_id"))


def test_an_organiser_makes_a_member_a_trusted_scorekeeper_and_takes_it_back(organiser, member, library):
    held = services.set_roles(organiser, membership_of(member, library), [Role.SCOREKEEPER])
    assert held == {Role.SCOREKEEPER} and roles_of(member, library) == {Role.MEMBER, Role.SCOREKEEPER}
    services.set_roles(organiser, membership_of(member, library), [])
    assert roles_of(member, library) == {Role.MEMBER}


@pytest.mark.parametrize(("manager", "role"), [
    ("organiser", Role.LIBRARIAN), ("organiser", Role.DESK), ("organiser", Role.ADMIN),
    ("librarian", Role.ORGANISER), ("librarian", Role.ADMIN),
])
def test_a_role_the_manager_may_not_give_is_refused_and_nothing_changes(request, member, library, manager, role):
    by = request.getfixturevalue(manager)
    before = snapshot()
    with pytest.raises(MayNotGrant) as refused:
        services.set_roles(by, membership_of(member, library), [role])
    assert (refused.value.reason, refused.value.status_code) == ("may_not_grant_role", 403)
    assert snapshot() == before


def test_a_desk_volunteer_cannot_make_himself_librarian(desk_user, library):
    before = snapshot()
    with pytest.raises(services.MayNotManageMembers) as refused:
        services.set_roles(desk_user, membership_of(desk_user, library), [Role.DESK, Role.LIBRARIAN])
    assert refused.value.status_code == 403 and snapshot() == before


def test_an_organiser_cannot_take_away_a_role_he_could_not_give(organiser, librarian, library):
    with pytest.raises(MayNotGrant):
        services.set_roles(organiser, membership_of(librarian, library), [])
    with pytest.raises(MayNotGrant):
        services.remove_member(organiser, membership_of(librarian, library))
    assert roles_of(librarian, library) == {Role.MEMBER, Role.LIBRARIAN}


def test_an_organiser_of_another_organisation_changes_nothing(dunes_organiser, member, library):
    before = snapshot()
    with pytest.raises(services.MayNotManageMembers):
        services.set_roles(dunes_organiser, membership_of(member, library), [Role.SCOREKEEPER])
    with pytest.raises(services.MayNotManageMembers):
        services.remove_member(dunes_organiser, membership_of(member, library))
    assert snapshot() == before


def test_the_last_one_who_manages_the_members_is_kept(dunes_organiser, dunes):
    before = snapshot()
    with pytest.raises(services.LastManager) as refused:
        services.set_roles(dunes_organiser, membership_of(dunes_organiser, dunes), [Role.SCOREKEEPER])
    assert (refused.value.reason, refused.value.status_code) == ("last_manager", 409)
    with pytest.raises(services.LastManager):
        services.remove_member(dunes_organiser, membership_of(dunes_organiser, dunes))
    assert snapshot() == before


def test_with_a_second_organiser_the_first_may_step_down(dunes_organiser, dunes, django_user_model):
    second = give_role(django_user_model.objects.create_user("second"), Role.ORGANISER, dunes)
    services.set_roles(dunes_organiser, membership_of(dunes_organiser, dunes), [])
    assert roles_of(dunes_organiser, dunes) == {Role.MEMBER} and Role.ORGANISER in roles_of(second, dunes)


def test_removing_a_member_ends_the_membership_and_keeps_their_games(organiser, member, library):
    from records.models import Player

    player = Player.objects.create(display_name="Membre", user=member)
    services.remove_member(organiser, membership_of(member, library))
    assert roles_of(member, library) == frozenset()
    assert Player.objects.filter(pk=player.pk, user=member).exists()


# The pages.

def test_the_members_page_links_each_member_to_their_roles_for_those_who_manage_them(client, organiser, member,
                                                                                  library):
    client.force_login(organiser)
    page = client.get(reverse("organisations:members", args=[library.slug])).content.decode()
    assert reverse("organisations:member", args=[library.slug, membership_of(member, library).pk]) in page


def test_the_roles_page_shows_what_the_reader_may_change_and_saves_it(client, organiser, member, library):
    client.force_login(organiser)
    address = reverse("organisations:member", args=[library.slug, membership_of(member, library).pk])
    page = client.get(address).content.decode()
    assert 'value="scorekeeper" id="role-scorekeeper"' in page
    assert 'value="librarian" id="role-librarian" disabled' in page
    answer = client.post(address, {"roles": ["scorekeeper"]})
    assert answer.status_code == 302 and roles_of(member, library) == {Role.MEMBER, Role.SCOREKEEPER}


def test_a_forged_role_on_the_page_is_refused_with_its_reason(client, organiser, member, library):
    client.force_login(organiser)
    address = reverse("organisations:member", args=[library.slug, membership_of(member, library).pk])
    answer = client.post(address, {"roles": ["librarian"]})
    assert answer.status_code == 403 and "You may not give this role." in answer.content.decode()
    assert roles_of(member, library) == {Role.MEMBER}


def test_a_member_of_another_organisation_is_not_found_there(client, organiser, dunes_organiser, dunes, library):
    client.force_login(organiser)
    answer = client.get(reverse("organisations:member", args=[library.slug, membership_of(dunes_organiser, dunes).pk]))
    assert answer.status_code == 404
    client.force_login(dunes_organiser)
    answer = client.post(reverse("organisations:remove-member",
                                 args=[library.slug, membership_of(organiser, library).pk]))
    assert answer.status_code == 403 and Membership.objects.filter(user=organiser, organisation=library).exists()


def test_removing_a_member_from_the_page(client, organiser, member, library):
    client.force_login(organiser)
    answer = client.post(reverse("organisations:remove-member", args=[library.slug, membership_of(member, library).pk]),
                         follow=True)
    assert answer.status_code == 200 and "is no longer a member" in answer.content.decode()
    assert not Membership.objects.filter(user=member, organisation=library).exists()


def test_an_administrator_changes_the_organisations_settings(client, django_user_model, library):
    chief = give_role(django_user_model.objects.create_user("chief"), Role.ADMIN, library)
    client.force_login(chief)
    address = reverse("organisations:settings", args=[library.slug])
    assert client.get(address).status_code == 200
    answer = client.post(address, {"name": "Ludothèque du Moulin", "kind": "both", "language": "en",
                                   "contact_email": "moulin@example.org", "town": "Gent", "members_public": "on"})
    assert answer.status_code == 302
    library.refresh_from_db()
    assert (library.name, library.language, library.town, library.members_public, library.open_to_requests) == (
        "Ludothèque du Moulin", "en", "Gent", True, False)


def test_bad_settings_are_refused_and_change_nothing(client, django_user_model, library):
    chief = give_role(django_user_model.objects.create_user("chief"), Role.ADMIN, library)
    client.force_login(chief)
    answer = client.post(reverse("organisations:settings", args=[library.slug]),
                         {"name": "", "kind": "casino", "language": "fr", "contact_email": "not an address"})
    assert answer.status_code == 400
    assert Organisation.objects.get(pk=library.pk).name == "Ludothèque des tests"


@pytest.mark.parametrize("who", ["organiser", "librarian", "member", "dunes_organiser"])
def test_the_settings_are_refused_to_those_who_are_not_its_administrators(request, client, library, who):
    client.force_login(request.getfixturevalue(who))
    address = reverse("organisations:settings", args=[library.slug])
    assert client.get(address).status_code == 403
    assert client.post(address, {"name": "Pris", "kind": "club", "language": "en"}).status_code == 403
    assert Organisation.objects.get(pk=library.pk).name == "Ludothèque des tests"
