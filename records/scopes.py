"""Which game records and players belong to an organisation (``accounts.scoping``): a record, to
the club or library whose table recorded it; a player, to the organisation they played a game
of, or whose member their account is."""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from accounts.scoping import belongs


def record_of(organisation: Any) -> Q:
    return Q(organisation=organisation)


def player_at_its_games(organisation: Any) -> Q:
    return Q(seats__record__organisation=organisation)


def player_a_member(organisation: Any) -> Q:
    return Q(user__memberships__organisation=organisation)


def connect() -> None:
    belongs("records.GameRecord", record_of)
    belongs("records.Player", player_at_its_games)
    belongs("records.Player", player_a_member)
