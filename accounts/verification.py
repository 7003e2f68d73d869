"""The link that verifies an e-mail address: signed, expiring, used once.

It is a :class:`django.core.signing.TimestampSigner` signature of the account's id and the
address, rather than Django's ``default_token_generator``. The token generator's hash answers
only "valid or not": a person who opens an old link would read the same words whether it expired,
was used already or was cut short in their mail program, and each of those calls for a different
next step (ask for a new link, nothing to do, copy it whole). The signature says which (a bad
signature, a signature too old), and naming the address in it ties the link to the address it
was sent to: once the account has another, the old link verifies nothing. It is used once because
verifying is a change of state: a link whose address is verified already is refused as used
(:func:`accounts.services.verify_email`). Nothing is stored; the signature's key is
``SECRET_KEY``, with a salt of its own so that no other signed value of the site passes for one.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core import signing

from .errors import LinkExpired, LinkInvalid

SALT = "accounts.email-verification"


def token_for(user: Any) -> str:
    """The token of a link that verifies ``user``'s present address."""
    return signing.TimestampSigner(salt=SALT).sign_object({"user": user.pk, "email": user.email})


def read(token: str) -> tuple[int, str]:
    """The account id and the address ``token`` was made for.

    Raises :class:`LinkExpired` once ``LUDOLOG_VERIFICATION_LINK_SECONDS`` have passed, and
    :class:`LinkInvalid` for anything Ludolog did not sign (or signed for something else)."""
    try:
        value = signing.TimestampSigner(salt=SALT).unsign_object(
            token, max_age=settings.LUDOLOG_VERIFICATION_LINK_SECONDS)
    except signing.SignatureExpired as expired:
        raise LinkExpired(f"the link has expired: {expired}") from None
    except signing.BadSignature:
        raise LinkInvalid("the link's signature does not match") from None
    if not isinstance(value, dict) or not isinstance(value.get("user"), int) or not isinstance(value.get("email"), str):
        raise LinkInvalid("the link does not name an account and an address")
    return value["user"], value["email"]
