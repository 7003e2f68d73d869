"""An organisation's own pages for joining it: its public page (who it is, its members where
they may be seen, "Ask to join"), its "Members and invitations" area for those who invite (an
invitation by e-mail or as a link and QR code shown on a phone at the table, the invitations
pending, the requests to answer), and the invitation's page for the person invited (sign in or
create an account, then accept: a member at once).

Thin views over :mod:`ludolog.newcomers` and :mod:`accounts.joining`; a refusal is shown in the
reader's language with the refusal's HTTP status, and changes nothing.
"""

from __future__ import annotations

import io
from typing import Any

import segno
from django import forms
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, gettext_lazy as _
from django.views.decorators.http import require_POST

from accounts import joining
from accounts import services as accounts_services
from accounts.current import choose
from accounts.errors import EmailInUse
from accounts.forms import SignUpForm
from accounts.joining import JoiningError, refusal_words
from accounts.models import Invitation, JoinRequest, Membership, Organisation
from accounts.roles import Action, Role, can, sees_members
from ludolog import newcomers
from ludolog.members import members, memberships_of
from outbox import services as outbox
from records.errors import RecordError
from records.models import Player
from records.players import claimable_players

ORGANISATIONS_LISTED = 200
LINKS_KEPT = 20
"""The links of the invitations a person made that their session keeps, to show them again."""
LINKS = "ludolog:invitation-links"

RECORD_REFUSALS = {
    "player_not_claimable": _("This player is not one of this organisation's players without an account."),
    "player_has_an_account": _("The player this invitation names is already someone else's account: ask for a "
                               "new invitation."),
    "players_cannot_merge": _("Your player and the one this invitation names sat at the same game: they cannot "
                              "be one. Ask an organiser."),
}


def words(error: JoiningError | RecordError) -> str:
    if isinstance(error, JoiningError):
        return refusal_words(error)
    return str(RECORD_REFUSALS.get(error.reason, error.message))


# The public side: every organisation, one organisation, asking to join it.

def visiting(request: HttpRequest, organisation: Organisation) -> None:
    """A visitor (a member of no organisation) looking at an organisation's page or at an
    invitation to it is in its pages: the header names it, its lists are its."""
    if not getattr(getattr(request, "organisations", None), "mine", True):
        choose(request, organisation)


def organisation_list(request: HttpRequest) -> HttpResponse:
    organisations = Organisation.objects.order_by("name")[:ORGANISATIONS_LISTED]
    return render(request, "organisations/list.html", {"listed": organisations})


def organisation_page(request: HttpRequest, slug: str, *, refusal: JoiningError | None = None) -> HttpResponse:
    """Who the organisation is, its members where the reader may see them, and "Ask to join"."""
    organisation = get_object_or_404(Organisation, slug=slug)
    user = request.user
    visiting(request, organisation)
    member = user.is_authenticated and Membership.objects.filter(organisation=organisation, user=user).exists()
    asked = (JoinRequest.objects.filter(organisation=organisation, user=user).first()
             if user.is_authenticated and not member else None)
    context = {
        "shown": organisation,
        "member": member,
        "asked": asked,
        "members": members(memberships_of(organisation)) if sees_members(user, organisation) else None,
        "invites": can(user, Action.INVITE, organisation),
        "manages_members": can(user, Action.MANAGE_MEMBERS, organisation),
        "edits_settings": can(user, Action.EDIT_ORGANISATION, organisation),
        "runs_leagues": can(user, Action.RUN_LEAGUES, organisation),
        "refusal": refusal,
        "refusal_words": words(refusal) if refusal else "",
    }
    return render(request, "organisations/detail.html", context, status=refusal.status_code if refusal else 200)


@login_required
@require_POST
def ask_to_join(request: HttpRequest, slug: str) -> HttpResponse:
    organisation = get_object_or_404(Organisation, slug=slug)
    try:
        joining.ask_to_join(request.user, organisation, request.POST.get("message", ""))
    except JoiningError as refused:
        return organisation_page(request, slug, refusal=refused)
    messages.success(request, gettext("Your request to join %(organisation)s is sent: its organisers will "
                                      "answer.") % {"organisation": organisation.name})
    return redirect("organisations:detail", slug=organisation.slug)


# Members and invitations: for those who invite.

