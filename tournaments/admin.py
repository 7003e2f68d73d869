"""Tournaments in the Django admin: a tournament's settings (presets, tie-breakers, the
first-player compensation) editable; the rounds' seats and the tables' results, kept as they
were drawn and told, read-only."""

from __future__ import annotations

from django.contrib import admin

from .models import Entrant, TableResult, Tournament


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "organisation", "status", "table_size", "rounds_planned", "created_at"]
    list_filter = ["organisation", "status"]
    raw_id_fields = ["game", "league", "created_by"]


@admin.register(Entrant)
class EntrantAdmin(admin.ModelAdmin):
    list_display = ["player", "tournament", "checked_in", "dropped_after_round", "group"]
    list_filter = ["tournament"]
    raw_id_fields = ["player"]


@admin.register(TableResult)
class TableResultAdmin(admin.ModelAdmin):
    list_display = ["round", "table_number", "places", "scores", "corrects", "entered_by", "entered_at"]

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
