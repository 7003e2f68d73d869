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
from loans import integrity, rules, selectors, services, usage
from loans.errors import CopyTampered, LibrariansOnly, LoanError
from loans.models import Hold, Household
from loans.refusals import refusal_words

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
    if request.method == "POST":
        try:
            done = _household_act(request, household)
        except LoanError as error:
            refusal = error
        else:
            messages.success(request, done)
            return redirect("desk-household", card=household.card_number)
    today = timezone.localdate()
    loans = [{"state": state, "late": state.due_on is not None and state.due_on < today}
             for state in selectors.current_loans(household)]
    holds = list(Hold.objects.filter(household=household, status__in=[Hold.Status.WAITING, Hold.Status.READY])
                 .select_related("record", "copy").order_by("placed_at"))
    context = {"household": household, "loans": loans, "holds": holds, "refusal": refusal,
               "refusal_words": refusal_words(refusal) if refusal else "",
               "titles": CatalogueRecord.objects.filter(copies__organisation=household.organisation_id).distinct()
               .order_by("title")
               .values_list("title", flat=True)[:3000],
               "room": max(0, household.loan_limit - len(loans)),
               "members": household.members.select_related("user").order_by("display_name", "pk"),
               "may_keep_households": (household.organisation_id == getattr(current_organisation(request), "pk", None)
                                       and can(request.user, Action.REGISTER_HOUSEHOLDS, household.organisation))}
    return render(request, "loans/desk/household.html", context, status=refusal.status_code if refusal else 200)


def _household_act(request: HttpRequest, household: Household) -> str:
    if request.POST.get("action") == "hold":
        title = request.POST.get("title", "").strip()
        record = (CatalogueRecord.objects.filter(title__iexact=title, copies__organisation=household.organisation_id)
                  .order_by("pk").first())
        if record is None:
            from loans.errors import UnknownRecord

            raise UnknownRecord(gettext("No game of the library is called “%(title)s”.") % {"title": title},
                                record=title)
        hold = services.place_hold(record, household, request.user)
        if hold.status == Hold.Status.READY:
            return gettext("A copy of %(title)s is on the shelves: set aside for %(household)s.") % {
                "title": record.title, "household": household.name}
        return gettext("%(household)s waits for %(title)s.") % {"household": household.name, "title": record.title}
    copy = selectors.copy_by_barcode(request.POST.get("copy", "").strip())
    state = services.lend(copy, household, request.user)
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
