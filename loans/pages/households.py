"""The game library's households on a phone or a laptop, for its desk's staff
(``Action.REGISTER_HOUSEHOLDS`` in the current organisation): ``/library/households/``, a list
searched by name, card number, town or a member's name; a new household; a household's page,
its details and its members (added, changed, removed; each with a year of birth and, where they
have one, their account among the organisation's members).

Thin over :mod:`loans.households`: a refusal is shown beside the form in the reader's language,
answered with its status (409 for a card number taken, 400 for fields that do not hold), and
changes nothing. A household of another organisation is not found here (404).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy
from django.views.decorators.http import require_POST

from accounts.current import current_organisation, may
from accounts.roles import Action
from loans import households, selectors
from loans.errors import InvalidFields, LoanError, MayNotRegisterHouseholds
from loans.models import Household, Member, validate_birth_year
from loans.refusals import refusal_words

HOUSEHOLDS_PAGE_SIZE = 50


class HouseholdForm(forms.ModelForm):
    class Meta:
        model = Household
        fields = households.HOUSEHOLD_FIELDS
        widgets = {
            "membership_starts": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "membership_ends": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "notes": forms.Textarea(attrs={"rows": 3}),
            "phone": forms.TextInput(attrs={"type": "tel", "autocomplete": "off"}),
            "email": forms.EmailInput(attrs={"autocomplete": "off"}),
        }
        help_texts = {"loan_limit": _("How many games the household may have out at once, all its members together.")}

    def validate_unique(self) -> None:
        """A card number taken is the service's to say (409, ``card_number_taken``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk and self.instance.events.exists():
            # Its membership and deposit are the desk's payments now (loans.memberships).
            for name in households.MEMBERSHIP_FIELDS:
                self.fields[name].disabled = True
                self.fields[name].help_text = _("Taken at the desk as payments: see the household's desk page.")


