"""Carcassonne Maps – Benelux with Map-Chips: a game of Carcassonne laid on the map.

:class:`Game` is a :class:`games.engines.carcassonne.Game` (its placements, figures, scoring,
awards, expansions, snapshots and undo) whose board is a :class:`~.board.MapBoard` and whose turn
knows the chips and the islands, through the Carcassonne engine's hooks:

* the board is the map's: a tile goes on a square that takes one, next to a laid tile, never on a
  wave, an island, a large city or outside; the map's border (and a large city's closed side)
  closes the features reaching it; a large city's open edges are city edges joined to it, the
  large city counting its printed squares as tiles and its coats of arms as pennants, and
  complete once every open edge is covered;
* laying a tile on a chip's square takes the chip: its 1 or 2 points are scored at once (score
  source ``chips``) and the player keeps it face up;
* instead of drawing face down, a player holding a chip of an island's colour (taken before this
  turn) may pay it for the face-up tile of either of that island's stacks; the stack's next tile
  is turned up at the end of the turn;
* the game ends after the last tile drawn face down; chips and island tiles left are worth nothing.

>>> game = Game.new(2, seed=3)
>>> game.start_squares, game.face_down_left, len(game.chips)
(('Meppel', 'Charleroi'), 82, 20)
>>> game.scores()[0].breakdown
{'city': 0, 'road': 0, 'cloister': 0, 'field': 0, 'chips': 0}
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Final

from games.engines import position_text
from games.engines.carcassonne import game as carcassonne
from games.engines.carcassonne.actions import Action as CarcassonneAction
from games.engines.carcassonne.options import INNS_CATHEDRALS, TRADERS_BUILDERS, Options
from games.engines.carcassonne.tileset import tileset_for
from games.engines.chance import shuffle
from games.engines.errors import IllegalAction
from games.engines.tiles import Board, PlacedTile, Position, TileDef
from games.engines.tiles.heuristic import Joining

from .actions import Action
from .board import MapBoard
from .chips import CHIP_COLOURS, Chip, ChipValues
from .map import Beyond, LargeCity, MapDefinition
from .map_file import load_benelux, packaged_map
from .setup import TILES_PER_STACK, SetUp, StartTile, TableSetUp, draw_setup, setup_from_dict, stack_squares

ENGINE_SLUG: Final = "carcassonne_maps"
MAPS_SNAPSHOT_VERSION: Final = 1
CHIPS: Final = "chips"
"""The score source of the chips' points."""
DEFAULT_OPTIONS: Final = Options.tiles_only(INNS_CATHEDRALS, TRADERS_BUILDERS)
"""The base game with Inns & Cathedrals' and Traders & Builders' tiles (114 tiles, as seed 003
recommends 110 to 120), their rules off, 7 meeples each."""


@dataclass
class IslandStack:
    """One island stack in play: its ``face_up`` tile (``None`` once used up, or while the tile
    under a tile just taken waits to be turned up: ``turning_up``), and the ``hidden`` tiles
    below, whose order ``below`` lists when the game dealt them (``None`` at a table)."""

    colour: str
    stack: int
    position: Position
    face_up: str | None
    hidden: int
    below: list[str] | None = None
    turning_up: str | None = None
    """The tile turned up at the end of this turn (named by the action at a table)."""

    @property
    def left(self) -> int:
        """Tiles still in the stack, face up or not."""
        return (self.face_up is not None) + (self.turning_up is not None) + self.hidden

    @property
    def name(self) -> str:
        return f"{self.colour}/{self.stack}"

    def to_dict(self) -> dict[str, Any]:
        return {"colour": self.colour, "stack": self.stack, "x": self.position[0], "y": self.position[1],
                "face_up": self.face_up, "hidden": self.hidden,
                "below": None if self.below is None else list(self.below), "turning_up": self.turning_up}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> IslandStack:
        below = data.get("below")
        return cls(str(data["colour"]), int(data["stack"]), (int(data["x"]), int(data["y"])), data.get("face_up"),
                   int(data["hidden"]), None if below is None else [str(t) for t in below], data.get("turning_up"))


