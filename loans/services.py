"""The desk's writes. Each appends events to a copy's stream and folds them into its
``CopyState`` in one transaction.

Concurrency: a write locks the copy's state row (``SELECT … FOR UPDATE``) and decides on what it
reads there, so a second desk acting on the same copy waits, then sees the first desk's result
(``copy_not_available``). Each event takes the position after the copy's last one under the
unique constraint (copy, seq): should two writes ever meet without the lock (a database with no
row locks, a stale projection), one insert fails and its desk is answered ``copy_changed``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import formats, timezone, translation
from django.utils.translation import gettext

from accounts.roles import Action, can
from games.models import CatalogueRecord, Copy
from outbox import services as outbox

from . import checklists, integrity, memberships, rules, selectors
from .errors import CopyChainsBroken, CopyChanged, OtherLibrary, OverrideNotAllowed, RuleRefused, UnknownComponent
from .contents import ContentLine, parse_contents
from .models import Component, CopyEvent, CopyState, Hold, Household, LoanRules, Notification

User = AbstractBaseUser | AnonymousUser | None


@dataclass(frozen=True)
class NewEvent:
    type: rules.EventType
    household: int | None = None
    payload: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ReturnResult:
    state: rules.CopyState
    days_late: int
    late_fee: Decimal
    newly_missing: list[rules.Piece]
    set_aside_for: Household | None


@contextmanager
def _copy_write(copy: Copy) -> Iterator[None]:
    """One transaction; a lost race on the copy's stream becomes ``copy_changed``."""
    try:
        with transaction.atomic():
            yield
    except IntegrityError as exc:
        raise CopyChanged(f"copy {copy.barcode} was changed by another desk at the same moment: look again",
                          copy=copy.barcode) from exc


def _locked_state(copy: Copy) -> CopyState:
    """The copy's state row, made if it has none yet, locked until the transaction ends. A copy
    that failed verification is refused (``copy_tampered``): nothing is added to a broken chain."""
    CopyState.objects.get_or_create(copy=copy)
    row = CopyState.objects.select_for_update().get(copy=copy)
    integrity.refuse_tampered(copy)
    return row


def _append(row: CopyState, new: list[NewEvent], by: User) -> rules.CopyState:
    """Store ``new`` after the copy's last event and fold them into ``row``."""
    state = row.as_rule_state()
    recorded_by = by if by is not None and by.is_authenticated else None
    stored = []
    for event in new:
        stored.append(CopyEvent(copy_id=row.copy_id, seq=state.last_seq + 1, type=event.type.value,
                                household_id=event.household, payload=event.payload, recorded_by=recorded_by))
        state = rules.apply(state, stored[-1].as_rule_event())
    CopyEvent.objects.bulk_create(stored)  # chained to the copy's last event (loans.integrity)
    integrity.checkpoint_head(row.copy_id, stored[-1].seq, stored[-1].hash)
    row.take(state)
    row.save()
    _mirror(row.copy_id, state)
    return state


def _mirror(copy_id: int, state: rules.CopyState) -> None:
    """Write the state onto the copy's catalogue columns, which the catalogue's own code reads
    (the search's availability, the exports) without knowing of the desk. ``update`` sends no
    signal: the copy's own save is what ``loans.catalogue_sync`` listens to."""
    copy = _mirrored(copy_id, state)
    Copy.objects.filter(pk=copy_id).update(status=copy.status, missing_pieces=copy.missing_pieces)


def _mirrored(copy_id: int, state: rules.CopyState) -> Copy:
    """The copy's catalogue columns as the state says them (an unsaved instance carrying only them)."""
    return Copy(pk=copy_id, status=rules.CATALOGUE_STATUS[state.status], missing_pieces=rules.catalogue_words(state))


def _refuse(refusal: rules.Refusal | None) -> None:
    if refusal is not None:
        raise RuleRefused(refusal)


