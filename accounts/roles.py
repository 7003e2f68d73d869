"""Who may do what, asked one way: ``can(user, action)``.

A person's roles come from their account: a superuser holds every role; "staff status" makes
one *staff* (the installation's operators); the ``desk`` and ``librarians`` groups make desk
volunteers and librarians (loans migration 0004 makes both groups with the admin permissions
that go with them). What each role allows is the table :data:`ALLOWED`, and nothing else
decides it: every page, API view and admin asks :func:`can`, and a test holds the table to the
answers for a person of each role.

>>> sorted(action.value for action in ALLOWED[Role.DESK])
['print_copy_labels', 'print_member_cards', 'use_desk']
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class Role(StrEnum):
    STAFF = "staff"
    DESK = "desk"
    LIBRARIAN = "librarian"


class Action(StrEnum):
    USE_DESK = "use_desk"
    """Lend, take back, renew, hold, check copies; register households; read any household."""
    PRINT_MEMBER_CARDS = "print_member_cards"
    PRINT_COPY_LABELS = "print_copy_labels"
    WITHDRAW_COPY = "withdraw_copy"
    EDIT_CATALOGUE = "edit_catalogue"
    """Keep the catalogue: its records show this reader what they leave unstated."""
    EDIT_CHECKLISTS = "edit_checklists"
    EDIT_LENDING_RULES = "edit_lending_rules"
    IMPORT_PLAYS = "import_plays"
    """Bring a club's history in from BoardGameGeek or BG Stats."""


GROUPS = {Role.DESK: "desk", Role.LIBRARIAN: "librarians"}
"""The group that gives each role held by group membership (named as migration 0004 made them)."""

_AT_THE_DESK = {Action.USE_DESK, Action.PRINT_MEMBER_CARDS, Action.PRINT_COPY_LABELS}

ALLOWED: dict[Role, frozenset[Action]] = {
    # Printed sheets are the desk's: a torn label is replaced where the copy comes back.
    Role.DESK: frozenset(_AT_THE_DESK),
    Role.LIBRARIAN: frozenset(_AT_THE_DESK | {Action.WITHDRAW_COPY, Action.EDIT_CATALOGUE, Action.EDIT_CHECKLISTS,
                                              Action.EDIT_LENDING_RULES}),
    # The operators run the installation and help at the desk; the catalogue is the librarians'.
    Role.STAFF: frozenset(_AT_THE_DESK | {Action.IMPORT_PLAYS}),
}


def roles_of(user: Any) -> frozenset[Role]:
    """The roles ``user`` holds (none for an anonymous visitor): one query for the groups."""
    if not getattr(user, "is_authenticated", False):
        return frozenset()
    if getattr(user, "is_superuser", False):
        return frozenset(Role)
    by_group = {name: role for role, name in GROUPS.items()}
    roles = {by_group[name] for name in user.groups.filter(name__in=by_group).values_list("name", flat=True)}
    if getattr(user, "is_staff", False):
        roles.add(Role.STAFF)
    return frozenset(roles)


def can(user: Any, action: Action) -> bool:
    """Whether ``user`` may do ``action``: one of their roles allows it."""
    return any(action in ALLOWED[role] for role in roles_of(user))
