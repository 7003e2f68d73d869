from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.response import TemplateResponse
from django.urls import path
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from games.jobs_admin import ImportJobAdmin
from games.registry import get_engine

from .errors import PlayersCannotMerge, RecordError
from .file_imports import start_record_file_import
from .models import (
    Event, EventVerification, GameRecord, Player, RecordCheckpoint, RecordFileImport, RulesetMove, Seat, SeatMove,
)
from .players import merge_players, seat_corrected
from .rulesets import migrate_ruleset
from .tasks import queue_record_file_import


class ReadOnlyEventMixin:
    """Events are immutable: the admin shows them but never adds, changes or deletes one."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class EventInline(ReadOnlyEventMixin, admin.TabularInline):
    model = Event
    fields = ["seq", "type", "payload", "recorded_by", "recorded_by_per_file", "recorded_at"]
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True


REPLAY_FIELDS = ["game_slug", "ruleset_version", "seed", "setup", "status", "result_only"]
"""What a record's events are replayed with: fixed once the first event is stored."""


def has_events(record: GameRecord | None) -> bool:
    return record is not None and record.pk is not None and Event.objects.filter(record=record).exists()


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0

    # The seats of a record with events are its replay's players: who sits there may be
    # corrected, not how many seats there are or their order.
    def get_readonly_fields(self, request, obj=None):
        return ["seat_order"] if has_events(obj) else []

    def has_add_permission(self, request, obj=None) -> bool:
        return not has_events(obj) and super().has_add_permission(request, obj)

    def has_delete_permission(self, request, obj=None) -> bool:
        return not has_events(obj) and super().has_delete_permission(request, obj)


