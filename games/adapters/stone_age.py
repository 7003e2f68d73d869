"""Stone Age (Stenen Tijdperk) on the platform."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .base import SEAT, UNDO, GameStateAdapter, PayloadError
from .rulesets import EngineRulesets

if TYPE_CHECKING:
    from games.engines.stone_age import Game


RESOURCE_AMOUNTS = {
    "type": "object",
    "properties": {name: {"type": "integer", "minimum": 0, "maximum": 100} for name in ("wood", "clay", "stone", "gold")},
    "additionalProperties": False,
}
DIE = {"type": "integer", "minimum": 1, "maximum": 6}


class StoneAgeAdapter(EngineRulesets["Game"], GameStateAdapter["Game"]):
    """Stone Age (Stenen Tijdperk) through the platform's interface."""

    slug = "stone-age"
    name = "Stone Age"
    min_players = 2
    max_players = 4
    notation_example = "place forest 3; resolve forest dice=3,5,6 tools=0; feed starve"

    def __init__(self) -> None:
        from games.engines import stone_age as engine

        self.engine = engine
        self.data_version = f"{engine.DATA_NAME}@{engine.DATA_VERSION}"
        # New records are judged by the newest rules (ruleset 2: feeding as published); a record
        # keeps the ruleset it pinned until migrate_ruleset moves it.
        self.ruleset_version = self.latest_ruleset_version
        self.setup_schema: Mapping[str, Any] = {
            "type": "object", "properties": {"variants": self.variants_schema()}, "additionalProperties": False}
        self.refusals: tuple[type[Exception], ...] = (PayloadError, engine.IllegalAction)
        seat = SEAT
        location = {"enum": list(engine.LOCATIONS)}
        self.event_schemas: Mapping[str, Mapping[str, Any]] = {
            "place": {
                "type": "object",
                "properties": {"location": location, "people": {"type": "integer", "minimum": 1, "maximum": 10}, "seat": seat},
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

    def apply_action(self, state: Game, event_type: str, payload: Mapping[str, Any]) -> dict[str, Any]:
        action = state.complete(self.engine.Action.from_dict(event_type, payload))  # the dice a seeded game rolls
        state.apply(action)
        return dict(action.to_dict())

    def action_text(self, event_type: str, payload: Mapping[str, Any]) -> str:
        return str(self.engine.Action.from_dict(event_type, payload).to_text())

    def read_action(self, text: str) -> tuple[str, dict[str, Any]]:
        action = self.engine.parse_action(text)
        return action.kind, action.to_dict()

    def options(self, state: Game, tile: str | None = None) -> dict[str, Any]:
        """What may be recorded now, arranged for the table recorder (see :mod:`.stone_age_options`)."""
        from .stone_age_options import options

        return options(state)

    def random_game(self, players: int, seed: int, setup: Mapping[str, Any] | None = None,
                    ruleset_version: str | None = None) -> list[tuple[str, dict[str, Any]]]:
        """A complete seeded game of random legal choices; the same seed gives the same game."""
        from games.engines.stone_age.simulate import random_game

        _game, actions = random_game(players, seed, **self.rules_of(setup, ruleset_version))
        return [(action.kind, action.to_dict()) for action in actions]

    def demo_game(self, players: int, seed: int, setup: Mapping[str, Any] | None = None,
                  ruleset_version: str | None = None) -> list[tuple[str, dict[str, Any]]]:
        """A complete game of the engine's simple player (its ``heuristic`` module): a demo game
        that looks played; the same seed gives the same game."""
        from games.engines.stone_age.heuristic import heuristic_game

        _game, actions = heuristic_game(players, seed, **self.rules_of(setup, ruleset_version))
        return [(action.kind, action.to_dict()) for action in actions]
