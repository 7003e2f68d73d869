"""The refusals of the accounts' own flows (sign-up, the e-mail's verification link): each carries
a stable ``reason`` and the HTTP status a page answers it with, as ``records.errors`` and
``loans.errors`` do, and changes nothing."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _


class AccountError(Exception):
    reason = "account_error"
    status_code = 400
    words = _("This cannot be done.")
    """What the person reads, in their language (the message is for programs' logs)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class EmailInUse(AccountError):
    """An e-mail address is one account's: sign-in by e-mail and password resets find one person."""

    reason = "email_in_use"
    status_code = 409
    words = _("An account already uses this e-mail.")


class LinkRefused(AccountError):
    """A verification link that does not verify anything."""


class LinkInvalid(LinkRefused):
    reason = "link_invalid"
    status_code = 400
    words = _("This link is not one Ludolog sent, or it was cut short: copy the whole link from the mail.")


class LinkExpired(LinkRefused):
    reason = "link_expired"
    status_code = 410
    words = _("This link has expired. Sign in and ask for a new one on your account page.")


class LinkUsed(LinkRefused):
    reason = "link_used"
    status_code = 409
    words = _("This link has been used already: the address is verified.")


class LinkOutdated(LinkRefused):
    """A link for an address the account has since replaced."""

    reason = "link_outdated"
    status_code = 410
    words = _("This link was for an address the account no longer has.")