class InvitationForm(forms.Form):
    """An invitation: the role (those the inviter may give), an address to mail it to (none: a
    link shown at the table), how many days it lasts, and a player of the club's history the
    person invited will be."""

    role = forms.ChoiceField(label=_("Role"), widget=forms.RadioSelect)
    email = forms.EmailField(label=_("E-mail (optional)"), required=False,
                             help_text=_("The invitation is mailed there. Leave empty to show a link and a QR code "
                                         "on this phone."))
    days = forms.IntegerField(label=_("Valid for (days)"), min_value=1, max_value=joining.MOST_DAYS,
                              initial=joining.DAYS)
    player = forms.ModelChoiceField(
        label=_("Player of the club's history (optional)"), required=False, queryset=Player.objects.none(),
        empty_label=_("None: a new player"),
        help_text=_("The person invited becomes this player, with the games already recorded under the name."))

    def __init__(self, *args: Any, inviter: Any, organisation: Organisation, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["role"].choices = [(role.value, role.label)
                                       for role in joining.invitable_roles(inviter, organisation)]
        self.fields["role"].initial = Role.MEMBER.value
        players = claimable_players(organisation, seen_by=inviter).order_by("display_name")
        if players.exists():
            self.fields["player"].queryset = players
        else:  # a club without a history: nobody to name
            del self.fields["player"]


def _inviting(request: HttpRequest, slug: str) -> tuple[Organisation, HttpResponse | None]:
    """The organisation, and the refusal to show those who may not invite in it."""
    organisation = get_object_or_404(Organisation, slug=slug)
    if can(request.user, Action.INVITE, organisation):
        return organisation, None
    refused = joining.MayNotInvite("only those who invite in this organisation see this")
    return organisation, render(request, "organisations/refused.html",
                                {"shown": organisation, "refusal": refused, "refusal_words": words(refused)},
                                status=refused.status_code)


def _keep_link(request: HttpRequest, invitation: Invitation, link: str) -> None:
    kept = dict(request.session.get(LINKS, {}))
    kept[str(invitation.pk)] = link
    request.session[LINKS] = dict(list(kept.items())[-LINKS_KEPT:])


def link_of(request: HttpRequest, token: str) -> str:
    return request.build_absolute_uri(reverse("organisations:invitation", kwargs={"token": token}))


@login_required
def members_and_invitations(request: HttpRequest, slug: str) -> HttpResponse:
    """Invite someone; the invitations pending (revoke); the requests to join (accept, decline);
    the members."""
    organisation, refused = _inviting(request, slug)
    if refused:
        return refused
    # ``?role=desk``: a page that invites for one role (the desk volunteers') comes with it chosen.
    wanted = request.GET.get("role", "")
    chosen = {"role": wanted} if wanted in joining.invitable_roles(request.user, organisation) else None
    form = InvitationForm(request.POST or None, inviter=request.user, organisation=organisation, initial=chosen)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            player = data.get("player")
            try:
                invitation, link = newcomers.invite(
                    request.user, organisation, data["role"], email=data["email"], days=data["days"],
                    player_id=player.pk if player else None, link=lambda token: link_of(request, token))
            except (JoiningError, RecordError) as refusal:
                form.add_error(None, words(refusal))
                status = refusal.status_code
            else:
                _keep_link(request, invitation, link)
                return redirect("organisations:invitation-link", slug=organisation.slug, pk=invitation.pk)
        else:
            status = 400
    pending = list(joining.pending_invitations(organisation).select_related("created_by"))
    claimed = dict(Player.objects.filter(pk__in=[i.player_id for i in pending if i.player_id])
                   .values_list("pk", "display_name"))
    context = {
        "shown": organisation, "form": form,
        "pending": [{"invitation": invitation, "role": Role(invitation.role).label,
                     "player": claimed.get(invitation.player_id, ""),
                     "link_kept": str(invitation.pk) in request.session.get(LINKS, {})} for invitation in pending],
        "requests": list(joining.open_requests(organisation)),
        "members": members(memberships_of(organisation)),
        "manages_members": can(request.user, Action.MANAGE_MEMBERS, organisation),
    }
    return render(request, "organisations/members.html", context, status=status)


def qr_svg(link: str) -> str:
    """The link as a QR code, an inline SVG that scales to its box (error correction M: a phone
    screen's glare or a crease)."""
    buffer = io.BytesIO()
    segno.make_qr(link, error="m", boost_error=False).save(
        buffer, kind="svg", scale=1, border=4, xmldecl=False, svgns=True, omitsize=True, nl=False,
        svgclass="invitation-qr", title=gettext("QR code of the invitation link"))
    return buffer.getvalue().decode()


@login_required
def invitation_link_page(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """An invitation just made: its link and its QR code, to show the person at the table (the
    session that made it keeps the link; nobody else can see it again)."""
    organisation, refused = _inviting(request, slug)
    if refused:
        return refused
    invitation = get_object_or_404(Invitation, organisation=organisation, pk=pk)
    link = request.session.get(LINKS, {}).get(str(invitation.pk), "")
    context = {"shown": organisation, "invitation": invitation, "role": Role(invitation.role).label, "link": link,
               "qr": mark_safe(qr_svg(link)) if link and invitation.is_open(timezone.now()) else "",
               "open": invitation.is_open(timezone.now()),
               # Mailed, on its way (a worker sends it), or refused by the mail server so far.
               "mail": outbox.messages_about(invitation).order_by("-created_at").first()}
    return render(request, "organisations/invitation_link.html", context)


@login_required
@require_POST
def revoke(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    organisation = get_object_or_404(Organisation, slug=slug)
    invitation = get_object_or_404(Invitation, organisation=organisation, pk=pk)
    try:
        joining.revoke(request.user, invitation)
    except JoiningError as refusal:
        return _refused(request, organisation, refusal)
    messages.success(request, gettext("Invitation withdrawn: its link opens nothing any more."))
    return redirect("organisations:members", slug=organisation.slug)


@login_required
@require_POST
def decide(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    organisation = get_object_or_404(Organisation, slug=slug)
    join_request = get_object_or_404(JoinRequest.objects.select_related("user"), organisation=organisation, pk=pk)
    accepted = request.POST.get("decision") == "accept"
    try:
        newcomers.decide(request.user, join_request, accepted, page=request.build_absolute_uri(
            reverse("organisations:detail", kwargs={"slug": organisation.slug})))
    except (JoiningError, RecordError) as refusal:
        return _refused(request, organisation, refusal)
    name = join_request.user.get_username()
    messages.success(request, (gettext("%(name)s is a member now.") if accepted
                               else gettext("%(name)s's request is declined.")) % {"name": name})
    return redirect("organisations:members", slug=organisation.slug)


def _refused(request: HttpRequest, organisation: Organisation, refusal: JoiningError | RecordError) -> HttpResponse:
    return render(request, "organisations/refused.html",
                  {"shown": organisation, "refusal": refusal, "refusal_words": words(refusal)},
                  status=refusal.status_code)


# The invitation, for the person invited.

def sign_up(request: HttpRequest, form: SignUpForm) -> Any:
    """The account ``form`` describes, made as the sign-up page makes one (its player comes with
    it, and a link to verify its address is mailed)."""
    data = form.cleaned_data
    return accounts_services.sign_up(data["username"], data["email"], data["password1"], data["language"],
                                     site_url=request.build_absolute_uri("/"))


def invitation_page(request: HttpRequest, token: str) -> HttpResponse:
    """The invitation's page: whose it is and the role it gives; to accept, sign in, or create
    an account here. Accepting makes the person a member at once, and takes them to the
    organisation's home."""
    try:
        found = joining.invitation_of(token)
        joining.check_open(found)
    except JoiningError as refusal:
        return render(request, "organisations/invitation_closed.html",
                      {"refusal": refusal, "refusal_words": words(refusal)}, status=refusal.status_code)
    organisation = found.organisation
    visiting(request, organisation)
    signed_in = request.user.is_authenticated
    form = SignUpForm(request.POST if request.method == "POST" and not signed_in else None,
                      initial={"email": found.email})
    status = 200
    refusal: JoiningError | RecordError | None = None
    if request.method == "POST":
        try:
            with transaction.atomic():  # a refused invitation makes no account either
                if signed_in:
                    user = request.user
                elif form.is_valid():
                    user = sign_up(request, form)
                else:
                    user = None
                if user is not None:
                    newcomers.join_with_invitation(token, user)
        except (JoiningError, RecordError) as refused:
            refusal, status = refused, refused.status_code
        except EmailInUse as taken:  # taken between the form's check and now
            form.add_error("email", ValidationError(taken.words, code=taken.reason))
            status = taken.status_code
        else:
            if user is not None:
                if not signed_in:
                    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
                choose(request, organisation)
                messages.success(request, gettext("Welcome to %(organisation)s: you are a member.")
                                 % {"organisation": organisation.name})
                return redirect("home")
            status = 400
    context = {"invitation": found, "shown": organisation, "role": Role(found.role).label, "form": form,
               "already": signed_in and Membership.objects.filter(organisation=organisation, user=request.user).exists(),
               "refusal": refusal, "refusal_words": words(refusal) if refusal else ""}
    return render(request, "organisations/invitation.html", context, status=status)
