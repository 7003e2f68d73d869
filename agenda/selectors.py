"""The agenda's reads: the calendar, a session's figures, and a year's figures for the yearly
report (``year_figures``: sums and counts made by the database, a handful of queries whatever
the number of sessions and taps)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.db.models import (
    Count, DurationField, ExpressionWrapper, F, IntegerField, OuterRef, Q, QuerySet, Subquery, Sum, Value,
)
from django.db.models.functions import Coalesce, TruncMonth
from django.utils import timezone

from games.models import CatalogueRecord
from games.registry import get_engine
from records.models import GameRecord

from . import rules
from .models import DoorCount, PlayTally, Registration, Session, SessionChange, SessionGame

ZERO_HOURS = Decimal("0.00")


def year_bounds(year: int) -> tuple[dt.datetime, dt.datetime]:
    """The first instant of ``year`` and of the next, on the installation's clock."""
    return (timezone.make_aware(dt.datetime(year, 1, 1)), timezone.make_aware(dt.datetime(year + 1, 1, 1)))


def sessions_between(organisation: Any, first: dt.datetime, last: dt.datetime, *,
                     public_only: bool = False) -> QuerySet[Session]:
    """The organisation's sessions starting from ``first`` until before ``last``, in order;
    ``public_only``: those on the public calendar."""
    found = Session.objects.filter(organisation=organisation, starts_at__gte=first, starts_at__lt=last)
    if public_only:
        found = found.filter(public=True)
    return found.order_by("starts_at", "pk")


def _summed(queryset: QuerySet, field: str = "delta") -> Coalesce:
    return Coalesce(Subquery(queryset.order_by().values("session").annotate(total=Sum(field)).values("total")[:1],
                             output_field=IntegerField()), Value(0))


def persons_counted() -> Coalesce:
    """An annotation of sessions: the people counted at their door (every public but families)."""
    return _summed(DoorCount.objects.filter(session=OuterRef("pk")).exclude(public=rules.Public.FAMILY))


def families_counted() -> Coalesce:
    return _summed(DoorCount.objects.filter(session=OuterRef("pk"), public=rules.Public.FAMILY))


def places(status: str, **more: Any) -> Coalesce:
    """An annotation of sessions: the places of their registrations of ``status``."""
    return _summed(Registration.objects.filter(session=OuterRef("pk"), status=status, **more), "places")


def with_figures(sessions: QuerySet[Session]) -> QuerySet[Session]:
    """Sessions with what a list shows beside each: people and families counted, places taken
    and waiting (one query for the list)."""
    return sessions.annotate(persons=persons_counted(), families=families_counted(),
                             registered_places=places(Registration.Status.REGISTERED),
                             waiting_places=places(Registration.Status.WAITING))


Plays = list[tuple[int | None, str, int]]
"""Games played on site: (catalogue record id, title, plays), most first; a recorded game that
names no catalogue record is counted under its game's name, with no id."""


def game_title(catalogue_title: str | None, game_slug: str) -> str:
    """What a game record is called among the games played: its catalogue record's title, else
    its rules engine's name, else its game's slug."""
    engine = None if catalogue_title else get_engine(game_slug)
    return catalogue_title or (engine.name if engine is not None else game_slug)


def counted_links(links: QuerySet[SessionGame]) -> QuerySet[SessionGame]:
    """The links that count as games played: every game but one abandoned (put back in its box
    unfinished, it was hardly played)."""
    return links.exclude(game_record__status=GameRecord.Status.ABANDONED)


def games_played(tallies: QuerySet[PlayTally], links: QuerySet[SessionGame]) -> Plays:
    """The games played: the door's taps by catalogue record plus the game records linked (two
    grouped queries), most first, those at zero left out."""
    plays: dict[tuple[int | None, str], int] = {}
    for record_id, title, n in (tallies.order_by().values("record_id", "record__title").annotate(n=Sum("delta"))
                                .values_list("record_id", "record__title", "n")):
        plays[record_id, title] = plays.get((record_id, title), 0) + int(n or 0)
    for record_id, title, slug, n in (
            counted_links(links).order_by()
            .values("game_record__catalogue_record", "game_record__catalogue_record__title", "game_record__game_slug")
            .annotate(n=Count("pk")).values_list("game_record__catalogue_record", "game_record__catalogue_record__title",
                                                 "game_record__game_slug", "n")):
        key = (record_id, game_title(title, slug))
        plays[key] = plays.get(key, 0) + int(n)
    return sorted(((record_id, title, n) for (record_id, title), n in plays.items() if n > 0),
                  key=lambda line: (-line[2], line[1], line[0] is None, line[0] or 0))


@dataclass(frozen=True)
class LinkedGame:
    """A game record played at a session, as the session's page lists it."""

    record_id: int
    title: str
    players: list[str] | None
    """In seat order; None for a private game (its players are theirs to show)."""
    status: str


