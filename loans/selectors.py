"""Reads of the loans desk, and who may see what."""

from __future__ import annotations

import datetime as dt
import heapq
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from itertools import islice
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Exists, Max, OuterRef, Q, QuerySet, Sum
from django.utils import timezone

from accounts.models import Membership, Organisation
from accounts.roles import Action, Role, can, holders
from accounts.scoping import in_organisation
from games.models import CatalogueRecord, Copy
from games.registry import BoxPiece, box_contents
from records.models import GameRecord, Seat
from records.selectors import ended_short_of_a_tile, only_visible
from scoring.models import SeatResult

from . import checklists, rules
from .contents import ContentLine
from .errors import UnknownCopy, UnknownHousehold
from .models import Component, CopyEvent, CopyState, Hold, Household, HouseholdEvent, Member, Tariff
from .refusals import REFUSAL_WORDS

User = AbstractBaseUser | AnonymousUser


def household_of(user: User) -> Household | None:
    """The household a signed-in member belongs to."""
    if not user.is_authenticated:
        return None
    return Household.objects.filter(members__user=user).first()


def may_see_household(user: User, household: Household) -> bool:
    """The desk of the household's game library, and the household's own members."""
    if can(user, Action.USE_DESK, household.organisation):
        return True
    own = household_of(user)
    return own is not None and own.pk == household.pk


def copy_by_barcode(barcode: str) -> Copy:
    copy = Copy.objects.select_related("record").filter(barcode=barcode).first()
    if copy is None:
        raise UnknownCopy(f"no copy has the barcode {barcode!r}", copy=barcode)
    return copy


def household_by_card(card_number: str) -> Household:
    household = Household.objects.filter(card_number=card_number).first()
    if household is None:
        raise UnknownHousehold(f"no household has the card {card_number!r}", household=card_number)
    return household


def copy_state(copy: Copy) -> rules.CopyState:
    row = CopyState.objects.filter(copy=copy).first()
    return row.as_rule_state() if row else rules.CopyState()


def current_loans(household: Household) -> QuerySet[CopyState]:
    return (CopyState.objects.filter(household=household, status=rules.Status.ON_LOAN)
            .select_related("copy__record").order_by("due_on", "copy__barcode"))


@dataclass(frozen=True)
class MemberLoan:
    """One of a household's loans as its members read it (their loans page, their account page):
    late or not, the fee so far, and why it may not be renewed (``None``: it may)."""

    row: CopyState
    late: bool
    fee_so_far: Decimal
    refusal: rules.Refusal | None

    @property
    def renewal_refused(self) -> str:
        """Why it may not be renewed, in the reader's language (empty: it may)."""
        return str(REFUSAL_WORDS.get(self.refusal.reason, self.refusal.message)) if self.refusal else ""


def member_loans(household: Household, policy: rules.Policy, today: dt.date) -> list[MemberLoan]:
    """The household's loans under its library's ``policy``, each with what its members may do
    about it ``today``: a loan whose game another household waits for is not renewed, and they
    are told so before they try."""
    current = list(current_loans(household))
    wanted = set(Hold.objects.filter(record_id__in={row.copy.record_id for row in current},
                                     household__organisation=household.organisation_id,
                                     status=Hold.Status.WAITING).exclude(household=household)
                 .values_list("record_id", flat=True))
    return [MemberLoan(row, late=row.due_on is not None and row.due_on < today,
                       fee_so_far=rules.late_fee(row.due_on, today, policy),
                       refusal=rules.can_renew(row.as_rule_state(), policy, hold_waiting=row.copy.record_id in wanted))
            for row in current]


def checklist(copy: Copy) -> list[rules.Piece]:
    """A copy's checklist: its catalogue record's components."""
    return [rules.Piece(c.kind, c.count) for c in Component.objects.filter(record_id=copy.record_id)]


def record_checklist(record: CatalogueRecord) -> list[ContentLine]:
    """A catalogue record's checklist as lines, in the librarian's order."""
    return [ContentLine(c.kind, c.count, c.per_colour) for c in Component.objects.filter(record=record)]


def engine_pieces(record: CatalogueRecord) -> tuple[BoxPiece, ...]:
    """What the record's rules engine says is in the box; nothing for a game without an engine."""
    box = box_contents(record.engine_slug) if record.engine_slug else None
    return box.pieces if box is not None else ()


