"""The loans desk on a phone or a laptop. ``/desk/``: one box to scan (or type) a member card or a
copy, and the overdue list. ``/desk/households/<card>/``: a household's loans with their due dates,
its holds, and a box to scan the copies it borrows or to reserve a game that is out. And the copy's
page, the one a copy label's QR code opens (``/desk/copies/<barcode>/``):
where the copy stands (on the shelf, lent to whom until when, set aside, missing pieces), its
checklist, the households waiting for its game and its history; and, for desk staff, lending it
to a household by its card number, taking it back with the pieces counted (only what differs
from the checklist is typed), renewing it; its history interleaves the games recorded with it.
``/desk/usage/``: the librarian's guide to buying (``loans.usage``), as a page and a CSV file.
Thin over ``loans.services``: a refusal shows beside the form with the rule's words, answered 409
or 422 as the API answers it, and changes nothing."""

from __future__ import annotations

import csv
import datetime as dt
from decimal import Decimal
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.core.exceptions import PermissionDenied
from django.db import DatabaseError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils import formats
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.current import current_organisation, may
from accounts.roles import Action, can
from games.models import CatalogueRecord, Copy
from games.selectors import record_label, records_with_title
from loans import integrity, memberships, rules, selectors, services, usage
from loans.errors import CopyTampered, InvalidFields, LibrariansOnly, LoanError, RuleRefused
from loans.models import Hold, Household, HouseholdEvent, LoanRules, PaymentMethod, Tariff
from loans.refusals import REFUSAL_WORDS, refusal_words

ACTIONS = ("lend", "return", "renew", "check", "note", "found", "repair", "repaired", "withdraw")
MOVES = {"repair": rules.EventType.SENT_TO_REPAIR, "repaired": rules.EventType.BACK_FROM_REPAIR,
         "withdraw": rules.EventType.WITHDRAWN}
"""The copy page's moves off the floor and back (withdrawing is the librarians')."""
CHECK_REQUESTED = rules.EventType.CHECK_REQUESTED.value
EVENT_WORDS = {
    "lent": _("Lent"), "returned": _("Taken back"), "renewed": _("Renewed"), "held": _("Set aside for a hold"),
    "hold_fulfilled": _("Hold fulfilled"), "hold_cancelled": _("Hold cancelled"), "checked": _("Pieces checked"),
    "piece_missing": _("Piece missing"), "piece_found": _("Piece found"), "sent_to_repair": _("Sent to repair"),
    "back_from_repair": _("Back from repair"), "withdrawn": _("Withdrawn"), "noted": _("Noted"),
    "check_requested": _("Check asked for"),
}
"""What the copy's history says of each event, in the reader's language."""
def _not_desk_staff() -> HttpResponse:
    return HttpResponse(gettext("Only the desk's staff lend and take back copies."), status=403,
                        content_type="text/plain; charset=utf-8")


@login_required
def desk_home(request: HttpRequest) -> HttpResponse:
    """Scan anything: a member card opens its household, a copy its page (the current game
    library's: another's card or copy is not found here)."""
    library = current_organisation(request)
    if not may(request, Action.USE_DESK):
        return _not_desk_staff()
    code = request.GET.get("code", "").strip()
    if code:
        if Household.objects.filter(card_number=code, organisation=library).exists():
            return redirect("desk-household", card=code)
        if Copy.objects.filter(barcode=code, organisation=library).exists():
            return redirect("desk-copy", barcode=code)
    overdue = list(selectors.overdue_loans(timezone.localdate(), library))
    return render(request, "loans/desk/home.html", {"code": code, "overdue": overdue},
                  status=404 if code else 200)


