from django.contrib import admin, messages
from django.db.models import Count

from .errors import PlayersCannotMerge
from .models import Event, EventVerification, GameRecord, Player, Seat
from .players import merge_players


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
    fields = ["seq", "type", "payload", "recorded_by", "recorded_at"]
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
    list_filter = ["game_slug", "status", "is_private"]
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
        return REPLAY_FIELDS if has_events(obj) else ["setup"]

    actions = ["abandon"]

    @admin.action(description="Abandon the selected games in progress (their events are kept)")
    def abandon(self, request, queryset) -> None:
        count = queryset.filter(status=GameRecord.Status.IN_PROGRESS).update(status=GameRecord.Status.ABANDONED)
        self.message_user(request, f"{count} game(s) abandoned.")


@admin.register(Event)
class EventAdmin(ReadOnlyEventMixin, admin.ModelAdmin):
    list_display = ["record", "seq", "type", "recorded_by", "recorded_at"]
    list_filter = ["type"]
    readonly_fields = ["record", "seq", "type", "payload", "recorded_by", "recorded_at", "idempotency_key", "hash"]

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

    @admin.display(description="games", ordering="seat_count")
    def games(self, player: Player) -> int:
        return player.seat_count

    @admin.action(description="Merge the two selected players (one person entered twice)")
    def merge(self, request, queryset) -> None:
        players = list(queryset.annotate(seat_count=Count("seats")))
        if len(players) != 2:
            self.message_user(request, "Select exactly two players to merge.", level=messages.WARNING)
            return
        # Keep the one with a login, else the one with more games, else the older.
        keep, duplicate = sorted(players, key=lambda p: (p.user_id is None, -p.seat_count, p.pk))
        try:
            moved = merge_players(keep, duplicate)
        except PlayersCannotMerge as error:
            self.message_user(request, error.message, level=messages.ERROR)
            return
        self.message_user(request, f"{duplicate.display_name} merged into {keep.display_name}: "
                                   f"{len(moved)} game(s) moved.", level=messages.SUCCESS)


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
