"""Carcassonne: the state of a game, its legal actions, applying them, scoring.

A turn lays the tile drawn (named in the action; a seeded game draws it itself) next to the
tiles already laid, every side continuing its neighbour's city, road or field, and may put one
meeple on a feature of that tile which nobody holds yet. Completed cities (2 points a tile and a
pennant) and roads (1 a tile) score at once for the most meeples on them, as does a cloister once
surrounded (9); the meeples come home. After the last tile: unfinished cities (1 a tile and a
pennant), roads (1 a tile), cloisters (1 + each neighbour), and farmers (3 for every completed
city touching their field).

:class:`~games.engines.carcassonne.options.Options` add the expansions' tiles and, when asked,
their rules (2nd edition, see the package's docstring): inns and cathedrals change what a road or
city is worth, the large meeple counts twice, goods go to whoever completes a city, the builder
gives a second tile, the pig raises its owner's farmers.

>>> game = Game.new(2, seed=3)
>>> game.next_tile, len(game.pile)
('N', 71)
>>> Game.new(6, seed=3, options=Options.with_expansions(INNS_CATHEDRALS)).view()["figures_left"][5]
{'big': 1}
"""

from __future__ import annotations

import marshal
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Self

from games.engines import position_text
from games.engines.chance import shuffle
from games.engines.errors import IllegalAction
from games.engines.ranks import seat_ranks
from games.engines.tiles import (
    SIDES, Board, FeatureGraph, Figure, PlacedTile, Position, TileDef, neighbour,
)
from games.engines.tiles.heuristic import Joining, preview
from games.engines.undo import History, Step
from games.engines.values import build

from . import goods as trade
from .actions import Action
from .figures import BIG, BUILDER, EXPANSION_OF, KINDS, MEEPLE, PIG, SPECIAL, STANDS_ON, holders, is_follower
from .options import BASE_GAME, INNS_CATHEDRALS, MAX_PLAYERS, TRADERS_BUILDERS, Options
from .tileset import Tileset, tileset_for

ENGINE_SLUG: Final = "carcassonne"
MIN_PLAYERS: Final = 2
SOURCES: Final = ("city", "road", "cloister", "field")
"""The base game's sources of points; Traders & Builders' rules add ``"goods"`` (see :attr:`Game.sources`)."""
SNAPSHOT_VERSION: Final = 3
"""Version 2 keeps the awards, version 3 also where each final award lies (tiles, meeples,
contents); an older snapshot is refused (its reader replays instead). A version 3 snapshot
written before the expansions has no ``options``, ``figures_left``, ``goods`` or ``double_turn``:
it is a base game, and reads as one."""
_SIDE_NAMES: Final = ("north", "east", "south", "west")
_OFFSETS: Final = tuple(neighbour((0, 0), side) for side in SIDES)
_AROUND: Final = tuple((dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0))
_HERE_AND_AROUND: Final = ((0, 0), *_AROUND)
_EVERY_KIND: Final = frozenset(KINDS)
_FIGURE_WORDS: Final = {MEEPLE: "meeple", BIG: "large meeple", BUILDER: "builder", PIG: "pig"}


def _copied(record: Mapping[str, Any]) -> dict[str, Any]:
    """A fresh deep copy of a tile type's printed record (JSON data: dicts, lists, strings,
    numbers), equal to ``copy.deepcopy``'s: a view copies every laid tile's record, and a replay's
    narration asks for a view after each event. ``marshal`` makes the copy from the record's bytes,
    kept once per record, in about a ninth of ``copy.deepcopy``'s time."""
    kept = _RECORD_BYTES.get(id(record))
    if kept is None or kept[0] is not record:
        kept = (record, marshal.dumps(dict(record)))
        _RECORD_BYTES[id(record)] = kept
    copied: dict[str, Any] = marshal.loads(kept[1])
    return copied


_RECORD_BYTES: dict[int, tuple[Mapping[str, Any], bytes]] = {}
"""A tile type's record → its bytes for :func:`_copied` (the record kept: its id stays its own)."""


@dataclass(frozen=True)
class Score:
    seat: int
    breakdown: dict[str, int]

    @property
    def total(self) -> int:
        return sum(self.breakdown.values())


@dataclass(frozen=True)
class StandingMeeple:
    """A figure as it stood on the board: whose, which ``kind`` (``meeple``, ``big``, ``builder``,
    ``pig``), on which tile (id and position) and on which of that tile's printed features."""

    seat: int
    x: int
    y: int
    tile: str
    feature: int
    kind: str = "meeple"

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind, "x": self.x, "y": self.y, "tile": self.tile,
                "feature": self.feature}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> StandingMeeple:
        return cls(seat=int(data["seat"]), x=int(data["x"]), y=int(data["y"]), tile=str(data["tile"]),
                   feature=int(data["feature"]), kind=str(data.get("kind", "meeple")))


