"""The replay viewer: a record's position after any event, drawn as SVG from the engine's state,
its events in words, and at the end the final scoring feature by feature.

The page works without JavaScript (the step controls are links, the slider a GET form, a line of
the final scoring a link that outlines its feature); ``replay.js`` turns them into fetches of the
state API, of :func:`board` (the SVG alone) and, for a step outside the events listed, of the
page's event list alone (``?part=events``).

What the page shows comes from one call, :func:`records.replay_read.read_replay`, which replays the
record once; this module turns it into words and drawings. Each event is said once
(:mod:`ludolog.web.narration`) and kept in the cache under its record, seq, ruleset and language
(the table recorder's key, :func:`said_key`): an event never changes once recorded. The read is
told which events are said already; it says the others (:func:`say`) as it applies them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_GET

from games.registry import get_engine
from records import replay, replay_read, selectors, services
from records.models import Event, GameRecord

from .games import WebGame, game_name, source_label, web_game
from .charts import thinned
from .narration import narrate, signed
from .narration.final import FinalLine, explain_end
from .rules import rules_played
from .tampered import refuses_tampered_records
from .tile_frame import seat_colour

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
    record = selectors.readable_record(request.user, pk)
    return record, selectors.last_seq(record)


def board_for(document: dict[str, Any], record: GameRecord, **options: Any) -> str:
    """The board of a position document, drawn by the game's web module; ``show`` (``award-3``,
    ``tribe-0``) outlines what a line of the final scoring is about, ``free_cells`` (tile games)
    the squares a tile may go."""
    title = gettext("%(game)s #%(id)s after event %(at)s") % {
        "game": game_name(record.game_slug), "id": record.pk, "at": document["at"]}
    position = dict(document["position"], at=document["at"])
    return _web_game(record).board(position, document["seats"], title=title, **options)


def _web_game(record: GameRecord) -> WebGame:
    game = web_game(record.game_slug)
    if game is None:
        raise LookupError(f"no web module draws {record.game_slug!r}")
    return game


def game_hints(slug: str) -> dict[str, str]:
    """The words of the replay page that depend on the game: its start, its board, its end and
    how to read its final scoring."""
    game = web_game(slug)
    if game is None:
        return {"start_text": "", "board_hint": "", "end_hint": "", "final_hint": ""}
    hints = game.hints
    return {"start_text": str(hints.start), "board_hint": str(hints.board), "end_hint": str(hints.end),
            "final_hint": str(hints.final)}


def replayable(record: GameRecord) -> bool:
    """A record of moves whose game has an engine and a web module to show them."""
    return not record.result_only and get_engine(record.game_slug) is not None and web_game(record.game_slug) is not None


EVENT_WINDOW = 50
"""Events listed on either side of the step shown: a long record's page costs what a short one's
does. 50 (101 lines, a few screens of the list) rather than 150 since issue 25: each line listed
is a sentence said (replaying the record the first time), a template row and some 40 elements in
the browser, and the page's first load was to take at most 500 ms; the viewer fetches the list
around any step outside it."""
CHART_POINTS = 600
"""A chart never needs more points than it has pixels across."""


NARRATION_MAX_AGE = 30 * 24 * 3600
SHOW = re.compile(r"^(?:award|tribe)-\d{1,4}$")
"""What a line of the final scoring may ask the board to outline."""


def said_key(record: GameRecord, seq: int) -> str:
    """Where the words of event ``seq`` are kept (the replay page's and the table recorder's)."""
    return replay_read.cache_key(record, "said", seq, get_language())


def told_words(record: GameRecord, seqs: Iterable[int]) -> dict[int, dict[str, Any]]:
    """The words kept of the events ``seqs``, by seq (those not said yet are left out)."""
    keys = {seq: said_key(record, seq) for seq in seqs}
    said = cache.get_many(list(keys.values()))
    return {seq: said[key] for seq, key in keys.items() if key in said}


def narrations(record: GameRecord, events: Sequence[Event], seats: Sequence[Mapping[str, Any]]) -> dict[int, dict[str, Any]]:
    """Each event of ``events`` (consecutive, in order) in words: ``{seq: {"seat", "text",
    "scoring", "points", "notation"}}``. Those not said yet are said from one replay."""
    if not events:
        return {}
    seqs = range(events[0].seq, events[-1].seq + 1)
    said = told_words(record, seqs)
    if len(said) < len(seqs):
        said.update(_kept(record, replay_read.read_said(record, seqs, told=said.keys(), say=say, seats=seats)))
    return {event.seq: said[event.seq] for event in events}


def _kept(record: GameRecord, said: Mapping[int, dict[str, Any]]) -> Mapping[int, dict[str, Any]]:
    """``said``, kept for the next reader."""
    if said:
        cache.set_many({said_key(record, seq): words for seq, words in said.items()}, NARRATION_MAX_AGE)
    return said


def say(step: replay_read.Step, seats: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """One event in words, as the cache keeps them."""
    try:
        told = narrate(step.game, step.type, step.payload, step.before, step.after, seats)
    except (ValueError, KeyError):
        # An event the narration cannot say (a game without words): its notation says it.
        return {"seq": step.seq, "seat": None, "text": step.notation, "scoring": [], "points": {},
                "notation": step.notation}
    return {"seq": step.seq, "seat": told.seat, "text": told.text, "scoring": list(told.scoring),
            "points": {str(seat): points for seat, points in told.points.items()}, "notation": step.notation}


@dataclass(frozen=True)
class Gain:
    """Points one player made: a coloured ``Bastien +8``."""

    seat: int
    player: str
    colour: str
    points: int

    @property
    def text(self) -> str:
        return signed(self.points)


@dataclass(frozen=True)
class ReplayLine:
    """One event of the viewer's list: the history line (notation, who recorded it, which undo
    took it back) and the event in words."""

    event: Event
    notation: str
    retracted_by: int | None
    seat: int | None
    said: SafeString
    """The sentence, the acting player's name in their colour."""
    scoring: tuple[str, ...]
    gains: tuple[Gain, ...]


