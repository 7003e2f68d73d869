from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import BooleanField, Exists, ExpressionWrapper, OuterRef, Q, QuerySet, Value
from rest_framework import permissions

from .models import GameRecord, Seat


def with_append_access(records: QuerySet[GameRecord], user: AbstractBaseUser | AnonymousUser) -> QuerySet[GameRecord]:
    """``records`` annotated with whether ``user`` may append to each, so that
    :func:`can_append` answers from the row instead of two more queries."""
    if not user.is_authenticated or user.is_staff:
        return records  # can_append answers these without a query
    keeper = GameRecord.scorekeepers.through.objects.filter(gamerecord=OuterRef("pk"), user=user.pk)
    seated = Seat.objects.filter(record=OuterRef("pk"), player__user=user.pk)
    return records.annotate(
        append_access_user=Value(user.pk),
        append_access=ExpressionWrapper(Q(Exists(keeper)) | Q(Exists(seated)), output_field=BooleanField()),
    )


def can_append(user: AbstractBaseUser | AnonymousUser, record: GameRecord) -> bool:
    """Scorekeepers and seated players who are logged in may record actions; staff may too."""
    if not user.is_authenticated:
        return False
    if user.is_staff:
        return True
    # Read with the record for this very user (with_append_access): no query needed.
    if getattr(record, "append_access_user", None) == user.pk:
        return bool(record.append_access)
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
