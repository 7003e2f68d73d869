"""Carcassonne – Hunters and Gatherers (first edition) on the platform."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .base import COORDINATE, SEAT, UNDO, PayloadError
from .rulesets import EngineRulesets
from .tiles import Placement, TileGameAdapter

if TYPE_CHECKING:
    from games.engines.hunters_gatherers import Action, Game


class HuntersGatherersAdapter(EngineRulesets["Game"], TileGameAdapter["Game"]):
    """Carcassonne – Hunters and Gatherers (first edition) through the platform's interface."""

    slug = "hunters-gatherers"
    name = "Carcassonne: Hunters and Gatherers"
    min_players = 2
    max_players = 5
    action_kind_events = {"place": "place_tile", "discard": "discard_tile"}
    notation_example = "L17@2,-1r90 hunter:0; L44 discard"

    def __init__(self) -> None:
        from games.engines import hunters_gatherers as engine

        self.engine = engine
        self.data_version = f"{engine.TILESET_NAME}@{engine.TILESET_VERSION}"
        self.ruleset_version = self.latest_ruleset_version
        self.setup_schema: Mapping[str, Any] = {
            "type": "object", "properties": {"variants": self.variants_schema()}, "additionalProperties": False}
        # The schema check and the tile draw raise PayloadError before the state is touched;
        # Game.apply and undo raise IllegalAction leaving the game unchanged.
        self.refusals: tuple[type[Exception], ...] = (PayloadError, engine.IllegalAction)
        figure = {"enum": list(engine.FIGURE_KINDS)}
        terrains = sorted({t for kinds in engine.FIGURE_TERRAIN.values() for t in kinds})
        self.figures_by_terrain: Mapping[str, tuple[str, ...]] = {
            terrain: tuple(k for k in engine.FIGURE_KINDS if terrain in engine.FIGURE_TERRAIN[k])
            for terrain in terrains
        }
        self.figure_pools: Mapping[str, str] = {
            kind: "huts" if kind == "hut" else "tribe_members" for kind in engine.FIGURE_KINDS
        }
        self.event_schemas: Mapping[str, Mapping[str, Any]] = {
            "place_tile": {
                "type": "object",
                "properties": {
                    "tile": {"type": "string", "pattern": "^[A-Z][A-Za-z0-9_-]*$"},
                    "x": COORDINATE,
                    "y": COORDINATE,
                    "rotation": {"enum": [0, 90, 180, 270]},
                    "figure": figure,
                    "feature": {"type": "integer", "minimum": 0, "maximum": 99},
                    "seat": SEAT,
                },
                "required": ["x", "y", "rotation"],
                "dependentRequired": {"figure": ["feature"], "feature": ["figure"]},
                "additionalProperties": False,
            },
            "discard_tile": {
                "type": "object",
                "properties": {
                    "tile": {"type": "string", "pattern": "^[A-Z][A-Za-z0-9_-]*$"},
                    "seat": SEAT,
                },
                "additionalProperties": False,
            },
            UNDO: {"type": "object", "additionalProperties": False},
        }

    def _action(self, state: Game, event_type: str, payload: Mapping[str, Any]) -> Action:
        data = dict(payload)
        if "tile" not in data:
            # A seeded record lets the platform draw: the stored event names the tile drawn.
            if state.next_tile is None:
                raise PayloadError("payload.tile", "payload.tile: this record has no seeded bag; name the tile drawn")
            data["tile"] = state.next_tile
        if event_type == "discard_tile":
            data["discard"] = True
        return self.engine.Action.from_dict(data)

    def apply_action(self, state: Game, event_type: str, payload: Mapping[str, Any]) -> dict[str, Any]:
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

    def action_text(self, event_type: str, payload: Mapping[str, Any]) -> str:
        data = dict(payload, discard=True) if event_type == "discard_tile" else dict(payload)
        data.setdefault("tile", "?")
        return str(self.engine.Action.from_dict(data).to_text())

    def read_action(self, text: str) -> tuple[str, dict[str, Any]]:
        data = self.engine.parse_action(text).to_dict()
        if data.pop("discard", False):
            return "discard_tile", data
        return "place_tile", data

    # -- the table recorder (see games.adapters.tiles) --------------------------------------

    def tile_records(self) -> Mapping[str, Mapping[str, Any]]:
        return {tile.id: dict(tile.record, kind=tile.kind) for tile in self.engine.load_tileset().by_id.values()}

    def pile(self, state: Game) -> list[str]:
        return list(state.bonus_left if state.phase == "bonus" else state.landscape_left)

    def phase(self, state: Game) -> str:
        return str(state.phase)

    def current_seat(self, state: Game) -> int:
        seat = state.current_player
        assert seat is not None, "a game over has no seat to play"  # asked only while it is in play
        return seat

    def supply(self, state: Game) -> list[dict[str, int]]:
        return [state.supply(seat) for seat in range(state.players)]

    def fits_anywhere(self, state: Game, tile: str) -> bool:
        return bool(state.fits_anywhere(tile))

    def placements(self, state: Game, tile: str) -> tuple[list[Placement], bool]:
        found, discard = [], False
        for action in state.legal_actions(tile=tile):
            if action.discard:
                discard = True
                continue
            figure = None if action.figure is None or action.feature is None else (action.feature, action.figure)
            found.append(Placement(action.x, action.y, action.rotation, figure))
        return found, discard

    def snapshot(self, state: Game) -> dict[str, Any]:
        return dict(state.snapshot())  # this engine's to_dict() is the replay-checked form, not the cache

    def restore(self, data: Mapping[str, Any]) -> Game:
        return self.engine.Game.from_snapshot(data)

    def random_game(self, players: int, seed: int, setup: Mapping[str, Any] | None = None,
                    ruleset_version: str | None = None) -> list[tuple[str, dict[str, Any]]]:
        """A complete game of random legal actions; the same seed gives the same game."""
        rng = random.Random(seed)
        state = self.new_state(players, seed, setup, ruleset_version)
        events: list[tuple[str, dict[str, Any]]] = []
        while not state.is_over:
            action = rng.choice(state.legal_actions())
            state.apply(action)
            data = action.to_dict()
            events.append(("discard_tile" if data.pop("discard", False) else "place_tile", data))
        return events

    def demo_game(self, players: int, seed: int, setup: Mapping[str, Any] | None = None,
                  ruleset_version: str | None = None) -> list[tuple[str, dict[str, Any]]]:
        """A complete game of the engine's simple player (its ``heuristic`` module): a demo game
        that looks played; the same seed gives the same game."""
        from games.engines.hunters_gatherers.heuristic import heuristic_game

        _game, actions = heuristic_game(players, seed, **self.rules_of(setup, ruleset_version))
        events: list[tuple[str, dict[str, Any]]] = []
        for action in actions:
            data = action.to_dict()
            events.append(("discard_tile" if data.pop("discard", False) else "place_tile", data))
        return events
