"""Writing accounts: signing up, the e-mail address and its verification, the language.

Every change goes through here, whichever page asks: the sign-up page, an invitation accepted
(which calls :func:`sign_up` the same way), the account page.
"""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import urljoin

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from outbox import services as outbox
from outbox.models import Message

from . import selectors, verification
from .errors import EmailInUse, LinkInvalid, LinkOutdated, LinkUsed
from .models import Person
from .signals import account_created

logger = logging.getLogger(__name__)


def sign_up(username: str, email: str, password: str, language: str = "", *, site_url: str) -> Any:
    """A new account: Django's user with ``password`` (hashed), its :class:`Person` in
    ``language`` (empty: the browser's), announced (``account_created``: ``records`` gives it
    its player), and a link mailed to ``email`` to verify it once the transaction commits.
    ``site_url`` is the site's address the link starts with (``request.build_absolute_uri("/")``).

    Raises :class:`EmailInUse` when an account has the address already (whatever its case), and
    creates nothing then. The username and the password are the sign-up form's to check, with
    Django's rules (``UserCreationForm``)."""
    if selectors.email_in_use(email):
        raise EmailInUse(f"an account already uses {email}")
    with transaction.atomic():
        user = get_user_model().objects.create_user(username=username, email=email.strip(), password=password)
        Person.objects.create(user=user, language=language)
        account_created.send(sender=Person, user=user)
        send_verification(user, site_url=site_url)
    return user


def change_email(user: Any, email: str, *, site_url: str) -> bool:
    """Give ``user`` the address ``email``, not verified until the link mailed to it is opened
    (the links sent to the address before verify nothing any more). Raises :class:`EmailInUse`
    when it is another account's, and changes nothing when it is theirs already. Returns whether
    a link was mailed."""
    if selectors.email_in_use(email, other_than=user):
        raise EmailInUse(f"another account already uses {email}")
    if user.email.strip().casefold() == email.strip().casefold():
        # The same address typed again: verified it stays; not yet, a new link goes to it.
        if selectors.person_of(user).email_verified_at is not None:
            return False
        send_verification(user, site_url=site_url)
        return True
    with transaction.atomic():
        user.email = email.strip()
        user.save(update_fields=["email"])
        Person.objects.update_or_create(user=user, defaults={"email_verified_at": None})
        send_verification(user, site_url=site_url)
    return True


def send_verification(user: Any, *, site_url: str) -> None:
    """Mail ``user`` a link that verifies their address, in their language, through the outbox:
    written in the present transaction, sent once it commits. A mail server that does not answer
    or a broker that is down delays it (the outbox's sweep) and the person may ask again from their
    account page: the account is there either way. The link is a key to the address: its body is
    not kept once sent."""
    link = urljoin(site_url, reverse("verify-email", args=[verification.token_for(user)]))
    language = selectors.mail_language(user)
    with translation.override(language):
        context = {"user": user, "link": link, "days": max(1, settings.LUDOLOG_VERIFICATION_LINK_SECONDS // 86400)}
        subject = render_to_string("registration/verify_email_subject.txt", context)
        body = render_to_string("registration/verify_email_email.txt", context)
    outbox.enqueue(Message.Kind.VERIFY_EMAIL, [user.email], subject, body, language=language, about=user,
                   blank_once_sent=True)


def verify_email(token: str) -> Any:
    """Mark the address a verification link was sent to as verified, and return its account.

    Raises :class:`~accounts.errors.LinkExpired` and :class:`~accounts.errors.LinkInvalid`
    (``verification.read``), :class:`LinkOutdated` when the account has another address now, and
    :class:`LinkUsed` when the address is verified already: a link verifies once."""
    user_id, email = verification.read(token)
    with transaction.atomic():
        user = get_user_model().objects.select_for_update().filter(pk=user_id).first()
        if user is None:
            raise LinkInvalid("the link's account does not exist any more")
        if user.email.strip().casefold() != email.strip().casefold():
            raise LinkOutdated("the account's address is not the one the link was sent to")
        person, _created = Person.objects.get_or_create(user=user)
        if person.email_verified_at is not None:
            raise LinkUsed("the address is verified already")
        person.email_verified_at = timezone.now()
        person.save(update_fields=["email_verified_at"])
    return user


def address_proven(user: Any) -> None:
    """``user`` opened a link mailed to their present address (a password reset's): it is theirs,
    verified from now if it was not yet."""
    person, _created = Person.objects.get_or_create(user=user)
    if person.email_verified_at is None:
        person.email_verified_at = timezone.now()
        person.save(update_fields=["email_verified_at"])


def set_language(user: Any, language: str) -> None:
    """The language of ``user``'s pages and mail (empty: the browser's)."""
    Person.objects.update_or_create(user=user, defaults={"language": language})