def engine_comparison(record: CatalogueRecord) -> checklists.Comparison | None:
    """The record's checklist beside its engine's pieces; ``None`` for a game without an engine."""
    pieces = engine_pieces(record)
    return checklists.compare(record_checklist(record), pieces) if pieces else None


def waiting_holds(record_id: int, organisation: Any) -> QuerySet[Hold]:
    """The record's queue at the game library ``organisation`` (an organisation or its id), first
    come first served: the households of each ludothèque wait for its own copies."""
    return Hold.objects.filter(record_id=record_id, household__organisation=organisation,
                               status=Hold.Status.WAITING).order_by("placed_at", "id")


def copy_history(copy: Copy) -> QuerySet[CopyEvent]:
    return CopyEvent.objects.filter(copy=copy).order_by("seq")


def overdue_loans(today: dt.date, organisation: Any = None) -> QuerySet[CopyState]:
    """The loans due before ``today``, the longest overdue first: the desk's overdue list, of one
    game library (``organisation``) or of all of them (``None``: the daily reminders)."""
    rows = CopyState.objects.filter(status=rules.Status.ON_LOAN, due_on__lt=today)
    if organisation is not None:
        rows = rows.filter(copy__organisation=organisation)
    return rows.select_related("copy__record", "household").order_by("due_on", "copy__barcode")


def open_holds(household: Household) -> QuerySet[Hold]:
    """The household's holds still open: waiting in a queue, or a copy set aside for it."""
    return (Hold.objects.filter(household=household, status__in=[Hold.Status.WAITING, Hold.Status.READY])
            .select_related("record", "copy").order_by("placed_at", "id"))


def queue_positions(holds: list[Hold]) -> dict[int, int]:
    """Each waiting hold's place in its game's queue at its household's library (1: next to be
    served), in one query."""
    waiting = [hold for hold in holds if hold.status == Hold.Status.WAITING]
    if not waiting:
        return {}
    queues: dict[tuple[int, int | None], list[int]] = {}
    library_of: dict[int, int | None] = {}
    for hold_id, record_id, library in (Hold.objects.filter(record_id__in={h.record_id for h in waiting},
                                                            status=Hold.Status.WAITING)
                                        .order_by("placed_at", "id")
                                        .values_list("pk", "record_id", "household__organisation_id")):
        queues.setdefault((record_id, library), []).append(hold_id)
        library_of[hold_id] = library
    return {hold.pk: queues[hold.record_id, library_of[hold.pk]].index(hold.pk) + 1 for hold in waiting}


@dataclass(frozen=True)
class PastLoan:
    """One loan of the household's history, told from its ``lent`` and ``returned`` events."""

    copy: Copy
    lent_on: dt.date
    returned_on: dt.date | None
    days_late: int
    late_fee: Decimal


def loan_history(household: Household, limit: int = 50) -> list[PastLoan]:
    """The household's loans, the latest first: each ``lent`` event to it with the ``returned``
    event that ended it (none yet while the copy is out). The events are the only record of who
    borrowed what: the projection forgets the borrower at the return."""
    lent = list(CopyEvent.objects.filter(household=household, type=rules.EventType.LENT)
                .select_related("copy__record").order_by("-recorded_at", "-pk")[:limit])
    if not lent:
        return []
    ends: dict[tuple[int, int], CopyEvent] = {}
    # The return that ends a loan is the copy's first ``returned`` event after the ``lent`` one.
    returns = (CopyEvent.objects.filter(copy_id__in={event.copy_id for event in lent}, type=rules.EventType.RETURNED)
               .order_by("copy_id", "seq").values_list("copy_id", "seq", "payload"))
    by_copy: dict[int, list[tuple[int, dict]]] = {}
    for copy_id, seq, payload in returns:
        by_copy.setdefault(copy_id, []).append((seq, payload))
    history = []
    for event in lent:
        ended = next((payload for seq, payload in by_copy.get(event.copy_id, []) if seq > event.seq), None)
        history.append(PastLoan(
            copy=event.copy, lent_on=dt.date.fromisoformat(event.payload["lent_on"]),
            returned_on=dt.date.fromisoformat(ended["returned_on"]) if ended else None,
            days_late=int(ended.get("days_late", 0)) if ended else 0,
            late_fee=Decimal(str(ended.get("late_fee", "0"))) if ended else Decimal("0"),
        ))
    return history
# -- a copy's history: its desk events and the games played with it -----------------------------


