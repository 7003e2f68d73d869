"""Record files (``ludolog-record/1``): export, validation, replay without a database, import.

A record file is to Ludolog what a PGN file is to chess: a reader follows the game from each
event's notation, a program loads the payloads, and a bad file is reported at its first bad
event, by number, with the reason.
"""

from __future__ import annotations

import datetime as dt
import json
from functools import lru_cache
from importlib import resources
from collections.abc import Callable
from typing import Any

import jsonschema
from django.conf import settings
from django.db import transaction
from django.utils.dateparse import parse_date, parse_datetime

from games.registry import ABANDON, RECORD_EVENT_SCHEMAS, RESULT, UNDO, EngineAdapter, PayloadError, get_engine

from . import replay
from .errors import RecordError
from .models import Event, GameRecord
from .services import CORRECTION, SeatSpec, check_result, finish, position_document, start_game

FORMAT = "ludolog-record/1"


class RecordFileError(RecordError):
    """A file that cannot be imported; ``event`` is the 1-based event number when one is at fault."""

    reason = "invalid_record_file"
    status_code = 400

    def __init__(self, message: str, *, reason: str | None = None, status_code: int | None = None, **details: Any):
        super().__init__(message, **details)
        if reason:
            self.reason = reason
        if status_code:
            self.status_code = status_code


@lru_cache(maxsize=1)
def record_schema() -> dict[str, Any]:
    text = resources.files("records.schemas").joinpath("ludolog-record-1.schema.json").read_text(encoding="utf-8")
    return json.loads(text)


def max_events() -> int:
    """The most events a record may hold (``LUDOLOG_MAX_EVENTS_PER_RECORD``): a longer game makes
    every page that shows it expensive; no table plays one."""
    return int(getattr(settings, "LUDOLOG_MAX_EVENTS_PER_RECORD", 5000))


def validate_document(document: Any) -> None:
    """Check the file's shape against the JSON Schema; the error names the first bad field."""
    validator = jsonschema.Draft202012Validator(record_schema(), format_checker=jsonschema.FormatChecker())
    error = jsonschema.exceptions.best_match(validator.iter_errors(document))
    if error is not None:
        path = ".".join(str(part) for part in error.absolute_path) or "(top level)"
        details: dict[str, Any] = {"field": path}
        if len(error.absolute_path) >= 2 and error.absolute_path[0] == "events":
            details["event"] = int(error.absolute_path[1]) + 1
        raise RecordFileError(f"{path}: {error.message}", **details)
    limit = max_events()
    if len(document["events"]) > limit:
        raise RecordFileError(f"a record holds at most {limit} events, and this file has {len(document['events'])}",
                              field="events", reason="record_full", status_code=413, limit=limit)
    seqs = [event["seq"] for event in document["events"]]
    if seqs != list(range(1, len(seqs) + 1)):
        raise RecordFileError("events must be numbered 1, 2, 3… in order with no gap", field="events")
    seats = sorted(player["seat"] for player in document["players"])
    if seats != list(range(len(seats))):
        raise RecordFileError(f"seats must be 0…{len(seats) - 1}, each once, not {seats}", field="players")


def _engine(document: dict[str, Any]) -> EngineAdapter | None:
    if document.get("result_only"):
        return None
    engine = get_engine(document["game"])
    if engine is None:
        raise RecordFileError(f"no rules engine replays {document['game']!r}", field="game", reason="unknown_game")
    if document["ruleset_version"] not in engine.rulesets:
        known = ", ".join(map(repr, engine.rulesets))
        raise RecordFileError(
            f"the file was played with ruleset {document['ruleset_version']!r}; this engine has {known}",
            field="ruleset_version",
            reason="ruleset_mismatch",
            status_code=409,
        )
    return engine


def document_setup(engine: EngineAdapter, document: dict[str, Any]) -> dict[str, Any]:
    """The set-up a file chose besides its seed, as the engine checks it (a file written by
    Ludolog holds it complete, so checking it changes nothing)."""
    chosen = {key: value for key, value in document["setup"].items() if key != "seed"}
    try:
        return engine.prepare_setup(len(document["players"]), document["setup"].get("seed"), chosen,
                                    document["ruleset_version"])
    except PayloadError as error:
        raise RecordFileError(error.message, field=error.field, reason="invalid_setup") from None


