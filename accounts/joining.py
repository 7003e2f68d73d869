"""Joining an organisation: invitations and requests to join.

An organiser, a librarian or an administrator (whoever :data:`~accounts.roles.Action.INVITE`
allows) invites with a role they may give (:func:`~accounts.roles.may_grant`; being a plain
member, anyone who invites): by e-mail, or by a link or QR code shown at the table. The link
carries a random token (:func:`secrets.token_urlsafe`, 256 bits) that is kept only as its SHA-256:
unguessable, used once, until it expires, unless revoked. Accepting it makes the person a member
at once. A signed-in visitor may ask to join an organisation that takes requests, once; those
who invite accept or decline.

Each refusal is a :class:`JoiningError` with a stable ``reason`` and the HTTP status the API
answers with (as ``records.errors`` and ``loans.errors``); a refusal changes nothing. What joining
means beyond the membership (the person's player, the mail) is the site's
(``ludolog.newcomers``): this module knows nothing of the other apps.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import secrets
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .models import INVITABLE, Invitation, JoinRequest, Membership, MembershipRole, Organisation
from .roles import Action, Role, allows, may_grant, roles_of

DAYS = 14
"""How long an invitation is valid unless its maker says otherwise."""
MOST_DAYS = 90
TOKEN_BYTES = 32


class JoiningError(Exception):
    """Base: every subclass carries a stable ``reason`` and the HTTP status it maps to."""

    reason = "joining_error"
    status_code = 400

    def __init__(self, message: str, **details: object) -> None:
        super().__init__(message)
        self.message = message
        self.details = details


class InvitationUnknown(JoiningError):
    """No invitation has this token: mistyped, cut short, or guessed."""

    reason = "invitation_unknown"
    status_code = 404


class InvitationExpired(JoiningError):
    reason = "invitation_expired"
    status_code = 410


class InvitationUsed(JoiningError):
    reason = "invitation_used"
    status_code = 409


class InvitationRevoked(JoiningError):
    reason = "invitation_revoked"
    status_code = 410


class MayNotInvite(JoiningError):
    """Not one who invites in this organisation (an organiser of another one, a plain member)."""

    reason = "may_not_invite"
    status_code = 403


class MayNotGrant(JoiningError):
    """A role the inviter may not give (a librarian inviting an organiser)."""

    reason = "may_not_grant_role"
    status_code = 403


class InvalidInvitation(JoiningError):
    """A role no invitation gives, an e-mail address that is none, a validity out of bounds:
    ``field`` names which."""

    reason = "invalid_invitation"
    status_code = 400


class AlreadyMember(JoiningError):
    reason = "already_member"
    status_code = 409


class NotOpenToRequests(JoiningError):
    reason = "not_open_to_requests"
    status_code = 403


class AlreadyAsked(JoiningError):
    reason = "already_asked"
    status_code = 409


class RequestDecided(JoiningError):
    reason = "request_decided"
    status_code = 409


REFUSAL_WORDS = {
    "invitation_unknown": _("This invitation link is not one we know: check that it was copied whole."),
    "invitation_expired": _("This invitation has expired: ask for a new one."),
    "invitation_used": _("This invitation has already been used: each one lets one person in."),
    "invitation_revoked": _("This invitation was withdrawn: ask for a new one."),
    "may_not_invite": _("Only the organisers, librarians and administrators of this organisation do this."),
    "may_not_grant_role": _("You may not give this role."),
    "invalid_invitation": _("Check the role, the e-mail address and the number of days."),
    "already_member": _("You are already a member, with this role."),
    "not_open_to_requests": _("This organisation does not take requests to join: ask one of its organisers."),
    "already_asked": _("You have already asked to join."),
    "request_decided": _("This request has already been answered."),
    "may_not_manage_members": _("Only those who manage this organisation's members do this."),
    "may_not_edit_organisation": _("Only the organisation's administrators change its settings."),
    "last_manager": _("Nobody would be left to manage the members: give someone else this role first."),
}
"""The refusals in the reader's language, for the pages (the API answers in English)."""


def refusal_words(error: JoiningError) -> str:
    return str(REFUSAL_WORDS.get(error.reason, error.message))


