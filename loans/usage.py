"""What the library's games are used for, the librarian's guide to buying (``/desk/usage/``): per
catalogue record, its copies, loans and plays in a period, the households waiting now and those
that waited; per copy, its loans, plays, days out and missing pieces.

Every figure is counted by the database, a correlated subquery a figure, in one query for a page
of records and two for their copies, whatever their number. A loan is its ``lent`` event (the day
is the event's ``lent_on``, the day the desk lent it); a play is a finished game record of the
catalogue record (``catalogue_record``) or naming one of its copies (``copy``), counted only when
the reader may see it (``records.selectors.only_visible``): the page tells no one of a private game
they could not open.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from django.db.models import Case, CharField, Exists, F, FloatField, IntegerField, OuterRef, Q, QuerySet, Subquery, Value, When
from django.db.models.fields.json import KT
from django.db.models.functions import Cast, NullIf

from games.models import CatalogueRecord, Copy
from records.models import GameRecord
from records.selectors import only_visible, played_with

from . import rules
from .models import CopyEvent, Hold
from .selectors import User


class PeriodKey(StrEnum):
    LAST_12_MONTHS = "12m"
    THIS_YEAR = "year"
    ALL_TIME = "all"


class SortKey(StrEnum):
    LOANS = "loans"
    PLAYS = "plays"
    DEMAND = "demand"


@dataclass(frozen=True)
class Period:
    """The days counted, ``start`` to ``end`` both included; no ``start``: since the first loan."""

    key: PeriodKey
    start: dt.date | None
    end: dt.date

    @classmethod
    def of(cls, key: str, today: dt.date) -> Period:
        """The period ``key`` ending ``today`` (``ValueError`` for an unknown key).

        >>> Period.of("12m", dt.date(2026, 12, 5)).start
        datetime.date(2025, 12, 6)
        >>> Period.of("year", dt.date(2026, 12, 5)).start
        datetime.date(2026, 1, 1)
        """
        chosen = PeriodKey(key)
        if chosen is PeriodKey.LAST_12_MONTHS:
            return cls(chosen, today - dt.timedelta(days=364), today)
        if chosen is PeriodKey.THIS_YEAR:
            return cls(chosen, today.replace(month=1, day=1), today)
        return cls(chosen, None, today)


@dataclass(frozen=True)
class RecordUsage:
    """One catalogue record's line of the usage table."""

    record_id: int
    title: str
    copies: int
    """Copies in circulation (a withdrawn copy is not counted)."""
    loans: int
    plays_with_copy: int
    plays: int
    """Every finished play of the game: with one of its copies, or of the catalogue record without a copy named."""
    holds_waiting: int
    households_waited: int
    """Households that placed a hold in the period."""
    last_lent: dt.date | None
    last_played: dt.date | None

    @property
    def demand(self) -> float | None:
        """Holds waiting per copy; ``None`` for a game with no copy to lend."""
        return self.holds_waiting / self.copies if self.copies else None

    @property
    def more_waiting_than_copies(self) -> bool:
        """The purchase hint: more households wait than there are copies to go round."""
        return self.holds_waiting > self.copies

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> RecordUsage:
        return cls(record_id=row["pk"], title=row["title"], copies=row["copy_count"], loans=row["loan_count"],
                   plays_with_copy=row["plays_with_copy"], plays=row["play_count"], holds_waiting=row["holds_waiting"],
                   households_waited=row["households_waited"], last_lent=_day(row["last_lent"]),
                   last_played=row["last_played"])


@dataclass(frozen=True)
class CopyUsage:
    copy_id: int
    barcode: str
    record_id: int
    status: rules.Status
    loans: int
    plays: int
    days_on_loan: int
    """Days the copy was out in the period (a loan still running counts up to today)."""
    missing: tuple[rules.Piece, ...]


class Counted(Subquery):
    """How many rows a correlated queryset has, as one scalar subquery (0 when none)."""

    template = "(SELECT COUNT(*) FROM (%(subquery)s) counted)"
    output_field = IntegerField()