@dataclass(frozen=True)
class CopyPlay:
    """A recorded game that named the copy, as its history tells it."""

    record_id: int
    played_on: dt.date
    at: dt.datetime
    status: str
    ended_short_of_tiles: bool
    players: tuple[str, ...]
    winners: tuple[str, ...]
    """The players ranked first (several share a win; none before the game is scored, and none in
    a cooperative game, where nobody beat anybody)."""


@dataclass(frozen=True)
class HistoryLine:
    """One line of a copy's history: a desk event or a game played with the copy."""

    at: dt.datetime
    event: CopyEvent | None = None
    play: CopyPlay | None = None


MIDDAY = dt.time(12)


def play_moment(played_on: dt.date, *, ended_at: dt.datetime | None = None, started_at: dt.datetime | None = None,
                created_at: dt.datetime | None = None) -> dt.datetime:
    """When a game was played, to place it among the copy's desk events: its end or start at the
    table when the record says so, the moment it was recorded when that was the day it was
    played, else midday of that day (a game logged later is known by its day only: it stays on
    its day, between that day's morning and evening at the desk).

    >>> utc = dt.timezone.utc
    >>> play_moment(dt.date(2026, 12, 1), created_at=dt.datetime(2026, 12, 9, 8, tzinfo=utc)).date()
    datetime.date(2026, 12, 1)
    >>> play_moment(dt.date(2026, 12, 1), ended_at=dt.datetime(2026, 12, 1, 21, 30, tzinfo=utc)).hour
    21
    """
    for moment in (ended_at, started_at, created_at):
        if moment is not None and timezone.localtime(moment).date() == played_on:
            return moment
    return timezone.make_aware(dt.datetime.combine(played_on, MIDDAY))


def merged_history(events: Iterable[CopyEvent], plays: Iterable[CopyPlay], limit: int) -> list[HistoryLine]:
    """The copy's desk events and the games played with it, newest first, at most ``limit``
    lines. Both are given newest first; at the same moment the desk event comes first.

    >>> utc = dt.timezone.utc
    >>> lent = CopyEvent(seq=1, type="lent", recorded_at=dt.datetime(2026, 12, 1, 10, tzinfo=utc))
    >>> back = CopyEvent(seq=2, type="returned", recorded_at=dt.datetime(2026, 12, 20, 17, tzinfo=utc))
    >>> play = CopyPlay(7, dt.date(2026, 12, 6), dt.datetime(2026, 12, 6, 12, tzinfo=utc), "finished", False,
    ...                 ("Ada", "Bo"), ("Bo",))
    >>> [line.event.type if line.event else line.play.record_id for line in merged_history([back, lent], [play], 10)]
    ['returned', 7, 'lent']
    >>> len(merged_history([back, lent], [play], 2))
    2
    """
    lines = heapq.merge((HistoryLine(event.recorded_at, event=event) for event in events),
                        (HistoryLine(play.at, play=play) for play in plays),
                        key=lambda line: line.at, reverse=True)
    return list(islice(lines, limit))


def copy_plays(copy: Copy, user: User, limit: int) -> list[CopyPlay]:
    """The latest ``limit`` recorded games that named ``copy`` and that ``user`` may see (a private
    game of others is left out), newest first, with their players and winners: three queries."""
    records = list(only_visible(GameRecord.objects.filter(copy=copy), user)
                   .annotate(ended_short=ended_short_of_a_tile()).order_by("-played_on", "-pk")
                   .values("pk", "played_on", "status", "is_cooperative", "ended_short", "play_ended_at",
                           "play_started_at", "created_at")[:limit])
    ids = [record["pk"] for record in records]
    players: dict[int, list[str]] = {pk: [] for pk in ids}
    for record_id, name in (Seat.objects.filter(record_id__in=ids).order_by("record_id", "seat_order")
                            .values_list("record_id", "player__display_name")):
        players[record_id].append(name)
    winners: dict[int, list[str]] = {pk: [] for pk in ids}
    for record_id, name in (SeatResult.objects.filter(record_id__in=ids, rank=1, record__is_cooperative=False)
                            .order_by("record_id", "seat__seat_order").values_list("record_id", "player__display_name")):
        winners[record_id].append(name)
    plays = [CopyPlay(record_id=record["pk"], played_on=record["played_on"], status=record["status"],
                      at=play_moment(record["played_on"], ended_at=record["play_ended_at"],
                                     started_at=record["play_started_at"], created_at=record["created_at"]),
                      ended_short_of_tiles=record["ended_short"], players=tuple(players[record["pk"]]),
                      winners=tuple(winners[record["pk"]]) if record["status"] == GameRecord.Status.FINISHED else ())
             for record in records]
    return sorted(plays, key=lambda play: play.at, reverse=True)


