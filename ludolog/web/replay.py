"""The replay viewer: a record's position after any event, drawn as SVG from the engine's state.

The page works without JavaScript (the step controls are links, the slider a GET form);
``replay.js`` turns them into fetches of the state API and of :func:`board`, the SVG alone.
"""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, render
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_GET

from games.registry import get_engine
from records import replay, services
from records.models import Event, GameRecord
from scoring import selectors

from .board_svg import board_svg, seat_colour
from .carcassonne_svg import carcassonne_svg
from .stone_age_svg import stone_age_svg
from .history import game_name, source_label

BOARD_MAX_AGE = 3600
"""The position after event N never changes (events are immutable), so a browser may keep it."""


class BadStep(ValueError):
    pass


def parse_at(value: str | None, last: int) -> int:
    """The ``at`` query parameter: an event number from 0 to ``last``; missing means 0."""
    if value is None or value == "":
        return 0
    if not (value.isascii() and value.isdigit()):
        raise BadStep(gettext("The step must be a whole number from 0 to %(last)s.") % {"last": last})
    at = int(value)
    if at > last:
        raise BadStep(gettext("The step must be between 0 and %(last)s, not %(at)s.") % {"last": last, "at": at})
    return at


def _replayable(request: HttpRequest, pk: int) -> tuple[GameRecord, int]:
    record = get_object_or_404(selectors.visible_records(request.user), pk=pk)
    last = Event.objects.filter(record=record).order_by("-seq").values_list("seq", flat=True).first() or 0
    return record, last


def board_for(document: dict[str, Any], record: GameRecord, **options: Any) -> str:
    title = gettext("%(game)s #%(id)s after event %(at)s") % {
        "game": game_name(record.game_slug), "id": record.pk, "at": document["at"]}
    position = dict(document["position"], at=document["at"])
    if record.game_slug == "stone-age":
        return stone_age_svg(position, document["seats"], title=title, translate=gettext)
    if record.game_slug == "carcassonne":
        return carcassonne_svg(position, document["seats"], title=title, translate=gettext, **options)
    return board_svg(position, document["seats"], title=title, translate=gettext, translate_plural=ngettext, **options)


def game_hints(slug: str) -> dict[str, str]:
    """The words of the replay page that depend on the game: its start, its board, its end."""
    if slug == "stone-age":
        return {"start_text": gettext("Start of the game."), "board_hint": "",
                "end_hint": gettext("Resources left, civilisation cards and their multipliers score at the end of the game.")}
    if slug == "carcassonne":
        return {"start_text": gettext("Start of the game: the start tile alone."),
                "board_hint": gettext("The tile laid last is outlined in orange. Farmers lie down."),
                "end_hint": gettext("Unfinished cities, roads and cloisters, and the farmers, score at the end of the game.")}
    return {"start_text": gettext("Start of the game: the start tile alone."),
            "board_hint": gettext("The tile laid last is outlined in orange. Hunters lie down, gatherers stand, huts are houses."),
            "end_hint": gettext("Huts and hunters score at the end of the game.")}


def score_progression(record: GameRecord, last: int) -> list[list[int]]:
    """Each seat's score after every event (index = event number), replaying the record once.

    Cached under the record's last event and ruleset: an append changes the key, nothing else
    can change the answer.
    """
    engine = replay.engine_for(record)
    created = record.created_at.timestamp() if record.created_at else ""
    key = f"ludolog:replay-scores:{record.pk}:{created}:{last}:{engine.ruleset_version}"
    cached = cache.get(key)
    if cached is not None:
        return cached
    state = replay.initial_state(record, engine)
    totals = [engine.totals(state)]
    events = Event.objects.filter(record=record).order_by("seq").only("seq", "type", "payload")
    for event in events.iterator(chunk_size=2000):
        replay.apply_events(engine, state, [event])
        totals.append(engine.totals(state))
    series = [list(column) for column in zip(*totals)]
    cache.set(key, series, 24 * 3600)
    return series


EVENT_WINDOW = 150
"""Events listed on either side of the step shown: a long record's page costs what a short one's does."""
CHART_POINTS = 600
"""A chart never needs more points than it has pixels across."""