@login_required
def household_desk(request: HttpRequest, card: str) -> HttpResponse:
    """A household at the desk: what it has, what it waits for; scan copies to lend them."""
    try:
        household = selectors.household_by_card(card)
    except LoanError as error:
        if not may(request, Action.USE_DESK):
            return _not_desk_staff()
        return render(request, "loans/desk/home.html", {"code": card, "error": error, "overdue": []}, status=404)
    if not can(request.user, Action.USE_DESK, household.organisation):
        return _not_desk_staff()
    refusal: LoanError | None = None
    which: WhichRecord | None = None
    if request.method == "POST":
        try:
            done = _household_act(request, household)
        except LoanError as error:
            refusal = error
        except WhichRecord as asked:
            which = asked
        else:
            messages.success(request, done)
            return redirect("desk-household", card=household.card_number)
    today = timezone.localdate()
    household.refresh_from_db()  # its membership as the payment just taken left it
    loans = [{"state": state, "late": state.due_on is not None and state.due_on < today}
             for state in selectors.current_loans(household)]
    holds = list(Hold.objects.filter(household=household, status__in=[Hold.Status.WAITING, Hold.Status.READY])
                 .select_related("record", "copy").order_by("placed_at"))
    context = {"household": household, "loans": loans, "holds": holds, "refusal": refusal,
               "refusal_words": refusal_words(refusal) if refusal else "",
               "titles": [(record.title, record_label(record)) for record in
                          CatalogueRecord.objects.filter(copies__organisation=household.organisation_id).distinct()
                          .select_related("publisher").order_by("title", "pk")[:3000]],
               "which": which,
               "which_records": [(record.pk, record_label(record)) for record in which.records] if which else [],
               "room": max(0, household.loan_limit - len(loans)),
               "members": household.members.select_related("user").order_by("display_name", "pk"),
               "may_keep_households": (household.organisation_id == getattr(current_organisation(request), "pk", None)
                                       and can(request.user, Action.REGISTER_HOUSEHOLDS, household.organisation)),
               "overridable": (refusal is not None and refusal.reason in rules.STANDING_REASONS
                               and request.POST.get("action") == "lend"
                               and can(request.user, Action.OVERRIDE_LENDING_RULES, household.organisation)),
               "lend_copy": request.POST.get("copy", "").strip() if refusal is not None else "",
               **_membership_context(request, household, today)}
    # Several records share the title typed: 409 until the desk says which.
    status = refusal.status_code if refusal else 409 if which else 200
    return render(request, "loans/desk/household.html", context, status=status)


class WhichRecord(Exception):
    """A title typed at the desk that several of the library's records share: the desk is asked
    which (never one picked for them)."""

    def __init__(self, title: str, records: list[CatalogueRecord]) -> None:
        super().__init__(title)
        self.title, self.records = title, records


def _record_to_hold(request: HttpRequest, household: Household) -> CatalogueRecord | None:
    """The record the desk asks to reserve: the one chosen by its number (after being asked
    which), else the one of the library's records its title names (whatever its case, accents
    and spaces); :class:`WhichRecord` when the title names several."""
    library = CatalogueRecord.objects.filter(copies__organisation=household.organisation_id).distinct()
    chosen = request.POST.get("record", "")
    if chosen:
        return library.filter(pk=int(chosen)).first() if chosen.isdigit() and len(chosen) < 19 else None
    title = request.POST.get("title", "").strip()
    named = records_with_title(title) if title else []
    held = set(library.filter(pk__in=[record.pk for record in named]).values_list("pk", flat=True))
    found = [record for record in named if record.pk in held]
    if len(found) > 1:
        raise WhichRecord(title, found)
    return found[0] if found else None


def _membership_context(request: HttpRequest, household: Household, today) -> dict:
    """The household page's membership block: where its membership stands, what it owes, the
    forms to take a payment (each prefilled with what the desk is most likely to type) and the
    history of its membership and money in words."""
    tariffs = list(selectors.offered_tariffs(household.organisation_id))
    offered = selectors.tariff_for(household, tariffs)
    suggestions = [selectors.suggested_membership(household, tariff, today) for tariff in tariffs]
    standing = rules.standing_refusals(selectors.household_standing(household, today), today,
                                       LoanRules.current(household.organisation_id))
    return {
        # What keeps the household from borrowing, said before anyone scans a copy (a full
        # household is not kept from anything: it brings a game back first).
        "standing_refusals": [{"reason": refusal.reason, "words": refusal_words(RuleRefused(refusal))}
                              for refusal in standing if refusal.reason != "loan_limit_reached"],
        # Its membership is what keeps it from borrowing: the form to take it is open at once.
        "membership_wanted": any(refusal.reason.startswith("membership_") for refusal in standing),
        "fees_owed": selectors.late_fees_owed(household),
        "tariff_offers": [{"suggestion": suggestion, "chosen": suggestion.tariff == offered} for suggestion in suggestions],
        "offered": next((s for s in suggestions if s.tariff == offered), None),
        "deposit_asked": offered.deposit if offered else None,
        "methods": PaymentMethod.choices,
        "today": today,
        "may_take_payments": can(request.user, Action.TAKE_PAYMENTS, household.organisation),
        "may_override": can(request.user, Action.OVERRIDE_LENDING_RULES, household.organisation),
        "history_lines": [{"event": event, "words": household_event_words(event)}
                          for event in selectors.household_events(household)],
    }


