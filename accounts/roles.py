"""Who may do what, asked one way: ``can(user, action, organisation)``.

A person's roles are those of their membership in the organisation asked about
(:class:`accounts.models.Membership`): being a member is the membership itself, and the
roles beside it are given by those whose own roles allow it (:data:`GRANTS`). A superuser is
the installation's operator and holds every role everywhere; "staff status" only opens the
Django admin, the operator's tool. What each role allows is the table :data:`ALLOWED`, and
nothing else decides it: every page, API view and admin asks :func:`can`, and a test holds the
table to the answers for a person of each role (``tests/accounts/test_roles.py``).

>>> sorted(action.value for action in ALLOWED[Role.DESK])
['count_at_the_door', 'print_copy_labels', 'print_member_cards', 'record_games', 'register_households', 'see_members', 'take_payments', 'use_desk']
>>> may_grant({Role.ORGANISER}, Role.LIBRARIAN), may_grant({Role.LIBRARIAN}, Role.DESK)
(False, True)
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from django.db import models
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from .models import Organisation


class Role(models.TextChoices):
    MEMBER = "member", _("member")
    ORGANISER = "organiser", _("organiser")
    SCOREKEEPER = "scorekeeper", _("trusted scorekeeper")
    DESK = "desk", _("desk volunteer")
    LIBRARIAN = "librarian", _("librarian")
    ADMIN = "admin", _("administrator")
    OPERATOR = "operator", _("operator of the installation")


GRANTABLE = (Role.ORGANISER, Role.SCOREKEEPER, Role.DESK, Role.LIBRARIAN, Role.ADMIN)
"""The roles a membership holds beside being a member (stored as ``MembershipRole`` rows)."""


class Action(StrEnum):
    SEE_MEMBERS = "see_members"
    """See who the organisation's members are (anyone may, where its member list is public)."""
    RECORD_GAMES = "record_games"
    """Start a game or log a result in the organisation's name."""
    COUNT_WITHOUT_APPROVAL = "count_without_approval"
    """A game this person records counts for the organisation's leagues without an organiser's approval."""
    RUN_LEAGUES = "run_leagues"
    """Create and edit leagues, approve games or rule them out."""
    IMPORT_PLAYS = "import_plays"
    """Bring the club's history in from BoardGameGeek or BG Stats."""
    INVITE = "invite"
    """Invite people and answer requests to join."""
    MANAGE_MEMBERS = "manage_members"
    """Give and take away roles (those :data:`GRANTS` allows), remove a member."""
    EDIT_ORGANISATION = "edit_organisation"
    """The organisation's name, contact, language, logo, who may see its members and ask to join."""
    USE_DESK = "use_desk"
    """Lend, take back, renew, hold, check copies; read any household."""
    REGISTER_HOUSEHOLDS = "register_households"
    PRINT_MEMBER_CARDS = "print_member_cards"
    PRINT_COPY_LABELS = "print_copy_labels"
    WITHDRAW_COPY = "withdraw_copy"
    EDIT_CATALOGUE = "edit_catalogue"
    """Keep the catalogue: its records show this reader what they leave unstated."""
    EDIT_CHECKLISTS = "edit_checklists"
    EDIT_LENDING_RULES = "edit_lending_rules"
    COUNT_AT_THE_DOOR = "count_at_the_door"
    """Count arrivals and games played during a session; register people for an event and check them in."""
    TAKE_PAYMENTS = "take_payments"
    """Take a membership's fee, a deposit or a late fee at the desk."""
    PLAN_SESSIONS = "plan_sessions"
    """The organisation's calendar: opening hours, closures, events, group visits, game nights."""
    OVERRIDE_LENDING_RULES = "override_lending_rules"
    """Lend to a household the lending rules refuse (noted with who and why); waive a late fee."""
    EDIT_TARIFFS = "edit_tariffs"
    SEE_REPORT = "see_report"
    """The organisation's yearly report (its figures, CSV, PDF and API)."""
    OPERATE = "operate"
    """Run the installation: recompute every score, read its workers' state (the operator's)."""


_MEMBER = {Action.SEE_MEMBERS, Action.RECORD_GAMES}
_AT_THE_DESK = _MEMBER | {Action.USE_DESK, Action.REGISTER_HOUSEHOLDS, Action.PRINT_MEMBER_CARDS,
                          Action.PRINT_COPY_LABELS, Action.COUNT_AT_THE_DOOR, Action.TAKE_PAYMENTS}