@admin.register(GameRecord)
class GameRecordAdmin(admin.ModelAdmin):
    list_display = ["id", "game_slug", "played_on", "status", "catalogue_record", "location"]
    list_filter = ["game_slug", "status", "is_private", "is_friendly"]
    search_fields = ["seats__player__display_name", "location"]
    date_hierarchy = "played_on"
    inlines = [SeatInline, EventInline]
    filter_horizontal = ["scorekeepers"]

    def has_delete_permission(self, request, obj=None) -> bool:
        # A record owns an immutable event stream; abandon it instead of deleting it.
        return False

    def get_readonly_fields(self, request, obj=None):
        # Changing the game, ruleset, seed or status under stored events breaks their replay. The
        # set-up is chosen where the engine checks it against the seats (the recorder's start
        # page, the API, a record file), never typed here.
        # A friendly game's flag is chosen at the start too: flipped here, no league table would follow.
        return [*REPLAY_FIELDS, "is_friendly"] if has_events(obj) else ["setup"]

    actions = ["abandon", "move_to_ruleset"]
    change_list_template = "admin/records/gamerecord/change_list.html"

    def get_urls(self):
        return [
            path("import-files/", self.admin_site.admin_view(self.import_files_view),
                 name="records_gamerecord_import_files"),
            *super().get_urls(),
        ]

    def import_files_view(self, request: HttpRequest) -> HttpResponse:
        """Upload a record file or a ZIP archive of them: kept with a job that a Celery task
        imports file by file, followed on the job's page (a club's history takes minutes)."""
        if not self.has_add_permission(request):
            raise PermissionDenied
        form = RecordFileImportForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            job = start_record_file_import(form.cleaned_data["file"], started_by=request.user)
            queue_record_file_import(job)
            return redirect("admin:records_recordfileimport_change", job.pk)
        context = {**self.admin_site.each_context(request), "opts": self.model._meta, "form": form,
                   "title": _("Import record files")}
        return render(request, "admin/records/gamerecord/import_files.html", context,
                      status=400 if form.errors else 200)

    def save_formset(self, request, form, formset, change) -> None:
        # A seated player corrected is kept as a seat move: verify_events tells it from a swap.
        corrected = [
            (seat_form.instance, seat_form.initial["player"]) for seat_form in formset.forms
            if isinstance(seat_form.instance, Seat) and seat_form.instance.pk is not None
            and "player" in seat_form.changed_data and seat_form.initial.get("player") is not None
            and not formset._should_delete_form(seat_form)
        ]
        super().save_formset(request, form, formset, change)
        for seat, before in corrected:
            if seat.player_id != before:
                seat_corrected(seat, before, moved_by=request.user)

    @admin.action(description=_("Move the selected games to another ruleset (with a report first)"))
    def move_to_ruleset(self, request, queryset):
        """An intermediate page: the target ruleset and variants, then a report (on the page or as
        CSV) or the move itself (records.rulesets.migrate_ruleset on the selected records)."""
        games = set(queryset.values_list("game_slug", flat=True))
        engine = get_engine(next(iter(games))) if len(games) == 1 else None
        if engine is None:
            self.message_user(request, gettext("Select records of one game that has a rules engine."),
                              level=messages.WARNING)
            return None
        form = RulesetMoveForm(engine, request.POST if "to" in request.POST else None)
        report = None
        if form.is_valid():
            move = "move" in request.POST
            variants = form.cleaned_data["variants"] if form.cleaned_data["change_variants"] else None
            try:
                report = migrate_ruleset(engine.slug, form.cleaned_data["to"], variants=variants, dry_run=not move,
                                         record_ids=queryset.values_list("pk", flat=True), moved_by=request.user)
            except RecordError as error:
                self.message_user(request, error.message, level=messages.ERROR)
                return None
            if "csv" in request.POST:
                response = HttpResponse(report.as_csv(), content_type="text/csv; charset=utf-8")
                response["Content-Disposition"] = f'attachment; filename="ruleset-report-{engine.slug}.csv"'
                return response
            if move:
                moved = ngettext("%(count)d record moved to %(version)s", "%(count)d records moved to %(version)s",
                                 report.moved) % {"count": report.moved, "version": report.to_version}
                left = ngettext("%(count)d left on its ruleset.", "%(count)d left on their ruleset.",
                                report.counts["illegal"]) % {"count": report.counts["illegal"]}
                self.message_user(request, f"{moved}; {left}", level=messages.SUCCESS)
                return None
        context = {**self.admin_site.each_context(request), "title": gettext("Move to another ruleset"), "form": form,
                   "records": queryset, "report": report, "engine": engine, "opts": self.model._meta,
                   "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME}
        return TemplateResponse(request, "admin/records/move_to_ruleset.html", context)

    @admin.action(description=_("Abandon the selected games in progress (their events are kept)"))
    def abandon(self, request, queryset) -> None:
        count = queryset.filter(status=GameRecord.Status.IN_PROGRESS).update(status=GameRecord.Status.ABANDONED)
        self.message_user(request, ngettext("%(count)d game abandoned.", "%(count)d games abandoned.", count)
                          % {"count": count})


class RecordFileImportForm(forms.Form):
    file = forms.FileField(label=_("Record file (ludolog-record/1, .json) or a ZIP archive of them"))


class RulesetMoveForm(forms.Form):
    to = forms.ChoiceField(label="Target ruleset")
    change_variants = forms.BooleanField(label="Set the variants (else each record keeps its own)", required=False)
    variants = forms.MultipleChoiceField(label="Variants", required=False, widget=forms.CheckboxSelectMultiple)

    def __init__(self, engine, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["to"].choices = [(version, f"{info.key}: {info.description}")
                                     for version, info in engine.rulesets.items()]
        self.fields["to"].initial = engine.ruleset_version
        self.fields["variants"].choices = [(name, f"{name}: {v.description}") for name, v in engine.variants.items()]


@admin.register(RulesetMove)
class RulesetMoveAdmin(ReadOnlyEventMixin, admin.ModelAdmin):
    """Append-only: the admin lists the moves, never changes or deletes one."""

    list_display = ["record", "from_version", "to_version", "outcome", "moved_by", "moved_at"]
    list_filter = ["outcome", "to_version"]
    readonly_fields = ["record", "from_version", "to_version", "from_setup", "to_setup", "outcome", "scores_before",
                       "scores_after", "moved_by", "moved_at"]

    def get_actions(self, request):
        return {}


@admin.register(Event)
class EventAdmin(ReadOnlyEventMixin, admin.ModelAdmin):
    list_display = ["record", "seq", "type", "recorded_by", "recorded_at"]
    list_filter = ["type"]
    readonly_fields = ["record", "seq", "type", "payload", "recorded_by", "recorded_by_per_file", "recorded_at",
                       "idempotency_key", "request_digest", "hash"]

    def get_actions(self, request):
        # No bulk "delete selected" either.
        return {}


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["display_name", "user", "games"]
    search_fields = ["display_name"]
    actions = ["merge"]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(seat_count=Count("seats"))

    def changeform_view(self, request, *args, **kwargs):
        # A refused name (one that shows nothing) is a 400, as it is everywhere else a name is typed.
        response = super().changeform_view(request, *args, **kwargs)
        form = getattr(response, "context_data", {}).get("adminform")
        if request.method == "POST" and form is not None and form.form.errors:
            response.status_code = 400
        return response

    @admin.display(description=_("games"), ordering="seat_count")
    def games(self, player: Player) -> int:
        return player.seat_count

    @admin.action(description=_("Merge the two selected players (one person entered twice)"))
    def merge(self, request, queryset) -> None:
        players = list(queryset.annotate(seat_count=Count("seats")))
        if len(players) != 2:
            self.message_user(request, gettext("Select exactly two players to merge."), level=messages.WARNING)
            return
        # Keep the one with a login, else the one with more games, else the older.
        keep, duplicate = sorted(players, key=lambda p: (p.user_id is None, -p.seat_count, p.pk))
        try:
            moved = merge_players(keep, duplicate)
        except PlayersCannotMerge as error:
            self.message_user(request, error.message, level=messages.ERROR)
            return
        self.message_user(request, ngettext(
            "%(duplicate)s merged into %(kept)s: %(count)d game moved.",
            "%(duplicate)s merged into %(kept)s: %(count)d games moved.", len(moved)) % {
            "duplicate": duplicate.display_name, "kept": keep.display_name, "count": len(moved)},
            level=messages.SUCCESS)


@admin.register(EventVerification)
class EventVerificationAdmin(admin.ModelAdmin):
    """What each check of the events' hash chains found (``verify_events``): read-only."""

    list_display = ["finished_at", "only_record_id", "records_checked", "events_checked", "mismatch_count"]
    readonly_fields = ["started_at", "finished_at", "only_record_id", "records_checked", "events_checked",
                       "mismatch_count", "mismatches"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(RecordFileImport)
class RecordFileImportAdmin(ImportJobAdmin):
    report_template = "admin/records/recordfileimport/report.html"
    upload_permission = "records.add_gamerecord"


@admin.register(SeatMove)
class SeatMoveAdmin(ReadOnlyEventMixin, admin.ModelAdmin):
    """Append-only: players merged and seats corrected after a record started."""

    list_display = ["record", "seat_order", "from_player", "to_player", "reason", "moved_by", "moved_at"]
    list_filter = ["reason"]

    def get_actions(self, request):
        return {}


@admin.register(RecordCheckpoint)
class RecordCheckpointAdmin(ReadOnlyEventMixin, admin.ModelAdmin):
    """What the last verification found intact of each record; those that failed, with why."""

    list_display = ["record_id", "last_seq", "ruleset_moves", "seat_moves", "checked_at", "failed_at"]
    list_filter = [("failed_at", admin.EmptyFieldListFilter)]

    def get_actions(self, request):
        return {}