def household_event_words(event: HouseholdEvent) -> str:
    """One line of a household's membership and money history, in the reader's language."""
    payload = event.payload
    money = lambda value: formats.number_format(Decimal(str(value)), 2)  # noqa: E731
    day = lambda value: formats.date_format(dt.date.fromisoformat(value), "DATE_FORMAT") if value else ""  # noqa: E731
    method = str(dict(PaymentMethod.choices).get(payload.get("method", ""), payload.get("method", "")))
    kind = rules.HouseholdEventType(event.type)
    if kind is rules.HouseholdEventType.MEMBERSHIP_PAID:
        return gettext("Membership paid: %(amount)s (%(tariff)s, %(method)s), from %(starts)s to %(ends)s.") % {
            "amount": money(payload["amount"]), "tariff": payload.get("tariff_name", ""), "method": method,
            "starts": day(payload["starts"]), "ends": day(payload["ends"])}
    if kind is rules.HouseholdEventType.MEMBERSHIP_CANCELLED:
        return gettext("Membership cancelled, last day %(ends)s: %(reason)s") % {
            "ends": day(payload["ends"]), "reason": payload.get("reason", "")}
    if kind is rules.HouseholdEventType.DEPOSIT_TAKEN:
        return gettext("Deposit taken: %(amount)s (%(method)s).") % {"amount": money(payload["amount"]), "method": method}
    if kind is rules.HouseholdEventType.DEPOSIT_RETURNED:
        return gettext("Deposit given back: %(amount)s.") % {"amount": money(payload["amount"])}
    if kind is rules.HouseholdEventType.LATE_FEE_PAID:
        return gettext("Late fees paid: %(amount)s (%(method)s).") % {"amount": money(payload["amount"]), "method": method}
    if kind is rules.HouseholdEventType.LATE_FEE_WAIVED:
        return gettext("Late fees waived: %(amount)s. Why: %(reason)s") % {
            "amount": money(payload["amount"]), "reason": payload.get("reason", "")}
    if kind is rules.HouseholdEventType.LENDING_OVERRIDE:
        refused = str(REFUSAL_WORDS.get(payload.get("refusal", ""), payload.get("refusal", "")))
        return gettext("Copy %(copy)s lent against the rules (%(refused)s) Why: %(reason)s") % {
            "copy": payload.get("copy", ""), "refused": refused, "reason": payload.get("reason", "")}
    return gettext("Reminded by mail that the membership ends on %(ends)s.") % {"ends": day(payload.get("ends"))}


def _amount(request: HttpRequest, name: str = "amount") -> str:
    return request.POST.get(name, "").strip()


def _paid_on(request: HttpRequest):
    """The day the desk says it was paid (empty: today); a day that is no date is a bad payment."""
    typed = request.POST.get("happened_on", "").strip()
    if not typed:
        return None
    try:
        return dt.date.fromisoformat(typed)
    except ValueError:
        raise InvalidFields("invalid_payment", f"happened_on: {typed!r} is no date",
                            {"happened_on": [gettext("A date: the day it was paid.")]}) from None