_LIBRARY = _AT_THE_DESK | {Action.WITHDRAW_COPY, Action.EDIT_CATALOGUE, Action.EDIT_CHECKLISTS,
                           Action.EDIT_LENDING_RULES, Action.INVITE, Action.MANAGE_MEMBERS, Action.PLAN_SESSIONS,
                           Action.OVERRIDE_LENDING_RULES, Action.EDIT_TARIFFS, Action.SEE_REPORT}
# A club's game nights are sessions too: its organisers plan them and count who came.
_CLUB = _MEMBER | {Action.COUNT_WITHOUT_APPROVAL, Action.RUN_LEAGUES, Action.IMPORT_PLAYS, Action.INVITE,
                   Action.MANAGE_MEMBERS, Action.PLAN_SESSIONS, Action.COUNT_AT_THE_DOOR, Action.SEE_REPORT}

ALLOWED: dict[Role, frozenset[Action]] = {
    Role.MEMBER: frozenset(_MEMBER),
    Role.SCOREKEEPER: frozenset(_MEMBER | {Action.COUNT_WITHOUT_APPROVAL}),
    Role.ORGANISER: frozenset(_CLUB),
    # Printed sheets are the desk's: a torn label is replaced where the copy comes back.
    Role.DESK: frozenset(_AT_THE_DESK),
    Role.LIBRARIAN: frozenset(_LIBRARY),
    Role.ADMIN: frozenset(_CLUB | _LIBRARY | {Action.EDIT_ORGANISATION}),
    Role.OPERATOR: frozenset(Action),
}

GRANTS: dict[Role, frozenset[Role]] = {
    Role.ADMIN: frozenset(GRANTABLE),
    Role.ORGANISER: frozenset({Role.ORGANISER, Role.SCOREKEEPER}),
    Role.LIBRARIAN: frozenset({Role.LIBRARIAN, Role.DESK}),
    Role.OPERATOR: frozenset(GRANTABLE),
}
"""The roles each role may give and take away (with :data:`Action.MANAGE_MEMBERS`): a desk
volunteer gives none, a librarian no organiser's, an organiser no librarian's."""


def may_grant(roles: Iterable[Role], role: Role) -> bool:
    """Whether a person holding ``roles`` may give or take away ``role``."""
    return any(role in GRANTS.get(held, frozenset()) for held in roles)


def roles_of(user: Any, organisation: Organisation | None) -> frozenset[Role]:
    """The roles ``user`` holds in ``organisation``: none for an anonymous visitor, every one for
    the operator (a superuser), else their membership's (one query)."""
    if not getattr(user, "is_authenticated", False):
        return frozenset()
    if getattr(user, "is_superuser", False):
        return frozenset(Role)
    if organisation is None:
        return frozenset()
    from .models import Membership

    held = list(Membership.objects.filter(user=user, organisation=organisation).values_list("roles__role", flat=True))
    if not held:
        return frozenset()
    return frozenset({Role.MEMBER} | {Role(role) for role in held if role})


def can(user: Any, action: Action, organisation: Organisation | None) -> bool:
    """Whether ``user`` may do ``action`` in ``organisation`` (``None``: at the installation's
    level, where only the operator may)."""
    return allows(roles_of(user, organisation), action)


def holders(action: Action, organisation: Organisation | int | None) -> set[int]:
    """The ids of the accounts that may do ``action`` in ``organisation``: the query form of
    :func:`can` for a list of people (the operators among them), held equal to it by a test."""
    from django.contrib.auth import get_user_model

    from .models import Membership

    found = set(get_user_model().objects.filter(is_superuser=True).values_list("pk", flat=True))
    if organisation is None:
        return found
    roles = [role for role in GRANTABLE if action in ALLOWED[role]]
    memberships = Membership.objects.filter(organisation=organisation)
    if action not in ALLOWED[Role.MEMBER]:
        memberships = memberships.filter(roles__role__in=roles)
    return found | set(memberships.values_list("user_id", flat=True))


def reads_every_record(user: Any) -> bool:
    """Whether ``user`` reads and records every game record, private ones too: staff status, which
    opens the Django admin, where every record is anyway (``records.selectors`` keeps who may see
    a record, and asks this)."""
    return bool(getattr(user, "is_authenticated", False) and getattr(user, "is_staff", False))


def allows(roles: Iterable[Role], action: Action) -> bool:
    """Whether one of ``roles`` allows ``action``: the table, for a caller holding the roles already."""
    return any(action in ALLOWED[role] for role in roles)


def sees_members(user: Any, organisation: Organisation) -> bool:
    """Whether ``user`` may see who ``organisation``'s members are: anyone where its member list
    is public (``Organisation.members_public``), else those :data:`Action.SEE_MEMBERS` allows."""
    return bool(organisation.members_public) or can(user, Action.SEE_MEMBERS, organisation)