def lend(copy: Copy, household: Household, by: User, today: dt.date | None = None,
         override_reason: str | None = None) -> rules.CopyState:
    """Lend ``copy`` to ``household``, due back after the library's loan period. A copy on the
    hold shelf for this household fulfils its hold.

    The household's refusals (its membership, games overdue, late fees, its loan limit) may be
    overridden by someone allowed to (``Action.OVERRIDE_LENDING_RULES``) who says why
    (``override_reason``): a ``lending_override`` household event notes who, which refusal and
    why, and the ``lent`` event says ``"override": <the refusal's reason>``. A copy that is not
    available stays refused; someone not allowed is refused (403 ``override_not_allowed``)."""
    today = today or timezone.localdate()
    if copy.organisation_id != household.organisation_id:
        raise OtherLibrary(f"copy {copy.barcode} belongs to another game library than {household.name}'s",
                           copy=copy.barcode, household=household.card_number)
    if override_reason is not None and not can(by, Action.OVERRIDE_LENDING_RULES, household.organisation):
        raise OverrideNotAllowed("only librarians lend against the lending rules")
    policy = LoanRules.current(copy.organisation_id)
    with _copy_write(copy):
        # The household first, then the copy, in every write: its loan count holds while we decide.
        household = Household.objects.select_for_update().get(pk=household.pk)
        row = _locked_state(copy)
        state = row.as_rule_state()
        standing = selectors.household_standing(household, today)
        lent = {"lent_on": today.isoformat(), "due_on": rules.due_date(today, policy).isoformat()}
        if override_reason is None:
            _refuse(rules.can_lend(state, standing, today, policy))
        else:
            _refuse(rules.copy_refusal(state, household.pk))
            overridden = rules.standing_refusals(standing, today, policy)
            if overridden:
                memberships.note_override(by, household, copy=copy.barcode, refusals=overridden,
                                          reason=override_reason, today=today)
                lent["override"] = overridden[0].reason
        new = []
        if state.status is rules.Status.ON_HOLD_SHELF:
            Hold.objects.filter(copy=copy, household=household, status=Hold.Status.READY).update(
                status=Hold.Status.FULFILLED)
            new.append(NewEvent(rules.EventType.HOLD_FULFILLED, household.pk))
        new.append(NewEvent(rules.EventType.LENT, household.pk, lent))
        return _append(row, new, by)


def _set_aside(row: CopyState, copy: Copy, by: User, today: dt.date, policy: rules.Policy) -> Household | None:
    """Give an available copy to the first household waiting for its game, and tell them."""
    hold = selectors.waiting_holds(copy.record_id, copy.organisation_id).select_for_update(of=("self",)).first()
    if hold is None:
        return None
    hold.status, hold.copy, hold.ready_on = Hold.Status.READY, copy, today
    hold.save(update_fields=["status", "copy", "ready_on"])
    _append(row, [NewEvent(rules.EventType.HELD, hold.household_id, {"hold": hold.pk})], by)
    until = today + dt.timedelta(days=policy.hold_days)
    household = Household.objects.select_related("organisation").get(pk=hold.household_id)
    with translation.override(household_language(household)):
        told = Notification.objects.create(household=household, text=gettext(
            "“%(title)s”, which you reserved, is waiting for you at the desk until %(until)s (copy %(barcode)s).")
            % {"title": copy.record.title, "until": formats.date_format(until), "barcode": copy.barcode})
        _mail_notification(told)
    return hold.household


def household_language(household: Household) -> str:
    """The language a household is told things in: its own, else the one its first member with an
    account chose, else its library's."""
    if household.language:
        return household.language
    chosen = (household.members.exclude(user__isnull=True).exclude(user__person__language="")
              .order_by("pk").values_list("user__person__language", flat=True).first())
    return chosen or (household.organisation.language if household.organisation else "") or settings.LANGUAGE_CODE


def _mail_notification(told: Notification) -> None:
    """Write ``told``'s mail to the household's address and its members' accounts' addresses in the
    outbox, in the present transaction and the language active (the household's): a household
    with no address is told at the desk only. ``emailed_at`` is set when it goes
    (:mod:`loans.receivers`)."""
    household = told.household
    addresses = selectors.household_addresses(household)
    subject = (gettext("%(library)s: games to bring back") if told.kind == Notification.Kind.OVERDUE
               else gettext("%(library)s: a game you reserved is waiting for you"))
    library = household.organisation.name if household.organisation else settings.LUDOLOG_LIBRARY_NAME
    outbox.enqueue(told.kind, addresses, subject % {"library": library}, told.text,
                   language=translation.get_language() or "", about=told)


def mail_unmailed_notification(notification_id: int) -> bool:
    """Put in the outbox the mail of a notification written before there was one (its task was
    queued by an earlier version, ``loans.tasks.email_notification``) unless it went or is there
    already; whether it was put."""
    with transaction.atomic():
        told = Notification.objects.select_for_update(of=("self",)).select_related("household__organisation").filter(
            pk=notification_id, emailed_at__isnull=True).first()
        if told is None or outbox.messages_about(told).exists():
            return False
        with translation.override(household_language(told.household)):
            _mail_notification(told)
    return True


