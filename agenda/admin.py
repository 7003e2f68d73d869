"""The agenda in the Django admin: the calendar's rows editable, the facts kept as events
(door counts, play tallies, session changes) and the games linked to sessions read-only."""

from __future__ import annotations

from django.contrib import admin

from .models import Closure, DoorCount, OpeningHours, PlayTally, Registration, Session, SessionChange, SessionGame


@admin.register(OpeningHours)
class OpeningHoursAdmin(admin.ModelAdmin):
    list_display = ["organisation", "weekday", "starts", "ends", "valid_from", "valid_until", "label", "public"]
    list_filter = ["organisation", "weekday"]


@admin.register(Closure)
class ClosureAdmin(admin.ModelAdmin):
    list_display = ["organisation", "first_day", "last_day", "reason"]
    list_filter = ["organisation"]


class RegistrationInline(admin.TabularInline):
    model = Registration
    extra = 0
    fields = ["name", "email", "places", "status", "registered_at", "checked_in_at"]


@admin.register(Session)
class SessionAdmin(admin.ModelAdmin):
    list_display = ["__str__", "organisation", "kind", "starts_at", "ends_at", "capacity", "public", "cancelled_at"]
    list_filter = ["organisation", "kind", "public"]
    date_hierarchy = "starts_at"
    search_fields = ["title", "structure_name"]
    raw_id_fields = ["opening_hours", "created_by"]
    inlines = [RegistrationInline]


@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin):
    list_display = ["name", "session", "places", "status", "registered_at", "checked_in_at"]
    list_filter = ["status"]
    search_fields = ["name", "email"]
    raw_id_fields = ["session", "household", "checked_in_by"]


class ReadOnlyAdmin(admin.ModelAdmin):
    """Facts kept as events: read, never added, changed or deleted here."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(DoorCount)
class DoorCountAdmin(ReadOnlyAdmin):
    list_display = ["session", "public", "delta", "counted_at", "recorded_at", "counted_by"]
    list_filter = ["public"]


@admin.register(PlayTally)
class PlayTallyAdmin(ReadOnlyAdmin):
    list_display = ["session", "record", "delta", "counted_at", "recorded_at", "counted_by"]


@admin.register(SessionChange)
class SessionChangeAdmin(ReadOnlyAdmin):
    list_display = ["session", "field", "before", "after", "reason", "changed_by", "changed_at"]


@admin.register(SessionGame)
class SessionGameAdmin(ReadOnlyAdmin):
    """Read here: a game is linked, moved and unlinked through ``services.link_game`` and
    ``unlink_game``, which keep a correction for a past session."""

    list_display = ["session", "game_record", "linked_by", "linked_at"]
    raw_id_fields = ["session", "game_record", "linked_by"]
