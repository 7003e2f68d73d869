"""The recording page (``/scorekeeping/<id>/``) and the table's state as JSON.

The page draws the position and embeds what the recorder's script needs to work offline (the
table's state, every tile's picture and edges, the words in the reader's language). The script
appends through the records API with idempotency keys and asks :func:`table` for the new state
after each move and, every few seconds, whether another phone recorded meanwhile.

The notation form of the first scorekeeping page stays, folded away, for experts: a POST here
parses one action in the engine's notation and appends it like the API does.
"""

from __future__ import annotations

import io
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy as _
from django.views.decorators.http import require_http_methods
from rest_framework.exceptions import ParseError

from games.registry import ENDED_MISSING_TILE, RECORD_EVENT_SCHEMAS, UNDO, get_engine
from records import replay, services, state_cache
from records.models import GameRecord
from records.serializers import AppendEventSerializer
from records import selectors

from ...api_parsers import BoundedJSONParser
from ..games import WebGame, game_name, web_game
from ..narration import and_list
from ..replay import Seating, board_for, end_of_game, narrations
from ..tampered import refuses_tampered_records
from ..tile_frame import seat_colour
from .words import common_words

RECENT_LINES = 8
"""How many of the last moves the page says in words."""


class ActionForm(forms.Form):
    action = forms.CharField(label=_("Next action"), max_length=200, help_text=_("In the game's notation, or undo."))
    expected_seq = forms.IntegerField(min_value=0, widget=forms.HiddenInput)

    def for_game(self, slug: str) -> ActionForm:
        """Show the game's own notation as the example."""
        engine = get_engine(slug)
        if engine is not None:
            self.fields["action"].help_text = gettext("In the game's notation, e.g. %(example)s, or undo.") % {
                "example": engine.notation_example}
        return self


def _append_notation(request: HttpRequest, record: GameRecord, form: ActionForm) -> tuple[dict[str, str] | None, int]:
    """Parse and append one action typed in notation; returns the refusal (or None) and the status."""
    engine = get_engine(record.game_slug)
    assert engine is not None
    text = form.cleaned_data["action"].strip()
    try:
        kind, payload = (UNDO, {}) if text == UNDO else engine.parse_notation(text)
    except ValueError as error:
        return {"reason": "invalid_notation", "message": str(error)}, 400
    try:
        services.append_event(record, form.cleaned_data["expected_seq"], kind, payload, recorded_by=request.user,
                              hold_end=True)
    except Exception as error:
        # Engine refusals (IllegalAction) and store refusals carry a stable reason code;
        # anything without one is a bug and must surface as such.
        if getattr(error, "reason", None) is None:
            raise
        return ({"reason": str(getattr(error, "reason")), "message": str(getattr(error, "message", error))},
                int(getattr(error, "status_code", 422)))
    return None, 201


def _has_engine(record: GameRecord) -> bool:
    """A record of moves whose game has an engine and a web module to record them."""
    return not record.result_only and get_engine(record.game_slug) is not None and web_game(record.game_slug) is not None


def _recordable(request: HttpRequest, pk: int) -> tuple[GameRecord, HttpResponse | None]:
    record = selectors.readable_record(request.user, pk)
    if not selectors.can_append(request.user, record):
        return record, render(request, "scorekeeping/forbidden.html", {"record": record}, status=403)
    if not _has_engine(record):
        return record, render(request, "scorekeeping/forbidden.html", {"record": record, "no_engine": True}, status=409)
    return record, None


@login_required
@refuses_tampered_records()
def record_page(request: HttpRequest, pk: int) -> HttpResponse:
    record, refused = _recordable(request, pk)
    if refused is not None:
        return refused
    refusal, status = None, 200
    if request.method == "POST":
        form = ActionForm(request.POST)
        if form.is_valid():
            refusal, status = _append_notation(request, record, form)
            if refusal is None:
                messages.success(request, gettext("Recorded: %(action)s") % {"action": form.cleaned_data["action"]})
                return redirect("scorekeeping-record", pk=record.pk)
        else:
            status = 400
        record.refresh_from_db()
    state = table_state(record)
    if refusal is not None:
        form = ActionForm(data={"action": request.POST.get("action", ""), "expected_seq": state["seq"]})
    elif request.method != "POST":
        form = ActionForm(initial={"expected_seq": state["seq"]})
    form.for_game(record.game_slug)
    engine = get_engine(record.game_slug)
    game = web_game(record.game_slug)
    assert engine is not None and game is not None
    version = replay.ruleset_of(record)
    page_data: dict[str, Any] = {
        "record": record.pk,
        "game": record.game_slug,
        "seeded": record.seed is not None,
        "urls": {
            # Appends go to the table's own URL, which answers the new table in the same round trip.
            "events": reverse("scorekeeping-table", args=[record.pk]),
            "options": f"/api/records/{record.pk}/options/",
            "table": reverse("scorekeeping-table", args=[record.pk]),
            "replay": reverse("game-replay", args=[record.pk]),
        },
        "csrf": get_token(request),
        "table": state,
        "words": {**common_words(), **game.recorder.words()},
        **game.recorder.page_data(engine, version),
    }
    context = {
        "record": record,
        "game": game_name(record.game_slug),
        "ending": state.get("ending"),
        "end": _end(record, state) if state.get("ending") else None,
        "form": form,
        "refusal": refusal,
        "table": state,
        "recorder": game.recorder,
        "sprite": game.recorder.sprite(engine, version),
        "page_data": page_data,
        "in_progress": record.status == GameRecord.Status.IN_PROGRESS,
    }
    return render(request, "scorekeeping/record.html", context, status=status)


