"""Who may do what: the role × action table, asked of ``accounts.roles.can`` for a person of each
role in an organisation, for the same person asking about another organisation, and the pages
that ask it answering the same.

The table is written out here, apart from ``ALLOWED``: changing what a role may do means
changing both, on purpose."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse

from accounts.models import Organisation
from accounts.roles import GRANTABLE, Action, Role, can, holders, may_grant, roles_of
from tests.factories import give_role, the_library

pytestmark = pytest.mark.django_db

A = Action
MEMBER = {A.SEE_MEMBERS, A.RECORD_GAMES}
DESK = MEMBER | {A.USE_DESK, A.REGISTER_HOUSEHOLDS, A.PRINT_MEMBER_CARDS, A.PRINT_COPY_LABELS, A.COUNT_AT_THE_DOOR,
                 A.TAKE_PAYMENTS}
LIBRARIAN = DESK | {A.WITHDRAW_COPY, A.EDIT_CATALOGUE, A.EDIT_CHECKLISTS, A.EDIT_LENDING_RULES, A.INVITE,
                    A.MANAGE_MEMBERS, A.PLAN_SESSIONS, A.OVERRIDE_LENDING_RULES, A.EDIT_TARIFFS, A.SEE_REPORT}
ORGANISER = MEMBER | {A.COUNT_WITHOUT_APPROVAL, A.RUN_LEAGUES, A.IMPORT_PLAYS, A.INVITE, A.MANAGE_MEMBERS,
                      A.PLAN_SESSIONS, A.COUNT_AT_THE_DOOR, A.SEE_REPORT}
MAY = {
    "anonymous": set(),
    "staff without a membership": set(),  # staff status opens the Django admin, nothing more
    "member": MEMBER,
    "trusted scorekeeper": MEMBER | {A.COUNT_WITHOUT_APPROVAL},
    "organiser": ORGANISER,
    "desk volunteer": DESK,
    "librarian": LIBRARIAN,
    "administrator": ORGANISER | LIBRARIAN | {A.EDIT_ORGANISATION},
    "operator": set(Action),
}
ROLE_OF = {"member": Role.MEMBER, "trusted scorekeeper": Role.SCOREKEEPER, "organiser": Role.ORGANISER,
           "desk volunteer": Role.DESK, "librarian": Role.LIBRARIAN, "administrator": Role.ADMIN}
GIVES = {
    "member": set(), "trusted scorekeeper": set(), "desk volunteer": set(),
    "organiser": {Role.ORGANISER, Role.SCOREKEEPER},
    "librarian": {Role.LIBRARIAN, Role.DESK},
    "administrator": set(GRANTABLE),
    "operator": set(GRANTABLE),
}


@pytest.fixture
def person(django_user_model):
    def make(kind: str):
        if kind == "anonymous":
            return AnonymousUser()
        user = django_user_model.objects.create_user(kind.replace(" ", "-"), is_staff=kind != "member",
                                                     is_superuser=kind == "operator")
        if kind in ROLE_OF:
            give_role(user, ROLE_OF[kind])
        return user
    return make


@pytest.mark.parametrize("kind", list(MAY))
def test_each_role_may_do_in_its_organisation_what_the_table_says_and_nothing_more(person, kind):
    user = person(kind)
    assert {action for action in Action if can(user, action, the_library())} == MAY[kind]


@pytest.mark.parametrize("kind", [kind for kind in MAY if kind != "operator"])
def test_nobody_but_the_operator_may_do_anything_in_an_organisation_they_are_not_in(person, kind):
    user = person(kind)
    other = Organisation.objects.create(name="Les Dunes", slug="les-dunes")
    assert {action for action in Action if can(user, action, other)} == set()
    assert {action for action in Action if can(user, action, None)} == set()


@pytest.mark.parametrize("kind", list(GIVES))
def test_who_may_give_which_role(person, kind):
    held = roles_of(person(kind), the_library())
    assert {role for role in GRANTABLE if may_grant(held, role)} == GIVES[kind]


def test_roles_add_up(person):
    """A desk volunteer who is also an organiser of the same organisation may do what either may."""
    user = person("desk volunteer")
    give_role(user, Role.ORGANISER)
    assert {action for action in Action if can(user, action, the_library())} == MAY["desk volunteer"] | MAY["organiser"]


@pytest.mark.parametrize("kind", list(MAY))
def test_the_pages_that_ask_answer_as_the_table(client, person, kind):
    user = person(kind)
    if kind != "anonymous":
        client.force_login(user)
    answers = {
        A.USE_DESK: client.get(reverse("desk")).status_code,
        A.PRINT_MEMBER_CARDS: client.get(reverse("desk-member-cards")).status_code,
        A.PRINT_COPY_LABELS: client.get(reverse("catalogue:labels")).status_code,
        A.IMPORT_PLAYS: client.get(reverse("import-plays")).status_code,
        A.INVITE: client.get(reverse("organisations:members", args=[the_library().slug])).status_code,
        A.RUN_LEAGUES: client.get(reverse("league-new", args=[the_library().slug])).status_code,
    }
    for action, status in answers.items():
        if kind == "anonymous":
            assert status == 302, action  # to the sign-in page
        else:
            assert (status != 403) == (action in MAY[kind]), (action, status)


def test_the_query_of_who_may_agrees_with_can(person):
    """``holders`` (who may, as a query, for the leagues' trusted authors) and ``can`` agree for a
    person of every kind and every action."""
    people = {kind: person(kind) for kind in MAY if kind != "anonymous"}
    for action in Action:
        assert holders(action, the_library()) == {user.pk for user in people.values()
                                                   if can(user, action, the_library())}, action
