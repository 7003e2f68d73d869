"""Game history: every recorded game with filters, and one record's page (seats, results, events)."""

from __future__ import annotations

from functools import lru_cache

from django import forms
from django.core.paginator import Paginator
from django.db.models import Max, Min, Prefetch, QuerySet
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST
from django.forms.utils import flatatt
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, gettext_lazy as _

from accounts.current import current_organisation
from accounts.scoping import in_organisation
from agenda.selectors import session_of
from agenda.views import sees_whole_calendar
from games.registry import get_engine
from records import replay
from records import services as record_services
from plays_exchange import services as plays_exchange
from records.models import GameRecord, Player, Seat
from records.selectors import can_append, events, readable_record, visible_records
from scoring import selectors, standings
from scoring.models import League, SeatResult

from . import replay as web_replay
from . import results as results_pages
from .games import game_name, source_label
from .rules import rules_played
from .tampered import refuses_tampered_records
from .tile_frame import seat_colour

PAGE_SIZE = 25
EVENTS_PER_PAGE = 200


@lru_cache(maxsize=None)
def engine_sources(slug: str) -> tuple[str, ...]:
    """The points' sources in the engine's own order, the order of the replay page's score table
    (its breakdown lists them so from the first event): the game's start, asked once."""
    engine = get_engine(slug)
    if engine is None:
        return ()
    # A seeded start: a game that cannot start without a table's set-up (the Maps) draws one.
    scores = engine.view(engine.new_state(engine.min_players, 0)).get("scores") or []
    return tuple(scores[0]["breakdown"]) if scores else ()


def sources_in_order(slug: str, breakdowns: list[dict]) -> list[str]:
    """The sources the breakdowns name, in the engine's order; any the engine no longer names
    (an older ruleset's) after them, as first met. A stored breakdown's own key order is not
    kept by every database (PostgreSQL's jsonb sorts its keys)."""
    named = {source for breakdown in breakdowns for source in breakdown}
    ordered = [source for source in engine_sources(slug) if source in named]
    for breakdown in breakdowns:
        ordered += [source for source in breakdown if source not in ordered]
    return ordered


class LongSelect(forms.Select):
    """A select with many options (every player a reader may see), written out in one pass:
    Django renders each option through a template of its own, which put 120 ms on the games
    list of a club with 2,000 players."""

    def render(self, name: str, value: object, attrs: dict | None = None, renderer: object = None) -> str:
        chosen = {str(v) for v in self.format_value(value)}
        options = format_html_join("", "<option value=\"{}\"{}>{}</option>", (
            (str(key), mark_safe(" selected") if str(key) in chosen else "", label)  # noqa: S308 (a constant)
            for key, label in self.choices
        ))
        return format_html("<select{}>{}</select>", flatatt(self.build_attrs(self.attrs, {**(attrs or {}), "name": name})),
                           options)