def hashed(raw_token: str) -> str:
    """What is kept of an invitation's token: its SHA-256, in hexadecimal."""
    return hashlib.sha256(raw_token.encode()).hexdigest()


def invitable_roles(by: Any, organisation: Organisation) -> list[Role]:
    """The roles ``by`` may invite someone to in ``organisation`` (none where they may not
    invite): being a member, and the roles they may give."""
    roles = roles_of(by, organisation)
    if not allows(roles, Action.INVITE):
        return []
    return [role for role in INVITABLE if role is Role.MEMBER or may_grant(roles, role)]


def invite(by: Any, organisation: Organisation, role: Role | str = Role.MEMBER, email: str | None = None,
           days: int = DAYS, player_id: int | None = None, *,
           now: dt.datetime | None = None) -> tuple[Invitation, str]:
    """Invite someone to ``organisation`` with ``role``; returns the invitation and the raw
    token its link carries (kept nowhere: shown or mailed once). ``email``: where it is mailed
    (none: a link shown at the table); ``player_id``: a player of the organisation's history
    the person will be (checked by the caller, ``records.players.check_claimable``).

    Refused unless ``by`` may invite there (:class:`MayNotInvite`) and give ``role``
    (:class:`MayNotGrant`)."""
    try:
        role = Role(role)
    except ValueError:
        raise InvalidInvitation(f"{role!r} is not a role", field="role") from None
    if role not in INVITABLE:
        raise InvalidInvitation(f"no invitation makes an {role.value}", field="role")
    held = roles_of(by, organisation)
    if not allows(held, Action.INVITE):
        raise MayNotInvite(f"only those who invite in {organisation.name} invite to it",
                           organisation=organisation.pk)
    if role is not Role.MEMBER and not may_grant(held, role):
        raise MayNotGrant(f"you may not give the role {role.value} in {organisation.name}", role=role.value)
    email = (email or "").strip()
    if email:
        try:
            validate_email(email)
        except ValidationError:
            raise InvalidInvitation(f"{email!r} is not an e-mail address", field="email") from None
    if not isinstance(days, int) or not 1 <= days <= MOST_DAYS:
        raise InvalidInvitation(f"an invitation lasts 1 to {MOST_DAYS} days", field="days")
    now = now or timezone.now()
    raw_token = secrets.token_urlsafe(TOKEN_BYTES)
    invitation = Invitation.objects.create(
        organisation=organisation, role=role, email=email, player_id=player_id, token_hash=hashed(raw_token),
        created_by=by if getattr(by, "is_authenticated", False) else None, created_at=now,
        expires_at=now + dt.timedelta(days=days))
    return invitation, raw_token


def invitation_of(raw_token: str, *, lock: bool = False) -> Invitation:
    """The invitation ``raw_token`` opens, whatever its state (:class:`InvitationUnknown` for
    none). Found by its hash, then the two hashes compared in constant time: the time an answer
    takes says nothing of how near a guess came."""
    wanted = hashed(raw_token)
    invitations = Invitation.objects.select_related("organisation")
    if lock:
        invitations = invitations.select_for_update(of=("self",))
    found = invitations.filter(token_hash=wanted).first()
    if found is None or not hmac.compare_digest(found.token_hash, wanted):
        raise InvitationUnknown("no invitation has this token")
    return found


def check_open(invitation: Invitation, now: dt.datetime | None = None) -> None:
    """Refuse an invitation that may no longer be accepted: used, revoked or expired (in that
    order: a used invitation is used even once expired)."""
    now = now or timezone.now()
    if invitation.accepted_at is not None:
        raise InvitationUsed("this invitation has already been used")
    if invitation.revoked_at is not None:
        raise InvitationRevoked("this invitation was revoked")
    if now >= invitation.expires_at:
        raise InvitationExpired(f"this invitation expired on {invitation.expires_at.isoformat()}",
                                expired_at=invitation.expires_at.isoformat())


