"""The game library's own settings for lending, outside the Django admin: its lending rules, for
its librarians (``Action.EDIT_LENDING_RULES``), each said in plain words; and who works at its
desk, for those who invite (``Action.INVITE``), with a button to invite a desk volunteer (the
organisation's invitation page with the role chosen). Roles are changed and members removed on
the organisation's members page, not here.

Thin over :mod:`loans.households` and :mod:`loans.selectors`; a refusal is shown in the reader's
language with its status and changes nothing."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts import joining
from accounts.current import current_organisation, may
from accounts.roles import Action, Role
from loans import households, selectors
from loans.errors import LoanError, MayNotEditLendingRules
from loans.models import LoanRules

from .households import refused_page, show_refusal

EXPLAINED = {
    "loan_days": _("How many days a household keeps a game: the due date is the day it is lent plus these days."),
    "renewals_allowed": _("How many times a loan may be renewed, at the desk or by the household on its page. "
                          "A renewal runs this many days again from the day it is made. 0: no renewal. A game "
                          "another household waits for is never renewed."),
    "late_fee_per_day": _("What a household owes for each day a game comes back late (0: nothing). It is said "
                          "when the game is taken back."),
    "hold_days": _("How many days a game set aside for a household that reserved it waits on the hold shelf, "
                   "before it goes to the next household waiting or back on the shelves."),
    "reminder_days": _("A household with games overdue is reminded (on its page and by e-mail), then again after "
                       "this many days. 0: no reminders."),
    "refuse_overdue": _("A household with a game past its due date borrows nothing more until it is back. "
                        "A librarian may lend anyway, saying why."),
    "refuse_fees_over": _("A household owing more late fees than this borrows nothing more until it pays "
                          "(0: any fee owed)."),
    "refuse_unpaid_membership": _("A household whose membership is recorded but not paid borrows nothing."),
    "membership_reminder_days": _("A household is mailed this many days before its membership ends, once, to "
                                  "renew it. 0: no reminders."),
}


class LendingRulesForm(forms.ModelForm):
    class Meta:
        model = LoanRules
        fields = households.LENDING_RULES_FIELDS
        help_texts = EXPLAINED
        widgets = {name: forms.NumberInput(attrs={"inputmode": "numeric"}) for name in
                   ("loan_days", "renewals_allowed", "hold_days", "reminder_days", "membership_reminder_days")} | {
            name: forms.NumberInput(attrs={"inputmode": "decimal", "step": "0.01"})
            for name in ("late_fee_per_day", "refuse_fees_over")}


@login_required
def lending_rules(request: HttpRequest) -> HttpResponse:
    if not may(request, Action.EDIT_LENDING_RULES):
        return refused_page(request, MayNotEditLendingRules("only librarians change the lending rules"))
    organisation = current_organisation(request)
    form = LendingRulesForm(request.POST or None, instance=households.lending_rules_of(organisation))
    status, refusal = 200, None
    if request.method == "POST":
        if form.is_valid():
            try:
                households.set_lending_rules(request.user, organisation, **form.cleaned_data)
            except LoanError as error:
                show_refusal(form, error)
                status, refusal = error.status_code, error
            else:
                messages.success(request, gettext("The lending rules are saved: they apply from the next loan."))
                return redirect("library-lending-rules")
        else:
            status = 400
    return render(request, "loans/library/lending_rules.html", {"form": form, "refusal": refusal}, status=status)


@login_required
def volunteers(request: HttpRequest) -> HttpResponse:
    """Who works at the desk, and the way to invite a desk volunteer."""
    organisation = current_organisation(request)
    if not may(request, Action.INVITE):
        refusal = joining.MayNotInvite("only those who invite in this organisation see this")
        return render(request, "loans/library/refused.html",
                      {"refusal": refusal, "refusal_words": joining.refusal_words(refusal)},
                      status=refusal.status_code)
    invites_desk = Role.DESK in joining.invitable_roles(request.user, organisation)
    context = {
        "staff": selectors.desk_staff(organisation),
        "invite_desk": (reverse("organisations:members", kwargs={"slug": organisation.slug}) + "?role=desk"
                        if invites_desk else ""),
        "members_page": reverse("organisations:members", kwargs={"slug": organisation.slug}),
        "manages_members": may(request, Action.MANAGE_MEMBERS),
    }
    return render(request, "loans/library/volunteers.html", context)