def _money_act(request: HttpRequest, household: Household, action: str) -> str:
    """Take the desk's payment (or give back, or waive); the message that says it was done."""
    by, method = request.user, request.POST.get("method", "")
    if action == "membership":
        tariff = Tariff.objects.filter(pk=request.POST.get("tariff", "0") if request.POST.get("tariff", "").isdigit()
                                       else 0, organisation=household.organisation_id).first()
        if tariff is None:
            raise InvalidFields("invalid_payment", "no tariff chosen", {"tariff": [gettext("Choose a tariff.")]})
        dates = {}
        for name in ("starts", "ends"):
            typed = request.POST.get(name, "").strip()
            try:
                dates[name] = dt.date.fromisoformat(typed) if typed else None
            except ValueError:
                raise InvalidFields("invalid_payment", f"{name}: {typed!r} is no date",
                                    {name: [gettext("A date.")]}) from None
        event = memberships.take_membership(by, household, tariff, method=method, amount=_amount(request) or None,
                                            happened_on=_paid_on(request), **dates)
        return gettext("Membership paid: %(amount)s, until %(ends)s.") % {
            "amount": formats.number_format(event.amount, 2),
            "ends": formats.date_format(dt.date.fromisoformat(event.payload["ends"]), "DATE_FORMAT")}
    if action == "deposit_taken":
        event = memberships.take_deposit(by, household, amount=_amount(request), method=method,
                                         happened_on=_paid_on(request))
        return gettext("Deposit taken: %(amount)s.") % {"amount": formats.number_format(event.amount, 2)}
    if action == "deposit_returned":
        event = memberships.return_deposit(by, household, amount=_amount(request), happened_on=_paid_on(request))
        return gettext("Deposit given back: %(amount)s.") % {"amount": formats.number_format(event.amount, 2)}
    if action == "fee_paid":
        event = memberships.pay_late_fee(by, household, amount=_amount(request), method=method,
                                         happened_on=_paid_on(request))
        return gettext("Late fees paid: %(amount)s.") % {"amount": formats.number_format(event.amount, 2)}
    event = memberships.waive_late_fee(by, household, amount=_amount(request), reason=request.POST.get("reason", ""),
                                       happened_on=_paid_on(request))
    return gettext("Late fees waived: %(amount)s.") % {"amount": formats.number_format(event.amount, 2)}


MONEY_ACTIONS = ("membership", "deposit_taken", "deposit_returned", "fee_paid", "waive")


def _household_act(request: HttpRequest, household: Household) -> str:
    if request.POST.get("action") in MONEY_ACTIONS:
        return _money_act(request, household, request.POST["action"])
    if request.POST.get("action") == "hold":
        record = _record_to_hold(request, household)
        if record is None:
            from loans.errors import UnknownRecord

            title = request.POST.get("title", "").strip()
            raise UnknownRecord(gettext("No game of the library is called “%(title)s”.") % {"title": title},
                                record=title)
        hold = services.place_hold(record, household, request.user)
        if hold.status == Hold.Status.READY:
            return gettext("A copy of %(title)s is on the shelves: set aside for %(household)s.") % {
                "title": record.title, "household": household.name}
        return gettext("%(household)s waits for %(title)s.") % {"household": household.name, "title": record.title}
    copy = selectors.copy_by_barcode(request.POST.get("copy", "").strip())
    # "Lend anyway": the reason typed is the override's (an empty one is refused, as the form says).
    override = request.POST.get("override_reason") if "override_reason" in request.POST else None
    state = services.lend(copy, household, request.user, override_reason=override)
    if override is not None:
        return gettext("%(title)s lent against the rules until %(due)s: noted in the household's history.") % {
            "title": copy.record.title, "due": formats.date_format(state.due_on, "DATE_FORMAT")}
    return gettext("%(title)s lent until %(due)s.") % {
        "title": copy.record.title, "due": formats.date_format(state.due_on, "DATE_FORMAT")}


@login_required
def copy_desk(request: HttpRequest, barcode: str) -> HttpResponse:
    try:
        copy = selectors.copy_by_barcode(barcode)
    except LoanError as error:
        if not may(request, Action.USE_DESK):
            return _not_desk_staff()
        return render(request, "loans/desk/unknown_copy.html", {"barcode": barcode, "error": error}, status=404)
    if not can(request.user, Action.USE_DESK, copy.organisation):
        return _not_desk_staff()
    # The page reads the copy's whole history anyway: its chain is checked as it opens.
    problems = integrity.known_tampering(copy.pk)
    if problems is None and request.method == "GET":
        problems = integrity.problems_now(copy.pk)
    if problems is None:
        try:
            return _copy_page(request, copy)
        except (Http404, PermissionDenied, DatabaseError):
            raise
        except Exception:
            # Events changed behind the desk's back may break the page in any way: verified now,
            # a tampered copy is answered as such rather than with a 500 (a bug is not hidden).
            problems = integrity.tampering_found_now(copy.pk)
            if not problems:
                raise
    return render(request, "loans/desk/tampered.html", {"copy": copy, "problems": problems}, status=409)


