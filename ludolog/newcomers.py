"""A newcomer's arrival in an organisation, across the apps: the membership
(:mod:`accounts.joining`), the player their account is (:func:`records.players.player_of_account`)
and the mail, in one place that the pages and the API both call.

For a person, their account and their player are one: joining an organisation gives them a player
linked to the account (their own, the one of the club's history an invitation names, or a new one
named after the account), in the same transaction as the membership: a refusal of either changes
nothing.

Mail goes in the outbox (:mod:`outbox`) in the transaction of the change, rendered in the
recipient's language (their own where their account has one, else the organisation's), and a
worker sends it once the change is committed (at once in ``make run``). A mail that cannot be sent
fails nothing: the invitation's link is on its maker's screen, and the decision on a request on
the asker's pages. The invitation's mail carries the link's raw token, kept nowhere else: its
body is blanked in the outbox once it is sent (``blank_once_sent``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import translation

from accounts import joining
from accounts.models import Invitation, JoinRequest, Membership, Organisation, Person
from accounts.roles import Role
from outbox import services as outbox
from outbox.models import Message
from records.models import Player
from records.players import check_claimable, player_of_account

Link = Callable[[str], str]
"""Given an invitation's raw token, its link as a full address (the request's host)."""


def invite(by: Any, organisation: Organisation, role: Role | str = Role.MEMBER, email: str | None = None,
           days: int = joining.DAYS, player_id: int | None = None, *, link: Link) -> tuple[Invitation, str]:
    """Invite someone (:func:`accounts.joining.invite`), the player named being one of the
    organisation's history without an account that ``by`` may see; mailed when an address is
    given. Returns the invitation and its link."""
    check_claimable(player_id, organisation, seen_by=by)
    with transaction.atomic():
        invitation, raw_token = joining.invite(by, organisation, role, email=email, days=days, player_id=player_id)
        address = link(raw_token)
        if invitation.email:
            mail_invitation(invitation, address)
    return invitation, address


@transaction.atomic
def join_with_invitation(raw_token: str, user: Any) -> tuple[Membership, Player]:
    """``user`` accepts the invitation: a member at once (:func:`accounts.joining.accept`), and the
    player it names, or their own, or a new one, theirs."""
    claim = joining.invitation_of(raw_token).player_id
    membership = joining.accept(raw_token, user)
    return membership, player_of_account(user, claim=claim)


@transaction.atomic
def decide(by: Any, join_request: JoinRequest, accepted: bool, *, page: str = "") -> Membership | None:
    """Accept or decline a request to join (:func:`accounts.joining.decide`); the new member's
    player is theirs; the asker is told by mail (``page``: the organisation's page, as a full
    address)."""
    membership = joining.decide(by, join_request, accepted)
    if membership is not None:
        player_of_account(membership.user)
    mail_decision(join_request.pk, page)
    return membership


def language_of(user: Any, organisation: Organisation) -> str:
    """The language a mail to ``user`` (an account or ``None``) is written in: theirs, else the
    organisation's."""
    chosen = Person.objects.filter(user=user).values_list("language", flat=True).first() if user else None
    return chosen or organisation.language or settings.LANGUAGE_CODE


def mail_invitation(invitation: Invitation, address: str) -> Message:
    """Put the invitation's link in the outbox for its address, in the language of the account the
    address is (if one is), else the organisation's; its ``emailed_at`` is set when it goes
    (:mod:`accounts.mailed`)."""
    account = get_user_model().objects.filter(email__iexact=invitation.email).first()
    with translation.override(language_of(account, invitation.organisation)):
        context = {"invitation": invitation, "organisation": invitation.organisation, "link": address,
                   "role": Role(invitation.role).label,
                   "by": invitation.created_by.get_username() if invitation.created_by else ""}
        return _enqueue(Message.Kind.INVITATION, "organisations/mail/invitation", context, invitation.email,
                        about=invitation, blank_once_sent=True)


def mail_decision(join_request_id: int, page: str = "") -> Message | None:
    """Tell the person who asked to join whether they were accepted (through the outbox)."""
    join_request = JoinRequest.objects.select_related("user", "organisation").get(pk=join_request_id)
    if not join_request.user.email:
        return None
    with translation.override(language_of(join_request.user, join_request.organisation)):
        context = {"join_request": join_request, "organisation": join_request.organisation,
                   "user": join_request.user, "page": page}
        return _enqueue(Message.Kind.JOIN_DECISION, "organisations/mail/decision", context, join_request.user.email,
                        about=join_request)


def _enqueue(kind: Message.Kind, template: str, context: dict[str, Any], address: str, **options: Any) -> Message:
    subject = " ".join(render_to_string(f"{template}_subject.txt", context).split())
    body = render_to_string(f"{template}.txt", context)
    return outbox.enqueue(kind, [address], subject, body, language=translation.get_language() or "", **options)
