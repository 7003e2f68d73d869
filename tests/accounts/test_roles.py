"""Who may do what: the role × action table, asked of ``accounts.roles.can`` for a person of each
kind, and the pages and API that ask it answering the same.

The table is written out here, apart from ``ALLOWED``: changing what a role may do means
changing both, on purpose."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser, Group
from django.urls import reverse

from accounts.roles import Action, can

pytestmark = pytest.mark.django_db

A = Action
PEOPLE = ["anonymous", "member", "desk", "librarian", "staff", "superuser"]
DESK_WORK = {A.USE_DESK, A.PRINT_MEMBER_CARDS, A.PRINT_COPY_LABELS}
LIBRARY_WORK = {A.WITHDRAW_COPY, A.EDIT_CATALOGUE, A.EDIT_CHECKLISTS, A.EDIT_LENDING_RULES}
MAY = {
    "anonymous": set(),
    "member": set(),
    "desk": DESK_WORK,
    "librarian": DESK_WORK | LIBRARY_WORK,
    "staff": DESK_WORK | {A.IMPORT_PLAYS},
    "superuser": set(Action),
}


@pytest.fixture
def person(django_user_model):
    def make(kind: str):
        if kind == "anonymous":
            return AnonymousUser()
        user = django_user_model.objects.create_user(kind, password="pw", is_staff=kind in {"staff", "superuser"},
                                                     is_superuser=kind == "superuser")
        if kind in {"desk", "librarian"}:
            user.groups.add(Group.objects.get_or_create(name={"desk": "desk", "librarian": "librarians"}[kind])[0])
        return user
    return make


@pytest.mark.parametrize("kind", PEOPLE)
def test_each_role_may_do_what_the_table_says_and_nothing_more(person, kind):
    user = person(kind)
    assert {action for action in Action if can(user, action)} == MAY[kind]


def test_roles_add_up(person):
    """A volunteer at the desk who is also one of the operators may do what either may."""
    user = person("desk")
    user.is_staff = True
    user.save()
    assert {action for action in Action if can(user, action)} == MAY["desk"] | MAY["staff"]


@pytest.mark.parametrize("kind", PEOPLE)
def test_the_pages_that_ask_answer_as_the_table(client, person, kind):
    user = person(kind)
    if kind != "anonymous":
        client.force_login(user)
    answers = {
        A.USE_DESK: client.get(reverse("desk")).status_code,
        A.PRINT_MEMBER_CARDS: client.get(reverse("desk-member-cards")).status_code,
        A.PRINT_COPY_LABELS: client.get(reverse("catalogue:labels")).status_code,
        A.IMPORT_PLAYS: client.get(reverse("import-plays")).status_code,
    }
    for action, status in answers.items():
        if kind == "anonymous":
            assert status == 302, action  # to the sign-in page
        else:
            assert (status != 403) == (action in MAY[kind]), (action, status)