class Seating:
    """The seats of a record as the page shows them: names and colours."""

    def __init__(self, seats: Sequence[Mapping[str, Any]]) -> None:
        self.seats = list(seats)
        self.names = {int(seat["seat"]): str(seat["player"]) for seat in seats}
        self.colours = {int(seat["seat"]): seat_colour(int(seat["seat"]), seat.get("colour", "")) for seat in seats}

    def name(self, seat: int) -> str:
        return self.names.get(seat) or gettext("Player %(number)s") % {"number": seat + 1}

    def colour(self, seat: int) -> str:
        return self.colours.get(seat) or seat_colour(seat)

    def gain(self, seat: int, points: int) -> Gain:
        return Gain(seat, self.name(seat), self.colour(seat), points)

    def who(self, seat: int) -> SafeString:
        """A player's name behind a swatch of their colour."""
        return mark_safe(f'<span class="who"><span class="swatch" style="background: {escape(self.colour(seat))}" '
                         f'aria-hidden="true"></span>{escape(self.name(seat))}</span>')

    def said(self, text: str, seat: int | None) -> SafeString:
        """``text`` with the first mention of ``seat``'s player in their colour (a swatch in front
        when the sentence does not name them)."""
        if seat is None:
            return mark_safe(escape(text))
        name = escape(self.name(seat))
        words = escape(text)
        mention = re.search(rf"(?<!\w){re.escape(name)}(?!\w)", words)
        if mention is None:
            return mark_safe(f'<span class="swatch" style="background: {escape(self.colour(seat))}" '
                             f'aria-hidden="true"></span>{words}')
        return mark_safe(words[:mention.start()] + self.who(seat) + words[mention.end():])


def replay_lines(lines: Sequence[replay.HistoryLine], said: Mapping[int, dict[str, Any]], table: Seating) -> list[ReplayLine]:
    """The history lines of the events listed, each with its words (``said``, by seq)."""
    result = []
    for line in lines:
        words = said[line.event.seq]
        seat = words["seat"]
        result.append(ReplayLine(
            event=line.event, notation=line.notation, retracted_by=line.retracted_by, seat=seat,
            said=table.said(words["text"], seat), scoring=tuple(words["scoring"]),
            gains=tuple(table.gain(int(s), points) for s, points in sorted(words["points"].items(), key=lambda i: int(i[0])))))
    return result


def end_of_game(record: GameRecord, end: Mapping[str, Any] | None, table: Seating) -> dict[str, Any] | None:
    """The final scoring of a finished record, feature by feature (tile games) or player by
    player (Stone Age), with each player's points before it, from it and in all, from ``end``,
    the position after its last event; ``None`` while the game goes on (``end`` None)."""
    if end is None:
        return None
    explained = explain_end(record.game_slug, end)
    groups = []
    for group in explained.groups:
        lines = [_final_line(line, table) for line in group.lines]
        groups.append({"heading": group.heading, "figure_word": group.figure_word,
                       "who": table.who(group.seat) if group.seat is not None else "",
                       "lines": lines, "scoring_lines": [line for line in lines if line["best"] > 0],
                       "nothing": sum(1 for line in lines if line["best"] <= 0)})
    return {
        "by_player": _web_game(record).final_by_player,
        "groups": groups,
        "sums": [{"who": table.who(seat), "seat": seat, "before": explained.before[seat],
                  "final": signed(explained.final[seat]), "total": explained.totals[seat]}
                 for seat in sorted(explained.totals)],
    }


def _final_line(line: FinalLine, table: Seating) -> dict[str, Any]:
    """A line of the final scoring for the pages. When the players whose figures stood on the
    feature are the ones it scored for (a knight alone in a city), each is named once, with their
    figures and points together (``David ×2 +14``), not once for the figures and again for the
    points."""
    figures = dict(line.figures)
    gains = dict(line.gains)
    together = bool(figures) and set(figures) == set(gains)
    return {"target": line.target, "feature": line.feature,
            "best": max(gains.values(), default=0),
            "figures": [{"who": table.who(seat), "count": count} for seat, count in line.figures],
            "gains": [table.gain(seat, points) for seat, points in line.gains],
            "together": [{"who": table.who(seat), "count": count, "gain": signed(gains[seat])}
                         for seat, count in line.figures] if together else []}