def _count_changes(known: tuple[rules.Piece, ...], short: list[rules.Piece],
                   counted: Mapping[str, int]) -> list[NewEvent]:
    """Pieces newly missing, and known missing pieces found again, from a count at the desk."""
    known_counts = {piece.kind: piece.count for piece in known}
    short_counts = {piece.kind: piece.count for piece in short}
    events = []
    for kind in counted:
        change = short_counts.get(kind, 0) - known_counts.get(kind, 0)
        if change > 0:
            events.append(NewEvent(rules.EventType.PIECE_MISSING, payload={"kind": kind, "count": change}))
        elif change < 0:
            events.append(NewEvent(rules.EventType.PIECE_FOUND, payload={"kind": kind, "count": -change}))
    return events


def return_copy(copy: Copy, by: User, counted: Mapping[str, int] | None = None, *,
                today: dt.date | None = None) -> ReturnResult:
    """Take ``copy`` back. ``counted``: the pieces counted where they differ from the checklist
    (a kind left out was all there); what is short and was not known becomes ``piece_missing``
    and the copy waits for a check. A complete copy goes to the first household waiting for its
    game, if any."""
    today = today or timezone.localdate()
    policy = LoanRules.current(copy.organisation_id)
    counted = dict(counted or {})
    checklist = selectors.checklist(copy)
    unknown = sorted(set(counted) - {piece.kind for piece in checklist})
    if unknown:
        raise UnknownComponent(f"not on the checklist of {copy.record.title!r}: {', '.join(unknown)}",
                               kinds=unknown)
    with _copy_write(copy):
        row = _locked_state(copy)
        state = row.as_rule_state()
        if state.status is not rules.Status.ON_LOAN:
            raise RuleRefused(rules.Refusal("not_on_loan", f"copy {copy.barcode} is not on loan"))
        late = rules.days_late(state.due_on, today)
        fee = rules.late_fee(state.due_on, today, policy)
        changes = _count_changes(state.missing, rules.differences(checklist, counted), counted)
        returned = NewEvent(rules.EventType.RETURNED, state.household,
                            {"returned_on": today.isoformat(), "days_late": late, "late_fee": str(fee)})
        after = _append(row, [returned, *changes], by)
        household = _set_aside(row, copy, by, today, policy) if after.status is rules.Status.AVAILABLE else None
        newly_missing = [rules.Piece(e.payload["kind"], e.payload["count"]) for e in changes
                         if e.type is rules.EventType.PIECE_MISSING]
        return ReturnResult(row.as_rule_state(), late, fee, newly_missing, household)


def renew(copy: Copy, by: User, *, today: dt.date | None = None) -> rules.CopyState:
    """Renew a loan for a full loan period from today, unless another household waits for the game
    or the renewals are used up."""
    today = today or timezone.localdate()
    policy = LoanRules.current(copy.organisation_id)
    with _copy_write(copy):
        row = _locked_state(copy)
        state = row.as_rule_state()
        hold_waiting = (selectors.waiting_holds(copy.record_id, copy.organisation_id)
                        .exclude(household_id=state.household).exists())
        _refuse(rules.can_renew(state, policy, hold_waiting=hold_waiting))
        due_on = rules.renewed_due_date(state, today, policy)
        return _append(row, [NewEvent(rules.EventType.RENEWED, state.household,
                                      {"renewed_on": today.isoformat(), "due_on": due_on.isoformat()})], by)


def place_hold(record: CatalogueRecord, household: Household, by: User = None, *,
               today: dt.date | None = None) -> Hold:
    """Queue ``household`` for ``record``; a copy on the shelves is set aside for it at once."""
    today = today or timezone.localdate()
    policy = LoanRules.current(household.organisation_id)
    _refuse(rules.membership_refusal(selectors.household_standing(household, today), today, policy))
    try:
        with transaction.atomic():
            hold = Hold.objects.create(record=record, household=household)
    except IntegrityError as exc:
        raise RuleRefused(rules.Refusal("hold_already_placed", "the household already waits for this game")) from exc
    on_shelf = (Copy.objects.filter(record=record, organisation=household.organisation_id).exclude(loan_state__status__in=[
        s for s in rules.Status if s is not rules.Status.AVAILABLE]).order_by("barcode"))
    for copy in on_shelf:
        with _copy_write(copy):
            row = _locked_state(copy)
            if row.status == rules.Status.AVAILABLE:
                _set_aside(row, copy, by, today, policy)
                break
    hold.refresh_from_db()
    return hold


