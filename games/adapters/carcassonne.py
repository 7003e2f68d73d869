"""Base Carcassonne (the game the Maps are played with) on the platform."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from .base import COORDINATE, SEAT, UNDO, PayloadError
from .tiles import Placement, TileGameAdapter

if TYPE_CHECKING:
    from games.engines.carcassonne import Game

GameT = TypeVar("GameT", bound="Game")


class CarcassonneEngineAdapter(TileGameAdapter[GameT]):
    """A game played with Carcassonne's engine, through the platform's interface: base
    Carcassonne (:class:`CarcassonneAdapter`), and the Maps, whose game is a Carcassonne game
    (:class:`games.adapters.carcassonne_maps.CarcassonneMapsAdapter`)."""

    slug = "carcassonne"
    name = "Carcassonne"
    min_players = 2
    max_players = 6
    """Six with Inns & Cathedrals' tiles in (its box brings the sixth colour); five without."""
    action_kind_events = {"place": "place_tile", "discard": "discard_tile"}
    notation_example = "V@1,0r90 meeple:2; V@1,0r90; V discard; IC05@1,0r90 big:2; TB08@0,-1r0 builder:1"

    def __init__(self) -> None:
        from games.engines import carcassonne as engine
        from games.engines.carcassonne.options import MOST_MEEPLES

        self.engine = engine
        self.carcassonne = engine
        """Carcassonne's own package (its options and tile sets), also for a game built on it."""
        self.ruleset_version = f"{engine.TILESET_NAME}@{engine.TILESET_VERSION}"
        self.refusals: tuple[type[Exception], ...] = (PayloadError, engine.IllegalAction)
        tile = {"type": "string", "pattern": "^([A-X]|IC(0[1-9]|1[0-7])|TB(0[1-9]|1[0-9]|2[0-4]))$"}
        seat = SEAT
        feature = {"type": "integer", "minimum": 0, "maximum": 99}
        expansions = {"type": "array", "items": {"enum": list(engine.EXPANSIONS)}, "uniqueItems": True}
        self.setup_schema: Mapping[str, Any] = {
            "type": "object",
            "properties": {
                "expansions": {**expansions, "description": "whose tiles are shuffled into the pile"},
                "rules": {**expansions, "description": "whose rules apply (some of the expansions; [] is tiles only; "
                                                        "left out, every expansion's rules)"},
                "meeples": {"type": "integer", "minimum": 1, "maximum": MOST_MEEPLES,
                            "description": "each player's meeples (7 in the box; the Maps recommend 9)"},
            },
            "additionalProperties": False,
        }
        self.event_schemas: Mapping[str, Mapping[str, Any]] = {
            "place_tile": {
                "type": "object",
                "properties": {"tile": tile, "x": COORDINATE, "y": COORDINATE,
                               "rotation": {"enum": [0, 90, 180, 270]},
                               "meeple": feature, "big": feature, "builder": feature, "pig": feature, "seat": seat},
                "required": ["x", "y", "rotation"],
                "additionalProperties": False,
            },
            "discard_tile": {
                "type": "object", "properties": {"tile": tile, "seat": seat}, "additionalProperties": False,
            },
            UNDO: {"type": "object", "additionalProperties": False},
        }

    # -- the set-up: expansions and meeples ----------------------------------------------------

    def complete_setup(self, players: int, seed: int | None, setup: dict[str, Any],
                       ruleset_version: str) -> dict[str, Any]:
        # An expansion named without a word on rules is played with them; "rules": [] is tiles only.
        setup.setdefault("rules", list(setup.get("expansions", ())))
        try:
            options = self.carcassonne.Options.from_dict(setup)
        except ValueError as error:
            raise PayloadError("setup.rules", f"setup.rules: {error}") from None
        if players > options.max_players:
            raise PayloadError("setup.expansions", f"setup.expansions: {players} players need Inns & Cathedrals, "
                               f"whose box brings the sixth colour")
        # The base game keeps an empty set-up, as every record stored before the expansions has.
        return {} if options.is_base_game else options.to_dict()

    def new_state(self, players: int, seed: int | None, setup: Mapping[str, Any] | None = None,
                  ruleset_version: str | None = None) -> GameT:
        return self.engine.Game.new(players, seed, options=self.carcassonne.Options.from_dict(setup))

    def describe_setup(self, setup: Mapping[str, Any]) -> list[tuple[str, str]]:
        options = self.carcassonne.Options.from_dict(setup)
        if options.is_base_game:
            return []
        names = {"inns_cathedrals": "Inns & Cathedrals", "traders_builders": "Traders & Builders"}
        lines = [("Expansions", ", ".join(
            names[e] + ("" if options.has_rules(e) else " (tiles only)") for e in options.expansions) or "none")]
        lines.append(("Meeples per player", str(options.meeples)))
        return lines

    def apply_action(self, state: GameT, event_type: str, payload: Mapping[str, Any]) -> dict[str, Any]:
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
        "city": ("meeple", "big", "builder"), "road": ("meeple", "big", "builder"), "cloister": ("meeple", "big"),
        "field": ("meeple", "big", "pig"),
    }
    figure_pools: Mapping[str, str] = {"meeple": "meeples", "big": "big", "builder": "builder", "pig": "pig"}
    figure_fields: Mapping[str, str] = {"meeple": "meeple", "big": "big", "builder": "builder", "pig": "pig"}

    def tile_records(self) -> Mapping[str, Mapping[str, Any]]:
        every = self.carcassonne.tileset_for(self.carcassonne.EXPANSIONS)
        return {letter: dict(t.record) for letter, t in every.types.items()}

    def pile(self, state: GameT) -> list[str]:
        return list(state.pile)

    def phase(self, state: GameT) -> str:
        return "over" if state.is_over else "tile"

    def current_seat(self, state: GameT) -> int:
        return int(state.current)

    def supply(self, state: GameT) -> list[dict[str, int]]:
        return [{"meeples": left, **figures} for left, figures in zip(state.meeples_left, state.figures_left)]

    def fits_anywhere(self, state: GameT, tile: str) -> bool:
        return bool(state.fits_anywhere(tile))

    def placements(self, state: GameT, tile: str) -> tuple[list[Placement], bool]:
        found, discard = [], False
        for action in state.legal_actions(tile=tile):
            if action.discard:
                discard = True
                continue
            figures = [(feature, kind) for kind, feature in action.figures]
            found.append(Placement(action.x, action.y, action.rotation, figures[0] if figures else None))
        return found, discard

    def random_game(self, players: int, seed: int, setup: Mapping[str, Any] | None = None,
                    ruleset_version: str | None = None) -> list[tuple[str, dict[str, Any]]]:
        """A complete seeded game of random legal choices; the same seed gives the same game."""
        from games.engines.carcassonne.simulate import random_game

        _game, actions = random_game(players, seed, self.carcassonne.Options.from_dict(setup))
        return [("discard_tile" if action.discard else "place_tile", action.to_dict()) for action in actions]

    def demo_game(self, players: int, seed: int, setup: Mapping[str, Any] | None = None,
                  ruleset_version: str | None = None) -> list[tuple[str, dict[str, Any]]]:
        """A complete game of the engine's simple player (its ``heuristic`` module): a demo game
        that looks played; the same seed gives the same game."""
        from games.engines.carcassonne.heuristic import heuristic_game

        _game, actions = heuristic_game(players, seed, self.carcassonne.Options.from_dict(setup))
        return [("discard_tile" if action.discard else "place_tile", action.to_dict()) for action in actions]


class CarcassonneAdapter(CarcassonneEngineAdapter["Game"]):
    """Base Carcassonne through the platform's interface (the game the Maps are played with)."""
