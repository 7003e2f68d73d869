"""Base Carcassonne (the game the Maps are played with) on the platform."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from .base import COORDINATE, SEAT, UNDO, PayloadError
from .tiles import Placement, TileGameAdapter


class CarcassonneAdapter(TileGameAdapter):
    """Base Carcassonne through the platform's interface (the game the Maps are played with)."""

    slug = "carcassonne"
    name = "Carcassonne"
    min_players = 2
    max_players = 5
    action_kind_events = {"place": "place_tile", "discard": "discard_tile"}
    notation_example = "V@1,0r90 meeple:2; V@1,0r90; V discard"

    def __init__(self) -> None:
        from games.engines import carcassonne as engine

        self.engine = engine
        self.ruleset_version = f"{engine.TILESET_NAME}@{engine.TILESET_VERSION}"
        self.refusals: tuple[type[Exception], ...] = (PayloadError, engine.IllegalAction)
        tile = {"type": "string", "pattern": "^[A-X]$"}
        seat = SEAT
        self.event_schemas: Mapping[str, Mapping[str, Any]] = {
            "place_tile": {
                "type": "object",
                "properties": {"tile": tile, "x": COORDINATE, "y": COORDINATE,
                               "rotation": {"enum": [0, 90, 180, 270]},
                               "meeple": {"type": "integer", "minimum": 0, "maximum": 99}, "seat": seat},
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

    # -- the table recorder (see games.adapters.tiles) --------------------------------------

    figures_by_terrain: Mapping[str, tuple[str, ...]] = {
        "city": ("meeple",), "road": ("meeple",), "cloister": ("meeple",), "field": ("meeple",),
    }
    figure_pools: Mapping[str, str] = {"meeple": "meeples"}

    def tile_records(self) -> Mapping[str, Mapping[str, Any]]:
        return {letter: dict(t.record) for letter, t in self.engine.tileset.load_tileset().types.items()}

    def pile(self, state: Any) -> list[str]:
        return list(state.pile)

    def phase(self, state: Any) -> str:
        return "over" if state.is_over else "tile"

    def current_seat(self, state: Any) -> int:
        return int(state.current)

    def supply(self, state: Any) -> list[dict[str, int]]:
        return [{"meeples": left} for left in state.meeples_left]

    def placements(self, state: Any, tile: str) -> tuple[list[Placement], bool]:
        found, discard = [], False
        for action in state.legal_actions(tile=tile):
            if action.discard:
                discard = True
                continue
            figure = None if action.meeple is None else (action.meeple, "meeple")
            found.append(Placement(action.x, action.y, action.rotation, figure))
        return found, discard

    def random_game(self, players: int, seed: int, setup: Mapping[str, Any] | None = None) -> list[tuple[str, dict[str, Any]]]:
        """A complete seeded game of random legal choices; the same seed gives the same game."""
        from games.engines.carcassonne.simulate import random_game

        _game, actions = random_game(players, seed)
        return [("discard_tile" if action.discard else "place_tile", action.to_dict()) for action in actions]

    def demo_game(self, players: int, seed: int, setup: Mapping[str, Any] | None = None) -> list[tuple[str, dict[str, Any]]]:
        """A complete game of the engine's simple player (its ``heuristic`` module): a demo game
        that looks played; the same seed gives the same game."""
        from games.engines.carcassonne.heuristic import heuristic_game

        _game, actions = heuristic_game(players, seed)
        return [("discard_tile" if action.discard else "place_tile", action.to_dict()) for action in actions]
