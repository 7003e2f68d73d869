"""The API's permission classes, asking :func:`accounts.roles.can` as every page does."""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import BasePermission

from .roles import Action, can


class Operates(BasePermission):
    """The installation's operator only (``Action.OPERATE``)."""

    message = "only the operator of the installation does this"

    def has_permission(self, request: Any, view: Any) -> bool:
        return can(request.user, Action.OPERATE, None)
