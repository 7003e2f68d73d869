"""Pebbles on the platform: the engine behind the adapter interface every game has."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.adapters.base import SEAT, UNDO, GameStateAdapter, PayloadError

from . import engine


class PebblesAdapter(GameStateAdapter[engine.Game]):
    slug = "pebbles"
    name = "Pebbles"
    min_players = 2
    max_players = 4
    notation_example = "take 2"
    ruleset_version = "pebbles@1"

    def __init__(self) -> None:
        self.engine = engine
        self.refusals: tuple[type[Exception], ...] = (PayloadError, engine.IllegalAction)
        self.event_schemas: Mapping[str, Mapping[str, Any]] = {
            "take": {"type": "object", "properties": {"count": {"type": "integer", "minimum": 1, "maximum": 2},
                                                      "seat": SEAT},
                     "required": ["count"], "additionalProperties": False},
            UNDO: {"type": "object", "additionalProperties": False},
        }

    def new_state(self, players: int, seed: int | None, setup: Mapping[str, Any] | None = None,
                  ruleset_version: str | None = None) -> engine.Game:
        return engine.Game.new(players)

    def apply_action(self, state: engine.Game, event_type: str, payload: Mapping[str, Any]) -> dict[str, Any]:
        action = engine.Action(int(payload["count"]), payload.get("seat"))
        state.apply(action)
        return action.to_dict()

    def action_text(self, event_type: str, payload: Mapping[str, Any]) -> str:
        return engine.Action(int(payload["count"])).to_text()

    def read_action(self, text: str) -> tuple[str, dict[str, Any]]:
        return "take", engine.parse_action(text).to_dict()

    def options(self, state: engine.Game, tile: str | None = None) -> dict[str, Any]:
        """The turn as a choice among actions, the shape ``recorder-choices.js`` reads."""
        return {"kind": "choices", "over": state.is_over,
                "seat": None if state.is_over else state.current_player,
                "choices": [{"type": "take", "payload": action.to_dict(), "notation": action.to_text()}
                            for action in state.legal_actions()]}

    def random_game(self, players: int, seed: int, setup: Mapping[str, Any] | None = None,
                    ruleset_version: str | None = None) -> list[tuple[str, dict[str, Any]]]:
        game, events = engine.Game.new(players), []
        counts = [1 + (seed >> bit) % 2 for bit in range(8)]
        while not game.is_over:
            action = engine.Action(min(counts[len(events) % 8], game.pile))
            game.apply(action)
            events.append(("take", action.to_dict()))
        return events

    demo_game = random_game
