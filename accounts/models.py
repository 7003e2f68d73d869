"""Organisations, the people in them and their roles.

A club, a ludothèque, or a ludothèque that runs a club, is an :class:`Organisation`; one
installation hosts many. A person (an account) belongs to several with a :class:`Membership`
each, which holds their roles there (:class:`MembershipRole`; being a member is the membership
itself). What each role may do is :mod:`accounts.roles`, and nothing else decides it.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .roles import GRANTABLE, Role


class Person(models.Model):
    """What Ludolog keeps of an account beyond Django's user: the language its pages and mails
    are in, and when its e-mail address was verified (a mailed link: sign-in by e-mail and mail
    to it wait for it)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True,
                                related_name="person", verbose_name=_("account"))
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES, blank=True,
                                help_text=_("Pages and mails in this language; empty: the browser's."))
    email_verified_at = models.DateTimeField(_("e-mail verified"), null=True, blank=True)

    class Meta:
        verbose_name = _("person")
        verbose_name_plural = _("people")

    def __str__(self) -> str:
        return str(self.user)


class Organisation(models.Model):
    class Kind(models.TextChoices):
        CLUB = "club", _("club")
        LIBRARY = "library", _("game library")
        BOTH = "both", _("game library with a club")

    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("short name in addresses"), max_length=60, unique=True)
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices, default=Kind.CLUB)
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES,
                                default=settings.LANGUAGE_CODE,
                                help_text=_("The language of its pages and mails for those who have not chosen one."))
    logo = models.ImageField(_("logo"), upload_to="logos/", blank=True)
    contact_email = models.EmailField(_("contact e-mail"), blank=True)
    phone = models.CharField(_("phone"), max_length=40, blank=True)
    address = models.CharField(_("address"), max_length=200, blank=True)
    town = models.CharField(_("town"), max_length=100, blank=True)
    members_public = models.BooleanField(
        _("member list public"), default=False,
        help_text=_("Anyone may see who its members are; otherwise only its members."))
    open_to_requests = models.BooleanField(
        _("visitors may ask to join"), default=False,
        help_text=_("A signed-in visitor may ask to join; an organiser or a librarian accepts or declines."))
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("organisation")
        verbose_name_plural = _("organisations")

    def __str__(self) -> str:
        return self.name

    @property
    def runs_a_club(self) -> bool:
        return self.kind in (self.Kind.CLUB, self.Kind.BOTH)

    @property
    def lends_games(self) -> bool:
        return self.kind in (self.Kind.LIBRARY, self.Kind.BOTH)


class Membership(models.Model):
    """A person in an organisation. Being a member is the membership; the roles beside it are
    :class:`MembershipRole` rows."""

    organisation = models.ForeignKey(Organisation, on_delete=models.CASCADE, related_name="memberships",
                                     verbose_name=_("organisation"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships",
                             verbose_name=_("account"))
    joined_at = models.DateTimeField(_("joined"), auto_now_add=True)

    class Meta:
        ordering = ["organisation", "user"]
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [models.UniqueConstraint(fields=["organisation", "user"], name="membership_once")]

    def __str__(self) -> str:
        return f"{self.user} · {self.organisation}"


class MembershipRole(models.Model):
    membership = models.ForeignKey(Membership, on_delete=models.CASCADE, related_name="roles",
                                   verbose_name=_("membership"))
    role = models.CharField(_("role"), max_length=16, choices=[(role.value, role.label) for role in GRANTABLE])

    class Meta:
        ordering = ["membership", "role"]
        verbose_name = _("role")
        verbose_name_plural = _("roles")
        constraints = [models.UniqueConstraint(fields=["membership", "role"], name="membership_role_once")]

    def __str__(self) -> str:
        return Role(self.role).label


INVITABLE = (Role.MEMBER, *GRANTABLE)
"""The roles an invitation may give: being a member, or a member with one role beside."""


class Invitation(models.Model):
    """An invitation to join an organisation with a role, sent by e-mail or shown as a link or a
    QR code at the table; accepting it makes its holder a member at once (``accounts.joining``).

    Its link carries a random token of which only the SHA-256 is kept here: whoever reads this
    table cannot build a link. It is used once, until it expires, unless it is revoked.

    ``player_id`` names a player of the organisation's history (``records.Player``) that the
    account accepting the invitation becomes. It is a plain number and not a foreign key because
    ``accounts`` is the bottom layer and knows nothing of the game records; ``records`` keeps it
    right (a merge moves it to the player kept) and checks it when the invitation is made and
    accepted (``records.players``).
    """

    organisation = models.ForeignKey(Organisation, on_delete=models.CASCADE, related_name="invitations",
                                     verbose_name=_("organisation"))
    role = models.CharField(_("role"), max_length=16, default=Role.MEMBER,
                            choices=[(role.value, role.label) for role in INVITABLE])
    email = models.EmailField(_("e-mail"), blank=True,
                              help_text=_("Where the invitation was mailed; empty for a link shown at the table."))
    player_id = models.PositiveBigIntegerField(_("player to claim"), null=True, blank=True)
    token_hash = models.CharField(max_length=64, unique=True, editable=False, verbose_name=_("token hash"))
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                                   related_name="+", verbose_name=_("invited by"))
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    expires_at = models.DateTimeField(_("expires"))
    emailed_at = models.DateTimeField(_("mailed"), null=True, blank=True)
    accepted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                    related_name="+", verbose_name=_("accepted by"))
    accepted_at = models.DateTimeField(_("accepted"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")

    def __str__(self) -> str:
        return f"{self.organisation} · {Role(self.role).label} · {self.email or '—'}"

    def is_open(self, now: dt.datetime) -> bool:
        """Whether the invitation may still be accepted at ``now``."""
        return self.accepted_at is None and self.revoked_at is None and now < self.expires_at


class JoinRequest(models.Model):
    """A signed-in visitor asking to join an organisation that takes requests
    (``Organisation.open_to_requests``); an organiser or a librarian accepts (a membership) or
    declines it. One a person and organisation."""

    organisation = models.ForeignKey(Organisation, on_delete=models.CASCADE, related_name="join_requests",
                                     verbose_name=_("organisation"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="join_requests",
                             verbose_name=_("account"))
    message = models.TextField(_("message"), max_length=500, blank=True)
    created_at = models.DateTimeField(_("asked"), default=timezone.now)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+", verbose_name=_("decided by"))
    decided_at = models.DateTimeField(_("decided"), null=True, blank=True)
    accepted = models.BooleanField(_("accepted"), null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name = _("request to join")
        verbose_name_plural = _("requests to join")
        constraints = [models.UniqueConstraint(fields=["organisation", "user"], name="join_request_once")]

    def __str__(self) -> str:
        return f"{self.user} → {self.organisation}"