@dataclass(frozen=True)
class TakenChip:
    """A chip a tile took: where it lay, what it showed, who took it, at which action."""

    position: Position
    chip: Chip
    seat: int
    action: int

    def to_dict(self) -> dict[str, Any]:
        return {"x": self.position[0], "y": self.position[1], "chip": str(self.chip), "seat": self.seat,
                "action": self.action}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TakenChip:
        return cls((int(data["x"]), int(data["y"])), Chip.from_text(str(data["chip"])), int(data["seat"]),
                   int(data["action"]))


class Game(carcassonne.Game):
    """A game of Carcassonne Maps – Benelux with Map-Chips, from the set-up to the final scoring."""

    action_class: ClassVar[type[CarcassonneAction]] = Action
    text_tag: ClassVar[str] = "carcassonne-maps"
    board: MapBoard

    def __init__(self, players: int, seed: int | None, pile: list[str], ordered: bool,
                 options: Options = DEFAULT_OPTIONS, *, map_definition: MapDefinition | None = None,
                 setup: SetUp | TableSetUp | None = None) -> None:
        """Use :meth:`new`; ``pile`` is what may be drawn face down (in its order when
        ``ordered``; at a table, every tile not yet seen, those hidden in the island stacks too)."""
        if setup is None:
            raise ValueError("a Carcassonne Maps game starts from its set-up: use Game.new")
        self.map = map_definition or packaged_map(setup.map_name, setup.map_version)
        self.setup = setup
        """What the game was set up with (a record's set-up: the seed's drawing, or the table's)."""
        self.start_squares = tuple(setup.start_squares)
        self.start_tiles: tuple[StartTile, ...] = tuple(setup.start_tiles)
        self.chip_values = setup.chip_values
        self.chips: dict[Position, Chip | None]
        """The chips still face down on the map, by square: what each shows, or ``None`` at a
        table, where nobody has seen it."""
        self.islands: list[IslandStack] = []
        squares = stack_squares(self.map)
        order = list(squares)
        if isinstance(setup, SetUp):
            self.chips = {c.position: c.chip for c in setup.chips}
            for s in sorted(setup.island_stacks, key=lambda s: order.index((s.colour, s.stack))):
                self.islands.append(IslandStack(s.colour, s.stack, s.position, s.tiles[0], len(s.tiles) - 1,
                                                list(s.tiles[1:])))
        else:
            self.chips = dict.fromkeys(setup.chip_squares)
            for f in sorted(setup.island_face_up, key=lambda f: order.index((f.colour, f.stack))):
                self.islands.append(IslandStack(f.colour, f.stack, squares[(f.colour, f.stack)], f.tile,
                                                TILES_PER_STACK - 1))
        self.chips_taken: list[TakenChip] = []
        self.large_cities: dict[str, int] = {}
        """Each large city a tile has joined → a node of the feature it belongs to."""
        self.drew_face_down = False
        """The current player drew face down this turn (``draw``, or a tile drawn face down that
        fitted nowhere was discarded): no island tile now."""
        self.fresh_chips = 0
        """How many of the current player's chips (the last they hold) were taken this turn."""
        super().__init__(players, seed, pile, ordered, options)
        self.chips_held: list[list[Chip]] = [[] for _ in range(players)]
        """Each seat's chips, face up in front of them, in the order taken."""
        self.chips_spent: list[list[Chip]] = [[] for _ in range(players)]
        """The chips each seat paid for island tiles (out of the game)."""

    @classmethod
    def new(cls, players: int = 2, seed: int | None = None, options: Options | None = None, *,
            setup: SetUp | TableSetUp | None = None, map_definition: MapDefinition | None = None,
            start_squares: Sequence[str] | None = None, chip_values: ChipValues | None = None) -> Game:
        """A fresh game on ``map_definition`` (Benelux by default) with the tiles of ``options``
        (:data:`DEFAULT_OPTIONS` by default).

        With a ``seed`` and no ``setup`` the engine sets the table up from the seed
        (:func:`~.setup.draw_setup`: the start squares, drawn unless ``start_squares`` names two,
        the chips, with ``chip_values`` or the default values, and the island stacks), then
        shuffles the other tiles into the draw pile. With a ``seed`` and a :class:`SetUp`, that
        set-up. Without a seed, ``setup`` says what the table shows (a :class:`TableSetUp`; a
        :class:`SetUp` also tells the chips' values and the stacks' order). A set-up is checked:
        :class:`IllegalAction` with the chips module's reason codes, ``tile_not_in_play`` for a
        tile that is not among the tiles of ``options``."""
        options = options or DEFAULT_OPTIONS
        tileset = tileset_for(options.expansions)
        if setup is None:
            if seed is None:
                raise ValueError("a game without a seed starts from what its table shows: pass setup=TableSetUp(...)")
            map_definition = map_definition or load_benelux()
            setup, _ = draw_setup(map_definition, tileset.pile(), start_tile=tileset.start,
                                  rng=random.Random(f"{seed}:setup"), start_squares=start_squares, values=chip_values)
        elif start_squares is not None or chip_values is not None:
            raise ValueError("a given set-up already says its start squares and chip values")
        elif seed is not None and isinstance(setup, TableSetUp):
            raise ValueError("a seeded game deals the whole set-up (a SetUp, or none); a TableSetUp is for a "
                             "game without a seed")
        if map_definition is None:
            try:
                map_definition = packaged_map(setup.map_name, setup.map_version)
            except KeyError:
                raise ValueError(f"no packaged map {setup.map_name} {setup.map_version}: pass map_definition") from None
        setup.check(map_definition)
        box = Counter(tileset.pile() + [tileset.start])
        unknown = Counter(setup.tiles) - box
        if unknown:
            tile = sorted(unknown)[0]
            raise IllegalAction("tile_not_in_play", f"the set-up shows more tiles {tile} than the "
                                f"{', '.join(('base', *options.expansions))} tiles hold")
        pile = sorted((box - Counter(setup.tiles)).elements())
        if seed is not None:
            shuffle(pile, random.Random(f"{seed}:pile"))
        return cls(players, seed, pile, seed is not None, options, map_definition=map_definition, setup=setup)

    def _play_with(self, options: Options) -> None:
        super()._play_with(options)
        self.sources = (*self.sources, CHIPS)

    # -- the board: the map ------------------------------------------------------------------

    def _new_board(self) -> Board:
        return MapBoard(self.map)

    def _board_from_state(self, state: Mapping[str, Any]) -> Board:
        return MapBoard.from_state(state, self.tileset.tile_defs, self.map)

    def _lay_start_tiles(self) -> None:
        """The set-up tiles on their start squares (seed 003: "Utilisez 2 des 3 cases de départ")."""
        for start in self.start_tiles:
            self._lay(start.tile, self.map.start_position(start.start), start.quarter_turns)

    def _tiles_at_start(self) -> int:
        return len(self.start_tiles)

    def _lay(self, letter: str, position: tuple[int, int], turns: int) -> PlacedTile:
        placed = super()._lay(letter, position, turns)
        self._meet_the_map(placed)
        return placed

    def _meet_the_map(self, placed: PlacedTile) -> None:
        """Close the contacts the map closes and join the large cities the tile meets: a large
        city joined for the first time brings its open edges as open contacts; each edge a tile
        covers closes twice, the tile's side and the city's edge."""
        nodes = self.graph.nodes_of_tile(placed.order)
        edges_met: set[int] = set()
        for contact in self.board.map_contacts(placed):
            node = nodes[contact.feature]
            if contact.beyond is not Beyond.OPEN_EDGE or contact.large_city is None:
                self.graph.close_contacts(node)
                continue
            city_node = self.large_cities.get(contact.large_city)
            if city_node is None:
                self.large_cities[contact.large_city] = node
                self.graph.add_open_contacts(node, len(self.map.large_city(contact.large_city).open_edges))
            else:
                self.graph.join(node, city_node)
            closing = 1 if contact.side in edges_met else 2
            edges_met.add(contact.side)
            self.graph.close_contacts(node, closing)

    def _touching(self, tile: TileDef, position: tuple[int, int], turns: int) -> dict[int, set[int]]:
        """Carcassonne's (the features laid that the tile would touch), and the large cities
        already joined whose open edge it would meet: a meeple there joins who holds them."""
        touching = super()._touching(tile, position, turns)
        for side, large_city in self.map.large_cities_beside(position):
            city = self.large_cities.get(large_city.name)
            if city is not None:
                touching.setdefault(self.graph.root(city), set()).update(tile.edge(side, turns).sub_edges)
        return touching

    def _placement_problem(self, letter: str, position: tuple[int, int], turns: int) -> IllegalAction | None:
        return self.board.placement_problem(self.tileset.types[letter].tile, position, turns)

    def large_cities_of(self, node: int) -> list[LargeCity]:
        """The large cities the feature of ``node`` has joined."""
        root = self.graph.root(node)
        return [self.map.large_city(name) for name, city in self.large_cities.items() if self.graph.root(city) == root]

    def _city_tiles(self, node: int) -> int:
        """A large city's printed squares count as the city's tiles (Maps - Germany: Berlin)."""
        return super()._city_tiles(node) + sum(len(city.squares) for city in self.large_cities_of(node))

    def _pennants(self, node: int) -> int:
        """A large city's coats of arms count as pennants."""
        return super()._pennants(node) + sum(city.coats_of_arms for city in self.large_cities_of(node))

    def _feature_squares(self, node: int) -> tuple[tuple[int, int], ...]:
        squares = {square for city in self.large_cities_of(node) for square in city.squares}
        return tuple(sorted(set(super()._feature_squares(node)) | squares))

    def preview(self, tile: TileDef, position: Position, quarter_turns: int) -> list[Joining]:
        """The tile core's preview, with the contacts the map would close or open (the border,
        the large cities' edges), counted as :meth:`_meet_the_map` counts them."""
        joinings = super().preview(tile, position, quarter_turns)
        contacts = self.board.map_contacts(PlacedTile(tile, position, quarter_turns, -1))
        if not contacts:
            return joinings
        change: dict[int, int] = {}
        cities: dict[int, set[str]] = {}
        edges_met: set[int] = set()
        for contact in contacts:
            if contact.beyond is not Beyond.OPEN_EDGE or contact.large_city is None:
                change[contact.feature] = change.get(contact.feature, 0) - 1
                continue
            change[contact.feature] = change.get(contact.feature, 0) - (1 if contact.side in edges_met else 2)
            edges_met.add(contact.side)
            cities.setdefault(contact.feature, set()).add(contact.large_city)
        # A large city can join what the tile's features join apart: the tile core's joinings
        # that end in the same city (or in the same feature laid) become one, whose laid
        # features' contacts are counted once.
        groups: list[list[Joining]] = []
        group_of: dict[int | str, int] = {}
        for joining in joinings:
            keys: set[int | str] = set(joining.roots)
            for name in {name for fid in joining.features for name in cities.get(fid, ())}:
                city = self.large_cities.get(name)
                keys.add(name if city is None else self.graph.root(city))
            met = sorted({group_of[key] for key in keys if key in group_of})
            if not met:
                groups.append([joining])
                index = len(groups) - 1
            else:
                index = met[0]
                for other in met[1:]:
                    groups[index].extend(groups[other])
                    groups[other] = []
                    group_of.update(dict.fromkeys([k for k, g in group_of.items() if g == other], index))
                groups[index].append(joining)
            group_of.update(dict.fromkeys(keys, index))
        found = []
        for index, members in enumerate(groups):
            if not members:
                continue
            features = tuple(sorted(fid for joining in members for fid in joining.features))
            laid = {root for joining in members for root in joining.roots}
            open_contacts = sum(joining.open_contacts for joining in members)
            open_contacts += sum(change.get(fid, 0) for fid in features)
            roots = set(laid)
            for key in {key for key, g in group_of.items() if g == index}:
                if isinstance(key, str):  # a large city no tile has joined yet brings its edges
                    open_contacts += len(self.map.large_city(key).open_edges)
                elif key not in laid:
                    roots.add(key)
                    open_contacts += self.graph.open_contacts(key)
            found.append(Joining(features, tuple(sorted(roots)), open_contacts))
        return found

    # -- the draw: face down, or an island's face-up tile for a chip --------------------------

    @property
    def face_down_left(self) -> int:
        """Tiles left in the usual stacks, to be drawn face down: the game ends when none is left."""
        return len(self.pile) - sum(s.hidden for s in self.islands if s.below is None)

    def _pile_empty(self) -> bool:
        return self.face_down_left == 0

    def island_stack(self, colour: str | None, stack: int | None) -> IslandStack | None:
        for island in self.islands:
            if island.colour == colour and island.stack == stack:
                return island
        return None

    def chips_to_pay(self, seat: int | None = None) -> list[Chip]:
        """The chips ``seat`` (the current player) could pay now: those taken before this turn."""
        seat = self.current if seat is None else seat
        held = self.chips_held[seat]
        return held[:len(held) - self.fresh_chips] if seat == self.current else list(held)

    def island_payable(self) -> bool:
        """Whether the current player may pay a chip for a face-up island tile now (one of a
        colour they hold from an earlier turn, whose stack shows a tile that fits somewhere)."""
        if self.is_over or self.drew_face_down:
            return False
        colours = {chip.colour for chip in self.chips_to_pay()}
        return any(s.face_up is not None and s.colour in colours
                   and self.board.fits_anywhere(self.tileset.types[s.face_up].tile) for s in self.islands)

    @property
    def choosing(self) -> bool:
        """The current player still chooses where the tile comes from: an island tile for a chip,
        or a draw face down (the action ``draw``). Seed 003 allows no change of mind once a tile
        is drawn face down, so a seeded game shows its drawn tile only after ``draw``.

        >>> game = Game.new(2, seed=3)
        >>> game.choosing, game.view()["next_tile"] is not None
        (False, True)
        """
        return self.island_payable()

    def _play(self, action: CarcassonneAction, keep: bool) -> Mapping[str, Any] | None:
        maps = Action.of(action)
        if not maps.draw:
            return super()._play(action, keep)
        if self.is_over:
            raise IllegalAction("game_over", "the game is over")
        if maps.seat is not None and maps.seat != self.current:
            raise IllegalAction("not_your_turn", f"it is seat {self.current}'s turn, not seat {maps.seat}'s")
        if not self.choosing:
            raise IllegalAction("nothing_to_choose", "no chip may pay for an island tile now: the tile is drawn "
                                "face down anyway, lay it")
        before = self._kept(vars(self)) if keep else None
        self.drew_face_down = True
        return before

    def _drawn(self, action: CarcassonneAction) -> str:
        maps = Action.of(action)
        if maps.discard and maps.chip is not None:
            raise IllegalAction("no_chip_here", "a discarded tile takes no chip")
        if not maps.from_island:
            if maps.reveal is not None:
                raise IllegalAction("nothing_to_reveal", "only a stack whose tile is taken turns up its next")
            return super()._drawn(action)
        stack = self.island_stack(maps.island, maps.stack)
        if stack is None:
            raise IllegalAction("no_such_island", f"{self.map.name} has no island stack {maps.island}/{maps.stack} "
                                f"(colours {', '.join(CHIP_COLOURS)}, stacks 1 and 2)")
        if self.drew_face_down:
            raise IllegalAction("drew_face_down", "a tile was drawn face down this turn: no change of mind, the "
                                "next tile is drawn face down too")
        if not any(chip.colour == stack.colour for chip in self.chips_held[self.current]):
            raise IllegalAction("no_such_chip", f"seat {self.current} has no {stack.colour} chip to pay with")
        if not any(chip.colour == stack.colour for chip in self.chips_to_pay()):
            raise IllegalAction("chip_taken_this_turn", f"seat {self.current}'s {stack.colour} chips were taken "
                                "this turn: they pay from a later turn")
        if stack.face_up is None:
            if stack.turning_up is not None:
                raise IllegalAction("island_turning_up", f"stack {stack.name} turns up its next tile at the end "
                                    "of this turn")
            raise IllegalAction("island_empty", f"stack {stack.name} has no tile left")
        letter = stack.face_up
        if maps.tile is not None and maps.tile != letter:
            raise IllegalAction("wrong_tile", f"the face-up tile of stack {stack.name} is {letter}, not {maps.tile}")
        if not self.board.fits_anywhere(self.tileset.types[letter].tile):
            raise IllegalAction("island_tile_does_not_fit", f"tile {letter} of stack {stack.name} fits nowhere: "
                                "it stays on its island")
        if stack.hidden == 0:
            if maps.reveal is not None:
                raise IllegalAction("nothing_to_reveal", f"stack {stack.name} is used up with this tile")
        elif stack.below is not None:
            if maps.reveal is not None and maps.reveal != stack.below[0]:
                raise IllegalAction("wrong_reveal", f"stack {stack.name} turns up {stack.below[0]}, not {maps.reveal}")
        elif maps.reveal is None:
            raise IllegalAction("reveal_missing", f"name the tile stack {stack.name} turns up (reveal:)")
        elif maps.reveal not in self.pile:
            raise IllegalAction("no_such_tile", f"no tile {maps.reveal} is left unseen to turn up")
        return letter

    def _take(self, letter: str, action: CarcassonneAction) -> None:
        maps = Action.of(action)
        if not maps.from_island:
            super()._take(letter, action)
            if maps.discard:
                self.drew_face_down = True
            return
        stack = self.island_stack(maps.island, maps.stack)
        assert stack is not None and stack.face_up == letter
        held = self.chips_held[self.current]
        paid = next(i for i, chip in enumerate(held) if chip.colour == stack.colour)
        self.chips_spent[self.current].append(held.pop(paid))
        stack.face_up = None
        if stack.hidden:
            if stack.below is not None:
                stack.turning_up = stack.below.pop(0)
            else:
                assert maps.reveal is not None
                stack.turning_up = maps.reveal
                self.pile.remove(maps.reveal)
            stack.hidden -= 1

    def _end_turn(self) -> None:
        """Seed 003: "À la fin de votre tour, vous révélez la tuile supérieure de la pile de l'île utilisée"."""
        for stack in self.islands:
            if stack.turning_up is not None:
                stack.face_up, stack.turning_up = stack.turning_up, None
        self.fresh_chips = 0
        self.drew_face_down = False
        super()._end_turn()

    # -- the chips on the map -------------------------------------------------------------------

    def possible_chips(self) -> list[Chip]:
        """What a chip nobody has seen may show: the box's chips less those seen (taken, or known
        face down), each once, sorted."""
        left = Counter(self.chip_values.chips())
        left.subtract(taken.chip for taken in self.chips_taken)
        left.subtract(chip for chip in self.chips.values() if chip is not None)
        return sorted(chip for chip, n in left.items() if n > 0)

    def _laying_problem(self, action: CarcassonneAction, position: Position) -> IllegalAction | None:
        named = Action.of(action).chip
        if position not in self.chips:
            if named is not None:
                return IllegalAction("no_chip_here", f"no chip lies on ({position[0]},{position[1]})")
            return None
        known = self.chips[position]
        if known is not None:
            if named is not None and named != known:
                return IllegalAction("wrong_chip", f"the chip on ({position[0]},{position[1]}) shows {known}, "
                                     f"not {named}")
            return None
        if named is None:
            return IllegalAction("chip_missing", f"a chip lies on ({position[0]},{position[1]}): name what it shows "
                                 "turned over (chip:colour:points)")
        if named not in self.possible_chips():
            return IllegalAction("chip_not_in_box", f"no {named.colour} chip worth {named.points} is left unseen "
                                 f"(the box's chips: {self.chip_values.to_dict()})")
        return None

    def _laid(self, placed: PlacedTile, action: CarcassonneAction) -> None:
        """Seed 003: "Si vous placez une tuile sur une case avec un jeton, vous prenez le jeton, vous
        le retournez et vous marquez immédiatement 1 ou 2 points. Ensuite, vous placez le jeton face
        visible devant vous." """
        self.drew_face_down = False
        if placed.position not in self.chips:
            return
        chip = self.chips.pop(placed.position) or Action.of(action).chip
        assert chip is not None
        index = len(self.letters) - 1 - self._tiles_at_start() + len(self.discarded)
        self.chips_taken.append(TakenChip(placed.position, chip, self.current, index))
        self.chips_held[self.current].append(chip)
        self.fresh_chips += 1
        self._grant((self.current,), chip.points, CHIPS, None, [], None, None)

    # -- what may be done --------------------------------------------------------------------

    def apply(self, action: CarcassonneAction) -> None:
        """Apply one action (a Carcassonne action draws face down), or raise
        :class:`IllegalAction` leaving the game unchanged."""
        super().apply(Action.of(action))

    def legal_actions(self, tile: str | None = None, *, chip: Chip | None = None,
                      reveal: str | None = None) -> list[CarcassonneAction]:
        """Every legal action: while the player may still pay a chip for an island tile
        (:attr:`choosing`), ``draw`` first (a seeded game lists no face-down placement before it:
        its tile is not seen yet); the tile drawn face down (as in Carcassonne: a seeded game's,
        else ``tile``, else every tile unseen), then each face-up island tile the player may pay
        a chip for (one fitting somewhere), each placement with every figure it may take.

        An action on a chip's square names the chip: the one lying there in a game that dealt
        the chips; at a table, ``chip`` (what the chip turned over shows) or else each chip it
        may still be. An island action names the tile its stack turns up: the one dealt, else
        ``reveal``, else each tile unseen (none when the stack is used up)."""
        if self.is_over:
            return []
        actions: list[CarcassonneAction] = []
        choosing = self.choosing
        if choosing:
            actions.append(Action(draw=True))
        if not (choosing and self.ordered):  # a seeded game's drawn tile is seen only once drawn
            for action in super().legal_actions(tile):
                actions += self._with_chip(Action.of(action), chip)
        if self.drew_face_down:
            return actions
        colours = {held.colour for held in self.chips_to_pay()}
        for stack in self.islands:
            if stack.face_up is None or stack.colour not in colours:
                continue
            if not self.board.fits_anywhere(self.tileset.types[stack.face_up].tile):
                continue
            for turned in self._reveals(stack, reveal):
                for action in self._placing(stack.face_up, island=stack.colour, stack=stack.stack, reveal=turned):
                    actions += self._with_chip(Action.of(action), chip)
        return actions

    def _with_chip(self, action: Action, chip: Chip | None) -> list[Action]:
        position = (action.x, action.y)
        if action.discard or position not in self.chips:
            return [action]
        known = self.chips[position]
        if known is not None:
            return [replace(action, chip=known)]
        possible = self.possible_chips()
        if chip is not None:
            return [replace(action, chip=chip)] if chip in possible else []
        return [replace(action, chip=c) for c in possible]

    def _reveals(self, stack: IslandStack, reveal: str | None) -> list[str | None]:
        if stack.hidden == 0:
            return [None]
        if stack.below is not None:
            return [stack.below[0]]
        if reveal is not None:
            return [reveal] if reveal in self.pile else []
        return [*sorted(set(self.pile))]

    # -- what a reader sees ------------------------------------------------------------------

    def view(self) -> dict[str, Any]:
        """Carcassonne's view (with ``chips`` in each score's breakdown and their awards), and:
        ``map`` (name, version, title, approximate; :meth:`map_view` draws it),
        ``start_squares`` (each used one's name, square and tile), ``chips`` (every square a
        chip lay on at the start: face down, or taken, with what it showed and by whom),
        ``chips_held`` and ``chips_spent`` (each seat's, colour and points), ``chips_to_pay``
        (the current player's chips that may pay now), ``chips_removed_unseen``, ``islands``
        (each stack's colour, number, square, face-up tile, tiles left, and whether its next tile
        turns up at the end of the turn) and ``tiles_left`` (tiles to draw face down)."""
        data = super().view()
        taken = {t.position: t for t in self.chips_taken}
        squares = sorted([*self.chips, *taken], key=lambda p: (p[1], p[0]))

        def chip_view(position: Position) -> dict[str, Any]:
            if position in self.chips:
                return {"x": position[0], "y": position[1], "face_down": True}
            t = taken[position]
            return {"x": position[0], "y": position[1], "face_down": False, "seat": t.seat, "colour": t.chip.colour,
                    "points": t.chip.points, "action": t.action}

        kinds = data["legal_action_kinds"]
        if kinds and self.choosing:
            kinds = ["draw", "island"] if self.ordered else [*kinds, "draw", "island"]
            data["next_tile"] = None  # drawn only once the player chose to draw
        data |= {
            "map": {**self.map.ref, "title": self.map.title, "approximate": self.map.approximate},
            "start_squares": [{"name": t.start, "x": self.map.start_position(t.start)[0],
                               "y": self.map.start_position(t.start)[1], "tile": t.tile} for t in self.start_tiles],
            "chips": [chip_view(p) for p in squares],
            "chips_held": [[_chip(c) for c in held] for held in self.chips_held],
            "chips_spent": [[_chip(c) for c in spent] for spent in self.chips_spent],
            "chips_to_pay": [] if self.is_over else [_chip(c) for c in self.chips_to_pay()],
            "chips_removed_unseen": len(self.chip_values.chips()) - len(squares),
            "islands": [{"colour": s.colour, "stack": s.stack, "x": s.position[0], "y": s.position[1],
                         "face_up": s.face_up, "left": s.left, "turning_up": s.turning_up is not None}
                        for s in self.islands],
            "tiles_left": self.face_down_left,
            "drew_face_down": self.drew_face_down,
            "legal_action_kinds": kinds,
        }
        return data

    def map_view(self) -> dict[str, Any]:
        """What a viewer draws under the tiles (:meth:`MapDefinition.to_view`)."""
        return self.map.to_view()

    # -- serialising -------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Carcassonne's snapshot (its board with the map's reference) and ``maps``: the set-up
        tiles, the chips face down, taken, held and spent, the island stacks, the large cities
        joined and the turn's state."""
        data = super().to_dict()
        data["engine"] = ENGINE_SLUG
        data["maps"] = {
            "version": MAPS_SNAPSHOT_VERSION, "map": self.map.ref, "setup": self.setup.to_dict(),
            "start_squares": list(self.start_squares),
            "start_tiles": [t.to_dict() for t in self.start_tiles], "chip_values": self.chip_values.to_dict(),
            "chips": [[x, y, None if chip is None else str(chip)] for (x, y), chip in self.chips.items()],
            "chips_taken": [t.to_dict() for t in self.chips_taken],
            "chips_held": [[str(c) for c in held] for held in self.chips_held],
            "chips_spent": [[str(c) for c in spent] for spent in self.chips_spent],
            "fresh_chips": self.fresh_chips, "drew_face_down": self.drew_face_down,
            "islands": [s.to_dict() for s in self.islands], "large_cities": dict(self.large_cities),
        }
        return data

    @classmethod
    def from_text(cls, text: str, map_definition: MapDefinition | None = None) -> Game:
        """The game in the position :meth:`to_text` wrote, on ``map_definition`` (the map it
        names, which must be packaged when none is given, as in :meth:`from_dict`)."""
        return position_text.read(cls.text_tag, text, lambda data: cls.from_dict(data, map_definition))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], map_definition: MapDefinition | None = None) -> Game:
        """The game of :meth:`to_dict`, restored without replaying; its map is ``map_definition``
        (which must be the one the snapshot names) or the packaged map it names."""
        maps = data.get("maps")
        if data.get("snapshot_version") != carcassonne.SNAPSHOT_VERSION or not isinstance(maps, Mapping) \
                or maps.get("version") != MAPS_SNAPSHOT_VERSION:
            raise ValueError(f"not a Carcassonne Maps snapshot of version {MAPS_SNAPSHOT_VERSION}")
        game = cls.__new__(cls)
        named = {"name": str(maps["map"]["name"]), "version": str(maps["map"]["version"])}
        if map_definition is None:
            map_definition = packaged_map(named["name"], named["version"])
        elif map_definition.ref != named:
            raise ValueError(f"the snapshot is of a game on {named}, not on {map_definition.ref}")
        game.map = map_definition
        game._read(data)
        game.setup = setup_from_dict(maps["setup"])
        game.start_squares = tuple(str(s) for s in maps["start_squares"])
        game.start_tiles = tuple(StartTile.from_dict(t) for t in maps["start_tiles"])
        game.chip_values = ChipValues.from_dict(maps["chip_values"])
        game.chips = {(int(x), int(y)): None if chip is None else Chip.from_text(chip) for x, y, chip in maps["chips"]}
        game.chips_taken = [TakenChip.from_dict(t) for t in maps["chips_taken"]]
        game.chips_held = [[Chip.from_text(c) for c in held] for held in maps["chips_held"]]
        game.chips_spent = [[Chip.from_text(c) for c in spent] for spent in maps["chips_spent"]]
        game.fresh_chips = int(maps["fresh_chips"])
        game.drew_face_down = bool(maps["drew_face_down"])
        game.islands = [IslandStack.from_dict(s) for s in maps["islands"]]
        game.large_cities = {str(name): int(node) for name, node in maps["large_cities"].items()}
        return game

    def _kept(self, position: Mapping[str, Any]) -> dict[str, Any]:
        """Carcassonne's, and the chips, the island stacks, the large cities and the turn's state."""
        islands: list[IslandStack] = position["islands"]
        return super()._kept(position) | {
            "chips": dict(position["chips"]), "chips_taken": list(position["chips_taken"]),
            "chips_held": [list(held) for held in position["chips_held"]],
            "chips_spent": [list(spent) for spent in position["chips_spent"]],
            "islands": [IslandStack(s.colour, s.stack, s.position, s.face_up, s.hidden,
                                    None if s.below is None else list(s.below), s.turning_up) for s in islands],
            "large_cities": dict(position["large_cities"]), "drew_face_down": position["drew_face_down"],
            "fresh_chips": position["fresh_chips"],
        }


def _chip(chip: Chip) -> dict[str, Any]:
    return {"colour": chip.colour, "points": chip.points}