def _payload_text(key: str) -> NullIf:
    """An event's payload date (ISO text, which sorts as the days do) as text on every database,
    SQL null when the payload has none: SQLite's JSON lookups would read a compared string as
    JSON, and its text of a JSON null is the word ``null``."""
    return NullIf(Cast(KT(f"payload__{key}"), CharField()), Value("null"))


def _day(value: Any) -> dt.date | None:
    return None if value in (None, "") else dt.date.fromisoformat(str(value)[:10])


def loans_in(library: Any, period: Period) -> QuerySet[CopyEvent]:
    """The ``lent`` events of the library's copies in the period, by the day the desk lent the
    copy: the one definition of a period's loans (the usage page's, the yearly report's). A loan
    the catalogue knew of before the desk kept history has no day (``lent_on`` null): counted
    over all time only. The day is annotated as ISO text, ``lent_on``."""
    lent = (CopyEvent.objects.filter(type=rules.EventType.LENT, copy__organisation=library)
            .annotate(lent_on=_payload_text("lent_on")))
    if period.start is None:
        return lent.filter(Q(lent_on__isnull=True) | Q(lent_on__lte=period.end.isoformat())).order_by()
    return lent.filter(lent_on__gte=period.start.isoformat(), lent_on__lte=period.end.isoformat()).order_by()


def _plays(user: User, library: Any, period: Period | None) -> QuerySet[GameRecord]:
    """The library's finished game records the reader may see, played in ``period`` (any day
    without one)."""
    plays = only_visible(GameRecord.objects.filter(status=GameRecord.Status.FINISHED, organisation=library), user)
    if period is not None:
        if period.start is not None:
            plays = plays.filter(played_on__gte=period.start)
        plays = plays.filter(played_on__lte=period.end)
    return plays.order_by()


def _of_record(plays: QuerySet[GameRecord]) -> QuerySet[GameRecord]:
    return plays.filter(played_with(OuterRef("pk")))


def record_usage(user: User, library: Any, period: Period, sort: SortKey = SortKey.LOANS) -> QuerySet:
    """Every catalogue record the game library ``library`` holds a copy of, with its figures there,
    sorted by ``sort`` (the most lent, the most played, or the most wanted per copy first): rows
    for :meth:`RecordUsage.from_row`, one query (a page of them when sliced)."""
    plays = _plays(user, library, period)
    waiting = Hold.objects.filter(record=OuterRef("pk"), household__organisation=library, status=Hold.Status.WAITING)
    placed = Hold.objects.filter(record=OuterRef("pk"), household__organisation=library,
                                 placed_at__date__lte=period.end)
    if period.start is not None:
        placed = placed.filter(placed_at__date__gte=period.start)
    last_lent = (CopyEvent.objects.filter(type=rules.EventType.LENT, copy__record=OuterRef("pk"),
                                          copy__organisation=library)
                 .annotate(lent_on=_payload_text("lent_on")).filter(lent_on__isnull=False)
                 .order_by("-lent_on").values("lent_on")[:1])
    last_played = _of_record(_plays(user, library, None)).order_by("-played_on").values("played_on")[:1]
    in_circulation = (Copy.objects.filter(record=OuterRef("pk"), organisation=library)
                      .exclude(loan_state__status=rules.Status.WITHDRAWN).order_by())
    rows = (CatalogueRecord.objects.filter(Exists(Copy.objects.filter(record=OuterRef("pk"), organisation=library)))
            .annotate(
                copy_count=Counted(in_circulation.values("pk")),
                loan_count=Counted(loans_in(library, period).filter(copy__record=OuterRef("pk")).values("pk")),
                plays_with_copy=Counted(plays.filter(copy__record=OuterRef("pk")).values("pk")),
                play_count=Counted(_of_record(plays).values("pk")),
                holds_waiting=Counted(waiting.order_by().values("pk")),
                households_waited=Counted(placed.order_by().values("household").distinct()),
                last_lent=Subquery(last_lent),
                last_played=Subquery(last_played),
            )
            .annotate(demand=Cast("holds_waiting", FloatField()) / NullIf(Cast("copy_count", FloatField()), Value(0.0)),
                      # Nobody can borrow it and households wait: first of all.
                      unserved=Case(When(copy_count=0, holds_waiting__gt=0, then=Value(0)), default=Value(1))))
    order = {
        SortKey.LOANS: ("-loan_count", "-play_count", "title", "pk"),
        SortKey.PLAYS: ("-play_count", "-loan_count", "title", "pk"),
        SortKey.DEMAND: ("unserved", F("demand").desc(nulls_last=True), "-holds_waiting", "-loan_count", "title",
                         "pk"),
    }[sort]
    return rows.order_by(*order).values("pk", "title", "copy_count", "loan_count", "plays_with_copy", "play_count",
                                        "holds_waiting", "households_waited", "last_lent", "last_played")