def listed_around(at: int, last: int) -> tuple[range, int | None, int | None]:
    """The events listed around step ``at``, and the steps the links to earlier and later
    events go to (None when the list already starts or ends there)."""
    first = max(1, min(at - EVENT_WINDOW, last - 2 * EVENT_WINDOW))
    final = min(last, first + 2 * EVENT_WINDOW)
    return range(first, final + 1), (max(0, first - 1 - EVENT_WINDOW) if first > 1 else None), (
        min(last, final + 1 + EVENT_WINDOW) if final < last else None)


def chart_points(totals: list[int]) -> list[tuple[int, int]]:
    """(step, score) pairs, thinned to :data:`CHART_POINTS` for a very long record (the last kept)."""
    return thinned(list(enumerate(totals)), CHART_POINTS)


@require_GET
@refuses_tampered_records()
def replay_page(request: HttpRequest, pk: int) -> HttpResponse:
    record, last = _replayable(request, pk)
    if not replayable(record):
        return render(request, "games/no_replay.html", {"record": record, "game": game_name(record.game_slug)},
                      status=409)
    try:
        at = parse_at(request.GET.get("at"), last)
    except BadStep as error:
        return render(request, "games/no_replay.html",
                      {"record": record, "game": game_name(record.game_slug), "error": str(error)}, status=400)
    if request.GET.get("part") == "events":
        return events_part(request, record, at, last)
    show = request.GET.get("show", "")
    listed, earlier, later = listed_around(at, last)
    told = told_words(record, listed)
    read = replay_read.read_replay(record, at, last=last, listed=listed, told=told.keys(), say=say)
    document = read.document
    position = document["position"]
    table = Seating(document["seats"])
    lines = replay_lines(read.lines, {**told, **_kept(record, read.said)}, table)
    end = end_of_game(record, read.end, table)
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
    current_player = position.get("current_player") if not document["is_over"] else None
    chart = {
        "x_label": gettext("Event"),
        "y_label": gettext("Score"),
        "marker": at,
        "series": [
            {"label": seat["player"], "colour": seat["colour"], "points": chart_points(totals)}
            for seat, totals in zip(seats, read.scores)
        ],
    }
    context = {
        "record": record,
        "game": game_name(record.game_slug),
        "at": at,
        "last": last,
        "document": document,
        "position": position,
        "board": board_for(document, record, show=show if SHOW.match(show) and at == last else None),
        "seats": seats,
        "sources": [{"key": source, "label": source_label(record.game_slug, source)} for source in sources],
        "lines": lines,
        "earlier": earlier,
        "later": later,
        "current_line": next((line for line in lines if line.event.seq == at), None),
        "current_player": table.name(current_player) if current_player is not None else "",
        "current_who": table.who(current_player) if current_player is not None else "",
        "end": end,
        "show": show,
        "chart": chart,
        "rules": rules_played(record),
        **game_hints(record.game_slug),
    }
    return render(request, "games/replay.html", context)


def events_part(request: HttpRequest, record: GameRecord, at: int, last: int) -> HttpResponse:
    """The page's list of events around step ``at`` alone: what the viewer swaps in when the
    reader goes to a step the list does not show. With ``last`` (the record's last event when
    the page was drawn) still the last, a browser may keep it: which events an undo took back
    can only change with a new event."""
    listed, earlier, later = listed_around(at, last)
    told = told_words(record, listed)
    read = replay_read.read_listed(record, listed, last=last, told=told.keys(), say=say)
    response = render(request, "games/_event_list.html", {
        "record": record, "lines": replay_lines(read.lines, {**told, **_kept(record, read.said)}, Seating(read.seats)),
        "earlier": earlier, "later": later,
        "replay_window": True, "link_steps": True, "current_seq": at,
    })
    if request.GET.get("last") == str(last):
        response["Cache-Control"] = f"private, max-age={BOARD_MAX_AGE}"
        patch_vary_headers(response, ["Cookie", "Accept-Language"])
    return response


@require_GET
@refuses_tampered_records(answer="text")
def board(request: HttpRequest, pk: int) -> HttpResponse:
    """The board after event ``at`` as an SVG document: what the viewer swaps in on each step."""
    record, last = _replayable(request, pk)
    if not replayable(record):
        return HttpResponse(gettext("This record has no moves to replay."), status=409, content_type="text/plain")
    try:
        at = parse_at(request.GET.get("at"), last)
    except BadStep as error:
        return HttpResponseBadRequest(str(error), content_type="text/plain; charset=utf-8")
    show = request.GET.get("show", "")
    response = HttpResponse(board_for(services.position(record, at), record, show=show if SHOW.match(show) else None),
                            content_type="image/svg+xml; charset=utf-8")
    if "at" in request.GET:
        response["Cache-Control"] = f"private, max-age={BOARD_MAX_AGE}"
        # The text alternative follows the language, which a cookie may choose.
        patch_vary_headers(response, ["Cookie", "Accept-Language"])
    return response