def copy_history_lines(copy: Copy, user: User, limit: int = 30) -> list[HistoryLine]:
    """The copy's page's history: its latest desk events and the games played with it that the
    reader may see, newest first."""
    events = (copy_history(copy).select_related("household", "recorded_by").order_by("-seq")[:limit])
    return merged_history(events, copy_plays(copy, user, limit), limit)


def open_check_requests(copy: Copy) -> list[CopyEvent]:
    """The ``check_requested`` events no librarian's check has answered yet, oldest first."""
    checked = CopyEvent.objects.filter(copy=copy, type=rules.EventType.CHECKED).aggregate(last=Max("seq"))["last"]
    return list(CopyEvent.objects.filter(copy=copy, type=rules.EventType.CHECK_REQUESTED, seq__gt=checked or 0)
                .order_by("seq"))


def visible_record_ids(record_ids: Iterable[int], user: User) -> set[int]:
    """Those of ``record_ids`` the reader may open (a private game of others is not linked)."""
    return set(only_visible(GameRecord.objects.filter(pk__in=list(record_ids)), user).values_list("pk", flat=True))


def households_found(organisation: Organisation | None, query: str = "") -> QuerySet[Household]:
    """The organisation's households, by name, those whose name, card number, town, postcode or a
    member's name holds every word of ``query`` (whatever its case)."""
    households = in_organisation(Household.objects.all(), organisation)
    for word in query.split():
        members_named = Member.objects.filter(household=OuterRef("pk"), display_name__icontains=word)
        households = households.filter(
            Q(name__icontains=word) | Q(card_number__icontains=word) | Q(town__icontains=word)
            | Q(postcode__istartswith=word) | Exists(members_named))
    return households.order_by("name", "pk")


@dataclass(frozen=True)
class DeskPerson:
    username: str
    email: str
    roles: tuple[Role, ...]


def desk_staff(organisation: Organisation) -> list[DeskPerson]:
    """The organisation's members who may work at its desk (its desk volunteers, librarians and
    administrators), by username, each with their roles there."""
    order = list(Role)
    memberships = (Membership.objects.filter(organisation=organisation,
                                             user_id__in=holders(Action.USE_DESK, organisation))
                   .select_related("user").prefetch_related("roles").order_by("user__username"))
    return [DeskPerson(username=membership.user.get_username(), email=membership.user.email,
                       roles=tuple(sorted({Role(held.role) for held in membership.roles.all()}, key=order.index)))
            for membership in memberships]


# -- memberships, late fees and the lending rules' view of a household (issue 39) ----------------


def household_addresses(household: Household) -> list[str]:
    """Where the household is mailed: its own address and its members' accounts' addresses."""
    found = [household.email, *household.members.exclude(user__isnull=True).values_list("user__email", flat=True)]
    return [address for address in found if address]


def overdue_games(household: Household, today: dt.date) -> tuple[rules.OverdueGame, ...]:
    """The household's games past their due date, the longest overdue first."""
    return tuple(rules.OverdueGame(title=row.copy.record.title, copy=row.copy.barcode,
                                   days=rules.days_late(row.due_on, today))
                 for row in current_loans(household).filter(due_on__lt=today))


def late_fees_charged(household: Household) -> Decimal:
    """The late fees of the household's returns: each ``returned`` event to it says its own."""
    fees = CopyEvent.objects.filter(household=household, type=rules.EventType.RETURNED).values_list(
        "payload__late_fee", flat=True)
    return sum((Decimal(str(fee)) for fee in fees if fee not in (None, "")), Decimal("0.00"))


def late_fees_settled(household: Household) -> dict[str, Decimal]:
    """What the household paid and what was waived of its late fees."""
    totals = dict(HouseholdEvent.objects.filter(
        household=household, type__in=[rules.HouseholdEventType.LATE_FEE_PAID, rules.HouseholdEventType.LATE_FEE_WAIVED])
        .order_by().values_list("type").annotate(total=Sum("amount")).values_list("type", "total"))
    return {kind: totals.get(kind) or Decimal("0.00") for kind in ("late_fee_paid", "late_fee_waived")}


def late_fees_owed(household: Household) -> Decimal:
    """What the household owes in late fees: charged at its returns, less paid, less waived."""
    settled = late_fees_settled(household)
    return late_fees_charged(household) - settled["late_fee_paid"] - settled["late_fee_waived"]


