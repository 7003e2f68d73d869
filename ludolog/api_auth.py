"""API authentication: DRF's token authentication, in one query with the record when the view
asks for it.

A scorekeeper's client sends ``Authorization: Token …`` with every action it records; its
request needs the token's user, the record, the record's last seq and whether that user may
append to it. A view with ``token_and_record(key)`` (the records API, for appends and state
reads) reads all of it in one query (``records.permissions.record_and_token_user``); any other
view, or a request with a session, authenticates as DRF does. The answers are DRF's own: an
unknown key is ``Invalid token.``, an inactive user ``User inactive or deleted.``.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions


class TokenAuthentication(authentication.TokenAuthentication):
    def authenticate(self, request: Any) -> tuple[Any, Any] | None:
        self.request = request
        return super().authenticate(request)

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        view = (getattr(self.request, "parser_context", None) or {}).get("view")
        combined = getattr(view, "token_and_record", None)
        if combined is None:
            return super().authenticate_credentials(key)
        found = combined(key)
        if found is NotImplemented:
            return super().authenticate_credentials(key)
        if found is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        if not found.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return found, key
