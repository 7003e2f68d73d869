"""Sign-in by e-mail address, beside Django's own by username (``ModelBackend``, first in
``AUTHENTICATION_BACKENDS``).

An address signs in once it is verified (the person opened the link mailed to it) and when it
is exactly one account's: an address typed at sign-up by someone else, never confirmed, opens
nothing, and two accounts made with one address (by the admin, before addresses were one
account's) sign in by their usernames.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.http import HttpRequest


class VerifiedEmailBackend(ModelBackend):
    """The login form's "username" may be the account's verified e-mail address."""

    def authenticate(self, request: HttpRequest | None, username: str | None = None, password: str | None = None,
                     **kwargs: Any) -> Any:
        if not username or password is None or "@" not in username:
            return None
        User = get_user_model()
        found = list(User.objects.filter(email__iexact=username.strip(), person__email_verified_at__isnull=False)[:2])
        if len(found) != 1:
            # As long as a wrong password takes: the time taken tells nobody whether the address is known.
            User().set_password(password)
            return None
        user = found[0]
        if user.check_password(password) and self.user_can_authenticate(user):
            return user
        return None
