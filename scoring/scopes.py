"""Which leagues, clubs and players belong to an organisation (``accounts.scoping``): a league,
to its club's organisation; a player, also to the organisation whose leagues name them."""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from accounts.scoping import belongs


def club_of(organisation: Any) -> Q:
    return Q(organisation=organisation)


def league_of(organisation: Any) -> Q:
    return Q(club__organisation=organisation)


def player_in_its_leagues(organisation: Any) -> Q:
    return Q(league_memberships__league__club__organisation=organisation)


def connect() -> None:
    belongs("scoring.Club", club_of)
    belongs("scoring.League", league_of)
    belongs("records.Player", player_in_its_leagues)