@transaction.atomic
def accept(raw_token: str, user: Any, *, now: dt.datetime | None = None) -> Membership:
    """``user`` takes the invitation ``raw_token`` opens: a member of its organisation at once,
    with its role; the invitation is used. Refused (nothing changes) when unknown, used, revoked
    or expired, or when ``user`` is already a member with that role (:class:`AlreadyMember`)."""
    now = now or timezone.now()
    invitation = invitation_of(raw_token, lock=True)
    check_open(invitation, now)
    membership, created = Membership.objects.get_or_create(organisation=invitation.organisation, user=user)
    if invitation.role == Role.MEMBER:
        if not created:
            raise AlreadyMember(f"already a member of {invitation.organisation.name}")
    else:
        _role, given = MembershipRole.objects.get_or_create(membership=membership, role=invitation.role)
        if not given:
            raise AlreadyMember(f"already {invitation.role} of {invitation.organisation.name}")
    invitation.accepted_by, invitation.accepted_at = user, now
    invitation.save(update_fields=["accepted_by", "accepted_at"])
    return membership


@transaction.atomic
def revoke(by: Any, invitation: Invitation, *, now: dt.datetime | None = None) -> Invitation:
    """Withdraw an invitation not yet used: its link opens nothing any more. Those who may invite
    to its role revoke it."""
    invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
    held = roles_of(by, invitation.organisation)
    if not allows(held, Action.INVITE):
        raise MayNotInvite("only those who invite in this organisation revoke its invitations")
    if invitation.role != Role.MEMBER and not may_grant(held, Role(invitation.role)):
        raise MayNotGrant(f"you may not give the role {invitation.role}, nor revoke an invitation to it")
    if invitation.accepted_at is not None:
        raise InvitationUsed("this invitation has already been used")
    if invitation.revoked_at is not None:
        raise InvitationRevoked("this invitation was already revoked")
    invitation.revoked_at = now or timezone.now()
    invitation.save(update_fields=["revoked_at"])
    return invitation


def pending_invitations(organisation: Organisation, now: dt.datetime | None = None) -> QuerySet[Invitation]:
    """The invitations of ``organisation`` that may still be accepted, newest first."""
    return Invitation.objects.filter(organisation=organisation, accepted_at__isnull=True, revoked_at__isnull=True,
                                     expires_at__gt=now or timezone.now())


def ask_to_join(user: Any, organisation: Organisation, message: str = "", *,
                now: dt.datetime | None = None) -> JoinRequest:
    """``user`` asks to join ``organisation``: only where it takes requests, once, and not
    already a member."""
    if not organisation.open_to_requests:
        raise NotOpenToRequests(f"{organisation.name} does not take requests to join")
    if Membership.objects.filter(organisation=organisation, user=user).exists():
        raise AlreadyMember(f"already a member of {organisation.name}")
    try:
        with transaction.atomic():
            return JoinRequest.objects.create(organisation=organisation, user=user, message=message.strip()[:500],
                                              created_at=now or timezone.now())
    except IntegrityError:  # the unique constraint: asked before (or twice at once)
        raise AlreadyAsked(f"already asked to join {organisation.name}") from None


@transaction.atomic
def decide(by: Any, join_request: JoinRequest, accepted: bool, *,
           now: dt.datetime | None = None) -> Membership | None:
    """Accept (a membership, returned) or decline (``None``) a request to join, once; those who
    invite in its organisation decide."""
    join_request = JoinRequest.objects.select_for_update().select_related("organisation").get(pk=join_request.pk)
    if not allows(roles_of(by, join_request.organisation), Action.INVITE):
        raise MayNotInvite("only those who invite in this organisation answer its requests to join")
    if join_request.decided_at is not None:
        raise RequestDecided("this request has already been answered", accepted=join_request.accepted)
    join_request.decided_by, join_request.decided_at, join_request.accepted = by, now or timezone.now(), accepted
    join_request.save(update_fields=["decided_by", "decided_at", "accepted"])
    if not accepted:
        return None
    membership, _created = Membership.objects.get_or_create(organisation=join_request.organisation,
                                                            user=join_request.user)
    return membership


def open_requests(organisation: Organisation) -> QuerySet[JoinRequest]:
    """The requests to join ``organisation`` not yet answered, oldest first."""
    return JoinRequest.objects.filter(organisation=organisation, decided_at__isnull=True).select_related("user")
