"""Leagues made and changed by those who run their organisation's leagues: one service for the
pages and any other caller, which checks what a league must be before anything is saved.

A league is its organisation's (through the organisation's club, made here when it has none):
only those :data:`accounts.roles.Action.RUN_LEAGUES` allows there create or edit it, its members
are players of that organisation, and its organisers and trusted scorekeepers are members of it.
A refusal (:class:`LeagueRefused`) says why in the reader's language, names the field, and
changes nothing.

>>> preset_table(WIN_ONLY, sizes=[2, 3])
{'2': [1, 0], '3': [1, 0, 0]}
>>> preset_table(BY_PLACES, sizes=[2, 4, 5])
{'2': [5, 3], '4': [5, 3, 2, 1], '5': [5, 3, 2, 1, 0]}
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from accounts.models import Membership, Organisation
from accounts.roles import Action, can
from accounts.scoping import in_organisation
from games.registry import engine_slugs
from games.selectors import catalogue_games
from records.models import GameRecord, Player

from .models import Club, League, LeagueMembership

TABLE_SIZES = range(2, 9)
"""The table sizes a points preset gives points for: two to eight players."""
LARGEST_TABLE = 20
MOST_POINTS = 1000
MOST_GAMES_NEEDED = 1000

WIN_ONLY = (1,)
"""A win is a point, any other place none."""
BY_PLACES = (5, 3, 2, 1)
"""5, 3, 2 and 1 points for the first four places, none after."""
F1_LIKE = (25, 18, 15, 12, 10, 8, 6, 4, 2, 1)
"""Formula One's points for the first ten places."""
PRESETS: dict[str, tuple[int, ...]] = {"win": WIN_ONLY, "places": BY_PLACES, "f1": F1_LIKE}


def preset_table(scale: Iterable[int], sizes: Iterable[int] = TABLE_SIZES) -> dict[str, list[int]]:
    """The points table that gives ``scale``'s points by place at each table size (none to the
    places past its end)."""
    points = list(scale)
    return {str(size): (points + [0] * size)[:size] for size in sizes}


def preset_of(table: Mapping[str, list[int]]) -> str | None:
    """The name of the preset ``table`` is (at the sizes it names), if it is one."""
    sizes = [int(size) for size in table if str(size).isdigit()]
    for name, scale in PRESETS.items():
        if sizes and preset_table(scale, sizes) == dict(table):
            return name
    return None


@dataclass(frozen=True)
class LeagueSettings:
    """Everything a league's organiser sets: the pages' form, as plain values."""

    name: str
    starts_on: dt.date
    ends_on: dt.date
    game_slugs: list[str] = field(default_factory=list)
    """Empty: every game."""
    record_kinds: str = League.RecordKinds.ALL
    scoring_system: str = League.ScoringSystem.POINTS
    points_table: dict[str, list[int]] = field(default_factory=dict)
    min_games: int = 0
    tie_breakers: list[str] = field(default_factory=list)
    members: list[int] = field(default_factory=list)
    """Player ids."""
    organisers: list[int] = field(default_factory=list)
    """Account ids: the league's own organisers, beside those who run the organisation's leagues."""
    trusted_scorekeepers: list[int] = field(default_factory=list)
    """Account ids."""


class LeagueRefused(Exception):
    """A league not saved, and why: ``reason`` for a program, ``message`` for a person, ``field``
    the setting at fault (``None``: the whole)."""

    status_code = 400

    def __init__(self, reason: str, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message
        self.field = field


class MayNotRunLeagues(LeagueRefused):
    status_code = 403

    def __init__(self) -> None:
        super().__init__("may_not_run_leagues",
                         gettext("Only those who run this organisation's leagues may create or change them."))


def club_for(organisation: Organisation) -> Club:
    """The organisation's club, made (named after it) when it has none yet."""
    club = Club.objects.filter(organisation=organisation).first()
    if club is not None:
        return club
    name, number = organisation.name, 1
    while Club.objects.filter(name=name).exists():
        number += 1
        name = f"{organisation.name} ({number})"
    return Club.objects.create(name=name, organisation=organisation)


def known_game_slugs(organisation: Organisation) -> set[str]:
    """The games a league of ``organisation`` may name: those with rules here, those the
    catalogue names, and those of the organisation's own records."""
    recorded = GameRecord.objects.filter(organisation=organisation).order_by().values_list("game_slug", flat=True)
    return set(engine_slugs()) | set(catalogue_games()) | set(recorded.distinct())


def create_league(organisation: Organisation, settings: LeagueSettings, *, by: Any) -> League:
    """A new league of ``organisation`` (of its club, made if need be), as ``settings`` say."""
    if not can(by, Action.RUN_LEAGUES, organisation):
        raise MayNotRunLeagues
    with transaction.atomic():
        club = club_for(organisation)
        league = League(club=club)
        _save(league, organisation, settings)
    return league


def edit_league(league: League, settings: LeagueSettings, *, by: Any) -> League:
    """``league`` changed to what ``settings`` say (its standings and ratings follow, once committed)."""
    organisation = league.club.organisation
    if organisation is None or not can(by, Action.RUN_LEAGUES, organisation):
        raise MayNotRunLeagues
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league.pk)
        _save(league, organisation, settings)
    return league