def _end(record: GameRecord, state: dict[str, Any]) -> dict[str, Any] | None:
    """The final scoring of a closed record, as its replay's last step explains it."""
    document = services.position(record, state["seq"])
    return end_of_game(record, document["position"] if document["is_over"] else None, Seating(state["seats"]))


@login_required
@require_http_methods(["GET", "POST"])
@refuses_tampered_records(answer="json", ask_first=False)
def table(request: HttpRequest, pk: int) -> HttpResponse:
    """The table's state as JSON; ``?known=N`` answers 204 while event N is still the last, so
    that a phone can ask every few seconds whether another one recorded meanwhile.

    A POST records one action (the records API's body: ``expected_seq``, ``type``, ``payload``,
    ``idempotency_key``) and answers the table after it, in one round trip for the phone: 201
    ``{"event": …, "table": …}``, or the API's refusal (its status, ``reason`` and ``detail``)
    with nothing stored."""
    if request.method == "POST":
        # As the records API appends: the record, the user's rights, its last event, its ruleset
        # and the events this process's cached state lacks, in one query (a move is recorded
        # every few seconds at the table; this is the Confirm's round trip).
        target = selectors.append_target(pk, request.user, catch_up_from=state_cache.cached_seq(int(pk)))
        if not target.may_read:
            raise Http404
        if not target.may_append:
            return JsonResponse({"reason": "forbidden"}, status=403)
        if not _has_engine(target.record):
            return JsonResponse({"reason": "no_engine"}, status=409)
        return _record_action(request, target)
    record, refused = _recordable(request, pk)
    if refused is not None:
        return JsonResponse({"reason": "forbidden" if refused.status_code == 403 else "no_engine"},
                            status=refused.status_code)
    known = request.GET.get("known", "")
    if known.isascii() and known.isdigit():
        if selectors.last_seq(record) == int(known):
            return HttpResponse(status=204)
    return JsonResponse(table_state(record))


def _record_action(request: HttpRequest, target: selectors.AppendTarget) -> HttpResponse:
    record = target.record
    try:
        # The API's parser, so that what it refuses (a body nested too deep for Python's parser
        # among others) is refused here in the same words rather than crashing.
        data = BoundedJSONParser().parse(io.BytesIO(request.body or b"{}"))
    except ParseError as error:
        return JsonResponse({"reason": "parse_error", "detail": str(error.detail)}, status=400)
    body = AppendEventSerializer(data=data)
    if not body.is_valid():
        return JsonResponse({"reason": "invalid", "detail": "invalid field(s): " + ", ".join(body.errors),
                             "fields": list(body.errors)}, status=400)
    data = body.validated_data
    try:
        # At the table the move that ends the game waits for the scorekeeper's "end the game and
        # score it?" (an end_game event), and can be taken back until then.
        event = services.append_event(target, data["expected_seq"], data["type"], data["payload"],
                                      recorded_by=request.user, idempotency_key=data.get("idempotency_key"),
                                      hold_end=True)
    except Exception as error:
        # Store refusals and engine refusals carry a stable reason; anything else is a bug.
        reason = getattr(error, "reason", None)
        if reason is None:
            raise
        return JsonResponse({"reason": str(reason), "detail": str(getattr(error, "message", error)),
                             **{k: v for k, v in dict(getattr(error, "details", {}) or {}).items()
                                if isinstance(v, (str, int, list))}},
                            status=int(getattr(error, "status_code", 422)))
    stored = {"seq": event.seq, "type": event.type, "payload": event.payload, "idempotency_key": event.idempotency_key}
    return JsonResponse({"event": stored, "table": table_state(record)}, status=201)