def household_standing(household: Household, today: dt.date) -> rules.Household:
    """What the lending rules need of ``household`` today (its loans, games overdue, fees owed)."""
    return rules.Household(
        id=household.pk, membership_starts=household.membership_starts, membership_ends=household.membership_ends,
        loan_limit=household.loan_limit, current_loans=current_loans(household).count(),
        fee_paid=household.fee_paid, overdue=overdue_games(household, today), fees_owed=late_fees_owed(household))


def household_events(household: Household, limit: int = 50) -> list[HouseholdEvent]:
    """The household's membership and money history, newest first."""
    return list(HouseholdEvent.objects.filter(household=household).select_related("recorded_by", "tariff")
                .order_by("-seq")[:limit])


def latest_reminders(household_ids: list[int]) -> dict[int, dt.date]:
    """The membership end each household was last reminded of (``membership_reminded``)."""
    found: dict[int, dt.date] = {}
    for household_id, payload in (HouseholdEvent.objects.filter(
            household_id__in=household_ids, type=rules.HouseholdEventType.MEMBERSHIP_REMINDED)
            .order_by("household_id", "seq").values_list("household_id", "payload")):
        found[household_id] = dt.date.fromisoformat(payload["ends"])
    return found


def offered_tariffs(organisation: Any) -> QuerySet[Tariff]:
    return Tariff.objects.filter(organisation=organisation, active=True).order_by("name", "pk")


def tariff_for(household: Household, tariffs: list[Tariff]) -> Tariff | None:
    """The tariff offered first to the household: in town when its town is the library's, out of
    town when it is another (either unknown: the first tariff)."""
    library_town = household.organisation.town if household.organisation else ""
    resident = rules.is_resident(household.town, library_town)
    wanted = {True: Tariff.Kind.RESIDENT, False: Tariff.Kind.NON_RESIDENT}.get(resident)  # type: ignore[call-overload]
    return next((tariff for tariff in tariffs if tariff.kind == wanted), tariffs[0] if tariffs else None)


@dataclass(frozen=True)
class SuggestedMembership:
    """What the desk is offered when the household takes (or renews) its membership."""

    tariff: Tariff
    persons: int
    amount: Decimal
    starts: dt.date
    ends: dt.date


def suggested_membership(household: Household, tariff: Tariff, today: dt.date, *,
                         persons: int | None = None) -> SuggestedMembership:
    """``tariff``'s amount for the household (× its members, one at least, when per person), from
    today or the day after its paid membership running ends, for the tariff's months."""
    persons = max(1, persons if persons is not None else household.members.count())
    starts, ends = rules.membership_period(today, tariff.months, current_ends=household.membership_ends,
                                           paid=household.fee_paid)
    return SuggestedMembership(tariff=tariff, persons=persons, starts=starts, ends=ends,
                               amount=rules.tariff_amount(tariff.amount, tariff.per_person, persons))


def _iso(value: Any) -> dt.date | None:
    return dt.date.fromisoformat(value) if value else None


@dataclass(frozen=True)
class MembershipYear:
    """A game library's households and membership money over a calendar year (the yearly report's)."""

    year: int
    households_active: int
    """Households with a membership valid on at least one day of the year, or a loan made in it."""
    households_new: int
    """Households whose first membership was paid in the year (no earlier one known)."""
    households_lapsed: int
    """Households whose membership ended in the year and was not renewed by its end."""
    households_by_town: dict[str, int]
    """Active households by town as written ("" for unknown), spellings of one town together."""
    residents: int
    non_residents: int
    town_unknown: int
    membership_income: Decimal
    income_by_tariff: dict[str, Decimal]
    late_fees_paid: Decimal
    late_fees_waived: Decimal
    overrides: int