def cancel_hold(hold: Hold, by: User = None, *, today: dt.date | None = None) -> Hold:
    """Cancel a hold; a copy set aside for it goes to the next household waiting, or back on the shelves."""
    today = today or timezone.localdate()
    policy = LoanRules.current(hold.household.organisation_id)
    with transaction.atomic():
        hold = Hold.objects.select_for_update().get(pk=hold.pk)
        if hold.status not in (Hold.Status.WAITING, Hold.Status.READY):
            raise RuleRefused(rules.Refusal("no_hold_open", "the hold is no longer open"))
        copy = hold.copy
        hold.status = Hold.Status.CANCELLED
        hold.save(update_fields=["status"])
    if copy is not None:
        with _copy_write(copy):
            row = _locked_state(copy)
            if row.status == rules.Status.ON_HOLD_SHELF and row.household_id == hold.household_id:
                after = _append(row, [NewEvent(rules.EventType.HOLD_CANCELLED, hold.household_id)], by)
                if after.status is rules.Status.AVAILABLE:  # a copy flagged for a check waits for it first
                    _set_aside(row, copy, by, today, policy)
    return hold


def check_copy(copy: Copy, by: User, *, today: dt.date | None = None) -> rules.CopyState:
    """A librarian has looked at a copy waiting for a check: it is lendable again (its known missing
    pieces still listed), first to a household waiting for its game."""
    today = today or timezone.localdate()
    with _copy_write(copy):
        row = _locked_state(copy)
        if row.status != rules.Status.NEEDS_CHECK:
            raise RuleRefused(rules.Refusal("copy_not_available", f"copy {copy.barcode} is not waiting for a check"))
        _append(row, [NewEvent(rules.EventType.CHECKED)], by)
        _set_aside(row, copy, by, today, LoanRules.current(copy.organisation_id))
        return row.as_rule_state()


def request_check(copy: Copy, record_id: int, reason: str = rules.CHECK_REASON_SHORT_OF_TILES,
                  by: User = None) -> rules.CopyState:
    """A game played with ``copy`` (the game record ``record_id``) says the box may lack a piece:
    the copy is flagged for a check (``check_requested``). On the shelves it waits for the check
    at once; out on loan, set aside or away, it keeps the mark until it is back.

    Once per record: a signal sent again, or a record looked at again, finds the event already
    stored and appends nothing (the lock on the copy's state orders two at once)."""
    with _copy_write(copy):
        row = _locked_state(copy)
        if CopyEvent.objects.filter(copy=copy, type=rules.EventType.CHECK_REQUESTED,
                                    payload__record=record_id).exists():
            return row.as_rule_state()
        return _append(row, [NewEvent(rules.EventType.CHECK_REQUESTED,
                                      payload={"record": record_id, "reason": reason})], by)


LIBRARIAN_MOVES: dict[rules.EventType, frozenset[rules.Status]] = {
    rules.EventType.SENT_TO_REPAIR: frozenset({rules.Status.AVAILABLE, rules.Status.NEEDS_CHECK}),
    rules.EventType.BACK_FROM_REPAIR: frozenset({rules.Status.IN_REPAIR}),
    rules.EventType.WITHDRAWN: frozenset({rules.Status.AVAILABLE, rules.Status.NEEDS_CHECK, rules.Status.IN_REPAIR}),
}
"""A copy off the floor and back: from which states each move is allowed (a copy out on loan or
set aside for a household comes back to the desk first)."""


def move_copy(copy: Copy, move: rules.EventType, by: User, *, note: str = "",
              today: dt.date | None = None) -> rules.CopyState:
    """Send a copy to repair, bring it back, or withdraw it. A copy back on the shelves goes to
    the first household waiting for its game, if any."""
    allowed = LIBRARIAN_MOVES[move]
    with _copy_write(copy):
        row = _locked_state(copy)
        if rules.Status(row.status) not in allowed:
            raise RuleRefused(rules.Refusal("copy_not_available", f"copy {copy.barcode} is {row.status}"))
        after = _append(row, [NewEvent(move, payload={"note": note} if note else {})], by)
        if after.status is rules.Status.AVAILABLE:
            _set_aside(row, copy, by, today or timezone.localdate(), LoanRules.current(copy.organisation_id))
            return row.as_rule_state()
        return after