def table_state(record: GameRecord) -> dict[str, Any]:
    """Everything the recorder shows of the table after the last event, as JSON."""
    engine = replay.engine_for(record)
    seats = [
        {"seat": seat.seat_order, "player": seat.player.display_name, "colour": seat.colour}
        for seat in record.seats.select_related("player")
    ]
    version = replay.ruleset_of(record)
    # The append this table usually follows left its state in this process's cache: read it from
    # there (caught up if another process recorded since) instead of rebuilding the position, and
    # give it back for the next append.
    with state_cache.held(record, version) as held:
        state, seq, lines = _state_and_lines(record, seats, held.taken())
        if held.seq is not None or record.status == GameRecord.Status.IN_PROGRESS:
            held.keep(seq, state, held.head if held.seq == seq else None)
        return _table(record, engine, _web_game(record), seats, state, seq, lines, version)


def _web_game(record: GameRecord) -> WebGame:
    game = web_game(record.game_slug)
    assert game is not None, "_recordable lets only a game with a web module through"
    return game


def _table(record: GameRecord, engine: Any, game: WebGame, seats: list[dict[str, Any]], state: Any, seq: int,
           lines: list[dict[str, Any]], version: str) -> dict[str, Any]:
    document = services.position_document(engine, state, seq, seats=seats, ruleset_version=version)
    position = document["position"]
    in_progress = record.status == GameRecord.Status.IN_PROGRESS and not document["is_over"]
    result: dict[str, Any] = {
        "seq": seq,
        "status": record.status,
        "over": document["is_over"],
        # The rules ended the game with the last move: the scorekeeper confirms, or takes it back.
        "awaiting_end": record.status == GameRecord.Status.IN_PROGRESS and document["is_over"],
        "can_end_early": in_progress and engine.can_end_early(state),
        "ending": _ending(record, engine, state, seats),
        "board": board_for(document, record, **game.recorder.board_options),
        "options": engine.options(state) if in_progress else {"over": True},
        "seats": [
            {"seat": seat["seat"], "player": seat["player"], "colour": seat_colour(seat["seat"], seat["colour"]),
             "total": score["total"]}
            for seat, score in zip(seats, position["scores"])
        ],
        "to_play": position.get("current_player") if in_progress else None,
        "lines": lines,
    }
    result.update(game.recorder.table(position))
    return result


def _ending(record: GameRecord, engine: Any, state: Any, seats: list[dict[str, Any]]) -> dict[str, Any] | None:
    """How a closed record ended, for the end screen: abandoned (and why), or the winner or
    winners (a shared first place names each), the ranking and why it ended early if it did."""
    if record.status == GameRecord.Status.IN_PROGRESS:
        return None
    last = selectors.latest_events(record, 1)
    closing = last[0] if last and last[0].type in RECORD_EVENT_SCHEMAS else None
    reason = str(closing.payload.get("reason", "")) if closing is not None else "complete"
    if record.status == GameRecord.Status.ABANDONED:
        return {"abandoned": True, "reason": reason}
    names = {seat["seat"]: seat["player"] for seat in seats}
    colours = {seat["seat"]: seat_colour(seat["seat"], seat["colour"]) for seat in seats}
    finals = sorted(engine.final_scores(state), key=lambda final: (final.rank, final.seat))
    winners = [names[final.seat] for final in finals if final.rank == 1]
    return {
        "abandoned": False,
        "missing_tile": reason == ENDED_MISSING_TILE,
        "winners": winners,
        "headline": _winners_sentence(winners),
        "ranking": [{"seat": final.seat, "player": names[final.seat], "colour": colours[final.seat],
                     "score": final.score, "rank": final.rank} for final in finals],
    }


def _winners_sentence(winners: list[str]) -> str:
    if len(winners) == 1:
        return gettext("%(player)s wins.") % {"player": winners[0]}
    return gettext("%(players)s share the win.") % {"players": and_list(winners)}


def _state_and_lines(record: GameRecord, seats: list[dict[str, Any]],
                     cached: tuple[int, Any] | None = None) -> tuple[Any, int, list[dict[str, Any]]]:
    """The state after the last event (from ``cached``, this process's state of the record, when
    it has one), and the last few events in words (the replay viewer's words, said once and kept)."""
    events = selectors.latest_events(record, RECENT_LINES)
    said = narrations(record, events, seats)
    state, seq = replay.current_state(record, cached=cached) if cached is not None else replay.state_at(record)
    retracted = selectors.retracted(record)
    lines = []
    for event in events:
        line = dict(said[event.seq])
        line["retracted"] = event.seq in retracted
        line["by"] = event.recorded_by.get_username() if event.recorded_by else ""
        lines.append(line)
    return state, seq, lines
