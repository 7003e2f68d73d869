"""An organisation's members as the pages and the API show them: each one's name (the name of
the player their account is, else their username), that player, their roles beside being a
member, when they joined. Who may see them is :func:`accounts.roles.sees_members`'s."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

from accounts.models import Membership, Organisation
from accounts.roles import Role
from records.models import Player


@dataclass(frozen=True)
class Member:
    membership_id: int
    name: str
    username: str
    player_id: int | None
    roles: tuple[Role, ...]
    joined_at: dt.datetime


def memberships_of(organisation: Organisation):
    """The organisation's memberships, oldest first, with what :func:`members` reads of them."""
    return (Membership.objects.filter(organisation=organisation).select_related("user").prefetch_related("roles")
            .order_by("joined_at", "pk"))


def members(memberships: Iterable[Membership]) -> list[Member]:
    """``memberships`` (of :func:`memberships_of`, or a page of them) as members, their players read
    in one query."""
    memberships = list(memberships)
    players = {user_id: (pk, name) for user_id, pk, name in Player.objects.filter(
        user__in=[membership.user_id for membership in memberships]).values_list("user_id", "pk", "display_name")}
    found = []
    for membership in memberships:
        username = membership.user.get_username()
        player_id, name = players.get(membership.user_id, (None, username))
        found.append(Member(membership_id=membership.pk, name=name, username=username, player_id=player_id,
                            roles=tuple(Role(held.role) for held in membership.roles.all()),
                            joined_at=membership.joined_at))
    return found
