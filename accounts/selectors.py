"""Reading organisations and their people."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model

from .models import Membership, Organisation, Person
from .roles import Role

LENDING_KINDS = (Organisation.Kind.LIBRARY, Organisation.Kind.BOTH)


def only_library() -> Organisation | None:
    """The installation's game library when it has exactly one: where a copy catalogued without
    naming its library goes (the demo, a ludothèque alone on its installation, the operator's
    command line); ``None`` when there are none or several."""
    libraries = list(Organisation.objects.filter(kind__in=LENDING_KINDS)[:2])
    return libraries[0] if len(libraries) == 1 else None


def person_of(user: Any) -> Person:
    """What Ludolog keeps of ``user`` beyond Django's user: their :class:`Person`, or a blank one
    not saved (an account made before people had one, in the admin or by a command: no language
    chosen, no address verified); the services save it when something is set."""
    return Person.objects.filter(user=user).first() or Person(user=user)


def email_in_use(email: str, *, other_than: Any = None) -> bool:
    """Whether an account (other than ``other_than``) has the address ``email``, whatever its case:
    an address is one account's, so that sign-in by e-mail and a password reset find one person."""
    email = email.strip()
    if not email:
        return False
    accounts = get_user_model().objects.filter(email__iexact=email)
    if other_than is not None:
        accounts = accounts.exclude(pk=other_than.pk)
    return accounts.exists()


def mail_language(user: Any) -> str:
    """The language of the mail ``user`` is sent: the one they chose, else that of their first
    organisation, else the installation's."""
    chosen = Person.objects.filter(user=user).values_list("language", flat=True).first()
    if chosen:
        return chosen
    theirs = (Organisation.objects.filter(memberships__user=user).order_by("memberships__joined_at", "pk")
              .values_list("language", flat=True).first())
    return theirs or settings.LANGUAGE_CODE


@dataclass(frozen=True)
class Belonging:
    """An organisation a person belongs to, and their roles there (a member first)."""

    organisation: Organisation
    roles: tuple[Role, ...]


def belongings(user: Any) -> list[Belonging]:
    """The organisations ``user`` belongs to with their roles there, oldest membership first (one
    query for the memberships, one for their roles)."""
    order = list(Role)
    found = []
    for membership in (Membership.objects.filter(user=user).select_related("organisation")
                       .prefetch_related("roles").order_by("joined_at", "pk")):
        held = sorted({Role(row.role) for row in membership.roles.all()}, key=order.index)
        found.append(Belonging(membership.organisation, (Role.MEMBER, *held)))
    return found
