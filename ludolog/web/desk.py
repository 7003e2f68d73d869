"""The loans desk's copy page, the one a copy label's QR code opens (``/desk/copies/<barcode>/``):
where the copy stands (on the shelf, lent to whom until when, set aside, missing pieces), its
checklist, the households waiting for its game and its history; and, for desk staff, lending it
to a household by its card number, taking it back with the pieces counted (only what differs
from the checklist is typed), renewing it. Thin over ``loans.services``: a refusal shows beside
the form with the rule's words, answered 409 or 422 as the API answers it, and changes nothing."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import formats
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from loans import selectors, services
from loans.errors import LoanError
from loans.models import Household

ACTIONS = ("lend", "return", "renew", "check")
EVENT_WORDS = {
    "lent": _("Lent"), "returned": _("Taken back"), "renewed": _("Renewed"), "held": _("Set aside for a hold"),
    "hold_fulfilled": _("Hold fulfilled"), "hold_cancelled": _("Hold cancelled"), "checked": _("Pieces checked"),
    "piece_missing": _("Piece missing"), "piece_found": _("Piece found"), "sent_to_repair": _("Sent to repair"),
    "back_from_repair": _("Back from repair"), "withdrawn": _("Withdrawn"),
}
"""What the copy's history says of each event, in the reader's language."""


@login_required
def copy_desk(request: HttpRequest, barcode: str) -> HttpResponse:
    if not selectors.is_desk_staff(request.user):
        return HttpResponse(gettext("Only the desk's staff lend and take back copies."), status=403,
                            content_type="text/plain; charset=utf-8")
    try:
        copy = selectors.copy_by_barcode(barcode)
    except LoanError as error:
        return render(request, "desk/unknown_copy.html", {"barcode": barcode, "error": error}, status=404)
    refusal: LoanError | None = None
    action = request.POST.get("action", "") if request.method == "POST" else ""
    if action in ACTIONS:
        try:
            done = _act(request, copy, action)
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
        "waiting": list(selectors.waiting_holds(copy.record_id).select_related("household")),
        "history": [{"event": event, "words": EVENT_WORDS.get(event.type, event.type)} for event in
                    selectors.copy_history(copy).select_related("household", "recorded_by").order_by("-seq")[:30]],
        "refusal": refusal,
        "action": action,
    }
    return render(request, "desk/copy.html", context, status=refusal.status_code if refusal else 200)


def _act(request: HttpRequest, copy, action: str) -> str:
    """Do the desk's action; the message that says it was done."""
    if action == "lend":
        household = selectors.household_by_card(request.POST.get("card", "").strip())
        state = services.lend(copy, household, request.user)
        return gettext("Lent to %(household)s until %(due)s.") % {
            "household": household.name, "due": formats.date_format(state.due_on, "DATE_FORMAT")}
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
    if result.set_aside_for is not None:
        said.append(gettext("Set aside for %(household)s, who have been told.") % {
            "household": result.set_aside_for.name})
    if result.days_late:
        said.append(gettext("%(days)s days late: %(fee)s to pay.") % {"days": result.days_late, "fee": result.late_fee})
    return " ".join(said)