def replay_document(
    document: dict[str, Any],
    at: int | None = None,
    *,
    after_each: Callable[[int, Any], None] | None = None,
) -> tuple[EngineAdapter, Any, int]:
    """Validate a file and replay its events (up to ``at``) through the engine: no database.

    ``after_each(seq, state)`` sees the position after every event (the import keeps its
    snapshots from it rather than replaying the game a second time).
    """
    validate_document(document)
    engine = _engine(document)
    if engine is None:
        raise RecordFileError("a result-only record has no position to replay", reason="no_engine", status_code=409)
    events = document["events"]
    target = len(events) if at is None else at
    if not 0 <= target <= len(events):
        raise RecordFileError(f"at must be between 0 and {len(events)}, not {target}", field="at")
    state = engine.new_state(len(document["players"]), document["setup"].get("seed"), document_setup(engine, document),
                             document["ruleset_version"])
    for number, event in enumerate(events[:target], start=1):
        if number > 1 and events[number - 2]["type"] in RECORD_EVENT_SCHEMAS:
            raise RecordFileError(f"event {number}: the game was closed by event {number - 1} "
                                  f"({events[number - 2]['type']}): nothing follows it", event=number,
                                  reason="record_closed", status_code=422)
        try:
            if event["type"] == UNDO:
                engine.undo(state)
            else:
                engine.apply(state, event["type"], event["payload"])
        except PayloadError as error:
            raise RecordFileError(f"event {number}: {error.message}", event=number, field=error.field) from None
        except Exception as error:
            reason = getattr(error, "reason", None)
            if reason is None:
                raise
            raise RecordFileError(
                f"event {number} ({event.get('notation') or event['type']}): {getattr(error, 'message', error)}",
                reason=reason,
                status_code=422,
                event=number,
            ) from None
        if after_each is not None:
            after_each(number, state)
    return engine, state, target


def document_position(document: dict[str, Any], at: int | None = None) -> dict[str, Any]:
    """The same JSON as ``GET /api/records/{id}/state/?at=N``, from a file."""
    engine, state, seq = replay_document(document, at)
    return position_document(engine, state, seq, seats=_seats(document), ruleset_version=document["ruleset_version"])


def _seats(document: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {"seat": p["seat"], "player": p["name"], "colour": p.get("colour", "")}
        for p in sorted(document["players"], key=lambda p: p["seat"])
    ]


def export_document(record: GameRecord) -> dict[str, Any]:
    lines = replay.history(record)
    engine = None if record.result_only else get_engine(record.game_slug)
    final_scores = None
    if engine is not None and record.status == GameRecord.Status.FINISHED:
        state, _seq = replay.state_at(record)
        final_scores = [line.score for line in engine.final_scores(state)]
    document: dict[str, Any] = {
        "format": FORMAT,
        "game": record.game_slug,
        # The rules it is judged by now (after a migrate_ruleset, the ruleset moved to), so that
        # the file imported elsewhere scores as here.
        "ruleset_version": replay.ruleset_of(record) if engine is not None else (record.ruleset_version or "-"),
        "played_on": record.played_on.isoformat(),
        "location": record.location,
        "result_only": record.result_only,
        "friendly": record.is_friendly,
        **({"cooperative": True} if record.is_cooperative else {}),
        "play_started_at": record.play_started_at.isoformat() if record.play_started_at else None,
        "play_ended_at": record.play_ended_at.isoformat() if record.play_ended_at else None,
        "players": [
            {"seat": seat.seat_order, "name": seat.player.display_name, "colour": seat.colour}
            for seat in record.seats.select_related("player")
        ],
        "setup": {"seed": record.seed, **(replay.setup_of(record) if engine is not None else {})},
        "events": [
            {
                "seq": line.event.seq,
                "type": line.event.type,
                "payload": line.event.payload,
                "notation": line.notation,
                "recorded_by": line.event.recorded_by.username if line.event.recorded_by else None,
                "recorded_at": line.event.recorded_at.isoformat(),
                **({"retracted_by": line.retracted_by} if line.retracted_by else {}),
            }
            for line in lines
        ],
        "final_scores": final_scores,
    }
    return document


