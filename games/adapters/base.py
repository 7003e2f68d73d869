"""What every engine adapter shares: the event vocabulary, payload validation, the adapter
protocol and the template the adapters fill in.

Pure Python (no Django): the records app asks an adapter to validate event payloads, apply
events to a state, serialise states for snapshots, describe positions and list what may be
recorded next.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

import jsonschema

from games.engines.contract import EndsEarly, Engine

from .schema_check import compile_schema

StateT = TypeVar("StateT", bound=Engine[Any])
"""The engine's game an adapter plays (every one keeps :class:`games.engines.contract.Engine`)."""

UNDO = "undo"
"""Retracts the last effective action. Known to every engine; the log keeps both events."""

RESULT = "result"
"""The one event of a result-only record: each seat's final score (no replay)."""

NO_SETUP: Mapping[str, Any] = {"type": "object", "properties": {}, "additionalProperties": False}
"""The set-up schema of a game whose record chooses nothing at its start beyond the seed."""

COORDINATE: Mapping[str, Any] = {"type": "integer", "minimum": -1000, "maximum": 1000}
"""A cell of a tile board: a game of a hundred tiles never leaves ±100."""
SEAT: Mapping[str, Any] = {"type": "integer", "minimum": 0, "maximum": 15}


class PayloadError(ValueError):
    """A payload that does not fit its event type's schema; ``field`` names where."""

    reason = "invalid_payload"
    status_code = 400

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message
        self.details = {"field": field}


class UnknownEventType(PayloadError):
    reason = "unknown_event_type"


END_GAME = "end_game"
"""The scorekeeper ends the game, as a table does: ``reason`` ``complete`` confirms a game the
rules have ended (the last tile laid); ``missing_tile`` ends an unseeded tile game whose box
lacks a tile, now, with the final scoring the rules do at the end. Known to every engine; the
record is finished by it and takes no more events."""

ABANDON = "abandon"
"""The scorekeeper abandons the game (``reason`` in words): the record is kept, its position
unchanged, and it counts for nothing. Known to every engine; the record takes no more events."""

ENDED_COMPLETE = "complete"
ENDED_MISSING_TILE = "missing_tile"
END_REASONS = (ENDED_COMPLETE, ENDED_MISSING_TILE)

RECORD_EVENT_SCHEMAS: Mapping[str, Mapping[str, Any]] = {
    END_GAME: {
        "type": "object",
        "properties": {
            "reason": {"enum": list(END_REASONS)},
            "note": {"type": "string", "maxLength": 500},
        },
        "required": ["reason"],
        "additionalProperties": False,
    },
    ABANDON: {
        "type": "object",
        "properties": {"reason": {"type": "string", "minLength": 1, "maxLength": 500, "pattern": "\\S"}},
        "required": ["reason"],
        "additionalProperties": False,
    },
}
"""The events that end a record, the same for every game."""


class EndRefused(PayloadError):
    """An ``end_game`` the position does not allow (the rules have not ended a game confirmed as
    complete; a missing tile in a game that draws from a seeded bag, or has no tiles)."""

    reason = "cannot_end"
    status_code = 422


@dataclass(frozen=True)
class FinalScore:
    seat: int
    score: int | None  # None: a result told by places only (a result-only record); engines always score
    rank: int
    breakdown: Mapping[str, int] = field(default_factory=dict)