def linked_games(session: Session) -> list[LinkedGame]:
    """The game records played at ``session``, in the order they were linked (two queries)."""
    links = (session.games.select_related("game_record__catalogue_record")
             .prefetch_related("game_record__seats__player").order_by("linked_at", "pk"))
    return [LinkedGame(record_id=link.game_record_id,
                       title=game_title(getattr(link.game_record.catalogue_record, "title", None),
                                        link.game_record.game_slug),
                       players=None if link.game_record.is_private else [
                           seat.player.display_name for seat in
                           sorted(link.game_record.seats.all(), key=lambda seat: seat.seat_order)],
                       status=link.game_record.status)
            for link in links]


@dataclass(frozen=True)
class SessionFigures:
    totals: dict[str, int]
    """The door's count by public (every public)."""
    persons: int
    plays: Plays
    """The games played: tallied at the door and recorded there (see :func:`games_played`)."""
    registrations: list[Registration]
    waiting: list[Registration]


def session_figures(session: Session) -> SessionFigures:
    from .services import door_totals

    totals = door_totals(session)
    plays = games_played(PlayTally.objects.filter(session=session), SessionGame.objects.filter(session=session))
    registrations = list(session.registrations.exclude(status=Registration.Status.CANCELLED)
                         .order_by("registered_at", "pk"))
    return SessionFigures(
        totals=totals, persons=sum(totals[public.value] for public in rules.PERSONS), plays=plays,
        registrations=[entry for entry in registrations if entry.status == Registration.Status.REGISTERED],
        waiting=[entry for entry in registrations if entry.status == Registration.Status.WAITING])


def session_of(game_record: GameRecord | int) -> Session | None:
    """The session a game record was played at, if it names one."""
    link = SessionGame.objects.select_related("session").filter(game_record=game_record).first()
    return link.session if link is not None else None


def sessions_to_name(organisation: Any, days: list[dt.date], *, public_only: bool = False) -> list[Session]:
    """The organisation's sessions held on any of ``days`` (not cancelled), in order: those a
    result or a recorded game may name as the one it was played at."""
    held_on = Q()
    for day in set(days):
        held_on |= Q(starts_at__lt=timezone.make_aware(dt.datetime.combine(day + dt.timedelta(days=1), dt.time.min)),
                     ends_at__gt=timezone.make_aware(dt.datetime.combine(day, dt.time.min)))
    if not held_on:
        return []
    found = Session.objects.filter(held_on, organisation=organisation, cancelled_at__isnull=True)
    if public_only:
        found = found.filter(public=True)
    return list(found.order_by("starts_at", "pk"))


def top_games(organisation: Any, limit: int = 8) -> list[tuple[int, str]]:
    """The games played most on site at the organisation's sessions: the door counter's quick buttons."""
    return [(row["record_id"], row["record__title"]) for row in
            PlayTally.objects.filter(session__organisation=organisation).order_by().values("record_id", "record__title")
            .annotate(plays=Sum("delta")).filter(plays__gt=0).order_by("-plays", "record__title")[:limit]]


def records_to_tally(organisation: Any, limit: int = 3000) -> list[tuple[int, str]]:
    """The catalogue records of the organisation's copies, by title: what the door counter searches."""
    return list(CatalogueRecord.objects.filter(copies__organisation=organisation).distinct()
                .order_by("title", "pk").values_list("pk", "title")[:limit])


# -- the year, for the yearly report -------------------------------------------------------------------

@dataclass(frozen=True)
class EventFigures:
    title: str
    starts_at: dt.datetime
    capacity: int | None
    registered_places: int
    waiting_places: int
    checked_in_places: int
    persons: int
    """People counted at its door (every public but families)."""
    session_id: int


@dataclass(frozen=True)
class GroupFigures:
    visits: int
    children: int
    adults: int


@dataclass(frozen=True)
class AgendaYear:
    year: int
    sessions_held: int
    sessions_by_kind: dict[str, int]
    opening_hours: Decimal
    hours_by_kind: dict[str, Decimal]
    attendance_by_month: dict[str, int]
    attendance_by_public: dict[str, int]
    families_by_month: dict[str, int]
    events: list[EventFigures]
    group_visits_by_kind: dict[str, GroupFigures]
    games_played_on_site: Plays
    """Tallied at the door and recorded there (see :func:`games_played`)."""


def held_in(organisation: Any, year: int, now: dt.datetime | None = None) -> QuerySet[Session]:
    """The sessions held in ``year``: not cancelled, started in the year, over by ``now``."""
    first, last = year_bounds(year)
    return Session.objects.filter(organisation=organisation, cancelled_at__isnull=True, starts_at__gte=first,
                                  starts_at__lt=last, ends_at__lte=now or timezone.now())


