from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from . import ratings, recompute, tasks
from .models import (
    Club, GameStatistics, League, LeagueMembership, LeagueRuling, PlayerStatistics, Rating, RatingChange, RecomputeChange,
    RecomputeRun, ScoredRecord, SeatResult, Standing, UnscorableRecord,
)


class ProjectionAdmin(admin.ModelAdmin):
    """Projections are computed from the events: shown, never edited by hand."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


def _start(modeladmin: admin.ModelAdmin, request, **filters) -> None:
    run = recompute.start(requested_by=request.user.get_username(), **filters)
    tasks.dispatch_recompute(run)
    url = reverse("admin:scoring_recomputerun_change", args=[run.pk])
    modeladmin.message_user(
        request, format_html(gettext('Recomputation <a href="{}">#{}</a> of {} records queued: its page shows the progress.'),
                             url, run.pk, run.total),
        messages.SUCCESS,
    )


@admin.action(description=_("Recompute the scores of the selected records"), permissions=["view"])
def recompute_records(modeladmin, request, queryset: QuerySet[ScoredRecord]) -> None:
    _start(modeladmin, request, record_ids=list(queryset.values_list("record_id", flat=True)))


@admin.action(description=_("Recompute every game of the selected leagues"), permissions=["view"])
def recompute_leagues(modeladmin, request, queryset: QuerySet[League]) -> None:
    for league in queryset:
        _start(modeladmin, request, league_id=league.pk)


@admin.register(SeatResult)
class SeatResultAdmin(ProjectionAdmin):
    list_display = ["record", "seat", "player", "score", "rank", "ruleset_version", "computed_at"]
    list_filter = ["record__game_slug"]
    search_fields = ["player__display_name"]


@admin.action(description=_("Recompute the selected unscorable records (once their cause is fixed)"), permissions=["view"])
def recompute_unscorable(modeladmin, request, queryset: QuerySet[UnscorableRecord]) -> None:
    _start(modeladmin, request, record_ids=list(queryset.values_list("record_id", flat=True)))


@admin.register(UnscorableRecord)
class UnscorableRecordAdmin(ProjectionAdmin):
    """Finished records whose scoring failed, and why: the sweep leaves them alone after
    LUDOLOG_SCORING_MAX_ATTEMPTS failures; a recomputation that scores them removes them from here."""

    list_display = ["record", "attempts", "retrying", "reason", "first_failed_at", "last_failed_at"]
    list_filter = ["record__game_slug"]
    readonly_fields = ["record", "reason", "attempts", "first_failed_at", "last_failed_at"]
    search_fields = ["reason"]
    actions = [recompute_unscorable]

    @admin.display(description=_("sweep still retrying"), boolean=True)
    def retrying(self, mark: UnscorableRecord) -> bool:
        return mark.retrying


@admin.register(ScoredRecord)
class ScoredRecordAdmin(ProjectionAdmin):
    list_display = ["record", "game_slug", "played_on", "players", "winning_score", "ruleset_version", "scored_at"]
    list_filter = ["game_slug", "ruleset_version"]
    date_hierarchy = "played_on"
    actions = [recompute_records]


class MembershipInline(admin.TabularInline):
    model = LeagueMembership
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    search_fields = ["name"]
    list_display = ["name", "rating_system"]

    def save_model(self, request, obj, form, change) -> None:
        # A new system means every rating of the club worked out again: the service does both.
        system = obj.rating_system
        if change and "rating_system" in form.changed_data:
            obj.rating_system = form.initial["rating_system"]
            super().save_model(request, obj, form, change)
            ratings.set_rating_system(obj, system)
        else:
            super().save_model(request, obj, form, change)


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "starts_on", "ends_on", "record_kinds", "scoring_system", "min_games"]
    list_filter = ["club", "record_kinds", "scoring_system"]
    inlines = [MembershipInline]
    actions = [recompute_leagues]
    filter_horizontal = ["organisers", "trusted_scorekeepers"]


@admin.register(LeagueRuling)
class LeagueRulingAdmin(admin.ModelAdmin):
    """The rulings are the league's history: read here, made on the league page or the API."""

    list_display = ["league", "record", "counts", "reason", "ruled_by", "ruled_at"]
    list_filter = ["league", "counts"]
    readonly_fields = ["league", "record", "counts", "reason", "ruled_by", "ruled_at"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Standing)
