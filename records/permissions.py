from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from rest_framework import permissions

from .models import GameRecord


def can_append(user: AbstractBaseUser | AnonymousUser, record: GameRecord) -> bool:
    """Scorekeepers and seated players who are logged in may record actions; staff may too."""
    if not user.is_authenticated:
        return False
    if user.is_staff:
        return True
    if record.scorekeepers.filter(pk=user.pk).exists():
        return True
    return record.seats.filter(player__user=user).exists()


def can_read(user: AbstractBaseUser | AnonymousUser, record: GameRecord) -> bool:
    return not record.is_private or can_append(user, record)


class RecordAccess(permissions.BasePermission):
    message = "only the record's scorekeepers and seated players may record actions"

    def has_object_permission(self, request, view, obj: GameRecord) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return can_read(request.user, obj)
        return can_append(request.user, obj)
