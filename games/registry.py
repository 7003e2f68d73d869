"""Which rules engine replays which game: slug → engine adapter.

The registry is pure Python (no Django): the records app asks it to validate event payloads,
apply events to a state, serialise states for snapshots and describe positions. Each adapter
wraps one engine package under ``games.engines`` behind the same small interface, so a new
engine plugs in by adding an adapter here.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import jsonschema

UNDO = "undo"
"""Retracts the last effective action. Known to every engine; the log keeps both events."""

RESULT = "result"
"""The one event of a result-only record: each seat's final score (no replay)."""


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


@dataclass(frozen=True)
class FinalScore:
    seat: int
    score: int
    rank: int
    breakdown: Mapping[str, int] = field(default_factory=dict)


class EngineAdapter(Protocol):
    slug: str
    name: str
    ruleset_version: str
    min_players: int
    max_players: int
    notation_example: str
    """A few actions in the engine's text notation, shown to scorekeepers."""
    event_schemas: Mapping[str, Mapping[str, Any]]
    refusals: tuple[type[Exception], ...]
    """What ``apply`` raises for an action it refuses; the state is then left unchanged."""

    def new_state(self, players: int, seed: int | None) -> Any: ...
    def apply(self, state: Any, event_type: str, payload: Mapping[str, Any], *, validate: bool = True) -> dict[str, Any]: ...
    def undo(self, state: Any) -> None: ...
    def notation(self, event_type: str, payload: Mapping[str, Any]) -> str: ...
    def parse_notation(self, text: str) -> tuple[str, dict[str, Any]]: ...
    def snapshot(self, state: Any) -> dict[str, Any]: ...
    def restore(self, data: Mapping[str, Any]) -> Any: ...
    def view(self, state: Any) -> dict[str, Any]: ...
    def is_over(self, state: Any) -> bool: ...
    def final_scores(self, state: Any) -> list[FinalScore]: ...
    def random_game(self, players: int, seed: int) -> list[tuple[str, dict[str, Any]]]: ...
    def hints(self, state: Any, limit: int = 24) -> list[str]: ...


_VALIDATORS: dict[int, jsonschema.Draft202012Validator] = {}


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
    error = jsonschema.exceptions.best_match(_validator(schema).iter_errors(payload))
    if error is None:
        return
    path = ".".join(str(part) for part in error.absolute_path)
    if error.validator == "required":
        missing = error.message.split("'")[1] if "'" in error.message else ""
        path = ".".join(filter(None, [path, missing]))
    elif error.validator == "additionalProperties" and "'" in error.message:
        path = ".".join(filter(None, [path, error.message.split("'")[1]]))
    field_name = "payload" + (f".{path}" if path else "")
    raise PayloadError(field_name, f"{field_name}: {error.message}")