def _hours(duration: dt.timedelta | None) -> Decimal:
    if not duration:
        return ZERO_HOURS
    return (Decimal(duration.total_seconds()) / Decimal(3600)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def _month_key(value: dt.datetime | dt.date) -> str:
    if isinstance(value, dt.datetime) and timezone.is_aware(value):
        value = timezone.localtime(value)
    return f"{value.year}-{value.month:02d}"


def months(year: int) -> list[str]:
    return [f"{year}-{month:02d}" for month in range(1, 13)]


def year_figures(organisation: Any, year: int, now: dt.datetime | None = None) -> AgendaYear:
    """What the organisation's calendar gives its yearly report for ``year`` (see
    :class:`AgendaYear`), in six queries. Attendance is counted at the door, by the month the
    session started in; a booked group's people are the group's door counts where it was counted
    (a group count of either kind), else the numbers it was expected with (in the attendance too:
    a school class that came is people who came, counted or not)."""
    held = held_in(organisation, year, now)
    by_kind = {row["kind"]: row for row in held.order_by().values("kind").annotate(
        n=Count("pk"), duration=Sum(ExpressionWrapper(F("ends_at") - F("starts_at"), output_field=DurationField())))}
    sessions_by_kind = {kind.value: int(by_kind.get(kind.value, {}).get("n", 0)) for kind in Session.Kind}
    hours_by_kind = {kind.value: _hours(by_kind.get(kind.value, {}).get("duration")) for kind in Session.Kind}

    attendance = dict.fromkeys(months(year), 0)
    families = dict.fromkeys(months(year), 0)
    by_public = {public.value: 0 for public in rules.PERSONS}
    for row in (DoorCount.objects.filter(session__in=held.values("pk")).order_by()
                .values("public", month=TruncMonth("session__starts_at")).annotate(n=Sum("delta"))):
        month = _month_key(row["month"])
        if row["public"] == rules.Public.FAMILY:
            families[month] += int(row["n"])
        else:
            attendance[month] += int(row["n"])
            by_public[row["public"]] += int(row["n"])

    events = [EventFigures(title=row.name, starts_at=row.starts_at, capacity=row.capacity,
                           registered_places=row.registered_places, waiting_places=row.waiting_places,
                           checked_in_places=row.checked_in_places, persons=row.persons, session_id=row.pk)
              for row in held.filter(kind=Session.Kind.EVENT).annotate(
                  persons=persons_counted(), registered_places=places(Registration.Status.REGISTERED),
                  waiting_places=places(Registration.Status.WAITING),
                  checked_in_places=places(Registration.Status.REGISTERED, checked_in_at__isnull=False))
              .order_by("starts_at", "pk")]

    groups = {kind.value: [0, 0, 0] for kind in Session.StructureKind}
    group_counts = Q(door_counts__public__in=[public.value for public in rules.GROUP_PUBLICS])
    for row in held.filter(kind=Session.Kind.GROUP_VISIT).order_by().values(
            "pk", "starts_at", "structure_kind", "children_expected", "adults_expected").annotate(
            counted=Count("door_counts", filter=group_counts),
            children=Sum("door_counts__delta", filter=Q(door_counts__public=rules.Public.GROUP_CHILD)),
            adults=Sum("door_counts__delta", filter=Q(door_counts__public=rules.Public.GROUP_ADULT))):
        figures = groups.setdefault(row["structure_kind"] or Session.StructureKind.OTHER.value, [0, 0, 0])
        figures[0] += 1
        if row["counted"]:
            figures[1] += int(row["children"] or 0)
            figures[2] += int(row["adults"] or 0)
        else:
            # Not counted at the door: the group came as booked, and its people are the year's attendance too.
            children, adults = int(row["children_expected"] or 0), int(row["adults_expected"] or 0)
            figures[1] += children
            figures[2] += adults
            attendance[_month_key(row["starts_at"])] += children + adults
            by_public[rules.Public.GROUP_CHILD.value] += children
            by_public[rules.Public.GROUP_ADULT.value] += adults

    games = games_played(PlayTally.objects.filter(session__in=held.values("pk")),
                         SessionGame.objects.filter(session__in=held.values("pk")))

    return AgendaYear(
        year=year, sessions_held=sum(sessions_by_kind.values()), sessions_by_kind=sessions_by_kind,
        opening_hours=hours_by_kind[Session.Kind.OPENING.value], hours_by_kind=hours_by_kind,
        attendance_by_month=attendance, attendance_by_public=by_public, families_by_month=families, events=events,
        group_visits_by_kind={kind: GroupFigures(*figures) for kind, figures in groups.items()},
        games_played_on_site=games)


def corrections(organisation: Any, year: int, since: dt.datetime) -> list[SessionChange]:
    """The changes made after ``since`` (when the report was sent) to the organisation's sessions
    of ``year``: what the report no longer says as it was sent, with who, when and why."""
    first, last = year_bounds(year)
    return list(SessionChange.objects.filter(session__organisation=organisation, session__starts_at__gte=first,
                                             session__starts_at__lt=last, changed_at__gt=since)
                .select_related("session", "changed_by").order_by("changed_at", "pk"))
