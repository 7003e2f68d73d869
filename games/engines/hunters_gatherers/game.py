"""The game state: whose turn, which tiles are left, figures in supply, points so far.

>>> game = Game.new(players=2, seed=7)
>>> game.current_player, game.phase, game.next_tile
(0, 'landscape', 'L39')
>>> action = game.legal_actions()[0]
>>> game.apply(action)
>>> game.history == (action,)
True
>>> game.undo() == action and game.history == ()
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Literal

from games.engines import position_text
from games.engines.chance import shuffle
from games.engines.errors import IllegalAction, InvalidNotation
from games.engines.ranks import seat_ranks
from games.engines.tiles import Around, Figure

from .actions import FIGURE_KINDS, PLACEMENT, TRIBE_MEMBERS, Action, FigureKind, parse_action
from .landscape import Landscape
from .rulesets import DEFAULT_RULESET, VariantChoice, check_ruleset, check_variants, choose_variants, exactly
from .scoring import SOURCES, Award, Source, StandingFigure, completed_award, final_awards, forest_has_gold, standing
from .tileset import Lake, Tile, Tileset, load_tileset

ENGINE_SLUG: Final = "hunters-gatherers"
SNAPSHOT_VERSION: Final = 2
"""Version 2 keeps where each final award lies (tiles, figures, contents) and the figures sent home at
the end; an older snapshot is refused (its reader replays instead). A version 2 snapshot taken before
rulesets and variants existed has no ``ruleset``, ``variants`` or ``returning``: it restores as
ruleset 1 with the default variants, which is what it was played by."""
TRIBE_MEMBERS_PER_PLAYER: Final = 5
HUTS_PER_PLAYER: Final = 2
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 5

Phase = Literal["landscape", "bonus", "over"]

FIGURE_TERRAIN: Final[Mapping[str, frozenset[str]]] = {
    # Where each figure may stand: a hut on a river or a lake, the tribe members on their terrain.
    "gatherer": frozenset({"forest"}),
    "fisher": frozenset({"river"}),
    "hunter": frozenset({"meadow"}),
    "hut": frozenset({"river", "lake"}),
}
_SIDE_NAMES: Final = ("north", "east", "south", "west")
_VIEW_KEYS_SINCE_RULESETS: Final = ("ruleset", "variants", "returning")




@dataclass(frozen=True, slots=True)
class Score:
    """A seat's points by source (``river``, ``forest``, ``hut``, ``hunter``)."""

    seat: int
    breakdown: Mapping[Source, int]

    @property
    def total(self) -> int:
        return sum(self.breakdown.values())

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "total": self.total, "breakdown": dict(self.breakdown)}