class MemberForm(forms.Form):
    display_name = forms.CharField(label=pgettext_lazy("household member", "Name"), max_length=150)
    birth_year = forms.IntegerField(label=_("Year of birth (optional)"), required=False,
                                    validators=[validate_birth_year],
                                    widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    account = forms.CharField(
        label=_("Account (optional)"), required=False, max_length=254,
        help_text=_("The username or e-mail address of this person's account, if they are a member of the "
                    "organisation: they then see the household's loans and reserve games."))


def refused_page(request: HttpRequest, error: LoanError) -> HttpResponse:
    return render(request, "loans/library/refused.html", {"refusal": error, "refusal_words": refusal_words(error)},
                  status=error.status_code)


def _keeping(request: HttpRequest) -> HttpResponse | None:
    """The refusal to show those who may not keep the current organisation's households."""
    if may(request, Action.REGISTER_HOUSEHOLDS):
        return None
    return refused_page(request, MayNotRegisterHouseholds("only the desk's staff keep the households"))


def _household(request: HttpRequest, pk: int) -> Household:
    """The current organisation's household ``pk`` (another's: 404)."""
    return get_object_or_404(Household, pk=pk, organisation=current_organisation(request))


def show_refusal(form: forms.Form, error: LoanError) -> None:
    """``error`` beside the fields it is about (a card number taken beside the card number)."""
    if isinstance(error, InvalidFields):
        for field, said in error.details["errors"].items():
            form.add_error(field if field in form.fields else None, said)
        return
    field = {"card_number_taken": "card_number", "account_not_a_member": "account",
             "account_has_a_household": "account"}.get(error.reason)
    form.add_error(field, refusal_words(error))


@login_required
def household_list(request: HttpRequest) -> HttpResponse:
    refused = _keeping(request)
    if refused:
        return refused
    query = request.GET.get("q", "").strip()
    page = Paginator(selectors.households_found(current_organisation(request), query)
                     .prefetch_related("members"), HOUSEHOLDS_PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "loans/library/households.html", {"query": query, "page": page})


@login_required
def household_new(request: HttpRequest) -> HttpResponse:
    refused = _keeping(request)
    if refused:
        return refused
    form = HouseholdForm(request.POST or None)
    status, refusal = 200, None
    if request.method == "POST":
        if form.is_valid():
            try:
                household = households.register_household(request.user, current_organisation(request),
                                                          **form.cleaned_data)
            except LoanError as error:
                show_refusal(form, error)
                status, refusal = error.status_code, error
            else:
                messages.success(request, gettext("%(household)s is registered, card %(card)s.") % {
                    "household": household.name, "card": household.card_number})
                return redirect("library-household", pk=household.pk)
        else:
            status = 400
    return render(request, "loans/library/household_new.html", {"form": form, "refusal": refusal}, status=status)


@login_required
def household_page(request: HttpRequest, pk: int) -> HttpResponse:
    """A household's details (changed here) and its members (one added here)."""
    refused = _keeping(request)
    if refused:
        return refused
    household = _household(request, pk)
    form = HouseholdForm(request.POST or None, instance=Household.objects.get(pk=household.pk))
    status, refusal = 200, None
    if request.method == "POST":
        if form.is_valid():
            try:
                households.edit_household(request.user, household, **form.cleaned_data)
            except LoanError as error:
                show_refusal(form, error)
                status, refusal = error.status_code, error
            else:
                messages.success(request, gettext("The household's details are saved."))
                return redirect("library-household", pk=household.pk)
        else:
            status = 400
    return _household_page(request, household, form=form, status=status, refusal=refusal)


def _household_page(request: HttpRequest, household: Household, *, form: forms.Form | None = None,
                    member_form: forms.Form | None = None, status: int = 200,
                    refusal: LoanError | None = None, member_refusal: LoanError | None = None) -> HttpResponse:
    context: dict[str, Any] = {
        "household": household,
        "form": form or HouseholdForm(instance=household),
        "member_form": member_form or MemberForm(),
        "members": household.members.select_related("user").order_by("display_name", "pk"),
        "refusal": refusal,
        "member_refusal": member_refusal,
    }
    return render(request, "loans/library/household.html", context, status=status)


@login_required
@require_POST
def member_add(request: HttpRequest, pk: int) -> HttpResponse:
    refused = _keeping(request)
    if refused:
        return refused
    household = _household(request, pk)
    form = MemberForm(request.POST)
    if not form.is_valid():
        return _household_page(request, household, member_form=form, status=400)
    try:
        member = households.add_member(request.user, household, **form.cleaned_data)
    except LoanError as error:
        show_refusal(form, error)
        return _household_page(request, household, member_form=form, status=error.status_code,
                               member_refusal=error)
    messages.success(request, gettext("%(member)s is a member of the household.") % {"member": member.display_name})
    return redirect("library-household", pk=household.pk)


@login_required
def member_page(request: HttpRequest, pk: int, member: int) -> HttpResponse:
    """One member's name, year of birth and account, changed."""
    refused = _keeping(request)
    if refused:
        return refused
    household = _household(request, pk)
    found = get_object_or_404(Member.objects.select_related("user"), pk=member, household=household)
    initial = {"display_name": found.display_name, "birth_year": found.birth_year,
               "account": found.user.get_username() if found.user else ""}
    form = MemberForm(request.POST or None, initial=initial)
    status, refusal = 200, None
    if request.method == "POST":
        if form.is_valid():
            try:
                households.edit_member(request.user, found, **form.cleaned_data)
            except LoanError as error:
                show_refusal(form, error)
                status, refusal = error.status_code, error
            else:
                messages.success(request, gettext("%(member)s: saved.") % {"member": form.cleaned_data["display_name"]})
                return redirect("library-household", pk=household.pk)
        else:
            status = 400
    return render(request, "loans/library/member.html",
                  {"household": household, "member": found, "form": form, "refusal": refusal}, status=status)


@login_required
@require_POST
def member_remove(request: HttpRequest, pk: int, member: int) -> HttpResponse:
    refused = _keeping(request)
    if refused:
        return refused
    household = _household(request, pk)
    found = get_object_or_404(Member, pk=member, household=household)
    try:
        households.remove_member(request.user, found)
    except LoanError as error:
        return refused_page(request, error)
    messages.success(request, gettext("%(member)s is no longer a member of the household.") % {
        "member": found.display_name})
    return redirect("library-household", pk=household.pk)