class GameStateAdapter:
    """What the adapters do the same way. Their engine's ``Game`` has ``new(players, seed)``,
    ``apply``, ``undo``, ``to_dict()``/``from_dict()``, ``view()``, ``is_over``, ``scores()``
    (seat, total, breakdown) and ``final_ranks()``; an adapter says how an event becomes an
    action (:meth:`apply_action`) and how actions read as text (:meth:`action_text`,
    :meth:`read_action`)."""

    engine: Any
    event_schemas: Mapping[str, Mapping[str, Any]]

    def new_state(self, players: int, seed: int | None) -> Any:
        return self.engine.Game.new(players, seed)

    def apply(self, state: Any, event_type: str, payload: Mapping[str, Any], *, validate: bool = True) -> dict[str, Any]:
        """Apply one event; returns the payload as stored (with the chance a seeded game drew).

        ``validate=False`` skips the schema check for events read back from the store, which
        were checked when they were appended; the engine still checks the rules.
        """
        if validate:
            validate_payload(self.event_schemas, event_type, payload)
        if event_type == UNDO:
            self.undo(state)
            return {}
        return self.apply_action(state, event_type, payload)

    def apply_action(self, state: Any, event_type: str, payload: Mapping[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    def undo(self, state: Any) -> None:
        state.undo()

    def notation(self, event_type: str, payload: Mapping[str, Any]) -> str:
        return "undo" if event_type == UNDO else self.action_text(event_type, payload)

    def action_text(self, event_type: str, payload: Mapping[str, Any]) -> str:
        raise NotImplementedError

    def parse_notation(self, text: str) -> tuple[str, dict[str, Any]]:
        return (UNDO, {}) if text.strip() == UNDO else self.read_action(text)

    def read_action(self, text: str) -> tuple[str, dict[str, Any]]:
        raise NotImplementedError

    def snapshot(self, state: Any) -> dict[str, Any]:
        """The full state as JSON, restorable without replaying (a cache entry, see records.replay)."""
        return dict(state.to_dict())

    def restore(self, data: Mapping[str, Any]) -> Any:
        return self.engine.Game.from_dict(data)

    def view(self, state: Any) -> dict[str, Any]:
        return dict(state.view())

    def hints(self, state: Any, limit: int = 24) -> list[str]:
        """A few actions open now, in notation, for a scorekeeper (none where the game cannot
        know them, e.g. before a tile is drawn)."""
        return []

    def _tile_placements(self, state: Any, limit: int, bare: Callable[[Any], bool]) -> list[str]:
        """Tile games with a seeded pile: where the drawn tile fits, without a figure."""
        if state.is_over or getattr(state, "next_tile", None) is None:
            return []
        texts = [action.to_text() for action in state.legal_actions() if bare(action)]
        return texts[:limit]

    def is_over(self, state: Any) -> bool:
        return bool(state.is_over)

    def final_scores(self, state: Any) -> list[FinalScore]:
        ranks = state.final_ranks()
        return [
            FinalScore(seat=score.seat, score=score.total, rank=ranks[score.seat], breakdown=dict(score.breakdown))
            for score in state.scores()
        ]


class HuntersGatherersAdapter(GameStateAdapter):
    """Carcassonne – Hunters and Gatherers (first edition) through the platform's interface."""

    slug = "hunters-gatherers"
    name = "Carcassonne: Hunters and Gatherers"
    min_players = 2
    max_players = 5
    notation_example = "L17@2,-1r90 hunter:0; L44 discard"

    def __init__(self) -> None:
        from games.engines import hunters_gatherers as engine

        self.engine = engine
        self.ruleset_version = f"{engine.TILESET_NAME}@{engine.TILESET_VERSION}"
        # The schema check and the tile draw raise PayloadError before the state is touched;
        # Game.apply and undo raise IllegalAction leaving the game unchanged.
        self.refusals: tuple[type[Exception], ...] = (PayloadError, engine.IllegalAction)
        figure = {"enum": list(engine.FIGURE_KINDS)}
        self.event_schemas: Mapping[str, Mapping[str, Any]] = {
            "place_tile": {
                "type": "object",
                "properties": {
                    "tile": {"type": "string", "pattern": "^[A-Z][A-Za-z0-9_-]*$"},
                    "x": {"type": "integer"},
                    "y": {"type": "integer"},
                    "rotation": {"enum": [0, 90, 180, 270]},
                    "figure": figure,
                    "feature": {"type": "integer", "minimum": 0},
                    "seat": {"type": "integer", "minimum": 0},
                },
                "required": ["x", "y", "rotation"],
                "dependentRequired": {"figure": ["feature"], "feature": ["figure"]},
                "additionalProperties": False,
            },
            "discard_tile": {
                "type": "object",
                "properties": {
                    "tile": {"type": "string", "pattern": "^[A-Z][A-Za-z0-9_-]*$"},
                    "seat": {"type": "integer", "minimum": 0},
                },
                "additionalProperties": False,
            },
            UNDO: {"type": "object", "additionalProperties": False},
        }

    def _action(self, state: Any, event_type: str, payload: Mapping[str, Any]) -> Any:
        data = dict(payload)
        if "tile" not in data:
            # A seeded record lets the platform draw: the stored event names the tile drawn.
            if state.next_tile is None:
                raise PayloadError("payload.tile", "payload.tile: this record has no seeded bag; name the tile drawn")
            data["tile"] = state.next_tile
        if event_type == "discard_tile":
            data["discard"] = True
        return self.engine.Action.from_dict(data)

    def apply_action(self, state: Any, event_type: str, payload: Mapping[str, Any]) -> dict[str, Any]:
        try:
            action = self._action(state, event_type, payload)
        except ValueError as error:
            if isinstance(error, PayloadError):
                raise
            raise PayloadError("payload", f"payload: {error}") from None
        state.apply(action)
        stored = dict(action.to_dict())
        stored.pop("discard", None)
        return stored

    def undo(self, state: Any) -> None:
        if not state.history:
            raise self.engine.IllegalAction("nothing_to_undo", "there is no action left to take back")
        state.undo()

    def action_text(self, event_type: str, payload: Mapping[str, Any]) -> str:
        data = dict(payload, discard=True) if event_type == "discard_tile" else dict(payload)
        data.setdefault("tile", "?")
        return str(self.engine.Action.from_dict(data).to_text())

    def read_action(self, text: str) -> tuple[str, dict[str, Any]]:
        data = self.engine.parse_action(text).to_dict()
        if data.pop("discard", False):
            return "discard_tile", data
        return "place_tile", data

    def hints(self, state: Any, limit: int = 24) -> list[str]:
        return self._tile_placements(state, limit, lambda action: action.figure is None)

    def snapshot(self, state: Any) -> dict[str, Any]:
        return dict(state.snapshot())  # this engine's to_dict() is the replay-checked form, not the cache

    def restore(self, data: Mapping[str, Any]) -> Any:
        return self.engine.Game.from_snapshot(data)

    def random_game(self, players: int, seed: int) -> list[tuple[str, dict[str, Any]]]:
        """A complete game of random legal actions; the same seed gives the same game."""
        rng = random.Random(seed)
        state = self.new_state(players, seed)
        events: list[tuple[str, dict[str, Any]]] = []
        while not state.is_over:
            action = rng.choice(state.legal_actions())
            state.apply(action)
            data = action.to_dict()
            events.append(("discard_tile" if data.pop("discard", False) else "place_tile", data))
        return events


RESOURCE_AMOUNTS = {
    "type": "object",
    "properties": {name: {"type": "integer", "minimum": 0} for name in ("wood", "clay", "stone", "gold")},
    "additionalProperties": False,
}
DIE = {"type": "integer", "minimum": 1, "maximum": 6}


class StoneAgeAdapter(GameStateAdapter):
    """Stone Age (Stenen Tijdperk) through the platform's interface."""

    slug = "stone-age"
    name = "Stone Age"
    min_players = 2
    max_players = 4
    notation_example = "place forest 3; resolve forest dice=3,5,6 tools=0; feed starve"

    def __init__(self) -> None:
        from games.engines import stone_age as engine

        self.engine = engine
        self.ruleset_version = f"{engine.DATA_NAME}@{engine.DATA_VERSION}"
        self.refusals: tuple[type[Exception], ...] = (PayloadError, engine.IllegalAction)
        seat = {"type": "integer", "minimum": 0}
        location = {"enum": list(engine.LOCATIONS)}
        self.event_schemas: Mapping[str, Mapping[str, Any]] = {
            "place": {
                "type": "object",
                "properties": {"location": location, "people": {"type": "integer", "minimum": 1}, "seat": seat},
                "required": ["location"],
                "additionalProperties": False,
            },
            "resolve": {
                "type": "object",
                "properties": {
                    "location": location,
                    "dice": {"type": "array", "items": DIE, "maxItems": 10},
                    "tools": {"type": "array", "items": {"enum": [0, 1, 2]}, "maxItems": 3},
                    "one_time": {"type": "array", "items": {"enum": [2, 3, 4]}, "maxItems": 3},
                    "pay": RESOURCE_AMOUNTS,
                    "choose": RESOURCE_AMOUNTS,
                    "picks": {"type": "array", "items": DIE, "maxItems": 4},
                    "drawn": {"type": "string", "pattern": "^C[0-9]{2}$"},
                    "decline": {"type": "boolean"},
                    "seat": seat,
                },
                "required": ["location"],
                "additionalProperties": False,
            },
            "feed": {
                "type": "object",
                "properties": {"pay": RESOURCE_AMOUNTS, "starve": {"type": "boolean"}, "seat": seat},
                "additionalProperties": False,
            },
            "reveal": {
                "type": "object",
                "properties": {
                    "cards": {"type": "array", "items": {"type": "string", "pattern": "^C[0-9]{2}$"}, "maxItems": 4},
                    "buildings": {
                        "type": "object",
                        "propertyNames": {"enum": list(engine.BUILDING_STACKS)},
                        "additionalProperties": {"type": "string", "pattern": "^B[0-9]{2}$"},
                    },
                },
                "additionalProperties": False,
            },
            UNDO: {"type": "object", "additionalProperties": False},
        }

    def apply_action(self, state: Any, event_type: str, payload: Mapping[str, Any]) -> dict[str, Any]:
        action = state.complete(self.engine.Action.from_dict(event_type, payload))  # the dice a seeded game rolls
        state.apply(action)
        return dict(action.to_dict())

    def action_text(self, event_type: str, payload: Mapping[str, Any]) -> str:
        return str(self.engine.Action.from_dict(event_type, payload).to_text())

    def read_action(self, text: str) -> tuple[str, dict[str, Any]]:
        action = self.engine.parse_action(text)
        return action.kind, action.to_dict()

    def random_game(self, players: int, seed: int) -> list[tuple[str, dict[str, Any]]]:
        """A complete seeded game of random legal choices; the same seed gives the same game."""
        from games.engines.stone_age.simulate import random_game

        _game, actions = random_game(players, seed)
        return [(action.kind, action.to_dict()) for action in actions]


class CarcassonneAdapter(GameStateAdapter):
    """Base Carcassonne through the platform's interface (the game the Maps are played with)."""

    slug = "carcassonne"
    name = "Carcassonne"
    min_players = 2
    max_players = 5
    notation_example = "V@1,0r90 meeple:2; V@1,0r90; V discard"

    def __init__(self) -> None:
        from games.engines import carcassonne as engine

        self.engine = engine
        self.ruleset_version = f"{engine.TILESET_NAME}@{engine.TILESET_VERSION}"
        self.refusals: tuple[type[Exception], ...] = (PayloadError, engine.IllegalAction)
        tile = {"type": "string", "pattern": "^[A-X]$"}
        seat = {"type": "integer", "minimum": 0}
        self.event_schemas: Mapping[str, Mapping[str, Any]] = {
            "place_tile": {
                "type": "object",
                "properties": {"tile": tile, "x": {"type": "integer"}, "y": {"type": "integer"},
                               "rotation": {"enum": [0, 90, 180, 270]}, "meeple": {"type": "integer", "minimum": 0},
                               "seat": seat},
                "required": ["x", "y", "rotation"],
                "additionalProperties": False,
            },
            "discard_tile": {
                "type": "object", "properties": {"tile": tile, "seat": seat}, "additionalProperties": False,
            },
            UNDO: {"type": "object", "additionalProperties": False},
        }

    def apply_action(self, state: Any, event_type: str, payload: Mapping[str, Any]) -> dict[str, Any]:
        action = self.engine.Action.from_dict(payload, discard=event_type == "discard_tile")
        if action.tile is None:
            # A seeded record lets the platform draw: the stored event names the tile drawn.
            if state.next_tile is None:
                raise PayloadError("payload.tile", "payload.tile: this record has no seeded pile; name the tile drawn")
            action = dataclasses.replace(action, tile=state.next_tile)
        state.apply(action)
        return dict(action.to_dict())

    def action_text(self, event_type: str, payload: Mapping[str, Any]) -> str:
        return str(self.engine.Action.from_dict(payload, discard=event_type == "discard_tile").to_text())

    def read_action(self, text: str) -> tuple[str, dict[str, Any]]:
        action = self.engine.parse_action(text)
        return ("discard_tile" if action.discard else "place_tile"), action.to_dict()

    def hints(self, state: Any, limit: int = 24) -> list[str]:
        return self._tile_placements(state, limit, lambda action: action.meeple is None)

    def random_game(self, players: int, seed: int) -> list[tuple[str, dict[str, Any]]]:
        """A complete seeded game of random legal choices; the same seed gives the same game."""
        from games.engines.carcassonne.simulate import random_game

        _game, actions = random_game(players, seed)
        return [("discard_tile" if action.discard else "place_tile", action.to_dict()) for action in actions]


_ADAPTERS: dict[str, EngineAdapter] = {}


def _load() -> dict[str, EngineAdapter]:
    if not _ADAPTERS:
        adapters: tuple[EngineAdapter, ...] = (HuntersGatherersAdapter(), StoneAgeAdapter(), CarcassonneAdapter())
        for adapter in adapters:
            _ADAPTERS[adapter.slug] = adapter
    return _ADAPTERS


def get_engine(slug: str) -> EngineAdapter | None:
    """The adapter for ``slug``, or ``None`` when no engine replays that game yet."""
    return _load().get(slug)


def engine_slugs() -> list[str]:
    return sorted(_load())