def import_document(document: Any, *, imported_by: Any = None, **fields: Any) -> GameRecord:
    """Validate every event through the engine, then store the record whole, or nothing.

    ``fields`` are record fields the file does not carry (the catalogue record and copy used).
    Every event is recorded by ``imported_by`` (no account for a command-line import); the name
    a file gives as an event's author is kept as ``recorded_by_per_file``, never matched to an
    account (a file could name anyone, an administrator included).
    """
    validate_document(document)
    engine = _engine(document)
    seed = document["setup"].get("seed")
    if engine is None:
        events = document["events"]
        if not events or events[0]["type"] != RESULT or any(e["type"] != CORRECTION for e in events[1:]):
            raise RecordFileError(f"a result-only record holds one {RESULT!r} event, then only its corrections "
                                  f"({CORRECTION!r})", field="events")
        for number, event in enumerate(events, start=1):
            try:
                check_result((p["seat"] for p in document["players"]), event["type"], event["payload"],
                             cooperative=bool(document.get("cooperative")))
            except PayloadError as error:
                raise RecordFileError(f"event {number}: {error.message}", event=number, field=error.field) from None
        state, finished = None, True
    else:
        if not engine.min_players <= len(document["players"]) <= engine.max_players:
            raise RecordFileError(
                f"{engine.name} is for {engine.min_players} to {engine.max_players} players", field="players"
            )
        every = replay.snapshot_every()
        snapshots: list[tuple[int, Any]] = []

        def keep_snapshot(seq: int, state: Any) -> None:
            if seq % every == 0:
                snapshots.append((seq, engine.snapshot(state)))

        _engine_, state, _seq = replay_document(document, after_each=keep_snapshot)
        finished = engine.is_over(state) or bool(document["events"]) and document["events"][-1]["type"] in RECORD_EVENT_SCHEMAS
    recorded_at = {number: _recorded_at(event, number) for number, event in enumerate(document["events"], start=1)
                   if event.get("recorded_at")}
    with transaction.atomic():
        record = start_game(
            game_slug=document["game"],
            seats=[SeatSpec(p["name"], p.get("colour", "")) for p in sorted(document["players"], key=lambda p: p["seat"])],
            created_by=imported_by,
            seed=seed,
            result_only=bool(document.get("result_only")),
            played_on=parse_date(document["played_on"]) if document.get("played_on") else dt.date.today(),
            location=document.get("location", ""),
            is_friendly=bool(document.get("friendly")),
            is_cooperative=bool(document.get("cooperative")) and engine is None,
            play_started_at=_play_time(document, "play_started_at"),
            play_ended_at=_play_time(document, "play_ended_at"),
            ruleset_version=document["ruleset_version"],
            setup={} if engine is None else document_setup(engine, document),
            **fields,
        )
        Event.objects.bulk_create(
            [
                Event(
                    record=record,
                    seq=event["seq"],
                    type=event["type"],
                    payload=event["payload"],
                    # The account is the importer's: a file names whoever it likes. Its name is kept as text.
                    recorded_by=imported_by,
                    recorded_by_per_file=event.get("recorded_by") or None,
                    **({"recorded_at": recorded_at[number]} if number in recorded_at else {}),
                )
                for number, event in enumerate(document["events"], start=1)
            ]
        )
        if engine is not None:
            replay.store_snapshots(record, engine, snapshots)
        if finished:
            abandoned = bool(document["events"]) and document["events"][-1]["type"] == ABANDON
            finish(record, GameRecord.Status.ABANDONED if abandoned else GameRecord.Status.FINISHED)
    return record


EARLIEST_RECORDED_AT = dt.datetime(1900, 1, 1, tzinfo=dt.timezone.utc)
"""No event of a record file was recorded before this. With the latest time (tomorrow: a clock may
run ahead), every stored time stays one that UTC and any time zone can show (years 1 to 9999)."""