def piece_found(copy: Copy, kind: str, count: int, by: User) -> rules.CopyState:
    """Known missing pieces found or replaced: they leave the copy's missing list."""
    with _copy_write(copy):
        row = _locked_state(copy)
        known = {piece.kind: piece.count for piece in row.as_rule_state().missing}
        if count < 1 or known.get(kind, 0) < count:
            raise UnknownComponent(f"copy {copy.barcode} is not missing {count} {kind}", kinds=[kind])
        return _append(row, [NewEvent(rules.EventType.PIECE_FOUND, payload={"kind": kind, "count": count})], by)


def expire_holds(today: dt.date | None = None) -> int:
    """Cancel the holds whose copy has waited on the hold shelf longer than the library keeps it;
    each copy goes to the next household waiting, or back on the shelves. Returns how many."""
    today = today or timezone.localdate()
    expired = 0
    for hold in Hold.objects.filter(status=Hold.Status.READY).select_related("household").order_by("pk"):
        # Each library keeps a set-aside copy as long as its own rules say.
        policy = LoanRules.current(hold.household.organisation_id)
        if hold.ready_on is not None and hold.ready_on < today - dt.timedelta(days=policy.hold_days):
            cancel_hold(hold, None, today=today)
            expired += 1
    return expired


def remind_overdue(today: dt.date | None = None) -> int:
    """Tell each household with games overdue which ones, with the late fees so far, unless it was
    reminded less than the library's ``reminder_days`` ago (mailed like any notification). Returns
    how many households were reminded."""
    today = today or timezone.localdate()
    overdue: dict[int, list[CopyState]] = {}
    for row in selectors.overdue_loans(today).filter(household__isnull=False):
        overdue.setdefault(row.household_id, []).append(row)
    last = dict(Notification.objects.filter(household_id__in=overdue, kind=Notification.Kind.OVERDUE).order_by()
                .values_list("household_id").annotate(last=Max("created_at")).values_list("household_id", "last"))
    reminded = 0
    for household_id, rows in overdue.items():
        policy = LoanRules.current(rows[0].household.organisation_id)
        previous = last.get(household_id)
        if not rules.reminder_due(timezone.localdate(previous) if previous else None, today, policy):
            continue
        household = rows[0].household
        with translation.override(household_language(household)), transaction.atomic():
            games = "; ".join(gettext("%(title)s (copy %(barcode)s), due %(due)s") % {
                "title": row.copy.record.title, "barcode": row.copy.barcode, "due": formats.date_format(row.due_on)}
                for row in rows)
            fees = sum((rules.late_fee(row.due_on, today, policy) for row in rows), Decimal("0"))
            text = gettext("To bring back to the desk: %(games)s. Late fees so far: %(fees)s.") % {
                "games": games, "fees": formats.number_format(fees, 2)}
            told = Notification.objects.create(household=household, kind=Notification.Kind.OVERDUE, text=text)
            _mail_notification(told)
        reminded += 1
    return reminded


def rebuild_copy_states() -> int:
    """Recompute every copy's state from its events (the projection is a cache of the fold);
    returns how many copies have events. Copies without events lose any state row.

    The events are verified first (loans.integrity): edited, deleted or moved events would fold
    into a desk that lies (a loan vanished, a fee forgiven), so a broken chain refuses the whole
    rebuild (:class:`~loans.errors.CopyChainsBroken`, naming each copy) and changes nothing."""
    verification = integrity.checkpoint_copies()  # its verdicts are kept, whatever follows
    if not verification.ok:
        raise CopyChainsBroken(sorted(verification.failed), verification.mismatches)
    count = 0
    with transaction.atomic():
        CopyState.objects.all().delete()
        rows, events, current = [], [], None
        for event in CopyEvent.objects.order_by("copy_id", "seq").iterator(chunk_size=2000):
            if current is not None and event.copy_id != current:
                rows.append(_state_row(current, events))
                events = []
            current = event.copy_id
            events.append(event.as_rule_event())
        if current is not None:
            rows.append(_state_row(current, events))
        CopyState.objects.bulk_create(rows, batch_size=1000)
        count = len(rows)
        # The catalogue's columns written back in batches, as the states were (not a statement a copy).
        Copy.objects.bulk_update([_mirrored(row.copy_id, row.as_rule_state()) for row in rows],
                                 ["status", "missing_pieces"], batch_size=1000)
    return count


def _state_row(copy_id: int, events: list[rules.CopyEvent]) -> CopyState:
    row = CopyState(copy_id=copy_id)
    row.take(rules.fold(events))
    return row