def _copy_page(request: HttpRequest, copy: Copy) -> HttpResponse:
    refusal: LoanError | None = None
    action = request.POST.get("action", "") if request.method == "POST" else ""
    if action in ACTIONS:
        try:
            done = _act(request, copy, action)
        except CopyTampered as error:
            return render(request, "loans/desk/tampered.html", {"copy": copy, "problems": error.details["problems"]},
                          status=409)
        except LoanError as error:
            refusal = error
        else:
            messages.success(request, done)
            return redirect("desk-copy", barcode=copy.barcode)
    state = selectors.copy_state(copy)
    borrower = Household.objects.filter(pk=state.household).first() if state.household else None
    missing = {piece.kind: piece.count for piece in state.missing}
    context = {
        "copy": copy,
        "state": state,
        "status": state.status.value,
        "borrower": borrower,
        "checklist": [{"kind": piece.kind, "count": piece.count, "missing": missing.get(piece.kind, 0),
                       "field": f"count_{index}"} for index, piece in enumerate(selectors.checklist(copy))],
        "missing": state.missing,
        "waiting": list(selectors.waiting_holds(copy.record_id, copy.organisation_id).select_related("household")),
        **_history(copy, request.user, state),
        "refusal": refusal,
        "refusal_words": refusal_words(refusal) if refusal else "",
        "action": action,
        "may_withdraw": can(request.user, Action.WITHDRAW_COPY, copy.organisation),
    }
    return render(request, "loans/desk/copy.html", context, status=refusal.status_code if refusal else 200)


def _history(copy, user, state) -> dict:
    """The copy's history (its desk events and the games played with it that the reader may see,
    newest first) and, while a check is wanted, the games that asked for it. A game that asked
    for a check is linked only for a reader who may open it."""
    lines = selectors.copy_history_lines(copy, user)
    asking = [event.payload.get("record") for event in selectors.open_check_requests(copy)] if state.check_wanted else []
    named = [line.event.payload.get("record") for line in lines
             if line.event is not None and line.event.type == CHECK_REQUESTED]
    return {
        "history": [{"event": line.event, "play": line.play,
                     "words": EVENT_WORDS.get(line.event.type, line.event.type) if line.event else "",
                     "record": line.event.payload.get("record") if line.event else None} for line in lines],
        "check_asked_by": asking,
        "linked_records": selectors.visible_record_ids([*asking, *named], user),
    }


def _act(request: HttpRequest, copy, action: str) -> str:
    """Do the desk's action; the message that says it was done."""
    if action == "lend":
        household = selectors.household_by_card(request.POST.get("card", "").strip())
        state = services.lend(copy, household, request.user)
        return gettext("Lent to %(household)s until %(due)s.") % {
            "household": household.name, "due": formats.date_format(state.due_on, "DATE_FORMAT")}
    if action == "note":
        services.note_copy(copy, request.POST.get("note", ""), request.user,
                           needs_check=request.POST.get("needs_check") == "1")
        return gettext("The note is in the copy's history.")
    if action == "found":
        kind, count = request.POST.get("kind", ""), request.POST.get("count", "1").strip()
        services.piece_found(copy, kind, int(count) if count.isdigit() else 0, request.user)
        return gettext("Found or replaced: %(count)s × %(kind)s, no longer missing.") % {"count": count, "kind": kind}
    if action in MOVES:
        if action == "withdraw" and not can(request.user, Action.WITHDRAW_COPY, copy.organisation):
            raise LibrariansOnly("only librarians withdraw copies")
        services.move_copy(copy, MOVES[action], request.user, note=request.POST.get("note", "").strip())
        return {"repair": gettext("Sent to repair."), "repaired": gettext("Back from repair."),
                "withdraw": gettext("Withdrawn from the collection.")}[action]
    if action == "check":
        services.check_copy(copy, request.user)
        return gettext("Checked: the copy goes back on the shelves, or to the household waiting for it.")
    if action == "renew":
        state = services.renew(copy, request.user)
        return gettext("Renewed until %(due)s.") % {"due": formats.date_format(state.due_on, "DATE_FORMAT")}
    counted = {}
    for index, piece in enumerate(selectors.checklist(copy)):
        typed = request.POST.get(f"count_{index}", "").strip()
        if typed.isdigit() and int(typed) != piece.count:
            counted[piece.kind] = int(typed)
    result = services.return_copy(copy, request.user, counted)
    said = [gettext("Taken back.")]
    if result.newly_missing:
        said.append(gettext("Missing: %(pieces)s; the copy waits for a check.") % {
            "pieces": ", ".join(f"{piece.count} × {piece.kind}" for piece in result.newly_missing)})
    elif result.state.status is rules.Status.NEEDS_CHECK:
        said.append(gettext("A game played with this copy ended short of its tiles: the copy waits for a check."))
    if result.set_aside_for is not None:
        said.append(gettext("Set aside for %(household)s, who have been told.") % {
            "household": result.set_aside_for.name})
    if result.days_late:
        said.append(gettext("%(days)s days late: %(fee)s to pay.") % {"days": result.days_late, "fee": result.late_fee})
    return " ".join(said)