class HistoryFilter(forms.Form):
    game = forms.ChoiceField(label=_("Game"), required=False)
    player = forms.ModelChoiceField(label=_("Player"), queryset=Player.objects.all(), required=False,
                                    empty_label=_("any player"), widget=LongSelect)
    league = forms.ModelChoiceField(label=_("League"), queryset=League.objects.select_related("club"), required=False,
                                    empty_label=_("any league"))
    played_from = forms.DateField(label=_("Played from"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    played_to = forms.DateField(label=_("Played until"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    status = forms.ChoiceField(
        label=_("Status"), required=False, choices=[("", _("any status")), *GameRecord.Status.choices]
    )

    def __init__(self, *args, slugs: list[str], players: QuerySet[Player], leagues: QuerySet[League],
                 **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = players
        self.fields["league"].queryset = leagues
        self.fields["game"].choices = [("", _("any game"))] + [(slug, game_name(slug)) for slug in slugs]

    def clean(self) -> dict:
        data = super().clean()
        start, end = data.get("played_from"), data.get("played_to")
        if start and end and start > end:
            raise forms.ValidationError(_("The first day must not come after the last day."), code="date_order")
        return data

    def apply(self, records: QuerySet[GameRecord]) -> QuerySet[GameRecord]:
        data = self.cleaned_data
        if data.get("game"):
            records = records.filter(game_slug=data["game"])
        if data.get("player"):
            records = records.filter(seats__player=data["player"])
        if data.get("league"):
            records = records.filter(pk__in=standings.league_records(data["league"]).values("pk"))
        if data.get("played_from"):
            records = records.filter(played_on__gte=data["played_from"])
        if data.get("played_to"):
            records = records.filter(played_on__lte=data["played_to"])
        if data.get("status"):
            records = records.filter(status=data["status"])
        return records


def with_seats_and_results(records: QuerySet[GameRecord]) -> QuerySet[GameRecord]:
    return records.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("seat_order")),
        Prefetch("results", queryset=SeatResult.objects.select_related("player").order_by("seat__seat_order")),
    )


def game_list(request: HttpRequest) -> HttpResponse:
    """The current organisation's games the reader may see (a game's own page stays open to
    anyone who may see it, whichever organisation recorded it)."""
    organisation = current_organisation(request)
    visible = in_organisation(visible_records(request.user), organisation)
    slugs = selectors.visible_game_slugs(request.user)
    # The filters name the organisation's players and leagues only.
    form = HistoryFilter(request.GET or None, slugs=slugs,
                         players=in_organisation(selectors.visible_players(request.user), organisation),
                         leagues=in_organisation(League.objects.select_related("club"), organisation))
    status = 200
    if form.is_bound and not form.is_valid():
        records, status = visible.none(), 400
    else:
        records = form.apply(visible) if form.is_bound else visible
    page = Paginator(with_seats_and_results(records.order_by("-played_on", "-pk")), PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    query = request.GET.copy()
    query.pop("page", None)
    rows = [
        {
            "record": record,
            "game": game_name(record.game_slug),
            "seats": list(record.seats.all()),
            "results": list(record.results.all()),
            "winners": [result.player for result in record.results.all() if result.rank == 1],
        }
        for record in page
    ]
    context = {"form": form, "page": page, "rows": rows, "query": query.urlencode()}
    return render(request, "games/list.html", context, status=status)


def by_rank(seats: list[Seat], results: dict[int, SeatResult]) -> list[Seat]:
    """The seats as the final results rank them (seat order among equals); in seat order until
    the game has results."""
    return sorted(seats, key=lambda seat: (results[seat.pk].rank if seat.pk in results else 0, seat.seat_order))


class PlayTimesForm(forms.ModelForm):
    """When play started and ended at the table, as the record's keepers correct them."""

    class Meta:
        model = GameRecord
        fields = ["play_started_at", "play_ended_at"]
        widgets = {name: forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")
                   for name in fields}

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            field.input_formats = ["%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S"]

    def clean(self) -> dict:
        data = super().clean()
        started, ended = data.get("play_started_at"), data.get("play_ended_at")
        if started is not None and ended is not None and ended < started:
            self.add_error("play_ended_at", forms.ValidationError(
                _("Play cannot end before it started."), code="ended_before_started"))
        return data


@refuses_tampered_records()
def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    record = readable_record(request.user, pk, with_seats_and_results(GameRecord.objects.all()))
    return render(request, "games/detail.html", _detail_context(request, record))


def detail_page(request: HttpRequest, record: GameRecord, *, status: int = 200, **forms_shown: object) -> HttpResponse:
    """The game page as it stands, with a form sent back (``correction``: a refused correction)."""
    record = readable_record(request.user, record.pk, with_seats_and_results(GameRecord.objects.all()))
    context = _detail_context(request, record)
    context.update({f"{name}_form": form for name, form in forms_shown.items()})
    return render(request, "games/detail.html", context, status=status)


@require_POST
@refuses_tampered_records()
def game_times(request: HttpRequest, pk: int) -> HttpResponse:
    """The play times corrected by one of the record's keepers; a refusal shows on the game page
    and changes nothing."""
    record = readable_record(request.user, pk, with_seats_and_results(GameRecord.objects.all()))
    if not can_append(request.user, record):
        return HttpResponse(gettext("Only the record's scorekeepers and players change its play times."),
                            status=403, content_type="text/plain; charset=utf-8")
    form = PlayTimesForm(request.POST, instance=GameRecord.objects.get(pk=record.pk))
    if not form.is_valid():
        record.refresh_from_db(fields=["play_started_at", "play_ended_at"])
        return render(request, "games/detail.html", _detail_context(request, record, form), status=400)
    form.save(commit=False).save(update_fields=["play_started_at", "play_ended_at"])
    messages.success(request, gettext("Play times saved."))
    return redirect("game-detail", pk=record.pk)


def _event_lines(record: GameRecord, page: list, can_replay: bool) -> list:
    """The events of the page in words, as the replay viewer says them (said once and kept), when
    the game has words; its notation is for the experts' disclosure and the record files."""
    lines = replay.history_page(record, page)
    if not can_replay or not page:
        return lines
    seats = record_services.seating(record)
    return web_replay.replay_lines(lines, web_replay.narrations(record, page, seats), web_replay.Seating(seats))


def _detail_context(request: HttpRequest, record: GameRecord, times_form: PlayTimesForm | None = None) -> dict:
    results = {result.seat_id: result for result in record.results.all()}
    sources = sources_in_order(record.game_slug, [result.breakdown for result in results.values()])
    seats = [
        {
            "seat": seat,
            "colour": seat_colour(seat.seat_order, seat.colour),
            "result": results.get(seat.pk),
            "points": [results[seat.pk].breakdown.get(source, 0) for source in sources] if seat.pk in results else [],
        }
        for seat in by_rank(list(record.seats.all()), results)
    ]
    # A long record's events come a page at a time: the page costs what a short record's does.
    events_page = Paginator(events(record), EVENTS_PER_PAGE).get_page(request.GET.get("page"))
    can_replay = web_replay.replayable(record)
    context = {
        "record": record,
        "game": game_name(record.game_slug),
        "seats": seats,
        "has_results": bool(results),
        "sources": [source_label(record.game_slug, source) for source in sources],
        "lines": _event_lines(record, list(events_page.object_list), can_replay),
        "events_page": events_page,
        "can_replay": can_replay,
        "can_record": record.status == GameRecord.Status.IN_PROGRESS and can_append(request.user, record),
        "rules": rules_played(record),
    }
    # Times nobody entered are read from the moves: the first one's, and the last one's once the game is over.
    moves = record.events.aggregate(first=Min("recorded_at"), last=Max("recorded_at"))
    context["play_started"] = record.play_started_at or moves["first"]
    context["play_ended"] = record.play_ended_at or (
        moves["last"] if record.status != GameRecord.Status.IN_PROGRESS else None)
    # The session it was played at: its page is the staff's (anyone else reads its name and time).
    context["played_during"] = session = session_of(record)
    if session is not None and sees_whole_calendar(request.user, session.organisation):
        context["played_during_url"] = reverse("agenda-session", args=[session.pk])
    if can_append(request.user, record):
        context["times_form"] = times_form or PlayTimesForm(instance=record, initial={
            "play_started_at": context["play_started"], "play_ended_at": context["play_ended"]})
    if results_pages.can_correct(request.user, record):
        context["correction_form"] = results_pages.correction_form(record)
    if record.status == GameRecord.Status.FINISHED and results:
        # BG Stats takes a play by link: a member who keeps their own log there saves it in a tap.
        context["bg_stats_link"] = plays_exchange.bg_stats_link(record)
    context["ruleset_impacts"] = [{"move": entry.move, "changes": changes}
                                  for entry, changes in selectors.ruleset_move_impacts(record, request.user)]
    if record.result_only:
        context["impacts"] = [
            {"impact": impact, "changes": changes,
             "reason": next((e.payload.get("reason", "") for e in record.events.filter(seq=impact.seq)), "")}
            for impact, changes in selectors.record_impacts(record, request.user)]
        if record.catalogue_record_id:
            context["game"] = record.catalogue_record.title
    return context