class EngineAdapter(Protocol[StateT]):
    """What the platform asks of a game's adapter; ``StateT`` is its engine's game (the records
    app, which replays any game, sees ``EngineAdapter[Any]``)."""

    slug: str
    name: str
    ruleset_version: str
    min_players: int
    max_players: int
    notation_example: str
    """A few actions in the engine's text notation, shown to scorekeepers."""
    event_schemas: Mapping[str, Mapping[str, Any]]
    setup_schema: Mapping[str, Any]
    """What a record may choose at its start besides the seed (expansions, a map and its chips,
    variants): the JSON Schema of :attr:`GameRecord.setup`."""
    refusals: tuple[type[Exception], ...]
    """What ``apply`` raises for an action it refuses; the state is then left unchanged."""

    rulesets: Mapping[str, Any]
    """Every ruleset version a record may pin, oldest first, as
    :class:`games.adapters.rulesets.RulesetInfo`; ``ruleset_version`` is the one new records pin."""
    variants: Mapping[str, Any]
    """The table options a record may choose (``setup["variants"]``), as
    :class:`games.adapters.rulesets.VariantInfo`."""

    def prepare_setup(self, players: int, seed: int | None, setup: Mapping[str, Any] | None,
                      ruleset_version: str | None = None) -> dict[str, Any]:
        """The set-up a new record pins: ``setup`` checked (:class:`PayloadError` naming the field,
        ``setup.<key>``) and completed (defaults filled in, what the seed draws written down)."""
        ...
    def describe_setup(self, setup: Mapping[str, Any]) -> list[tuple[str, str]]:
        """The set-up as (what, value) lines for the pages, in English (the pages translate)."""
        ...
    def new_state(self, players: int, seed: int | None, setup: Mapping[str, Any] | None = None,
                  ruleset_version: str | None = None) -> StateT:
        """A game's first position under ``ruleset_version`` (one of :attr:`rulesets`; ``None``
        is :attr:`ruleset_version`, what a new record pins)."""
        ...
    def apply(self, state: StateT, event_type: str, payload: Mapping[str, Any], *, validate: bool = True) -> dict[str, Any]: ...
    def undo(self, state: StateT) -> None: ...
    def notation(self, event_type: str, payload: Mapping[str, Any]) -> str: ...
    def parse_notation(self, text: str) -> tuple[str, dict[str, Any]]: ...
    def snapshot(self, state: StateT) -> dict[str, Any]: ...
    def restore(self, data: Mapping[str, Any]) -> StateT: ...
    def view(self, state: StateT) -> dict[str, Any]: ...
    def is_over(self, state: StateT) -> bool: ...
    def final_scores(self, state: StateT) -> list[FinalScore]: ...
    def totals(self, state: StateT) -> list[int]:
        """Each seat's score now, in seat order: what a score chart needs after every event."""
        ...
    def random_game(self, players: int, seed: int, setup: Mapping[str, Any] | None = None,
                    ruleset_version: str | None = None) -> list[tuple[str, dict[str, Any]]]: ...
    def demo_game(self, players: int, seed: int, setup: Mapping[str, Any] | None = None,
                  ruleset_version: str | None = None) -> list[tuple[str, dict[str, Any]]]: ...
    def options(self, state: StateT, tile: str | None = None) -> dict[str, Any]:
        """What may be recorded now, arranged for the table recorder (JSON-able)."""
        ...


_VALIDATORS: dict[int, jsonschema.Draft202012Validator] = {}
_CHECKS: dict[int, tuple[Mapping[str, Any], Callable[[Any], bool]]] = {}


def _validator(schema: Mapping[str, Any]) -> jsonschema.Draft202012Validator:
    # Schemas are module-level constants: build each validator once, not per event.
    validator = _VALIDATORS.get(id(schema))
    if validator is None:
        validator = _VALIDATORS[id(schema)] = jsonschema.Draft202012Validator(schema)
    return validator


def validate_payload(schemas: Mapping[str, Mapping[str, Any]], event_type: str, payload: Any) -> None:
    """Raise :class:`PayloadError` naming the first field that does not fit the type's schema."""
    schema = schemas.get(event_type)
    if schema is None:
        known = ", ".join(sorted(schemas))
        raise UnknownEventType("type", f"unknown event type {event_type!r}; this game knows: {known}")
    validate_against(schema, payload, "payload")