def fill_components(record: CatalogueRecord) -> list[Component]:
    """A record's checklist read from its "Contenu" field, for a record that has none yet (a
    librarian then corrects it); the record's checklist as it stands otherwise."""
    with transaction.atomic():
        existing = list(Component.objects.select_for_update().filter(record=record))
        if existing:
            return existing
        return _store_checklist(record, _one_line_per_kind(record.contents))


def fill_checklists(record_ids: list[int]) -> int:
    """The checklists of the records among ``record_ids`` that have none, read from their
    "Contenu" (as :func:`fill_components` does one record's), in a few queries whatever their
    number: a record catalogued or imported is counted at the desk at once. Returns how many
    lines were stored."""
    with transaction.atomic():
        have = set(Component.objects.filter(record_id__in=record_ids).values_list("record_id", flat=True))
        wanted = [(pk, contents) for pk, contents in CatalogueRecord.objects.filter(pk__in=record_ids)
                  .exclude(contents="").values_list("pk", "contents") if pk not in have]
        # A line a librarian's page stored meanwhile wins: ours for that kind is dropped, not doubled.
        components = [Component(record_id=pk, kind=line.kind[:120], count=line.count, per_colour=line.colours,
                                position=index)
                      for pk, contents in wanted for index, line in enumerate(_one_line_per_kind(contents))]
        Component.objects.bulk_create(components, ignore_conflicts=True)
    return len(components)


def _one_line_per_kind(contents: str) -> list[ContentLine]:
    lines: dict[str, ContentLine] = {}
    for line in parse_contents(contents):
        # A kind named twice (two "règles") is counted once, with both counts.
        before = lines.get(line.kind[:120])
        lines[line.kind[:120]] = line._replace(count=line.count + before.count) if before else line
    return list(lines.values())


def _store_checklist(record: CatalogueRecord, lines: list[ContentLine]) -> list[Component]:
    return Component.objects.bulk_create(
        Component(record=record, kind=line.kind[:120], count=line.count, per_colour=line.colours, position=index)
        for index, line in enumerate(lines))


def replace_checklist(record: CatalogueRecord, expected_version: str, lines: list[ContentLine]) -> bool:
    """Store ``lines`` as the record's checklist, in their order, if the checklist is still the one
    whose :func:`~loans.checklists.version` the librarian was shown; ``False`` (nothing changed)
    when another librarian changed it meanwhile."""
    with transaction.atomic():
        CatalogueRecord.objects.select_for_update().filter(pk=record.pk).first()
        if checklists.version(selectors.record_checklist(record)) != expected_version:
            return False
        Component.objects.filter(record=record).delete()
        _store_checklist(record, lines)
    return True


def adopt_catalogued_copy(copy: Copy, by: User = None) -> rules.CopyState | None:
    """A copy the desk has no history of yet, catalogued (or imported) with a status other than
    available or a note on missing pieces: that becomes its first events (the note in its history).
    A copy with a history keeps it: the catalogue's columns are written back from it. Returns the
    state when events were written or the columns restored, ``None`` when nothing was to do."""
    known = CopyState.objects.filter(copy=copy).exists()
    if not known and not rules.catalogued_events(copy.status, copy.missing_pieces):
        return None  # a new copy on the shelves: nothing to tell (and no state row to make)
    with _copy_write(copy):
        row = _locked_state(copy)
        if row.last_seq == 0:
            events = rules.catalogued_events(copy.status, copy.missing_pieces)
            if not events:
                return None
            return _append(row, [NewEvent(kind, payload=payload) for kind, payload in events], by)
        state = row.as_rule_state()
        kept = _mirrored(copy.pk, state)
        if (copy.status, copy.missing_pieces) == (kept.status, kept.missing_pieces):
            return None
        Copy.objects.filter(pk=copy.pk).update(status=kept.status, missing_pieces=kept.missing_pieces)
        return state


def note_copy(copy: Copy, note: str, by: User, *, needs_check: bool = False) -> rules.CopyState:
    """Words added to a copy's history by the desk (a torn box corner, a piece replaced by a
    home-made one); ``needs_check`` keeps a copy on the shelves back until it is looked at."""
    note = note.strip()
    if not note:
        raise RuleRefused(rules.Refusal("empty_note", "a note says something"))
    with _copy_write(copy):
        row = _locked_state(copy)
        return _append(row, [NewEvent(rules.EventType.NOTED, payload={"note": note[:2000],
                                                                       "needs_check": needs_check})], by)