def _recorded_at(event: dict[str, Any], number: int) -> dt.datetime:
    """An event's time (UTC when the file gives no offset), or a refusal naming the event (the
    schema's date-time format is not checked by every jsonschema installation, and
    ``2026-02-30`` has the right shape)."""
    return _file_time(event["recorded_at"], f"event {number}: recorded_at", event=number,
                      field=f"events.{number - 1}.recorded_at")


def _play_time(document: dict[str, Any], key: str) -> dt.datetime | None:
    """When play started or ended, as the file keeps it (none when it does not say)."""
    text = document.get(key)
    return None if text is None else _file_time(text, key, field=key)


def _file_time(text: str, what: str, **where: Any) -> dt.datetime:
    try:
        when = parse_datetime(text)
    except ValueError:
        when = None
    if when is None:
        raise RecordFileError(f"{what} {text!r} is not a date and time", **where)
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.timezone.utc)
    # Compared without converting: "9999-12-31T23:59:59-14:00" has no UTC time to convert to.
    if not EARLIEST_RECORDED_AT <= when <= dt.datetime.now(dt.timezone.utc) + dt.timedelta(days=1):
        raise RecordFileError(f"{what} {text!r} is not between "
                              f"{EARLIEST_RECORDED_AT.date().isoformat()} and tomorrow", **where)
    return when


EVENT_KEY_ORDER = ("seq", "type", "notation", "payload", "recorded_by", "recorded_at", "retracted_by")


def dumps(document: dict[str, Any]) -> str:
    """The canonical text of a record file: one event per line, so it reads like move text.

    Key order is fixed and there is one trailing newline, so export → import → export is
    byte-identical.
    """
    head = {key: value for key, value in document.items() if key != "events"}
    lines = []
    for event in document["events"]:
        ordered = {key: event[key] for key in EVENT_KEY_ORDER if key in event}
        ordered.update({key: value for key, value in event.items() if key not in ordered})
        lines.append("  " + json.dumps(ordered, ensure_ascii=False, separators=(", ", ": ")))
    body = json.dumps(head, ensure_ascii=False, indent=1)
    events = "[\n" + ",\n".join(lines) + "\n ]" if lines else "[]"
    # Put the events last, after the setup, as a PGN puts its move text after the tags.
    return body[:-2] + ',\n "events": ' + events + "\n}\n"


SIMULATED_PLAYED_ON = "2026-01-01"
"""A fixed date keeps a simulated file a pure function of its arguments."""


def simulate_document(game: str, players: int, seed: int, names: list[str] | None = None, *,
                      player: str = "random", setup: dict[str, Any] | None = None,
                      ruleset_version: str | None = None) -> dict[str, Any]:
    """A complete simulated game as a record file; the same seed, the same file. ``player`` says
    who plays: ``"random"`` (random legal actions) or ``"heuristic"`` (the engine's simple
    player, whose games look played: the demo's); ``setup`` what the game's set-up chooses
    (the engine completes it, drawing from the seed what it leaves out)."""
    engine = get_engine(game)
    if engine is None:
        raise RecordFileError(f"no rules engine plays {game!r}", field="game", reason="unknown_game")
    if player not in ("random", "heuristic"):
        raise ValueError(f"player is 'random' or 'heuristic', not {player!r}")
    names = names or [f"Player {seat + 1}" for seat in range(players)]
    ruleset_version = ruleset_version or engine.ruleset_version
    setup = engine.prepare_setup(players, seed, setup, ruleset_version)
    play = engine.random_game if player == "random" else engine.demo_game
    events = play(players, seed, setup, ruleset_version)
    state = engine.new_state(players, seed, setup, ruleset_version)
    for kind, payload in events:
        engine.apply(state, kind, payload)
    return {
        "format": FORMAT,
        "game": game,
        "ruleset_version": ruleset_version,
        "played_on": SIMULATED_PLAYED_ON,
        "location": "",
        "result_only": False,
        "players": [{"seat": seat, "name": names[seat], "colour": ""} for seat in range(players)],
        "setup": {"seed": seed, **setup},
        "events": [
            {"seq": seq, "type": kind, "payload": payload, "notation": engine.notation(kind, payload)}
            for seq, (kind, payload) in enumerate(events, start=1)
        ],
        "final_scores": [line.score for line in engine.final_scores(state)],
    }