def event_window(record: GameRecord, at: int, last: int) -> tuple[list[replay.HistoryLine], int | None, int | None]:
    """The events listed around step ``at``, and the steps the links to earlier and later
    events go to (None when the list already starts or ends there)."""
    first = max(1, min(at - EVENT_WINDOW, last - 2 * EVENT_WINDOW))
    final = min(last, first + 2 * EVENT_WINDOW)
    events = list(Event.objects.filter(record=record, seq__gte=first, seq__lte=final).order_by("seq")
                  .select_related("recorded_by"))
    lines = replay.history(record, events) if first == 1 and final == last else replay.history_page(record, events)
    return lines, (max(0, first - 1 - EVENT_WINDOW) if first > 1 else None), (
        min(last, final + 1 + EVENT_WINDOW) if final < last else None)


def chart_points(totals: list[int]) -> list[tuple[int, int]]:
    """(step, score) pairs, thinned to :data:`CHART_POINTS` for a very long record (the last kept)."""
    stride = max(1, -(-len(totals) // CHART_POINTS))
    points = list(enumerate(totals))[::stride]
    if points[-1][0] != len(totals) - 1:
        points.append((len(totals) - 1, totals[-1]))
    return points


@require_GET
def replay_page(request: HttpRequest, pk: int) -> HttpResponse:
    record, last = _replayable(request, pk)
    if record.result_only or get_engine(record.game_slug) is None:
        return render(request, "games/no_replay.html", {"record": record, "game": game_name(record.game_slug)},
                      status=409)
    try:
        at = parse_at(request.GET.get("at"), last)
    except BadStep as error:
        return render(request, "games/no_replay.html",
                      {"record": record, "game": game_name(record.game_slug), "error": str(error)}, status=400)
    document = services.position(record, at)
    position = document["position"]
    lines, earlier, later = event_window(record, at, last)
    sources = list(position["scores"][0]["breakdown"]) if position["scores"] else []
    seats = [
        {
            "seat": seat["seat"],
            "player": seat["player"],
            "colour": seat_colour(seat["seat"], seat["colour"]),
            "score": score,
            "points": [score["breakdown"].get(source, 0) for source in sources],
        }
        for seat, score in zip(document["seats"], position["scores"])
    ]
    chart = {
        "x_label": gettext("Event"),
        "y_label": gettext("Score"),
        "marker": at,
        "series": [
            {"label": seat["player"], "colour": seat["colour"], "points": chart_points(totals)}
            for seat, totals in zip(seats, score_progression(record, last))
        ],
    }
    context = {
        "record": record,
        "game": game_name(record.game_slug),
        "at": at,
        "last": last,
        "document": document,
        "position": position,
        "board": board_for(document, record),
        "seats": seats,
        "sources": [{"key": source, "label": source_label(source)} for source in sources],
        "lines": lines,
        "earlier": earlier,
        "later": later,
        "current_line": next((line for line in lines if line.event.seq == at), None),
        "current_player": document["seats"][position["current_player"]]["player"]
        if position.get("current_player") is not None and not document["is_over"] else "",
        "chart": chart,
        **game_hints(record.game_slug),
    }
    return render(request, "games/replay.html", context)


@require_GET
def board(request: HttpRequest, pk: int) -> HttpResponse:
    """The board after event ``at`` as an SVG document: what the viewer swaps in on each step."""
    record, last = _replayable(request, pk)
    if record.result_only or get_engine(record.game_slug) is None:
        return HttpResponse(gettext("This record has no moves to replay."), status=409, content_type="text/plain")
    try:
        at = parse_at(request.GET.get("at"), last)
    except BadStep as error:
        return HttpResponseBadRequest(str(error), content_type="text/plain; charset=utf-8")
    response = HttpResponse(board_for(services.position(record, at), record),
                            content_type="image/svg+xml; charset=utf-8")
    if "at" in request.GET:
        response["Cache-Control"] = f"private, max-age={BOARD_MAX_AGE}"
        # The text alternative follows the language, which a cookie may choose.
        patch_vary_headers(response, ["Cookie", "Accept-Language"])
    return response
