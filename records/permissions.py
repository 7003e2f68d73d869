"""The API's permission on a record: read what :mod:`records.selectors` lets the user read,
record actions where it lets them record."""

from __future__ import annotations

from rest_framework import authentication, permissions

from .models import GameRecord
from .selectors import can_append, can_read


class RecordAccess(permissions.BasePermission):
    message = "only the record's scorekeepers and seated players may record actions"

    def has_object_permission(self, request, view, obj: GameRecord) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return can_read(request.user, obj)
        return can_append(request.user, obj)


class _TokenKey(authentication.TokenAuthentication):
    """DRF's reading of an ``Authorization: Token …`` header (and its answers to a malformed
    one), without its query: the key alone."""

    def authenticate_credentials(self, key: str) -> tuple[None, str]:
        return None, key


def token_key(request) -> str | None:
    """The API token a request presents, or ``None`` when it presents none; a malformed header
    raises DRF's ``AuthenticationFailed``."""
    found = _TokenKey().authenticate(request)
    return None if found is None else found[1]
