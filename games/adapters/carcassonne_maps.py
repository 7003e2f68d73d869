"""Carcassonne Maps – Benelux with the Map-Chips on the platform.

A record's set-up pins everything the table was set up with: the tiles played (Carcassonne's
options: by default the base game with Inns & Cathedrals' and Traders & Builders' tiles, tiles
only), and under ``table`` the map (name and version: the Benelux map shipped is approximate),
the two start squares and their tiles, the chips and the island stacks. A seeded record lets the
engine draw the table (the chips' values and the stacks are then known, and written down in the
set-up); a record without a seed is given what its table shows (the chip squares, the six
face-up island tiles), and its actions name each chip turned over and each tile turned up.

A map uploaded by staff (an exact one, say) is found through :attr:`CarcassonneMapsAdapter.map_source`,
set by the catalogue app (the adapter itself reads no database).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, cast

from .base import PayloadError
from .carcassonne import CarcassonneEngineAdapter
from .tiles import Placement

if TYPE_CHECKING:
    from games.engines.carcassonne_maps import Action, Game

CHIP_COLOURS = ("violet", "light_blue", "orange")


class CarcassonneMapsAdapter(CarcassonneEngineAdapter["Game"]):
    slug = "carcassonne-maps"
    name = "Carcassonne Maps – Benelux (Map-Chips)"
    min_players = 2
    max_players = 6
    notation_example = "V@12,4r90 meeple:2; TB08@9,8r0 chip:orange:1; U@11,5r0 island:violet/2; V discard"
    has_islands = True
    """The recorder's options take ``island`` and ``stack`` (an island's face-up tile)."""
    map_source: Callable[[str, str], Mapping[str, Any] | None] | None = None
    """``(name, version)`` → a stored map file's JSON, for maps the engine does not ship."""

    def __init__(self) -> None:
        super().__init__()
        from games.engines import carcassonne_maps as engine

        self.engine = engine
        self.ruleset_version = "carcassonne-maps-benelux@1"
        self._drawings: dict[tuple[str, str], dict[str, Any]] = {}
        self.refusals = (PayloadError, engine.IllegalAction)
        place = dict(self.event_schemas["place_tile"])
        properties = dict(place["properties"])
        properties |= {
            "chip": {"type": "string", "pattern": "^(violet|light_blue|orange):[12]$",
                     "description": "what the chip on the square shows turned over (a record without a seed)"},
            "island": {"enum": list(CHIP_COLOURS), "description": "the tile is this island's face-up tile, paid "
                                                                   "with a chip of its colour"},
            "stack": {"enum": [1, 2], "description": "which of the island's two stacks"},
            "reveal": {"type": "string", "pattern": properties["tile"]["pattern"],
                       "description": "the tile the island stack turns up at the end of the turn (without a seed)"},
        }
        self.event_schemas = {
            **self.event_schemas, "place_tile": {**place, "properties": properties},
            # Seed 003: no change of mind once a tile is drawn face down. While a chip could pay
            # for an island tile, a seeded record shows the drawn tile only after this event.
            "draw_tile": {"type": "object", "properties": {"seat": properties["seat"]},
                          "additionalProperties": False,
                          "description": "draw face down rather than pay a chip for an island's tile"},
        }
        self.action_kind_events = {**self.action_kind_events, "draw": "draw_tile"}
        self.setup_schema = {
            **self.setup_schema,
            "properties": {
                **self.setup_schema["properties"],
                "start_squares": {"type": "array", "items": {"type": "string", "maxLength": 60}, "minItems": 2,
                                  "maxItems": 2, "description": "the two start squares used (a seeded record; "
                                                                "drawn by the seed when left out)"},
                "chip_values": {"type": "object", "description": "each colour's chips by points, e.g. "
                                                                 "{\"violet\": {\"1\": 6, \"2\": 4}, …}"},
                "map": {"type": "object", "properties": {"name": {"type": "string", "maxLength": 60},
                                                         "version": {"type": "string", "maxLength": 60}},
                        "required": ["name", "version"], "additionalProperties": False,
                        "description": "the map to play on (a seeded record; the approximate Benelux map by "
                                       "default, or one staff loaded)"},
                "table": {"type": "object", "description": "the table's set-up: map, start squares and tiles, "
                                                           "chips and island stacks (filled in for a seeded record)"},
            },
        }

    # -- the set-up ----------------------------------------------------------------------------

    def _options(self, setup: Mapping[str, Any]) -> Any:
        if not any(key in setup for key in ("expansions", "rules", "meeples")):
            return self.engine.DEFAULT_OPTIONS
        return self.carcassonne.Options.from_dict(setup)

    def _map(self, table: Mapping[str, Any]) -> Any:
        ref = table.get("map") or {}
        try:
            return self.engine.packaged_map(str(ref.get("name")), str(ref.get("version")))
        except KeyError:
            stored = self.map_source(str(ref.get("name")), str(ref.get("version"))) if self.map_source else None
            if stored is None:
                raise PayloadError("setup.table.map", f"setup.table.map: no map {ref.get('name')!r} "
                                                      f"{ref.get('version')!r} here") from None
            return self.engine.map_from_dict(stored)

    def complete_setup(self, players: int, seed: int | None, setup: dict[str, Any],
                       ruleset_version: str) -> dict[str, Any]:
        if "rules" not in setup and "expansions" in setup:
            setup["rules"] = list(setup["expansions"])
        try:
            options = self._options(setup)
        except ValueError as error:
            raise PayloadError("setup.rules", f"setup.rules: {error}") from None
        if players > options.max_players:
            raise PayloadError("setup.expansions", f"setup.expansions: {players} players need Inns & Cathedrals, "
                               f"whose box brings the sixth colour")
        try:
            if "table" in setup:
                table = self.engine.setup_from_dict(setup["table"])
                game = self.engine.Game.new(players, seed, options, setup=table, map_definition=self._map(setup["table"]))
            else:
                if seed is None:
                    raise PayloadError("setup.table", "setup.table: a record without a seed says what its table "
                                                      "shows (start squares and tiles, chip squares, island tiles)")
                values = self.engine.ChipValues.from_dict(setup["chip_values"]) if "chip_values" in setup else None
                chosen_map = self._map({"map": setup["map"]}) if "map" in setup else None
                game = self.engine.Game.new(players, seed, options, start_squares=setup.get("start_squares"),
                                            chip_values=values, map_definition=chosen_map)
        except PayloadError:
            raise
        except self.engine.IllegalAction as error:
            raise PayloadError("setup.table", f"setup.table: {error.message}") from None
        except (ValueError, KeyError, TypeError) as error:
            raise PayloadError("setup.table", f"setup.table: {error}") from None
        return {**options.to_dict(), "table": game.setup.to_dict()}

    def new_state(self, players: int, seed: int | None, setup: Mapping[str, Any] | None = None,
                  ruleset_version: str | None = None) -> Game:
        if not setup or "table" not in setup:
            setup = self.complete_setup(players, seed, dict(setup or {}), ruleset_version or self.ruleset_version)
        table = setup["table"]
        return self.engine.Game.new(players, seed, self._options(setup), setup=self.engine.setup_from_dict(table),
                                    map_definition=self._map(table))

    def map_drawing(self, ref: Mapping[str, Any]) -> dict[str, Any]:
        """What a page needs to draw the map a position names (``view()["map"]``)."""
        key = (str(ref.get("name")), str(ref.get("version")))
        if key not in self._drawings:
            self._drawings[key] = self._map({"map": ref}).to_view()
        return self._drawings[key]

    def describe_setup(self, setup: Mapping[str, Any]) -> list[tuple[str, str]]:
        lines = super().describe_setup({k: v for k, v in setup.items() if k != "table"} or
                                       self.engine.DEFAULT_OPTIONS.to_dict())
        table = setup.get("table") or {}
        if table:
            ref = table.get("map", {})
            lines.insert(0, ("Map", f"{ref.get('name')} ({ref.get('version')})"))
            lines.insert(1, ("Start squares", ", ".join(table.get("start_squares", []))))
        return lines

    # -- actions ------------------------------------------------------------------------------

    def apply_action(self, state: Game, event_type: str, payload: Mapping[str, Any]) -> dict[str, Any]:
        if event_type == "draw_tile":
            state.apply(self.engine.Action(draw=True, seat=payload.get("seat")))
            return dict(payload)
        action = self.engine.Action.from_dict(payload, discard=event_type == "discard_tile")
        if action.tile is None:
            # A seeded record: the tile is the one drawn, or the island's face-up one.
            tile = state.next_tile
            if action.island is not None:
                stack = next((s for s in state.islands if s.colour == action.island and s.stack == action.stack), None)
                tile = None if stack is None else stack.face_up
            if tile is None:
                raise PayloadError("payload.tile", "payload.tile: name the tile")
            action = dataclasses.replace(action, tile=tile)
        if state.ordered and not action.discard:
            action = self._dealt(state, action)
        state.apply(action)
        return dict(action.to_dict())

    def _dealt(self, state: Game, action: Action) -> Action:
        """A seeded record's action with what the deal showed written in (the chip under the
        tile, the tile its island stack turns up), as an action at a table names them: chance is
        stored, never dealt again."""
        if action.chip is None and state.chips.get((action.x, action.y)) is not None:
            action = dataclasses.replace(action, chip=state.chips[(action.x, action.y)])
        if action.island is not None and action.reveal is None:
            stack = next((s for s in state.islands if s.colour == action.island and s.stack == action.stack), None)
            if stack is not None and stack.below:
                action = dataclasses.replace(action, reveal=stack.below[0])
        return action

    def action_text(self, event_type: str, payload: Mapping[str, Any]) -> str:
        if event_type == "draw_tile":
            return str(self.engine.Action.from_dict({**payload, "draw": True}).to_text())
        return str(self.engine.Action.from_dict(payload, discard=event_type == "discard_tile").to_text())

    def read_action(self, text: str) -> tuple[str, dict[str, Any]]:
        action = self.engine.parse_action(text)
        if action.draw:
            return "draw_tile", {k: v for k, v in action.to_dict().items() if k != "draw"}
        return ("discard_tile" if action.discard else "place_tile"), action.to_dict()

    @staticmethod
    def event_of(action: Any) -> tuple[str, dict[str, Any]]:
        """The event type and payload of an engine action (a draw's payload is empty)."""
        if action.draw:
            return "draw_tile", {k: v for k, v in action.to_dict().items() if k != "draw"}
        return ("discard_tile" if action.discard else "place_tile"), action.to_dict()

    # -- the table recorder --------------------------------------------------------------------

    def pile(self, state: Game) -> list[str]:
        return list(state.pile)

    def placements(self, state: Game, tile: str, **chosen: Any) -> tuple[list[Placement], bool]:
        found, discard = [], False
        island = chosen.get("island")
        # The Maps list their own actions (with the island, stack and chip), typed as Carcassonne's.
        for action in cast("list[Action]", state.legal_actions(tile=tile if island is None else None)):
            if action.island != island or (island is not None and action.stack != chosen.get("stack")):
                continue
            if action.tile != tile:
                continue
            if action.discard:
                discard = True
                continue
            figures = [(feature, kind) for kind, feature in action.figures]
            found.append(Placement(action.x, action.y, action.rotation, figures[0] if figures else None))
        # At a table the engine lists a placement once for each face the chip under it may show
        # (and each tile an island may turn up): the recorder asks those apart.
        return list(dict.fromkeys(found)), discard

    def options(self, state: Game, tile: str | None = None, island: str | None = None,
                stack: int | None = None) -> dict[str, Any]:
        """Carcassonne's options, and the islands whose face-up tile the player may pay a chip for;
        with ``island`` and ``stack``, the spots of that tile instead of the drawn one."""
        from .tiles import spots

        if island is None and state.ordered and state.choosing:
            # A seeded record: the tile drawn face down is not seen before the player chose to
            # draw it (``draw_tile``) rather than pay a chip for an island tile.
            options = super().options(state, tile)
            options |= {"drawn": None, "tile": None, "pile": [], "spots": [], "discard": False}
        elif island is None:
            options = super().options(state, tile)
        else:
            chosen = next((s for s in state.islands if s.colour == island and s.stack == stack), None)
            if chosen is None or chosen.face_up is None:
                raise PayloadError("island", f"island: no face-up tile on {island} stack {stack}")
            options = super().options(state, None)
            placements, _discard = self.placements(state, chosen.face_up, island=island, stack=stack)
            options |= {"tile": chosen.face_up, "discard": False, "spots": spots(placements),
                        "island": {"colour": island, "stack": stack}}
        view = state.view()
        payable = {chip["colour"] for chip in view.get("chips_to_pay", [])} if isinstance(
            view.get("chips_to_pay"), list) else set()
        options["islands"] = [
            {"colour": s["colour"], "stack": s["stack"], "tile": s["face_up"], "left": s.get("left"),
             "payable": s["colour"] in payable and s["face_up"] is not None and not s.get("turning_up")
            and not state.drew_face_down}
            for s in view.get("islands", [])
        ]
        options["chips_held"] = view.get("chips_held", [])
        # Draw face down (``draw_tile``) or pay a chip for an island tile: the choice is open.
        options["choosing"] = bool(state.choosing)
        if not state.ordered:
            # A table: what the scorekeeper is asked when a tile covers a chip (what it shows) and
            # when an island's stack turns its next tile up (which tile).
            options["table_chips"] = {
                "squares": [[c["x"], c["y"]] for c in view.get("chips", []) if c.get("face_down")],
                "faces": [str(chip) for chip in state.possible_chips()],
            }
        return options

    def random_game(self, players: int, seed: int, setup: Mapping[str, Any] | None = None,
                    ruleset_version: str | None = None) -> list[tuple[str, dict[str, Any]]]:
        from games.engines.carcassonne_maps.simulate import random_game

        state = self.new_state(players, seed, setup)
        return self._events(random_game, players, seed, state)

    def demo_game(self, players: int, seed: int, setup: Mapping[str, Any] | None = None,
                  ruleset_version: str | None = None) -> list[tuple[str, dict[str, Any]]]:
        from games.engines.carcassonne_maps.heuristic import heuristic_game

        state = self.new_state(players, seed, setup)
        return self._events(heuristic_game, players, seed, state)

    def _events(self, play: Any, players: int, seed: int, state: Game) -> list[tuple[str, dict[str, Any]]]:
        _game, actions = play(players, seed, state.options, setup=state.setup)
        return [self.event_of(action) for action in actions]