def _check(schema: Mapping[str, Any]) -> Callable[[Any], bool]:
    # Compiled once per schema (module-level constants) into a plain function; a schema with a
    # keyword schema_check does not compile is checked by jsonschema's validator instead.
    entry = _CHECKS.get(id(schema))
    if entry is None or entry[0] is not schema:
        check = compile_schema(schema) or _validator(schema).is_valid
        entry = _CHECKS[id(schema)] = (schema, check)
    return entry[1]


def validate_against(schema: Mapping[str, Any], value: Any, name: str) -> None:
    """Raise :class:`PayloadError` naming the first field of ``value`` (called ``name``) that does
    not fit ``schema``.

    A valid value costs one compiled check (:mod:`games.adapters.schema_check`); only an
    invalid one asks jsonschema which error to name.
    """
    if _check(schema)(value):
        return
    error = jsonschema.exceptions.best_match(_validator(schema).iter_errors(value))
    if error is None:
        return
    path = ".".join(str(part) for part in error.absolute_path)
    if error.validator == "required":
        missing = error.message.split("'")[1] if "'" in error.message else ""
        path = ".".join(filter(None, [path, missing]))
    elif error.validator == "additionalProperties" and "'" in error.message:
        path = ".".join(filter(None, [path, error.message.split("'")[1]]))
    field_name = name + (f".{path}" if path else "")
    raise PayloadError(field_name, f"{field_name}: {error.message}")