class StandingAdmin(ProjectionAdmin):
    list_display = ["league", "position", "player", "games", "wins", "points", "average_rank", "average_score"]
    list_filter = ["league"]


@admin.register(PlayerStatistics)
class PlayerStatisticsAdmin(ProjectionAdmin):
    list_display = ["player", "game_slug", "games", "wins", "win_rate", "average_score", "best_score"]
    list_filter = ["game_slug"]
    search_fields = ["player__display_name"]


@admin.register(GameStatistics)
class GameStatisticsAdmin(ProjectionAdmin):
    list_display = ["game_slug", "games", "average_winning_score", "average_duration_seconds"]


@admin.register(Rating)
class RatingAdmin(ProjectionAdmin):
    list_display = ["player", "game_slug", "club", "ordinal", "mu", "sigma", "games", "last_played"]
    list_filter = ["game_slug", "club"]


@admin.register(RatingChange)
class RatingChangeAdmin(ProjectionAdmin):
    list_display = ["player", "game_slug", "club", "record", "played_on", "rank", "mu_before", "mu", "ordinal"]
    list_filter = ["game_slug", "club"]


class ChangeInline(admin.TabularInline):
    model = RecomputeChange
    fields = ["record", "seat_order", "player", "score_before", "score_after", "rank_before", "rank_after"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(RecomputeRun)
class RecomputeRunAdmin(ProjectionAdmin):
    list_display = ["id", "status", "progress", "eta", "unscorable_count", "filters", "requested_by", "started_at",
                    "last_progress_at", "finished_at"]
    readonly_fields = ["status", "error", "progress", "eta", "unscorable_records", "filters", "requested_by", "total",
                       "done", "started_at", "last_progress_at", "finished_at"]
    inlines = [ChangeInline]
    actions = ["resume"]

    def get_queryset(self, request):
        recompute.mark_stalled()  # a run read here says whether its workers were lost
        return super().get_queryset(request)

    @admin.display(description=_("unscorable"))
    def unscorable_count(self, run: RecomputeRun) -> int:
        return len(run.unscorable())

    @admin.display(description=_("records it could not score"))
    def unscorable_records(self, run: RecomputeRun) -> str:
        found = run.unscorable()
        if not found:
            return "none"
        return format_html_join(
            "", '<p><a href="{}">record {}</a>: {}</p>',
            ((reverse("admin:records_gamerecord_change", args=[pk]), pk, reason) for pk, reason in found.items()),
        )

    @admin.action(description=_("Resume the selected failed or stalled recomputations"), permissions=["view"])
    def resume(self, request, queryset: QuerySet[RecomputeRun]) -> None:
        for run in queryset.order_by("pk"):
            try:
                tasks.resume_recompute(run.pk)
            except recompute.RecomputeError as error:
                self.message_user(request, error.message, level=messages.WARNING)
            else:
                self.message_user(request, gettext("Recomputation #%(number)d resumed.") % {"number": run.pk})

    @admin.display(description=_("progress"))
    def progress(self, run: RecomputeRun) -> str:
        percent = 100 * run.done // run.total if run.total else 100
        return format_html('<progress max="100" value="{}"></progress> {}/{} ({}%)', percent, run.done, run.total,
                           percent)

    @admin.display(description=_("time left"))
    def eta(self, run: RecomputeRun) -> str:
        if run.status == RecomputeRun.Status.FINISHED:
            return "done"
        if run.status == RecomputeRun.Status.FAILED:
            return "stopped: see the error"
        if run.status == RecomputeRun.Status.STALLED:
            return "stalled: resume it"
        if not run.done:
            return "…"
        elapsed = (timezone.now() - run.started_at).total_seconds()
        return f"{elapsed * (run.total - run.done) / run.done:.0f} s"
