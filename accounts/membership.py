"""Changing a member's roles and removing a member: what the members page's "Roles" form and
its "Remove from the organisation" button do.

Whoever :data:`~accounts.roles.Action.MANAGE_MEMBERS` allows changes the roles they may give
(:data:`~accounts.roles.GRANTS`) and only those: an organiser gives or takes away an organiser's
or a trusted scorekeeper's role, never a librarian's, and nobody gives themselves a role they
could not give (a desk volunteer making himself librarian is refused whatever the form sent).
Removing a member takes every role they hold, so it is allowed only to one who may take each of
them away. An organisation never loses its last person able to manage its members this way: the
refusal says so, and the operator (who holds every role everywhere) remains for a lost key.

Each refusal is a :class:`~accounts.joining.JoiningError` (a stable ``reason``, an HTTP status)
and changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction

from .joining import JoiningError, MayNotGrant
from .models import Membership, MembershipRole
from .roles import ALLOWED, GRANTABLE, Action, Role, allows, may_grant, roles_of


class MayNotManageMembers(JoiningError):
    """Not one who manages this organisation's members (a plain member, a desk volunteer, an
    organiser of another organisation)."""

    reason = "may_not_manage_members"
    status_code = 403


class MayNotEditOrganisation(JoiningError):
    """Not one of the organisation's administrators, who keep its settings."""

    reason = "may_not_edit_organisation"
    status_code = 403


class LastManager(JoiningError):
    """The change would leave the organisation with nobody who manages its members."""

    reason = "last_manager"
    status_code = 409


def held_roles(membership: Membership) -> frozenset[Role]:
    """The roles ``membership`` holds beside being a member."""
    return frozenset(Role(role) for role in membership.roles.values_list("role", flat=True))


def givable_roles(by: Any, membership: Membership) -> list[Role]:
    """The roles ``by`` may give or take away on ``membership`` (none where they may not manage
    its organisation's members), in the table's order."""
    roles = roles_of(by, membership.organisation)
    if not allows(roles, Action.MANAGE_MEMBERS):
        return []
    return [role for role in GRANTABLE if may_grant(roles, role)]


def _check_manager(by: Any, membership: Membership) -> frozenset[Role]:
    roles = roles_of(by, membership.organisation)
    if not allows(roles, Action.MANAGE_MEMBERS):
        raise MayNotManageMembers(f"only those who manage {membership.organisation.name}'s members do this",
                                  organisation=membership.organisation_id)
    return roles


def _managers_left(membership: Membership, without: Membership, keeping: Iterable[Role]) -> bool:
    """Whether someone still manages the organisation's members once ``without`` holds only
    ``keeping`` (or nothing, when removed)."""
    managing = [role for role in GRANTABLE if Action.MANAGE_MEMBERS in ALLOWED[role]]
    if any(role in managing for role in keeping):
        return True
    return MembershipRole.objects.filter(
        membership__organisation_id=membership.organisation_id, role__in=managing,
    ).exclude(membership=without).exists()


@transaction.atomic
def set_roles(by: Any, membership: Membership, roles: Iterable[Role | str]) -> frozenset[Role]:
    """Make ``membership`` hold ``roles`` beside being a member. Every role that changes must be
    one ``by`` may give (:class:`MayNotGrant` otherwise: the form sends the roles it may not
    change as they are). Returns the roles held afterwards."""
    membership = Membership.objects.select_for_update().select_related("organisation").get(pk=membership.pk)
    held_by_manager = _check_manager(by, membership)
    try:
        wanted = frozenset(Role(role) for role in roles)
    except ValueError as unknown:
        raise MayNotGrant(f"{unknown}: not a role", role=str(unknown)) from None
    if Role.MEMBER in wanted or Role.OPERATOR in wanted:
        wanted = wanted - {Role.MEMBER}
        if Role.OPERATOR in wanted:
            raise MayNotGrant("the operator's role is the installation's, not an organisation's", role="operator")
    held = held_roles(membership)
    changed = held ^ wanted
    for role in changed:
        if not may_grant(held_by_manager, role):
            raise MayNotGrant(f"you may not give or take away the role {role.value}", role=role.value)
    if not _managers_left(membership, membership, wanted):
        raise LastManager("nobody would manage this organisation's members any more")
    MembershipRole.objects.filter(membership=membership, role__in=[role.value for role in held - wanted]).delete()
    MembershipRole.objects.bulk_create(
        [MembershipRole(membership=membership, role=role.value) for role in wanted - held])
    return wanted


@transaction.atomic
def remove_member(by: Any, membership: Membership) -> None:
    """End ``membership``: the person is no longer a member of its organisation (their player and
    the games they played stay in its history)."""
    membership = Membership.objects.select_for_update().select_related("organisation").get(pk=membership.pk)
    held_by_manager = _check_manager(by, membership)
    for role in held_roles(membership):
        if not may_grant(held_by_manager, role):
            raise MayNotGrant(f"removing this member takes away the role {role.value}, which you may not",
                              role=role.value)
    if not _managers_left(membership, membership, ()):
        raise LastManager("nobody would manage this organisation's members any more")
    membership.delete()