class Game:
    """A game of Hunters and Gatherers, from the start tile to the final scoring."""

    text_tag: ClassVar[str] = ENGINE_SLUG
    """The engine's name in a position's text form (:meth:`to_text`)."""

    def __init__(self, players: int, *, seed: int | None = None, tileset: Tileset | None = None,
                 landscape_order: Sequence[str] | None = None, bonus_order: Sequence[str] | None = None,
                 ruleset: int = DEFAULT_RULESET, variants: VariantChoice = frozenset()) -> None:
        """Prefer :meth:`new`. Orders given fix the draw piles (a seeded game's shuffled piles)."""
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"Hunters and Gatherers is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
        self.ruleset = check_ruleset(ruleset)
        """The version of the rules the game is played under (see :data:`.rulesets.RULESETS`)."""
        self.variants = choose_variants(ruleset, variants)
        """The variants the game plays, defaults included (see :data:`.rulesets.VARIANTS`)."""
        self.tileset = tileset if tileset is not None else load_tileset()
        self.players = players
        self.seed = seed
        self.ordered = landscape_order is not None
        self._landscape_order = tuple(landscape_order) if landscape_order is not None else None
        self._bonus_order = tuple(bonus_order) if bonus_order is not None else None
        self._landscape_left: list[str] = list(self.tileset.landscape_ids if landscape_order is None else landscape_order)
        self._bonus_left: list[str] = list(self.tileset.bonus_ids if bonus_order is None else bonus_order)
        unknown = {*self._landscape_left, *self._bonus_left} - self.tileset.by_id.keys()
        if unknown:
            tile_id = next(t for t in (*self._landscape_left, *self._bonus_left) if t in unknown)
            raise ValueError(f"the draw pile names tile {tile_id}, which {self.tileset.name} lacks")
        self.land = Landscape(self.tileset.start)
        self._members = [TRIBE_MEMBERS_PER_PLAYER] * players
        self._huts = [HUTS_PER_PLAYER] * players
        self._points: list[dict[Source, int]] = [dict.fromkeys(SOURCES, 0) for _ in range(players)]
        self._current = 0
        self._phase: Phase = "landscape"
        self._history: list[Action] = []
        self._discarded: list[str] = []
        self._awards: list[tuple[int, Award]] = []   # (index of the action that scored, award)
        self._sent_home: list[StandingFigure] = []   # gatherers and fishers the end sent home unscored
        self._returning = [0] * players              # freed this turn, home at its end (figures_home_at_end_of_turn)

    @classmethod
    def new(cls, players: int = 4, seed: int | None = None, tileset: Tileset | None = None, *,
            ruleset: int = DEFAULT_RULESET, variants: VariantChoice = frozenset()) -> Game:
        """A fresh game. With a ``seed`` the engine shuffles both piles itself and actions must
        name the tile it draws; without one, an action may name any tile left in the pile. The game
        is played under ``ruleset`` with ``variants`` (names to play, or name → on/off; the others
        keep their defaults): by default ruleset 1 and the default variants, the rules every stored
        game was played by.

        >>> Game.new(3).next_tile is None
        True
        >>> sorted(Game.new(3, variants={"figures_home_at_end_of_turn"}).variants)
        ['figures_home_at_end_of_turn']
        """
        tileset = tileset if tileset is not None else load_tileset()
        if seed is None:
            return cls(players, tileset=tileset, ruleset=ruleset, variants=variants)
        rng = random.Random(seed)
        landscape, bonus = list(tileset.landscape_ids), list(tileset.bonus_ids)
        shuffle(landscape, rng)
        shuffle(bonus, rng)
        return cls(players, seed=seed, tileset=tileset, landscape_order=landscape, bonus_order=bonus,
                   ruleset=ruleset, variants=variants)

    # -- reading the position -------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self._phase == "over"

    @property
    def phase(self) -> Phase:
        """``landscape`` (draw and lay a landscape tile), ``bonus`` (lay a bonus tile), ``over``."""
        return self._phase

    @property
    def current_player(self) -> int | None:
        return None if self._phase == "over" else self._current

    @property
    def history(self) -> tuple[Action, ...]:
        return tuple(self._history)

    @property
    def landscape_left(self) -> tuple[str, ...]:
        return tuple(self._landscape_left)

    @property
    def bonus_left(self) -> tuple[str, ...]:
        return tuple(self._bonus_left)

    @property
    def discarded(self) -> tuple[str, ...]:
        return tuple(self._discarded)

    @property
    def next_tile(self) -> str | None:
        """The tile the current player draws, known only in a seeded (ordered) game."""
        if not self.ordered or self._phase == "over":
            return None
        pile = self._bonus_left if self._phase == "bonus" else self._landscape_left
        return pile[0] if pile else None

    def supply(self, seat: int) -> dict[str, int]:
        """Figures ``seat`` still has in front of them: ``{"tribe_members": 5, "huts": 2}``."""
        return {"tribe_members": self._members[seat], "huts": self._huts[seat]}

    def returning(self, seat: int) -> int:
        """Tribe members of ``seat`` freed by this turn's scoring and not home yet: under
        ``figures_home_at_end_of_turn`` they reach the supply at the end of the turn (else 0)."""
        return self._returning[seat]

    def scores(self) -> list[Score]:
        """Points scored so far per seat (huts and hunters score only at the end)."""
        return [Score(seat, dict(points)) for seat, points in enumerate(self._points)]

    def awards(self) -> list[tuple[int, Award]]:
        """Every scoring so far with the index of the action that caused it (final scoring: len(history)-1)."""
        return list(self._awards)

    def sent_home(self) -> list[StandingFigure]:
        """The gatherers and fishers still on unfinished forests and rivers when the game ended:
        they went home without points (empty until the end)."""
        return list(self._sent_home)

    def final_ranks(self) -> dict[int, int]:
        """Seat → place by total, tied seats sharing a place (1, 1, 3: :func:`games.engines.ranks.seat_ranks`);
        before the end, the standing as the scores stand (huts and hunters not scored yet)."""
        return seat_ranks([score.total for score in self.scores()])

    # -- the rules ------------------------------------------------------------------------
    def _pile(self) -> list[str]:
        return self._bonus_left if self._phase == "bonus" else self._landscape_left

    def _check_tile(self, action: Action) -> Tile:
        phase = self._phase
        if phase == "over":
            raise IllegalAction("game_over", "the game is over: the last landscape tile has been laid")
        if action.seat is not None and action.seat != self._current:
            raise IllegalAction("not_your_turn", f"it is seat {self._current}'s turn, not seat {action.seat}'s")
        tile = self.tileset.by_id.get(action.tile)
        if tile is None:
            raise IllegalAction("tile_not_in_bag", f"there is no tile {action.tile} in {self.tileset.name}")
        if tile.kind != phase:  # the phases are named after the tiles laid in them
            raise IllegalAction("wrong_tile", f"a {phase} tile must be laid now, and {action.tile} is a "
                                f"{tile.kind} tile")
        pile = self._bonus_left if phase == "bonus" else self._landscape_left
        if self.ordered:
            if action.tile != pile[0]:
                raise IllegalAction("wrong_tile", f"the tile drawn is {pile[0]}, not {action.tile}")
        elif action.tile not in pile:
            raise IllegalAction("tile_not_in_bag", f"{action.tile} is no longer in the {phase} pile")
        return tile

    def _misplaced(self, tile: Tile, position: tuple[int, int], turns: int, around: Around) -> IllegalAction:
        """Why ``tile`` does not fit at ``position`` turned ``turns`` (the board said it does not)."""
        board = self.land.board
        x, y = position
        if position in board.tiles:
            return IllegalAction("occupied", f"a tile already lies at ({x},{y})")
        if not board.is_adjacent(position, around):
            return IllegalAction("not_adjacent", f"({x},{y}) touches no tile by a side")
        m = board.mismatches(tile.geometry, position, turns)[0]
        return IllegalAction("edge_mismatch", f"the {_SIDE_NAMES[m.side]} edge is {m.terrain} but the "
                             f"neighbour at ({m.neighbour[0]},{m.neighbour[1]}) shows {m.neighbour_terrain}")

    def _figure_problem(self, tile: Tile, figure: FigureKind, feature_id: int,
                        joined: dict[int, set[int]]) -> IllegalAction | None:
        seat = self._current
        feature = tile.features.get(feature_id)
        if feature is None:
            return IllegalAction("unknown_feature", f"tile {tile.id} has no feature {feature_id}")
        if feature.kind not in FIGURE_TERRAIN[figure]:
            where = " or ".join(sorted(FIGURE_TERRAIN[figure]))
            return IllegalAction("wrong_feature", f"a {figure} stands on a {where}, and feature {feature_id} "
                                 f"of {tile.id} is a {feature.kind}")
        if figure == "hut":
            if self._huts[seat] == 0:
                return IllegalAction("no_supply", f"seat {seat} has no hut left")
            if self.land.system_would_have_hut(tile, feature_id, joined):
                return IllegalAction("river_system_occupied", f"the river system of feature {feature_id} "
                                     "already has a hut")
            return None
        if self._members[seat] == 0:
            return IllegalAction("no_supply", f"seat {seat} has no tribe member left")
        if not isinstance(feature, Lake) and self.land.has_tribe_member(joined[feature_id]):
            return IllegalAction("feature_occupied", f"a tribe member already stands on this {feature.kind}, "
                                 "however far away")
        return None

    def apply(self, action: Action) -> None:
        """Play ``action`` for the current player, or raise :class:`IllegalAction` leaving the game unchanged."""
        tile = self._check_tile(action)
        if action.discard:
            if self.land.board.fits_anywhere(tile.geometry):
                raise IllegalAction("tile_placeable", f"{tile.id} fits somewhere, so it must be laid")
            self._pile().remove(tile.id)
            self._discarded.append(tile.id)
            self._history.append(action)
            if not self._pile():
                self._end_turn()
            return
        position, turns = (action.x, action.y), action.rotation // 90  # an action's rotation is 0, 90, 180 or 270
        board = self.land.board
        around = board.around(position)  # asked once, and passed on to lay the tile
        if not board.fits(tile.geometry, position, turns, around):
            raise self._misplaced(tile, position, turns, around)
        if action.figure is not None:
            assert action.feature is not None
            # A tribe member asks only about the feature it stands on; a hut, about its river system.
            asked = None if action.figure == "hut" else (action.feature,)
            problem = self._figure_problem(tile, action.figure, action.feature,
                                           self.land.joins(tile, position, turns, around, asked))
            if problem is not None:
                raise problem
        self._lay(tile, position, turns, around, action)

    def _lay(self, tile: Tile, position: tuple[int, int], turns: int, around: Around, action: Action) -> None:
        seat = self._current
        (self._bonus_left if self._phase == "bonus" else self._landscape_left).remove(tile.id)
        self._history.append(action)
        land = self.land
        placed = land.place(tile, position, turns, around)
        graph = land.graph
        if action.figure is not None:
            assert action.feature is not None
            land.add_figure(Figure(seat, action.figure, graph.node(placed.order, action.feature)))
            if action.figure == "hut":
                self._huts[seat] -= 1
            else:
                self._members[seat] -= 1
        # Score every forest and river this tile completed, then send their gatherers and
        # fishers home: a figure put on this very tile scores and returns in the same turn, in
        # time for the bonus tile unless the game plays figures_home_at_end_of_turn.
        completed = graph.completed(placed.order, tile.forests_and_rivers)
        gold = False
        if completed:
            for root in completed:
                award = completed_award(land, root)
                self._award(award)
                gold = gold or (award.source == "forest" and forest_has_gold(land, root))
            home = self._returning if "figures_home_at_end_of_turn" in self.variants else self._members
            for root in completed:
                for figure in land.remove_figures(root, ("gatherer", "fisher")):
                    home[figure.owner] += 1
        if gold and self._phase == "landscape" and self._bonus_left:
            self._phase = "bonus"
        else:
            self._end_turn()

    def _award(self, award: Award) -> None:
        self._awards.append((len(self._history) - 1, award))
        for seat in award.seats:
            self._points[seat][award.source] += award.points

    def _end_turn(self) -> None:
        if any(self._returning):
            self._members = [members + back for members, back in zip(self._members, self._returning)]
            self._returning = [0] * self.players
        if not self._landscape_left:
            self._finish()
            return
        self._phase = "landscape"
        self._current = (self._current + 1) % self.players

    def _finish(self) -> None:
        # Gatherers and fishers on unfinished forests and rivers go home without points;
        # hunters and huts stay for the final scoring.
        for figure in list(self.land.figures):
            if figure.kind in ("gatherer", "fisher"):
                self._sent_home.append(standing(self.land, figure))
                self.land.remove_figures(figure.node, (figure.kind,))
                self._members[figure.owner] += 1
        for award in final_awards(self.land):
            self._award(award)
        self._phase = "over"

    def end_now(self) -> None:
        """End the game before the pile is empty (a tile is missing from the box): the final
        scoring the rules do at the end, now. Not an action: it is not taken back by :meth:`undo`.

        >>> game = Game.new(players=2, seed=None)
        >>> game.end_now()
        >>> game.is_over, game.legal_actions()
        (True, [])
        """
        if self._phase == "over":
            raise IllegalAction("game_over", "the game is over")
        self._finish()

    # -- choices --------------------------------------------------------------------------
    def legal_actions(self, tile: str | None = None) -> list[Action]:
        """Every legal action now. In an unseeded game every tile left in the pile is
        considered, unless ``tile`` names the one drawn."""
        if self._phase == "over":
            return []
        if self.ordered:
            candidates = [self._pile()[0]]
        elif tile is not None:
            candidates = [tile] if tile in self._pile() else []
        else:
            candidates = sorted(set(self._pile()))
        actions: list[Action] = []
        for tile_id in candidates:
            actions.extend(self._actions_for(self.tileset.by_id[tile_id]))
        return actions

    def fits_anywhere(self, tile: str) -> bool:
        """Whether ``tile`` may be laid somewhere now (drawn, it is otherwise discarded): the
        board's test alone, without the figures, quick enough to ask of every tile left.

        >>> Game.new(players=2, seed=None).fits_anywhere("L01")
        True
        """
        return self.land.board.fits_anywhere(self.tileset.by_id[tile].geometry)

    def _actions_for(self, tile: Tile) -> list[Action]:
        placements = list(self.land.board.placements(tile.geometry))
        if not placements:
            return [Action.discard_tile(tile.id)]
        actions: list[Action] = []
        listed = Action.listed
        for (x, y), turns in placements:
            fields = PLACEMENT | {"tile": tile.id, "x": x, "y": y, "rotation": turns * 90}
            actions.append(listed(fields))
            joined = self.land.joins(tile, (x, y), turns)
            for fid, feature in sorted(tile.features.items()):
                for figure in FIGURE_KINDS:
                    if feature.kind in FIGURE_TERRAIN[figure] and \
                            self._figure_problem(tile, figure, fid, joined) is None:
                        actions.append(listed(fields | {"figure": figure, "feature": fid}))
        return actions

    # -- history --------------------------------------------------------------------------
    def _fresh(self) -> Game:
        return Game(self.players, seed=self.seed, tileset=self.tileset,
                    landscape_order=self._landscape_order, bonus_order=self._bonus_order,
                    ruleset=self.ruleset, variants=exactly(self.variants))

    def replayed(self, actions: Iterable[Action]) -> Game:
        """A new game from the same start (players, tile set, piles) with ``actions`` applied."""
        game = self._fresh()
        for action in actions:
            game.apply(action)
        return game

    def undo(self) -> Action:
        """Take back the last action and return it; the position is rebuilt from the history,
        exactly."""
        if not self._history:
            raise IllegalAction("nothing_to_undo", "there is no action left to take back")
        last = self._history[-1]
        self.__dict__.update(self.replayed(self._history[:-1]).__dict__)
        return last

    def copy(self) -> Game:
        """An independent game in the same position, with the same actions to take back: its
        snapshot restored (quicker than replaying them, and a game ended early stays ended)."""
        return Game.from_snapshot(self.snapshot(), self.tileset)

    # -- serialisation --------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """JSON-able: the start (players, seed, piles, ruleset and variants), the actions, and the
        position they lead to.

        The actions are the truth; ``position`` is a convenience for readers and is
        checked against the replay by :meth:`from_dict`.
        """
        return {
            "engine": ENGINE_SLUG,
            "tileset": {"name": self.tileset.name, "version": self.tileset.version},
            "players": self.players,
            "seed": self.seed,
            "ruleset": self.ruleset,
            "variants": sorted(self.variants),
            "landscape_order": None if self._landscape_order is None else list(self._landscape_order),
            "bonus_order": None if self._bonus_order is None else list(self._bonus_order),
            "actions": [a.to_text() for a in self._history],
            "position": self.view(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], tileset: Tileset | None = None) -> Game:
        """Rebuild a game from :meth:`to_dict` by replaying its actions.

        Raises ``ValueError`` for another engine or tile set, an unknown ruleset or
        variant, a bad action or a position that does not match the replay;
        :class:`IllegalAction` for an action the rules refuse. A dict written before
        rulesets existed (no ``ruleset``, ``variants``) is a game of ruleset 1 with the
        default variants.
        """
        if data.get("engine", ENGINE_SLUG) != ENGINE_SLUG:
            raise ValueError(f"not a {ENGINE_SLUG} game: {data.get('engine')!r}")
        tileset = tileset if tileset is not None else load_tileset()
        pinned = data.get("tileset") or {}
        if pinned and (pinned.get("name"), pinned.get("version")) != (tileset.name, tileset.version):
            raise ValueError(f"the game was played with tile set {pinned.get('name')} {pinned.get('version')}, "
                             f"not {tileset.name} {tileset.version}")
        ruleset = check_ruleset(data.get("ruleset", DEFAULT_RULESET))
        game = cls(int(data["players"]), seed=data.get("seed"), tileset=tileset,
                   landscape_order=data.get("landscape_order"), bonus_order=data.get("bonus_order"),
                   ruleset=ruleset, variants=exactly(check_variants(ruleset, data.get("variants", ()))))
        for index, text in enumerate(data.get("actions", [])):
            try:
                game.apply(parse_action(text))
            except InvalidNotation as error:
                raise InvalidNotation(f"action {index}: {error}") from None
        if "position" in data:
            position = game.view()
            if "ruleset" not in data["position"]:  # written before rulesets: its view lacked their keys
                position = {k: v for k, v in position.items() if k not in _VIEW_KEYS_SINCE_RULESETS}
            if data["position"] != position:
                raise ValueError("the stored position does not match the replay of its actions")
        return game

    def snapshot(self) -> dict[str, Any]:
        """JSON-able: the whole state, for :meth:`from_snapshot` to restore without replaying.

        A snapshot is a cache, not a record: :meth:`to_dict` stays the readable, replay-checked
        form. The tile-laying core serialises its own part (board, feature graph, figures);
        the rest is this game's: river systems, supplies, points, awards, turn and piles.

        >>> game = Game.new(players=3, seed=7)
        >>> game.apply(game.legal_actions()[0])
        >>> Game.from_snapshot(game.snapshot()).to_dict() == game.to_dict()
        True
        """
        return {
            "snapshot_version": SNAPSHOT_VERSION,
            "engine": ENGINE_SLUG,
            "tileset": {"name": self.tileset.name, "version": self.tileset.version},
            "players": self.players,
            "seed": self.seed,
            "ruleset": self.ruleset,
            "variants": sorted(self.variants),
            "landscape_order": None if self._landscape_order is None else list(self._landscape_order),
            "bonus_order": None if self._bonus_order is None else list(self._bonus_order),
            "landscape_left": list(self._landscape_left),
            "bonus_left": list(self._bonus_left),
            "discarded": list(self._discarded),
            "current_player": self._current,
            "phase": self._phase,
            "tribe_members": list(self._members),
            "returning": list(self._returning),
            "huts": list(self._huts),
            "points": [[points[source] for source in SOURCES] for points in self._points],
            "awards": [[index, *award.to_state()] for index, award in self._awards],
            "sent_home": [figure.to_state() for figure in self._sent_home],
            "history": [a.to_text() for a in self._history],
            "landscape": self.land.to_state(),
        }

    def to_text(self) -> str:
        """The position on one line (:mod:`games.engines.position_text`: the :meth:`snapshot`,
        tagged, with the actions it names: this game's position is its actions).

        >>> game = Game.new(players=2, seed=7)
        >>> game.apply(game.legal_actions()[0])
        >>> Game.from_text(game.to_text()).to_dict() == game.to_dict()
        True
        """
        return position_text.write(self.text_tag, self.snapshot())

    @classmethod
    def from_text(cls, text: str, tileset: Tileset | None = None) -> Game:
        """The game in the position :meth:`to_text` wrote (played with ``tileset``, by default
        the packaged one); :class:`~games.engines.errors.InvalidNotation` for text that is not one."""
        return position_text.read(cls.text_tag, text, lambda data: cls.from_snapshot(data, tileset))

    @classmethod
    def from_snapshot(cls, data: Mapping[str, Any], tileset: Tileset | None = None) -> Game:
        """Restore a game from :meth:`snapshot` without replaying its actions.

        Raises ``ValueError`` for a snapshot of another engine, tile set or snapshot
        version, or one that does not hold together.
        """
        if data.get("engine") != ENGINE_SLUG:
            raise ValueError(f"not a {ENGINE_SLUG} snapshot: {data.get('engine')!r}")
        if data.get("snapshot_version") != SNAPSHOT_VERSION:
            raise ValueError(f"snapshot version {data.get('snapshot_version')!r} is not {SNAPSHOT_VERSION}")
        tileset = tileset if tileset is not None else load_tileset()
        pinned = data.get("tileset") or {}
        if (pinned.get("name"), pinned.get("version")) != (tileset.name, tileset.version):
            raise ValueError(f"the snapshot was taken with tile set {pinned.get('name')} {pinned.get('version')}, "
                             f"not {tileset.name} {tileset.version}")
        try:
            return cls._restore(data, tileset)
        except (KeyError, IndexError, TypeError, InvalidNotation) as error:
            raise ValueError(f"a malformed {ENGINE_SLUG} snapshot: {error!r}") from None

    @classmethod
    def _restore(cls, data: Mapping[str, Any], tileset: Tileset) -> Game:
        ruleset = check_ruleset(data.get("ruleset", DEFAULT_RULESET))
        game = cls(int(data["players"]), seed=data["seed"], tileset=tileset,
                   landscape_order=data["landscape_order"], bonus_order=data["bonus_order"],
                   ruleset=ruleset, variants=exactly(check_variants(ruleset, data.get("variants", ()))))
        players = game.players
        phase = data["phase"]
        if phase not in ("landscape", "bonus", "over"):
            raise ValueError(f"snapshot: unknown phase {phase!r}")
        game._phase = phase
        game._current = int(data["current_player"])
        members = [int(n) for n in data["tribe_members"]]
        returning = [int(n) for n in data.get("returning", [0] * players)]
        huts = [int(n) for n in data["huts"]]
        points = [dict(zip(SOURCES, (int(p) for p in row))) for row in data["points"]]
        if not 0 <= game._current < players or not len(members) == len(returning) == len(huts) == len(points) \
                == players or any(len(p) != len(SOURCES) for p in points):
            raise ValueError(f"snapshot: the current player, supplies and points must fit {players} players")
        game._members, game._returning, game._huts, game._points = members, returning, huts, points
        game._landscape_left = [str(t) for t in data["landscape_left"]]
        game._bonus_left = [str(t) for t in data["bonus_left"]]
        game._discarded = [str(t) for t in data["discarded"]]
        game._history = [parse_action(text) for text in data["history"]]
        game._awards = [(int(index), Award.from_state(award)) for index, *award in data["awards"]]
        game._sent_home = [StandingFigure.from_state(figure) for figure in data["sent_home"]]
        game.land = Landscape.from_state(data["landscape"], tileset)
        return game

    def view(self) -> dict[str, Any]:
        """The position for the replay viewer (JSON-able)."""
        from .view import position_view

        return position_view(self)

    def figures_on_board(self) -> list[Figure]:
        return list(self.land.figures)

    def __repr__(self) -> str:
        return (f"<Game players={self.players} seed={self.seed} actions={len(self._history)} "
                f"phase={self._phase} current={self.current_player}>")


__all__ = ["ENGINE_SLUG", "FIGURE_TERRAIN", "SNAPSHOT_VERSION", "Game", "IllegalAction", "Score", "TRIBE_MEMBERS"]
