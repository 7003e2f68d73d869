"""The game library's tariffs, for its librarians (``Action.EDIT_TARIFFS``): ``/library/tariffs/``
lists them (offered first, then retired) with a form to add one; each is changed on its own page
(``/library/tariffs/<pk>/``), retired or offered again, and deleted only while no membership was
paid under it: a tariff in use answers 409 ``tariff_in_use`` in words, offering to retire it.

Thin over :mod:`loans.memberships`; a refusal is shown in the reader's language with its status
and changes nothing. Another organisation's tariff is not found here (404)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from accounts.current import current_organisation, may
from accounts.roles import Action
from loans import memberships
from loans.errors import LoanError, MayNotEditTariffs
from loans.models import HouseholdEvent, Tariff
from loans.refusals import refusal_words

from .households import refused_page, show_refusal


class TariffForm(forms.ModelForm):
    class Meta:
        model = Tariff
        fields = memberships.TARIFF_FIELDS
        widgets = {"amount": forms.NumberInput(attrs={"inputmode": "decimal", "step": "0.01"}),
                   "deposit": forms.NumberInput(attrs={"inputmode": "decimal", "step": "0.01"}),
                   "months": forms.NumberInput(attrs={"inputmode": "numeric"})}

    def validate_unique(self) -> None:
        """A name taken is the service's to say (409, ``tariff_name_taken``)."""


def _keeping(request: HttpRequest) -> HttpResponse | None:
    if may(request, Action.EDIT_TARIFFS):
        return None
    return refused_page(request, MayNotEditTariffs("only librarians keep the tariffs"))


def _tariff(request: HttpRequest, pk: int) -> Tariff:
    return get_object_or_404(Tariff, pk=pk, organisation=current_organisation(request))


def _list(request: HttpRequest, form: forms.Form, *, status: int = 200, refusal: LoanError | None = None,
          refused_tariff: Tariff | None = None) -> HttpResponse:
    tariffs = list(Tariff.objects.filter(organisation=current_organisation(request)).order_by("-active", "name", "pk"))
    in_use = set(HouseholdEvent.objects.filter(tariff__in=tariffs).values_list("tariff_id", flat=True).distinct())
    context = {"rows": [{"tariff": tariff, "in_use": tariff.pk in in_use} for tariff in tariffs], "form": form,
               "refusal": refusal, "refusal_words": refusal_words(refusal) if refusal else "",
               "refused_tariff": refused_tariff}
    return render(request, "loans/library/tariffs.html", context, status=status)


@login_required
def tariff_list(request: HttpRequest) -> HttpResponse:
    refused = _keeping(request)
    if refused:
        return refused
    form = TariffForm(request.POST or None)
    if request.method != "POST":
        return _list(request, form)
    if not form.is_valid():
        return _list(request, form, status=400)
    try:
        tariff = memberships.add_tariff(request.user, current_organisation(request), **form.cleaned_data)
    except LoanError as error:
        show_refusal(form, error)
        return _list(request, form, status=error.status_code, refusal=error)
    messages.success(request, gettext("The tariff “%(name)s” is offered.") % {"name": tariff.name})
    return redirect("library-tariffs")


@login_required
def tariff_page(request: HttpRequest, pk: int) -> HttpResponse:
    refused = _keeping(request)
    if refused:
        return refused
    tariff = _tariff(request, pk)
    form = TariffForm(request.POST or None, instance=Tariff.objects.get(pk=tariff.pk))
    status, refusal = 200, None
    if request.method == "POST":
        if form.is_valid():
            try:
                memberships.edit_tariff(request.user, tariff, **form.cleaned_data)
            except LoanError as error:
                show_refusal(form, error)
                status, refusal = error.status_code, error
            else:
                messages.success(request, gettext("The tariff is saved: it applies to the next memberships taken."))
                return redirect("library-tariffs")
        else:
            status = 400
    return render(request, "loans/library/tariff.html", {"tariff": tariff, "form": form, "refusal": refusal,
                                                         "in_use": HouseholdEvent.objects.filter(tariff=tariff).exists()},
                  status=status)


@login_required
@require_POST
def tariff_retire(request: HttpRequest, pk: int) -> HttpResponse:
    """Retire a tariff (no longer offered), or offer a retired one again."""
    refused = _keeping(request)
    if refused:
        return refused
    tariff = _tariff(request, pk)
    memberships.edit_tariff(request.user, tariff, active=not tariff.active)
    messages.success(request, (gettext("“%(name)s” is offered again.") if not tariff.active else
                               gettext("“%(name)s” is retired: no longer offered.")) % {"name": tariff.name})
    return redirect("library-tariffs")


@login_required
@require_POST
def tariff_delete(request: HttpRequest, pk: int) -> HttpResponse:
    refused = _keeping(request)
    if refused:
        return refused
    tariff = _tariff(request, pk)
    try:
        memberships.delete_tariff(request.user, tariff)
    except LoanError as error:
        return _list(request, TariffForm(), status=error.status_code, refusal=error, refused_tariff=tariff)
    messages.success(request, gettext("The tariff “%(name)s” is deleted.") % {"name": tariff.name})
    return redirect("library-tariffs")
