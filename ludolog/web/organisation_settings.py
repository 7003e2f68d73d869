"""An organisation run from its own pages: its settings (name, kind, language, logo, contact,
who may see its members and ask to join) for its administrators, and a member's roles (give,
take away, remove the member) for those who manage its members.

Thin views over :mod:`accounts.membership` and the organisation's form; a refusal is shown in the
reader's language with its HTTP status and changes nothing. A person acting on an organisation
that is not theirs reads the refusal, never the other organisation's members.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext, gettext_lazy as _
from django.views.decorators.http import require_POST

from accounts import membership as membership_services
from accounts.joining import JoiningError
from accounts.models import Membership, Organisation
from accounts.roles import GRANTABLE, Action, Role, can
from ludolog.members import members

from .organisations import words

LOGO_BYTES = 2 * 1024 * 1024


class SettingsForm(forms.ModelForm):
    class Meta:
        model = Organisation
        fields = ["name", "kind", "language", "logo", "contact_email", "phone", "address", "town",
                  "members_public", "open_to_requests"]

    def clean_logo(self) -> Any:
        logo = self.cleaned_data.get("logo")
        if logo and getattr(logo, "size", 0) > LOGO_BYTES:
            raise forms.ValidationError(_("The logo may weigh 2 MB at most."), code="logo_too_large")
        return logo


class RolesForm(forms.Form):
    """The roles a member holds beside being one; those the manager may not give or take away
    are shown, ticked or not, and cannot be changed."""

    roles = forms.MultipleChoiceField(label=_("Roles"), required=False, widget=forms.CheckboxSelectMultiple,
                                      choices=[(role.value, role.label) for role in GRANTABLE])


def _refused(request: HttpRequest, organisation: Organisation, refusal: JoiningError) -> HttpResponse:
    return render(request, "organisations/refused.html",
                  {"shown": organisation, "refusal": refusal, "refusal_words": words(refusal)},
                  status=refusal.status_code)


@login_required
def organisation_settings(request: HttpRequest, slug: str) -> HttpResponse:
    organisation = get_object_or_404(Organisation, slug=slug)
    if not can(request.user, Action.EDIT_ORGANISATION, organisation):
        return _refused(request, organisation, membership_services.MayNotEditOrganisation(
            "only the organisation's administrators change its settings"))
    form = SettingsForm(request.POST or None, request.FILES or None, instance=organisation)
    if request.method == "POST":
        if form.is_valid():
            form.save()
            messages.success(request, gettext("Settings saved."))
            return redirect("organisations:detail", slug=organisation.slug)
        return render(request, "organisations/settings.html", {"shown": organisation, "form": form}, status=400)
    return render(request, "organisations/settings.html", {"shown": organisation, "form": form})


@login_required
def member_roles(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """One member: their roles, as checkboxes (those the reader may change), and "Remove"."""
    organisation = get_object_or_404(Organisation, slug=slug)
    if not can(request.user, Action.MANAGE_MEMBERS, organisation):
        return _refused(request, organisation, membership_services.MayNotManageMembers(
            "only those who manage this organisation's members see this"))
    membership = get_object_or_404(Membership.objects.select_related("user", "organisation"),
                                   organisation=organisation, pk=pk)
    held = membership_services.held_roles(membership)
    givable = membership_services.givable_roles(request.user, membership)
    form = RolesForm(request.POST or None, initial={"roles": [role.value for role in held]})
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                membership_services.set_roles(request.user, membership, form.cleaned_data["roles"])
            except JoiningError as refusal:
                form.add_error(None, words(refusal))
                status = refusal.status_code
            else:
                messages.success(request, gettext("Roles saved."))
                return redirect("organisations:members", slug=organisation.slug)
        else:
            status = 400
    (person,) = members([membership])
    choices = [{"value": role.value, "label": role.label, "held": role in held, "givable": role in givable,
                "id": f"role-{role.value}"} for role in GRANTABLE]
    context = {"shown": organisation, "membership": membership, "person": person, "form": form,
               "choices": choices, "is_self": membership.user_id == request.user.pk,
               "member_label": Role.MEMBER.label}
    return render(request, "organisations/member_roles.html", context, status=status)


@login_required
@require_POST
def remove_member(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    organisation = get_object_or_404(Organisation, slug=slug)
    if not can(request.user, Action.MANAGE_MEMBERS, organisation):
        return _refused(request, organisation, membership_services.MayNotManageMembers(
            "only those who manage this organisation's members do this"))
    membership = get_object_or_404(Membership.objects.select_related("user"), organisation=organisation, pk=pk)
    (person,) = members([membership])
    try:
        membership_services.remove_member(request.user, membership)
    except JoiningError as refusal:
        return _refused(request, organisation, refusal)
    messages.success(request, gettext("%(name)s is no longer a member; the games they played stay in the "
                                      "history.") % {"name": person.name})
    return redirect("organisations:members", slug=organisation.slug)