class GameStateAdapter(Generic[StateT]):
    """What the adapters do the same way. Their engine's ``Game`` keeps the engines' contract
    (:class:`games.engines.contract.Engine`: ``apply``, ``undo``, ``is_over``, ``scores()``,
    ``final_ranks()``, ``view()``, ``to_dict()``...), and has ``new(players, seed)`` and
    ``from_dict()``; an adapter says how an event becomes an action (:meth:`apply_action`) and
    how actions read as text (:meth:`action_text`, :meth:`read_action`)."""

    engine: Any
    event_schemas: Mapping[str, Mapping[str, Any]]
    setup_schema: Mapping[str, Any] = NO_SETUP
    ruleset_version: str
    variants: Mapping[str, Any] = {}

    @property
    def rulesets(self) -> Mapping[str, Any]:
        from .rulesets import single_ruleset

        return single_ruleset(self.ruleset_version)

    def prepare_setup(self, players: int, seed: int | None, setup: Mapping[str, Any] | None,
                      ruleset_version: str | None = None) -> dict[str, Any]:
        chosen = dict(setup or {})
        validate_against(self.setup_schema, chosen, "setup")
        if ruleset_version is not None and ruleset_version not in self.rulesets:
            raise PayloadError("ruleset_version", f"ruleset_version: this engine has no ruleset {ruleset_version!r}")
        return self.complete_setup(players, seed, chosen, ruleset_version or self.ruleset_version)

    def complete_setup(self, players: int, seed: int | None, setup: dict[str, Any],
                       ruleset_version: str) -> dict[str, Any]:
        """A game whose set-up has rules beyond its schema checks them here (and fills in what
        the seed draws); the schema has been checked."""
        return setup

    def describe_setup(self, setup: Mapping[str, Any]) -> list[tuple[str, str]]:
        return []

    def new_state(self, players: int, seed: int | None, setup: Mapping[str, Any] | None = None,
                  ruleset_version: str | None = None) -> StateT:
        if setup:
            raise PayloadError("setup", f"setup: {self.engine.__name__} takes no set-up choices")
        return self.engine.Game.new(players, seed)

    def apply(self, state: StateT, event_type: str, payload: Mapping[str, Any], *, validate: bool = True) -> dict[str, Any]:
        """Apply one event; returns the payload as stored (with the chance a seeded game drew).

        ``validate=False`` skips the schema check for events read back from the store, which
        were checked when they were appended; the engine still checks the rules.
        """
        if event_type in RECORD_EVENT_SCHEMAS:
            if validate:
                validate_payload(RECORD_EVENT_SCHEMAS, event_type, payload)
            return self.end(state, event_type, payload)
        if validate:
            validate_payload(self.event_schemas, event_type, payload)
        if event_type == UNDO:
            self.undo(state)
            return {}
        return self.apply_action(state, event_type, payload)

    def apply_action(self, state: StateT, event_type: str, payload: Mapping[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    def end(self, state: StateT, event_type: str, payload: Mapping[str, Any]) -> dict[str, Any]:
        """An ``end_game`` or ``abandon``: what the position allows, and what ending does to it
        (a game ended for a missing tile is scored as the rules score it at the end)."""
        if event_type == ABANDON:
            return {"reason": payload["reason"]}
        reason = payload["reason"]
        if reason == "complete":
            if not self.is_over(state):
                raise EndRefused("payload.reason", "payload.reason: the rules have not ended the game: "
                                 "end it for a missing tile or abandon it")
        else:
            if self.is_over(state):
                raise EndRefused("payload.reason", "payload.reason: the rules have already ended the game: "
                                 "confirm it as complete")
            if not self.can_end_early(state) or not isinstance(state, EndsEarly):
                raise EndRefused("payload.reason", "payload.reason: only a game whose tiles are drawn at the "
                                 "table can be ended for a missing tile")
            state.end_now()
        return dict(payload)

    def can_end_early(self, state: StateT) -> bool:
        """Whether ``end_game`` ``missing_tile`` may end the game now: a tile game whose tiles are
        drawn at the table (a seeded bag lacks nothing), not over yet."""
        return not self.is_over(state) and getattr(state, "seed", 0) is None and isinstance(state, EndsEarly)

    def undo(self, state: StateT) -> None:
        state.undo()

    def notation(self, event_type: str, payload: Mapping[str, Any]) -> str:
        if event_type in RECORD_EVENT_SCHEMAS:
            return f"{event_type} {payload.get('reason', '')}".strip()
        return "undo" if event_type == UNDO else self.action_text(event_type, payload)

    def action_text(self, event_type: str, payload: Mapping[str, Any]) -> str:
        raise NotImplementedError

    def parse_notation(self, text: str) -> tuple[str, dict[str, Any]]:
        words = text.strip().split(None, 1)
        if words and words[0] in RECORD_EVENT_SCHEMAS:
            payload = {"reason": words[1] if len(words) > 1 else ""}
            validate_payload(RECORD_EVENT_SCHEMAS, words[0], payload)
            return words[0], payload
        return (UNDO, {}) if text.strip() == UNDO else self.read_action(text)

    def read_action(self, text: str) -> tuple[str, dict[str, Any]]:
        raise NotImplementedError

    def snapshot(self, state: StateT) -> dict[str, Any]:
        """The full state as JSON, restorable without replaying (a cache entry, see records.replay)."""
        return dict(state.to_dict())

    def restore(self, data: Mapping[str, Any]) -> StateT:
        return self.engine.Game.from_dict(data)

    action_kind_events: Mapping[str, str] = {}
    """The engine's word for a kind of action → the event type the API appends it as, where they
    differ (a position's ``legal_action_kinds`` speaks the API's words)."""

    def view(self, state: StateT) -> dict[str, Any]:
        view = dict(state.view())
        if self.action_kind_events and "legal_action_kinds" in view:
            view["legal_action_kinds"] = [self.action_kind_events.get(kind, kind) for kind in view["legal_action_kinds"]]
        return view

    def is_over(self, state: StateT) -> bool:
        return bool(state.is_over)

    def totals(self, state: StateT) -> list[int]:
        return [score.total for score in state.scores()]

    def final_scores(self, state: StateT) -> list[FinalScore]:
        ranks = state.final_ranks()
        return [
            FinalScore(seat=score.seat, score=score.total, rank=ranks[score.seat], breakdown=dict(score.breakdown))
            for score in state.scores()
        ]


