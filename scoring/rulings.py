"""Who may move a league: an organiser's rulings on the games its league would not count alone.

A league counts a finished game when it fits (games, dates, members seated) and the league
trusts who recorded it (:func:`scoring.standings.trusted`); any other game that fits is a
friendly game until an organiser approves it. An organiser may also rule a game out. A ruling
is never changed or deleted: the latest one stands, the others are the league's history.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction

from records.errors import RecordError
from records.models import GameRecord

from . import standings
from .models import League, LeagueRuling


class NotAnOrganiser(RecordError):
    reason = "not_an_organiser"
    status_code = 403


class NotALeagueGame(RecordError):
    """The record does not fit the league (another game, outside its dates, a guest seated):
    no ruling makes it count."""

    reason = "not_a_league_game"
    status_code = 422


def rule(league: League, record: GameRecord, *, counts: bool, reason: str,
         by: AbstractBaseUser | AnonymousUser) -> LeagueRuling:
    """Approve ``record`` for ``league`` (``counts``) or rule it out, with why; its standings
    and its club's ratings follow once committed (scoring.receivers)."""
    if not standings.may_rule(by, league):
        raise NotAnOrganiser("only the league's organisers (and staff) approve or rule out its games",
                             league=league.pk)
    if not standings.league_candidates(league).filter(pk=record.pk).exists():
        raise NotALeagueGame(
            f"record {record.pk} is not one of the league's games: a finished game of its games, within "
            "its dates, with only its members seated", league=league.pk, record=record.pk)
    with transaction.atomic():
        return LeagueRuling.objects.create(league=league, record=record, counts=counts, reason=reason.strip(),
                                           ruled_by=by)