def membership_figures(organisation: Any, year: int) -> MembershipYear:
    """The year's membership figures of ``organisation`` (an organisation or its id), in six
    queries. A household's memberships are its ``membership_paid`` events (as cut short by a
    ``membership_cancelled``) paid by the year's end; a household with no such event, the dates
    typed on it. Residents: the town equal to the library's whatever its case and accents."""
    first, last = dt.date(year, 1, 1), dt.date(year, 12, 31)
    library = organisation if isinstance(organisation, Organisation) else Organisation.objects.get(pk=organisation)
    households = {row["pk"]: row for row in Household.objects.filter(organisation=library).values(
        "pk", "town", "membership_starts", "membership_ends")}
    periods: dict[int, list[list[dt.date | None]]] = {}
    first_paid: dict[int, tuple[dt.date, bool]] = {}
    for household_id, kind, payload, happened_on in (HouseholdEvent.objects.filter(
            household__organisation=library,
            type__in=[rules.HouseholdEventType.MEMBERSHIP_PAID, rules.HouseholdEventType.MEMBERSHIP_CANCELLED])
            .order_by("household_id", "seq").values_list("household_id", "type", "payload", "happened_on")):
        held = periods.setdefault(household_id, [])
        if kind == rules.HouseholdEventType.MEMBERSHIP_PAID and household_id not in first_paid:
            # The membership typed on the household before its first payment was recorded here.
            first_paid[household_id] = (happened_on, payload.get("previous_ends") is None)
            if payload.get("previous_ends"):
                held.append([_iso(payload.get("previous_starts")), _iso(payload["previous_ends"])])
        if happened_on > last:
            continue  # paid or cancelled after the year: the year's end did not know it
        if kind == rules.HouseholdEventType.MEMBERSHIP_PAID:
            held.append([_iso(payload["starts"]), _iso(payload["ends"])])
        elif held and held[-1][1] is not None:
            held[-1][1] = min(held[-1][1], _iso(payload["ends"]))  # type: ignore[type-var]
    borrowed = set(CopyEvent.objects.filter(household__organisation=library, type=rules.EventType.LENT,
                                            payload__lent_on__startswith=f"{year}-")
                   .order_by().values_list("household_id", flat=True).distinct())
    active, new, lapsed = set(), 0, 0
    for pk, row in households.items():
        held = periods[pk] if pk in periods else [[row["membership_starts"], row["membership_ends"]]]
        known = [(starts, ends) for starts, ends in held if ends is not None and (starts is None or starts <= ends)]
        if any((starts is None or starts <= last) and ends >= first for starts, ends in known) or pk in borrowed:
            active.add(pk)
        if pk in first_paid:
            paid_on, first_ever = first_paid[pk]
            new += paid_on.year == year and first_ever
        elif row["membership_starts"] is not None and row["membership_starts"].year == year:
            new += 1
        latest = max((ends for _starts, ends in known), default=None)
        lapsed += latest is not None and first <= latest <= last
    by_town: dict[str, Counter[str]] = {}
    residents = non_residents = unknown = 0
    for pk in active:
        town = households[pk]["town"].strip()
        by_town.setdefault(rules.town_key(town), Counter())[town] += 1
        resident = rules.is_resident(town, library.town)
        if not rules.town_key(town):
            unknown += 1
        elif resident:
            residents += 1
        else:
            non_residents += 1
    money = HouseholdEvent.objects.filter(household__organisation=library, happened_on__gte=first,
                                          happened_on__lte=last).order_by()
    zero = Decimal("0.00")
    # In cents whatever the database: SQLite sums decimals as floats (17.2000000000000, 315),
    # which the report's CSV would print as such.
    income = {name or "": Decimal(str(total)).quantize(zero) for name, total in money.filter(
        type=rules.HouseholdEventType.MEMBERSHIP_PAID).values_list("tariff__name").annotate(
        total=Sum("amount")).values_list("tariff__name", "total")}
    settled = {kind: Decimal(str(total)).quantize(zero) for kind, total in money.filter(
        type__in=[rules.HouseholdEventType.LATE_FEE_PAID, rules.HouseholdEventType.LATE_FEE_WAIVED])
        .values_list("type").annotate(total=Sum("amount")).values_list("type", "total")}
    return MembershipYear(
        year=year, households_active=len(active), households_new=new, households_lapsed=lapsed,
        # A town under its commonest spelling (the first in alphabetical order among equals).
        households_by_town={min(spellings.items(), key=lambda seen: (-seen[1], seen[0]))[0]: sum(spellings.values())
                            for spellings in by_town.values()},
        residents=residents, non_residents=non_residents, town_unknown=unknown,
        membership_income=sum(income.values(), zero), income_by_tariff=income,
        late_fees_paid=settled.get(rules.HouseholdEventType.LATE_FEE_PAID) or zero,
        late_fees_waived=settled.get(rules.HouseholdEventType.LATE_FEE_WAIVED) or zero,
        overrides=money.filter(type=rules.HouseholdEventType.LENDING_OVERRIDE).count())