def _save(league: League, organisation: Organisation, settings: LeagueSettings) -> None:
    check(league, organisation, settings)
    league.name = settings.name.strip()
    league.starts_on, league.ends_on = settings.starts_on, settings.ends_on
    league.game_slugs = sorted(set(settings.game_slugs))
    league.record_kinds = settings.record_kinds
    league.scoring_system = settings.scoring_system
    league.points_table = {size: list(points) for size, points in
                           sorted(settings.points_table.items(), key=lambda item: int(item[0]))}
    league.min_games = settings.min_games
    league.tie_breakers = list(settings.tie_breakers)
    try:
        with transaction.atomic():
            league.save()
    except IntegrityError:  # another organiser took the name meanwhile
        raise _name_taken() from None
    kept = set(settings.members)
    LeagueMembership.objects.filter(league=league).exclude(player_id__in=kept).delete()
    present = set(LeagueMembership.objects.filter(league=league).values_list("player_id", flat=True))
    for player_id in sorted(kept - present):
        LeagueMembership.objects.create(league=league, player_id=player_id)
    league.organisers.set(sorted(set(settings.organisers)))
    league.trusted_scorekeepers.set(sorted(set(settings.trusted_scorekeepers)))


def _name_taken() -> LeagueRefused:
    return LeagueRefused("name_taken", gettext("The club already has a league of this name."), "name")


def check(league: League, organisation: Organisation, settings: LeagueSettings) -> None:
    """Raise :class:`LeagueRefused` for the first thing wrong with ``settings`` for ``league``
    (unsaved: a new one) of ``organisation``."""
    name = settings.name.strip()
    if not name or len(name) > League._meta.get_field("name").max_length:
        raise LeagueRefused("invalid_name", gettext("Give the league a name (200 characters at most)."), "name")
    if League.objects.filter(club=league.club, name__iexact=name).exclude(pk=league.pk).exists():
        raise _name_taken()
    if settings.starts_on > settings.ends_on:
        raise LeagueRefused("dates_out_of_order", gettext("The last day comes before the first."), "ends_on")
    unknown = set(settings.game_slugs) - known_game_slugs(organisation) - set(league.game_slugs or [])
    if unknown:
        raise LeagueRefused("unknown_game", gettext("A game chosen is neither one with rules here nor in the "
                                                    "catalogue."), "games")
    if settings.record_kinds not in League.RecordKinds.values:
        raise LeagueRefused("invalid_record_kinds", gettext("Choose which records count."), "record_kinds")
    if settings.scoring_system not in League.ScoringSystem.values:
        raise LeagueRefused("invalid_scoring_system", gettext("Choose how standings are worked out."),
                            "scoring_system")
    _check_points(settings)
    if not 0 <= settings.min_games <= MOST_GAMES_NEEDED:
        raise LeagueRefused("invalid_min_games", gettext("The games needed to be ranked: 0 to 1000."), "min_games")
    breakers = list(settings.tie_breakers)
    if any(breaker not in League.TieBreaker.values for breaker in breakers) or len(set(breakers)) < len(breakers):
        raise LeagueRefused("invalid_tie_breakers", gettext("Each tie-breaker once, from those offered."),
                            "tie_breakers")
    players = in_organisation(Player.objects.all(), organisation)
    if len(set(settings.members)) != players.filter(pk__in=settings.members).count():
        raise LeagueRefused("not_in_organisation", gettext("Every player of the league must be one of the "
                                                           "organisation's players."), "members")
    accounts = set(settings.organisers) | set(settings.trusted_scorekeepers)
    members = Membership.objects.filter(organisation=organisation, user__in=accounts, user__is_active=True)
    if len(accounts) != members.count():
        field_at_fault = ("organisers" if set(settings.organisers) - set(members.values_list("user_id", flat=True))
                          else "trusted_scorekeepers")
        raise LeagueRefused("not_in_organisation", gettext("The league's organisers and trusted scorekeepers must "
                                                           "be members of the organisation."), field_at_fault)


def _check_points(settings: LeagueSettings) -> None:
    """A points table is coherent: per table size (1 to 20 players), one whole number of points
    (0 to 1000) for each place, a better place never worth fewer points; and a league ranked by
    points gives points at one table size at least."""
    refused = LeagueRefused("invalid_points_table", gettext(
        "Points by place: for each table size, a whole number from 0 to 1000 for each place, a better place never "
        "worth fewer points than a worse one."), "points_table")
    table = settings.points_table
    if not isinstance(table, Mapping):
        raise refused
    for size, points in table.items():
        if not (isinstance(size, str) and size.isdigit() and 1 <= int(size) <= LARGEST_TABLE):
            raise refused
        if not isinstance(points, list) or len(points) != int(size):
            raise refused
        if any(type(point) is not int or not 0 <= point <= MOST_POINTS for point in points):
            raise refused
        if any(better < worse for better, worse in zip(points, points[1:])):
            raise refused
    if settings.scoring_system == League.ScoringSystem.POINTS and not any(
            any(points) for points in table.values()):
        raise LeagueRefused("no_points", gettext("A league ranked by points gives points for some place."),
                            "points_table")