@dataclass(frozen=True)
class Award:
    """Points a feature gave: ``points`` to each seat in ``seats`` (the most meeples on it).

    ``action`` is the index of the action that caused it (the final scoring's awards carry the
    last action's); ``final`` says it came from the final scoring, where the same sources
    (an unfinished city, road or cloister) score as during the game. A final award also keeps
    the ``tiles`` (x, y) its feature covers (a cloister: its tile and the neighbours counted),
    the ``meeples`` (every figure) that stood on it and the ``contents`` its points counted (a
    city's ``pennants`` and ``cathedrals``, a road's ``inns``, a cloister's ``neighbours``, a
    field's completed ``cities`` and ``pig`` when a pig raised them). The goods' awards (source
    ``goods``) lie nowhere: their contents are the good and how many tokens the most held.
    """

    action: int
    source: str
    points: int
    seats: tuple[int, ...]
    final: bool
    tiles: tuple[tuple[int, int], ...] = ()
    meeples: tuple[StandingMeeple, ...] = ()
    contents: tuple[tuple[str, int], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        data = {"source": self.source, "points": self.points, "seats": list(self.seats), "action": self.action,
                "final": self.final}
        if self.final:
            data |= {"tiles": [list(tile) for tile in self.tiles], "figures": [m.to_dict() for m in self.meeples],
                     "contents": dict(self.contents)}
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Award:
        return cls(action=int(data["action"]), source=str(data["source"]), points=int(data["points"]),
                   seats=tuple(int(seat) for seat in data["seats"]), final=bool(data["final"]),
                   tiles=tuple((int(x), int(y)) for x, y in data.get("tiles", ())),
                   meeples=tuple(StandingMeeple.from_dict(m) for m in data.get("figures", ())),
                   contents=tuple((str(k), int(v)) for k, v in dict(data.get("contents", {})).items()))


class Game:
    """A game of Carcassonne, from the start tile to the final scoring.

    A game played on other ground (Carcassonne Maps) subclasses it through a few hooks, each a
    method that the base game keeps as it always was: the board (:meth:`_new_board`,
    :meth:`_board_from_state`), the set-up tiles (:meth:`_lay_start_tiles`,
    :meth:`_tiles_at_start`), where the tile drawn comes from and what taking it does
    (:meth:`_drawn`, :meth:`_take`), what else a placement asks and does (:meth:`_laying_problem`,
    :meth:`_laid`), the end of a turn and of the draw (:meth:`_end_turn`, :meth:`_pile_empty`),
    what a city counts and covers (:meth:`_city_tiles`, :meth:`_pennants`,
    :meth:`_feature_squares`), what laying a tile would join (:meth:`preview`) and the kind of
    action listed (:attr:`action_class`).
    """

    action_class: ClassVar[type[Action]] = Action
    """What :meth:`legal_actions` builds: a subclass's action may carry more fields."""
    text_tag: ClassVar[str] = "carcassonne"
    """The engine's name in a position's text form (:meth:`to_text`)."""

    def __init__(self, players: int, seed: int | None, pile: list[str], ordered: bool,
                 options: Options = BASE_GAME) -> None:
        if not MIN_PLAYERS <= players <= options.max_players:
            sixth = " (a sixth player needs Inns & Cathedrals)" if players == options.max_players + 1 == 6 else ""
            raise ValueError(f"Carcassonne is for {MIN_PLAYERS} to {options.max_players} players, not {players}{sixth}")
        self._play_with(options)
        self.players = players
        self.seed = seed
        self.ordered = ordered
        """A seeded game: ``pile`` is the order of the draw and the next tile is known."""
        self.pile = pile
        self.board = self._new_board()
        self.graph = FeatureGraph()
        self.letters: list[str] = []
        self.meeples_left = [options.meeples] * players
        self.figures_left: list[dict[str, int]] = [dict.fromkeys(self.special_figures, 1) for _ in range(players)]
        """Each seat's expansion figures in hand (``big``, ``builder``, ``pig``: one each)."""
        self.goods: list[dict[str, int]] = [trade.no_goods() if self.trading else {} for _ in range(players)]
        """Each seat's goods tokens (Traders & Builders' rules)."""
        self.points = [dict.fromkeys(self.sources, 0) for _ in range(players)]
        self.current = 0
        self.double_turn = False
        """The current player is laying the second tile their builder gave them."""
        self.is_over = False
        self.final_scored = False
        self.discarded: list[str] = []
        self.awards: list[Award] = []
        self.history: History[Action] = History()
        """The actions to take back (:meth:`undo`), since the start or the snapshot restored."""
        self._lay_start_tiles()

    def _new_board(self) -> Board:
        return Board()

    def _lay_start_tiles(self) -> None:
        """The tiles on the table before the first turn: the start tile at (0, 0)."""
        self._lay(self.tileset.start, (0, 0), 0)

    def _tiles_at_start(self) -> int:
        """How many tiles :meth:`_lay_start_tiles` lays (an action's index counts the tiles after them)."""
        return 1

    def _play_with(self, options: Options) -> None:
        self.options = options
        self.tileset: Tileset = tileset_for(options.expansions)
        self.inns_and_cathedrals = options.has_rules(INNS_CATHEDRALS)
        """Inns and cathedrals change a road's or city's worth (with the tiles only, they are pictures)."""
        self.trading = options.has_rules(TRADERS_BUILDERS)
        """Goods are taken and scored, builders and pigs are in play."""
        self.special_figures = tuple(kind for kind in SPECIAL if options.has_rules(EXPANSION_OF[kind]))
        self.sources = SOURCES + (("goods",) if self.trading else ())

    @classmethod
    def new(cls, players: int = 2, seed: int | None = None, options: Options | None = None) -> Game:
        """A fresh game; with a ``seed`` the engine shuffles the pile and names each tile drawn.
        ``options`` (the base game by default) say which expansions' tiles and rules are in."""
        options = options or BASE_GAME
        pile = tileset_for(options.expansions).pile()
        if seed is not None:
            shuffle(pile, random.Random(seed))
        return cls(players, seed, pile, ordered=seed is not None, options=options)

    @property
    def next_tile(self) -> str | None:
        return self.pile[0] if self.ordered and self.pile else None

    # -- laying tiles ------------------------------------------------------------------------

    def _lay(self, letter: str, position: tuple[int, int], turns: int) -> PlacedTile:
        placed = self.board.place(self.tileset.types[letter].tile, position, turns)
        self.graph.join_tile(placed, self.board)
        self.letters.append(letter)
        return placed

    def _placement_problem(self, letter: str, position: tuple[int, int], turns: int) -> IllegalAction | None:
        if self.board.fits(self.tileset.types[letter].tile, position, turns):
            return None
        if position in self.board.tiles:
            return IllegalAction("occupied", f"a tile already lies at ({position[0]},{position[1]})")
        if not self.board.is_adjacent(position):
            return IllegalAction("not_adjacent", f"({position[0]},{position[1]}) touches no tile by a side")
        mismatches = self.board.mismatches(self.tileset.types[letter].tile, position, turns)
        if mismatches:
            m = mismatches[0]
            return IllegalAction("edge_mismatch", f"the {_SIDE_NAMES[m.side]} edge is {m.terrain} but the "
                                 f"neighbour at ({m.neighbour[0]},{m.neighbour[1]}) shows {m.neighbour_terrain}")
        return None

    def _figure_problem(self, letter: str, kind: str, feature: int) -> IllegalAction | None:
        """What stops a figure going on ``feature`` before the tile is laid (what the feature
        joins once laid is seen after laying it, see :meth:`_joined_problem`)."""
        if kind != MEEPLE and kind not in self.special_figures:
            return IllegalAction("not_in_this_game", f"this game has no {_FIGURE_WORDS[kind]}: "
                                 f"{EXPANSION_OF[kind]} is not played with its rules")
        kinds = self.tileset.types[letter].tile.feature_kinds
        if feature not in kinds:
            return IllegalAction("no_such_feature", f"tile {letter} has no feature {feature}")
        if kind in STANDS_ON and kinds[feature] not in STANDS_ON[kind]:
            where = " or ".join(STANDS_ON[kind])
            return IllegalAction(f"{kind}_not_on_{'_or_'.join(STANDS_ON[kind])}", f"a {_FIGURE_WORDS[kind]} goes on "
                                 f"a {where}, not on the {kinds[feature]} of feature {feature}")
        if kind == MEEPLE:
            if self.meeples_left[self.current] == 0:
                return IllegalAction("no_meeples", f"seat {self.current} has no meeple left")
        elif self.figures_left[self.current][kind] == 0:
            return IllegalAction(f"no_{kind}", f"seat {self.current}'s {_FIGURE_WORDS[kind]} is on the board")
        return None

    def _joined_problem(self, tile: TileDef, kind: str, feature: int, node: int) -> IllegalAction | None:
        """What stops the figure once the tile is laid: a follower needs a feature nobody holds,
        a builder or a pig one where its owner has a follower."""
        figures = self.graph.figures(node)
        what = tile.feature_kinds[feature]
        if is_follower(kind):
            if figures:
                return IllegalAction("feature_taken", f"the {what} of feature {feature} joins one that already "
                                     "has a meeple")
            return None
        if not any(f.owner == self.current and is_follower(f.kind) for f in figures):
            needed = "farmer" if kind == PIG else "meeple"
            return IllegalAction(f"{kind}_needs_{needed}", f"the {what} of feature {feature} has no {needed} of "
                                 f"seat {self.current}'s for the {_FIGURE_WORDS[kind]} to join")
        return None

    # -- applying ----------------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Apply one action, or raise :class:`IllegalAction` leaving the game unchanged."""
        self.history.append(Step(action, self._play(action, self.history.keeps_position())))

    def _play(self, action: Action, keep: bool) -> Mapping[str, Any] | None:
        """Apply ``action`` (or raise :class:`IllegalAction`, the game unchanged); with ``keep``,
        returns the position before it as :meth:`_kept` copies it, for undo to return to."""
        if self.is_over:
            raise IllegalAction("game_over", "the game is over")
        if action.seat is not None and action.seat != self.current:
            raise IllegalAction("not_your_turn", f"it is seat {self.current}'s turn, not seat {action.seat}'s")
        letter = self._drawn(action)
        tile = self.tileset.types[letter].tile
        # The position undo may return to is kept once the action is seen to be legal as far as it
        # can be before laying: a refused placement costs no copy of it.
        if action.discard:
            if self.board.fits_anywhere(tile):
                raise IllegalAction("tile_fits", f"tile {letter} fits somewhere: it must be laid")
            before = self._kept(vars(self)) if keep else None
            self._take(letter, action)
            self.discarded.append(letter)
            self._end_if_done()
            return before
        figures = action.figures
        if len(figures) > 1:
            raise IllegalAction("one_figure", "put one figure on the tile: " + " or ".join(k for k, _ in figures))
        position = (action.x, action.y)
        if action.rotation not in (0, 90, 180, 270):
            raise IllegalAction("bad_rotation", f"turn a tile 0, 90, 180 or 270 degrees, not {action.rotation}")
        turns = action.rotation // 90
        problem = self._placement_problem(letter, position, turns)
        if problem is None and figures:
            problem = self._figure_problem(letter, *figures[0])
        if problem is None:
            problem = self._laying_problem(action, position)
        if problem is not None:
            raise problem
        before = self._kept(vars(self)) if keep else None
        placed = self._lay(letter, position, turns)
        builder_extended = self.trading and self._extends_builder(placed)
        if figures:
            kind, feature = figures[0]
            node = self.graph.node(placed.order, feature)
            problem = self._joined_problem(tile, kind, feature, node)
            if problem is not None:
                self._rebuild(before)
                raise problem
            self.graph.add_figure(Figure(self.current, kind, node))
            if kind == MEEPLE:
                self.meeples_left[self.current] -= 1
            else:
                self.figures_left[self.current][kind] -= 1
        self._take(letter, action)
        self._laid(placed, action)
        self._score_completed(placed)
        # The builder's second tile is part of the same turn and gives no third (2nd edition).
        if builder_extended and not self.double_turn and not self._pile_empty():
            self.double_turn = True
        else:
            self.double_turn = False
            self._end_turn()
        self._end_if_done()
        return before

    def _drawn(self, action: Action) -> str:
        """The tile the action lays or discards, checked against the draw (raises :class:`IllegalAction`)."""
        letter = action.tile or self.next_tile
        if letter is None:
            raise IllegalAction("tile_missing", "name the tile drawn")
        if self.ordered and letter != self.next_tile:
            raise IllegalAction("wrong_tile", f"the tile drawn is {self.next_tile}, not {letter}")
        if letter not in self.pile:
            raise IllegalAction("no_such_tile", f"no tile {letter} is left to draw")
        return letter

    def _take(self, letter: str, action: Action) -> None:
        """The tile laid or discarded leaves where it was drawn from."""
        self.pile.remove(letter)

    def _laying_problem(self, action: Action, position: Position) -> IllegalAction | None:
        """What else stops the placement, once the tile and figure are seen to be fine."""
        return None

    def _laid(self, placed: PlacedTile, action: Action) -> None:
        """What laying the tile does besides its figure, before any feature is scored."""

    def _end_turn(self) -> None:
        self.current = (self.current + 1) % self.players

    def _pile_empty(self) -> bool:
        """No tile is left to draw: the game ends."""
        return not self.pile

    def _extends_builder(self, placed: PlacedTile) -> bool:
        """Whether the tile just laid continues a road or city where the current player's builder
        stands (looked at before a figure goes on the tile: a builder put down now extends nothing)."""
        for node in self.graph.nodes_of_tile(placed.order).values():
            if self.graph.node_kind[node] in ("road", "city") and any(
                    f.kind == BUILDER and f.owner == self.current for f in self.graph.figures(node)):
                return True
        return False

    def _end_if_done(self) -> None:
        if self._pile_empty():
            self._final_scoring()
            self.is_over = True

    def end_now(self) -> None:
        """End the game before the pile is empty (a tile is missing from the box): the final
        scoring the rules do at the end, now. Not an action: it is not taken back by :meth:`undo`.

        >>> game = Game.new(2, seed=None)
        >>> game.end_now()
        >>> game.is_over, game.final_scored, game.legal_actions()
        (True, True, [])
        """
        if self.is_over:
            raise IllegalAction("game_over", "the game is over")
        self._final_scoring()
        self.is_over = True

    def undo(self) -> Action:
        """Take back the last action and return it: the position before it, exactly (rebuilt
        from the last position kept and the actions since, see :mod:`games.engines.undo`)."""
        if not self.history:
            raise IllegalAction("nothing_to_undo", "there is no action left to take back")
        step = self.history.pop()
        self._rebuild(step.before)
        return step.action

    def copy(self) -> Self:
        """An independent game in the same position, with the same actions to take back.

        What an action may change is copied as undo keeps a position (:meth:`_kept`, which a
        subclass extends with its own); the rest (the options, the tile set, a map) never
        changes and is shared, as are the steps of the history (a step is never changed).

        >>> game = Game.new(2, seed=3)
        >>> twin = game.copy()
        >>> twin.apply(twin.legal_actions()[0])
        >>> len(game.letters), len(twin.letters), twin.undo() is not None
        (1, 2, True)
        """
        game = self.__class__.__new__(self.__class__)
        game.__dict__.update(vars(self))
        game.__dict__.update(self._kept(vars(self)))
        game.history = self.history.copy()
        return game

    def _rebuild(self, before: Mapping[str, Any] | None) -> None:
        """Back to the position after the actions of :attr:`history` (``before`` is its copy,
        if one was kept)."""
        self.history.rebuild(self._return_to, lambda action: self._play(action, False), before)

    def _kept(self, position: Mapping[str, Any]) -> dict[str, Any]:
        """Copies of what an action may change, taken from ``position`` (this game's attributes,
        or those kept before): what undo returns to. A subclass adds what its actions change."""
        return {
            "pile": list(position["pile"]), "board": position["board"].copy(), "graph": position["graph"].copy(),
            "letters": list(position["letters"]), "meeples_left": list(position["meeples_left"]),
            "figures_left": [dict(left) for left in position["figures_left"]],
            "goods": [dict(held) for held in position["goods"]],
            "points": [dict(points) for points in position["points"]], "current": position["current"],
            "double_turn": position["double_turn"], "is_over": position["is_over"],
            "final_scored": position["final_scored"], "discarded": list(position["discarded"]),
            "awards": list(position["awards"]),
        }

    def _return_to(self, kept: Mapping[str, Any]) -> None:
        """Take the position :meth:`_kept` copied (copying it again: it may be returned to twice)."""
        self.__dict__.update(self._kept(kept))

    # -- scoring -----------------------------------------------------------------------------

    def _award(self, node: int, points: int, source: str, *, contents: Mapping[str, int] | None = None,
               tiles: tuple[tuple[int, int], ...] | None = None) -> None:
        """Score the feature of ``node`` and send its figures home. A final award keeps where it
        lies (``tiles``, by default the feature's) and what it counted (``contents``)."""
        figures = self.graph.remove_figures(node, _EVERY_KIND)
        self._grant(tuple(sorted(holders(figures))), points, source, node, figures, contents, tiles)
        self._send_home(figures)

    def _grant(self, seats: tuple[int, ...], points: int, source: str, node: int | None, figures: list[Figure],
               contents: Mapping[str, int] | None, tiles: tuple[tuple[int, int], ...] | None) -> None:
        for seat in seats:
            self.points[seat][source] += points
        # Every scoring comes after the tile of its action is laid or discarded, so the action's
        # index is counted from the board and the discards, which a snapshot keeps (the history of
        # positions is not part of a snapshot).
        action = len(self.letters) - 1 - self._tiles_at_start() + len(self.discarded)
        if self.final_scored:
            where = tiles if tiles is not None or node is None else self._feature_squares(node)
            self.awards.append(build(Award, {
                "action": action, "source": source, "points": points, "seats": seats, "final": True,
                "tiles": where or (), "meeples": tuple([self._standing(f) for f in figures]),
                "contents": tuple((contents or {}).items())}))
        else:
            self.awards.append(build(Award, {"action": action, "source": source, "points": points, "seats": seats,
                                             "final": False, "tiles": (), "meeples": (), "contents": ()}))

    def _feature_squares(self, node: int) -> tuple[tuple[int, int], ...]:
        """Where the feature of ``node`` lies: the positions of its tiles, sorted."""
        placed, node_tile = self.board.placed, self.graph.node_tile
        return tuple(sorted({placed[node_tile[n]].position for n in self.graph.members(node)}))

    def _send_home(self, figures: list[Figure]) -> None:
        for figure in figures:
            if figure.kind == MEEPLE:
                self.meeples_left[figure.owner] += 1
            else:
                self.figures_left[figure.owner][figure.kind] += 1

    def _standing(self, figure: Figure) -> StandingMeeple:
        placed = self.board.placed[self.graph.node_tile[figure.node]]
        x, y = placed.position
        return build(StandingMeeple, {"seat": figure.owner, "x": x, "y": y, "tile": self.letters[placed.order],
                                      "feature": self.graph.node_feature[figure.node], "kind": figure.kind})

    def _pennants(self, node: int) -> int:
        return sum(self.tileset.types[self.letters[self.graph.node_tile[n]]].pennants.get(self.graph.node_feature[n], 0)
                   for n in self.graph.members(node))

    def _cathedrals(self, node: int) -> int:
        """Cathedrals in the city of ``node`` (counted only under Inns & Cathedrals' rules)."""
        if not self.inns_and_cathedrals:
            return 0
        return sum(self.graph.node_feature[n] in self.tileset.types[self.letters[self.graph.node_tile[n]]].cathedrals
                   for n in self.graph.members(node))

    def _inns(self, node: int) -> int:
        """Inns beside the road of ``node`` (counted only under Inns & Cathedrals' rules)."""
        if not self.inns_and_cathedrals:
            return 0
        return sum(self.graph.node_feature[n] in self.tileset.types[self.letters[self.graph.node_tile[n]]].inns
                   for n in self.graph.members(node))

    def city_points(self, node: int, complete: bool) -> int:
        """2 a tile and a pennant once complete, 1 at the end; with a cathedral (one or two) 3
        once complete and nothing at the end."""
        return self._city_worth(node, complete, self._pennants(node), self._cathedrals(node))

    def _city_worth(self, node: int, complete: bool, pennants: int, cathedrals: int) -> int:
        """:meth:`city_points` of the city of ``node`` with its ``pennants`` and ``cathedrals`` counted."""
        if cathedrals:
            per = 3 if complete else 0
        else:
            per = 2 if complete else 1
        return per * (self._city_tiles(node) + pennants)

    def _city_tiles(self, node: int) -> int:
        """The tiles a city counts."""
        return self.graph.tile_count(node)

    def road_points(self, node: int, complete: bool) -> int:
        """1 a tile, complete or not; with an inn (or more) 2 once complete and nothing at the end."""
        return self._road_worth(node, complete, self._inns(node))

    def _road_worth(self, node: int, complete: bool, inns: int) -> int:
        """:meth:`road_points` of the road of ``node`` with its ``inns`` counted."""
        if inns:
            return 2 * self.graph.tile_count(node) if complete else 0
        return self.graph.tile_count(node)

    def _score_completed(self, placed: PlacedTile) -> None:
        graph = self.graph
        kinds = graph.node_kind
        traded: set[int] = set()
        for node in graph.nodes_of_tile(placed.order).values():
            kind = kinds[node]
            if (kind == "city" or kind == "road") and graph.is_complete(node):
                if self.trading and kind == "city" and graph.root(node) not in traded:
                    traded.add(graph.root(node))
                    self._take_goods(node)
                if graph.figures(node):
                    points = self.city_points(node, True) if kind == "city" else self.road_points(node, True)
                    self._award(node, points, kind)
        # The cloisters this tile may have surrounded: its own and its neighbours' (most tiles have none).
        tiles, types, letters = self.board.tiles, self.tileset.types, self.letters
        x, y = placed.position
        for dx, dy in _HERE_AND_AROUND:
            other = tiles.get((x + dx, y + dy))
            if other is None:
                continue
            cloister = types[letters[other.order]].cloister
            if cloister is not None and self._surrounding(other.position) == 8:
                node = graph.node(other.order, cloister)
                if graph.figures(node):
                    self._award(node, 9, "cloister")

    def _take_goods(self, node: int) -> None:
        """Whoever laid the tile that completed the city takes a token for each goods symbol in it."""
        held = self.goods[self.current]
        for n in self.graph.members(node):
            good = self.tileset.types[self.letters[self.graph.node_tile[n]]].goods.get(self.graph.node_feature[n])
            if good is not None:
                held[good] += 1

    def _surrounding(self, position: tuple[int, int]) -> int:
        tiles = self.board.tiles
        x, y = position
        return sum(1 for dx, dy in _AROUND if (x + dx, y + dy) in tiles)

    def _final_scoring(self) -> None:
        if self.final_scored:
            return
        self.final_scored = True
        completed_cities = {n for n in self.graph.roots()
                            if self.graph.node_kind[n] == "city" and self.graph.is_complete(n)}
        for root in self.graph.held():
            kind = self.graph.node_kind[root]
            if kind == "city":
                pennants, cathedrals = self._pennants(root), self._cathedrals(root)
                self._award(root, self._city_worth(root, False, pennants, cathedrals), "city",
                            contents={"pennants": pennants} | self._marks("cathedrals", cathedrals))
            elif kind == "road":
                inns = self._inns(root)
                self._award(root, self._road_worth(root, False, inns), "road", contents=self._marks("inns", inns))
            elif kind == "cloister":
                x, y = self.board.placed[self.graph.node_tile[root]].position
                around = tuple(sorted(p for dx, dy in ((0, 0), *_AROUND)
                                      if (p := (x + dx, y + dy)) in self.board.tiles))
                self._award(root, 1 + self._surrounding((x, y)), "cloister",
                            contents={"neighbours": self._surrounding((x, y))}, tiles=around)
            elif kind == "field":
                cities = len(self._cities_of_field(root) & completed_cities)
                if self.trading:
                    self._award_farmers_and_pigs(root, cities)
                else:
                    self._award(root, 3 * cities, "field", contents={"cities": cities})
        if self.trading:
            for good, most, seats in trade.majorities(self.goods):
                self._grant(seats, trade.MAJORITY_POINTS, "goods", None, [], {good: most}, ())

    @staticmethod
    def _marks(name: str, count: int) -> dict[str, int]:
        return {name: count} if count else {}

    def _award_farmers_and_pigs(self, root: int, cities: int) -> None:
        """The field's farmers score 3 a completed city, 4 for a holder whose pig is in the field."""
        figures = self.graph.remove_figures(root, _EVERY_KIND)
        seats = holders(figures)
        pigs = {f.owner for f in figures if f.kind == PIG}
        with_pig = tuple(sorted(seats & pigs))
        if with_pig:
            self._grant(with_pig, 4 * cities, "field", root, figures, {"cities": cities, "pig": 1}, None)
        if seats - pigs or not seats:
            self._grant(tuple(sorted(seats - pigs)), 3 * cities, "field", root, figures, {"cities": cities}, None)
        self._send_home(figures)

    def _cities_of_field(self, node: int) -> set[int]:
        """The city features (roots) the field of ``node`` touches on any of its tiles."""
        cities = set()
        for member in self.graph.members(node):
            order, feature = self.graph.node_tile[member], self.graph.node_feature[member]
            for city in self.tileset.types[self.letters[order]].field_cities.get(feature, ()):
                cities.add(self.graph.root(self.graph.node(order, city)))
        return cities

    def scores(self) -> list[Score]:
        return [Score(seat, dict(points)) for seat, points in enumerate(self.points)]

    def final_ranks(self) -> dict[int, int]:
        """Seat → place by total, tied seats sharing a place (:func:`games.engines.ranks.seat_ranks`);
        before the end, the standing as the scores stand."""
        return seat_ranks([score.total for score in self.scores()])

    # -- what may be done --------------------------------------------------------------------

    def legal_actions(self, tile: str | None = None) -> list[Action]:
        """Every legal action with the tile drawn (a seeded game); in a game that does not know
        the draw, every placement of ``tile`` (the id drawn at the table) or, without it, of
        every tile left. Each placement comes without a figure, then with each figure the
        player may put on each feature of the tile."""
        if self.is_over:
            return []
        letters: list[str]
        if self.ordered:
            letters = [self.pile[0]]
        elif tile is not None:
            letters = [tile] if tile in self.pile else []
        else:
            letters = sorted(set(self.pile))
        actions: list[Action] = []
        for letter in letters:
            actions += self._placing(letter)
        return actions

    def fits_anywhere(self, letter: str) -> bool:
        """Whether tile ``letter`` may be laid somewhere now (drawn, it is otherwise discarded):
        the board's test alone, without the figures, quick enough to ask of every tile left.

        >>> game = Game.new(2, seed=None)
        >>> game.fits_anywhere("A"), game.fits_anywhere("D")
        (True, True)
        """
        return self.board.fits_anywhere(self.tileset.types[letter].tile)

    def _placing(self, letter: str, **extra: Any) -> list[Action]:
        """Every legal placement of ``letter`` with each figure it may take, or its discard if it
        fits nowhere; each action also carries the ``extra`` fields (a subclass's)."""
        act = self.action_class
        seat = self.current
        in_hand = [kind for kind in self.special_figures if self.figures_left[seat][kind]]
        meeple = self.meeples_left[seat] > 0
        actions: list[Action] = []
        printed = self.tileset.types[letter].tile
        placements = list(self.board.placements(printed))
        template = act.template() | {"tile": letter, **extra}
        if not placements:
            return [act.listed(template | {"discard": True})]
        listed = act.listed
        kinds = printed.feature_kinds
        for (x, y), turns in placements:
            fields = template | {"x": x, "y": y, "rotation": turns * 90}
            actions.append(listed(fields))
            if not meeple and not in_hand:
                continue
            touching = self._touching(printed, (x, y), turns)
            if meeple or BIG in in_hand:
                joined = self._taken_among(touching)
                if meeple:
                    actions += [listed(fields | {MEEPLE: f}) for f in kinds if f not in joined]
                if BIG in in_hand:
                    actions += [listed(fields | {BIG: f}) for f in kinds if f not in joined]
            if BUILDER in in_hand or PIG in in_hand:
                own = self._own_among(touching)
                if BUILDER in in_hand:
                    actions += [listed(fields | {BUILDER: f}) for f in kinds
                                if f in own and kinds[f] in STANDS_ON[BUILDER]]
                if PIG in in_hand:
                    actions += [listed(fields | {PIG: f}) for f in kinds if f in own and kinds[f] in STANDS_ON[PIG]]
        return actions

    def preview(self, tile: TileDef, position: Position, quarter_turns: int) -> list[Joining]:
        """What laying ``tile`` so would join and close, without laying it (the simple player's
        look ahead, :func:`games.engines.tiles.heuristic.preview`)."""
        return preview(self.board, self.graph, tile, position, quarter_turns)

    def _touching(self, tile: TileDef, position: tuple[int, int], turns: int) -> dict[int, set[int]]:
        """Each feature laid (root) that ``tile`` laid so would touch → the features of ``tile`` touching it."""
        touching: dict[int, set[int]] = {}
        tiles, graph, turned = self.board.tiles, self.graph, tile.turned[turns]
        x, y = position
        for side, (dx, dy) in enumerate(_OFFSETS):
            other = tiles.get((x + dx, y + dy))
            if other is None:
                continue
            mine = turned[side].sub_edges
            theirs = other.tile.turned[other.quarter_turns][(side + 2) % 4].sub_edges  # the side facing ours
            nodes = graph.nodes_of_tile(other.order)
            for i in range(3):
                root = graph.root(nodes[theirs[2 - i]])
                touching.setdefault(root, set()).add(mine[i])
        return touching

    @staticmethod
    def _spread(touching: dict[int, set[int]], joined: set[int]) -> set[int]:
        """``joined`` and every feature of the tile one feature laid joins to one of them (a field
        wrapping round a road end joins both fields beside the road)."""
        grown = True
        while grown:
            grown = False
            for features in touching.values():
                if features & joined and not features <= joined:
                    joined |= features
                    grown = True
        return joined

    def _joined_taken(self, tile: TileDef, position: tuple[int, int], turns: int) -> set[int]:
        """The features of ``tile`` laid so that would join a feature holding a meeple."""
        return self._taken_among(self._touching(tile, position, turns))

    def _taken_among(self, touching: dict[int, set[int]]) -> set[int]:
        taken: set[int] = set()
        for root, features in touching.items():
            if self.graph.figures(root):
                taken |= features
        return self._spread(touching, taken) if taken else taken

    def _joined_own(self, tile: TileDef, position: tuple[int, int], turns: int) -> set[int]:
        """The features of ``tile`` laid so that would join a feature where the current player
        has a follower (where their builder or pig may go)."""
        return self._own_among(self._touching(tile, position, turns))

    def _own_among(self, touching: dict[int, set[int]]) -> set[int]:
        own: set[int] = set()
        for root, features in touching.items():
            if any(f.owner == self.current and is_follower(f.kind) for f in self.graph.figures(root)):
                own |= features
        return self._spread(touching, own) if own else own

    # -- what a reader sees ------------------------------------------------------------------

    def view(self) -> dict[str, Any]:
        """The position for readers, JSON-able: the ``options``; the ``tiles`` laid (printed edges
        and features, inns, cathedrals and goods marked); the figures on the board (``meeples``,
        each with its ``kind``: meeple, big, builder, pig, and the ``type`` of its feature); each
        seat's ``meeples_left``, ``figures_left`` (the expansions' figures in hand) and ``goods``;
        whose turn it is and whether it is a builder's ``double_turn``; scores and awards."""
        tiles = [
            {"tile": letter, "x": p.position[0], "y": p.position[1], "rotation": p.quarter_turns * 90,
             "order": p.order, **_copied(self.tileset.types[letter].record)}
            for p, letter in zip(self.board.placed, self.letters)
        ]
        meeples = []
        for root in self.graph.roots():
            for figure in self.graph.figures(root):
                placed = self.board.placed[self.graph.node_tile[figure.node]]
                meeples.append({"seat": figure.owner, "x": placed.position[0], "y": placed.position[1],
                                "feature": self.graph.node_feature[figure.node],
                                "type": self.graph.node_kind[figure.node], "kind": figure.kind})
        meeples.sort(key=lambda m: (m["x"], m["y"], m["feature"]))
        last = self.board.placed[-1]
        kinds: list[str] = []
        if not self.is_over:
            kinds = ["place", "discard"] if not self.ordered else (
                ["place"] if self.board.fits_anywhere(self.tileset.types[self.pile[0]].tile) else ["discard"])
        return {
            "options": self.options.to_dict(),
            "tiles": tiles,
            "meeples": meeples,
            "last_placed": {"tile": self.letters[-1], "x": last.position[0], "y": last.position[1],
                            "rotation": last.quarter_turns * 90, "order": last.order},
            "next_tile": self.next_tile,
            "tiles_left": len(self.pile),
            "meeples_left": list(self.meeples_left),
            "figures_left": [dict(figures) for figures in self.figures_left],
            "goods": [dict(tokens) for tokens in self.goods],
            "discarded": list(self.discarded),
            "current_player": None if self.is_over else self.current,
            "double_turn": self.double_turn,
            "scores": [{"seat": s.seat, "total": s.total, "breakdown": s.breakdown} for s in self.scores()],
            "awards": [award.to_dict() for award in self.awards],
            "legal_action_kinds": kinds,
        }

    # -- serialising -------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        # The feature graph's state is the same for the same position, whatever was asked of it.
        graph = self.graph.to_state()
        return {
            "snapshot_version": SNAPSHOT_VERSION, "options": self.options.to_dict(), "players": self.players,
            "seed": self.seed, "ordered": self.ordered, "pile": list(self.pile), "board": self.board.to_state(),
            "graph": graph, "letters": list(self.letters), "meeples_left": list(self.meeples_left),
            "figures_left": [dict(left) for left in self.figures_left], "goods": [dict(held) for held in self.goods],
            "points": [dict(points) for points in self.points], "current": self.current, "double_turn": self.double_turn,
            "is_over": self.is_over, "final_scored": self.final_scored, "discarded": list(self.discarded),
            "awards": [award.to_dict() for award in self.awards],
        }

    def to_text(self) -> str:
        """The position on one line (:mod:`games.engines.position_text`: this snapshot, tagged);
        the actions to take back do not come with it, as a FEN has no move stack."""
        return position_text.write(self.text_tag, self.to_dict())

    @classmethod
    def from_text(cls, text: str) -> Game:
        """The game in the position :meth:`to_text` wrote (nothing to take back);
        :class:`~games.engines.errors.InvalidNotation` for text that is not one."""
        return position_text.read(cls.text_tag, text, cls.from_dict)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Game:
        if data.get("snapshot_version") != SNAPSHOT_VERSION:
            raise ValueError(f"not a Carcassonne snapshot of version {SNAPSHOT_VERSION}")
        game = cls.__new__(cls)
        game._read(data)
        return game

    def _read(self, data: Mapping[str, Any]) -> None:
        """Take the position of a snapshot (:meth:`to_dict`) into this bare instance."""
        self._play_with(Options.from_dict(data.get("options")))
        self.players = int(data["players"])
        self.seed = data["seed"]
        self.ordered = bool(data["ordered"])
        self.pile = list(data["pile"])
        self.board = self._board_from_state(data["board"])
        self.graph = FeatureGraph.from_state(data["graph"], self.board)
        self.letters = list(data["letters"])
        self.meeples_left = list(data["meeples_left"])
        self.figures_left = [dict(left) for left in data.get("figures_left", [{}] * self.players)]
        self.goods = [dict(held) for held in data.get("goods", [{}] * self.players)]
        self.points = [dict(points) for points in data["points"]]
        self.current = int(data["current"])
        self.double_turn = bool(data.get("double_turn", False))
        self.is_over = bool(data["is_over"])
        self.final_scored = bool(data["final_scored"])
        self.discarded = list(data["discarded"])
        self.awards = [Award.from_dict(award) for award in data["awards"]]
        self.history = History()

    def _board_from_state(self, state: Mapping[str, Any]) -> Board:
        return Board.from_state(state, self.tileset.tile_defs)