USAGE_PAGE_SIZE = 50
PERIOD_WORDS = {usage.PeriodKey.LAST_12_MONTHS: _("Last 12 months"), usage.PeriodKey.THIS_YEAR: _("This year"),
                usage.PeriodKey.ALL_TIME: _("All time")}
SORT_WORDS = {usage.SortKey.LOANS: _("Loans"), usage.SortKey.PLAYS: _("Plays"),
              usage.SortKey.DEMAND: _("Waiting per copy")}
STATUS_WORDS = {
    "available": _("On the shelves"), "on_loan": _("On loan"), "on_hold_shelf": _("Set aside for a hold"),
    "in_repair": _("In repair"), "withdrawn": _("Withdrawn"), "needs_check": _("Waiting for a check"),
}


@login_required
def usage_page(request: HttpRequest) -> HttpResponse:
    """The librarian's guide to buying: each game's loans, plays and holds over a period, sorted
    by what matters to the budget, and the same table as a CSV file for the meeting."""
    library = current_organisation(request)
    if not may(request, Action.USE_DESK):
        return _not_desk_staff()
    today = timezone.localdate()
    try:
        period = usage.Period.of(request.GET.get("period", usage.PeriodKey.LAST_12_MONTHS), today)
        sort = usage.SortKey(request.GET.get("sort", usage.SortKey.LOANS))
    except ValueError:
        return HttpResponse(gettext("Choose a period (12m, year, all) and a sort (loans, plays, demand)."),
                            status=400, content_type="text/plain; charset=utf-8")
    rows = usage.record_usage(request.user, library, period, sort)
    if request.GET.get("format") == "csv":
        return _usage_csv(rows, period)
    page = Paginator(rows, USAGE_PAGE_SIZE).get_page(request.GET.get("page"))
    records = [usage.RecordUsage.from_row(row) for row in page]
    copies = usage.copy_usage([record.record_id for record in records], request.user, library, period)
    context = {
        "period": period, "sort": sort, "page": page,
        "records": [{"usage": record, "copies": [{"usage": copy, "status": STATUS_WORDS[copy.status.value]}
                                                 for copy in copies.get(record.record_id, [])]}
                    for record in records],
        "periods": [(key.value, PERIOD_WORDS[key]) for key in usage.PeriodKey],
        "sorts": [(key.value, SORT_WORDS[key]) for key in usage.SortKey],
        "query": urlencode({"period": period.key.value, "sort": sort.value}),
    }
    return render(request, "loans/desk/usage.html", context)


def _usage_csv(rows, period: usage.Period) -> HttpResponse:
    """The usage table as a spreadsheet opens it (a byte-order mark: accents read right in Excel)."""
    answer = HttpResponse(content_type="text/csv; charset=utf-8")
    answer["Content-Disposition"] = f'attachment; filename="ludolog-usage-{period.key.value}-{period.end}.csv"'
    answer.write("\ufeff")
    writer = csv.writer(answer)
    writer.writerow([gettext("Game"), gettext("Copies"), gettext("Loans"), gettext("Plays with a copy"),
                     gettext("All plays"), gettext("Holds waiting"), gettext("Households that waited"),
                     gettext("Holds waiting per copy"), gettext("Last lent"), gettext("Last played")])
    for row in rows.iterator():
        record = usage.RecordUsage.from_row(row)
        writer.writerow([record.title, record.copies, record.loans, record.plays_with_copy, record.plays,
                         record.holds_waiting, record.households_waited,
                         "" if record.demand is None else f"{record.demand:.2f}",
                         record.last_lent or "", record.last_played or ""])
    return answer
