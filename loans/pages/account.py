"""The member's loans page (``/account/loans/``, linked from their account page): their household's
loans with the due dates, renewing one where the rules allow (the account page's renewals are
posted here too), the games they wait for and their place in the queue (cancelling one), what the
desk told them, and what they borrowed before. A member sees their own household only: the
page is made from the signed-in user's household and takes no household from the request."""

from __future__ import annotations

import datetime as dt

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import formats, timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext

from loans import rules, selectors, services
from loans.errors import LoanError, RuleRefused, UnknownCopy
from loans.models import CopyState, Hold, LoanRules, Notification
from loans.refusals import refusal_words

NOTIFICATIONS_SHOWN = 10


@login_required
def account(request: HttpRequest) -> HttpResponse:
    household = selectors.household_of(request.user)
    if household is None:
        return render(request, "loans/account/no_household.html", status=404)
    refusal: LoanError | None = None
    if request.method == "POST":
        try:
            done = _act(request, household)
        except LoanError as error:
            refusal = error
        else:
            messages.success(request, done)
            return redirect(_back(request) or "account-loans")
    today = timezone.localdate()
    policy = LoanRules.current(household.organisation_id)
    holds = list(selectors.open_holds(household))
    loans = selectors.member_loans(household, policy, today)
    positions = selectors.queue_positions(holds)
    context = {
        "household": household,
        "loans": loans,
        "room": max(0, household.loan_limit - len(loans)),
        "holds": [{"hold": hold, "position": positions.get(hold.pk),
                   "until": hold.ready_on and hold.ready_on + dt.timedelta(days=policy.hold_days)}
                  for hold in holds],
        "notifications": Notification.objects.filter(household=household)[:NOTIFICATIONS_SHOWN],
        "history": selectors.loan_history(household),
        "policy": policy,
        "refusal": refusal,
        "refusal_words": refusal_words(refusal) if refusal else "",
    }
    return render(request, "loans/account/account.html", context, status=refusal.status_code if refusal else 200)


def _act(request: HttpRequest, household) -> str:
    """Renew one of the household's loans, or cancel one of its holds: only its own."""
    action = request.POST.get("action", "")
    if action == "renew":
        row = (CopyState.objects.select_related("copy__record")
               .filter(copy__barcode=request.POST.get("copy", ""), household=household,
                       status=rules.Status.ON_LOAN).first())
        if row is None:
            # Not one of this household's loans: the same answer as a copy that does not exist.
            raise UnknownCopy("not one of your loans", copy=request.POST.get("copy", ""))
        state = services.renew(row.copy, request.user)
        return gettext("%(title)s renewed until %(due)s.") % {
            "title": row.copy.record.title, "due": formats.date_format(state.due_on, "DATE_FORMAT")}
    hold = Hold.objects.select_related("record").filter(pk=_int(request.POST.get("hold")), household=household,
                                                        status__in=[Hold.Status.WAITING, Hold.Status.READY]).first()
    if action != "cancel_hold" or hold is None:
        raise RuleRefused(rules.Refusal("no_hold_open", "no open reservation of your household has this number"))
    services.cancel_hold(hold, request.user)
    return gettext("Your reservation of %(title)s is cancelled.") % {"title": hold.record.title}


def _back(request: HttpRequest) -> str:
    """The page of this site a renewal was posted from (the account page's loans), if any."""
    back = request.POST.get("next", "")
    return back if url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()},
                                                   require_https=request.is_secure()) else ""


def _int(value: str | None) -> int:
    return int(value) if value and value.isdigit() else 0
