"""Organisations, the people in them and their roles.

A club, a ludothèque, or a ludothèque that runs a club, is an :class:`Organisation`; one
installation hosts many. A person (an account) belongs to several with a :class:`Membership`
each, which holds their roles there (:class:`MembershipRole`; being a member is the membership
itself). What each role may do is :mod:`accounts.roles`, and nothing else decides it.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
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
    membership = models.ForeignKey(Membership, on_delete=models.CASCADE, related_name="roles")
    role = models.CharField(_("role"), max_length=16, choices=[(role.value, role.label) for role in GRANTABLE])

    class Meta:
        ordering = ["membership", "role"]
        verbose_name = _("role")
        verbose_name_plural = _("roles")
        constraints = [models.UniqueConstraint(fields=["membership", "role"], name="membership_role_once")]

    def __str__(self) -> str:
        return Role(self.role).label