def days_on_loan(spans: Iterable[tuple[dt.date, dt.date | None]], period: Period) -> int:
    """The days of ``period`` the copy was out, from its loans (lent on, returned on; ``None``:
    still out, counted up to the period's end). A day is counted from the loan to the return, the
    day of the return not included.

    >>> year = Period(PeriodKey.THIS_YEAR, dt.date(2026, 1, 1), dt.date(2026, 12, 5))
    >>> days_on_loan([(dt.date(2025, 12, 20), dt.date(2026, 1, 10)), (dt.date(2026, 12, 1), None)], year)
    13
    """
    total = 0
    for lent_on, returned_on in spans:
        start = lent_on if period.start is None else max(lent_on, period.start)
        end = min(returned_on or period.end, period.end)
        total += max(0, (end - start).days)
    return total


def loan_spans(copy_ids: Iterable[int], period: Period) -> dict[int, list[tuple[dt.date, dt.date | None]]]:
    """Each copy's loans that overlap ``period``: (lent on, returned on or ``None``), one query
    (each loan's return found by a correlated subquery: the copy's next ``returned`` event). A
    loan with no known day (catalogued before the desk kept history) has no days to count."""
    returned = (CopyEvent.objects.filter(copy=OuterRef("copy"), type=rules.EventType.RETURNED, seq__gt=OuterRef("seq"))
                .annotate(on=_payload_text("returned_on")).order_by("seq").values("on")[:1])
    loans = (CopyEvent.objects.filter(copy_id__in=list(copy_ids), type=rules.EventType.LENT)
             .annotate(lent_on=_payload_text("lent_on"), returned_on=Subquery(returned))
             .filter(lent_on__lte=period.end.isoformat()))
    if period.start is not None:
        loans = loans.filter(Q(returned_on__isnull=True) | Q(returned_on__gte=period.start.isoformat()))
    spans: dict[int, list[tuple[dt.date, dt.date | None]]] = {}
    for copy_id, lent_on, returned_on in loans.order_by("copy_id", "seq").values_list("copy_id", "lent_on",
                                                                                       "returned_on"):
        spans.setdefault(copy_id, []).append((_day(lent_on), _day(returned_on)))  # type: ignore[arg-type]
    return spans


def copy_usage(record_ids: Iterable[int], user: User, library: Any, period: Period) -> dict[int, list[CopyUsage]]:
    """The library's copies of the catalogue records ``record_ids`` with their figures, by record
    then barcode: two queries."""
    copies = list(Copy.objects.filter(record_id__in=list(record_ids), organisation=library)
                  .annotate(loan_count=Counted(loans_in(library, period).filter(copy=OuterRef("pk")).values("pk")),
                            play_count=Counted(_plays(user, library, period).filter(copy=OuterRef("pk")).values("pk")))
                  .order_by("record_id", "barcode")
                  .values("pk", "barcode", "record_id", "loan_count", "play_count", "loan_state__status",
                          "loan_state__missing"))
    spans = loan_spans([copy["pk"] for copy in copies], period)
    found: dict[int, list[CopyUsage]] = {}
    for copy in copies:
        found.setdefault(copy["record_id"], []).append(CopyUsage(
            copy_id=copy["pk"], barcode=copy["barcode"], record_id=copy["record_id"],
            status=rules.Status(copy["loan_state__status"] or rules.Status.AVAILABLE),
            loans=copy["loan_count"], plays=copy["play_count"], days_on_loan=days_on_loan(spans.get(copy["pk"], []), period),
            missing=tuple(rules.Piece(piece["kind"], int(piece["count"])) for piece in copy["loan_state__missing"] or [])))
    return found
