"""The one contract every rules engine's game keeps, as python-chess's ``Board`` keeps its own:
what the platform's adapters, the tests and a reader may count on, whatever the game.

A game is a mutable state. :meth:`Engine.legal_actions` lists what may be done now (the
decisions: an engine whose chance is part of its actions, Stone Age's dice, fills it in with its
own ``complete``); :meth:`Engine.apply` does one action or raises
:class:`~games.engines.errors.IllegalAction` leaving the game as it was; :meth:`Engine.undo` takes
the last action back and returns it (python-chess's ``pop``), or raises ``IllegalAction``
``nothing_to_undo``; :meth:`Engine.copy` is an independent game in the same position, with the
same actions to take back.

:meth:`Engine.scores` are the points so far, one per seat (0-based) with its ``total`` and its
``breakdown`` by source; :meth:`Engine.final_ranks` is seat → place by the one competition rank
(:func:`games.engines.ranks.seat_ranks`: tied seats share a place, the next is skipped). Before
the end it is the standing as the scores stand (each engine ranking by what it ranks by at the end:
Stone Age's tie-break too), so a page may show who leads; the adapters ask for it once the game is
over.

:meth:`Engine.to_text` writes the position on one line and :meth:`Engine.from_text` reads it back
(:mod:`games.engines.position_text`): the same ``to_dict``, legal actions and scores, and the
same game played on from it. An action is a small immutable value (:class:`Notated`) written in
the engine's notation by ``to_text`` and read by ``from_text`` (its module's ``parse_action``),
which raises :class:`~games.engines.errors.InvalidNotation` for text that is not an action.

>>> from games.engines.carcassonne import Game
>>> game = Game.new(2, seed=3)
>>> isinstance(game, Engine)
True
>>> action = game.legal_actions()[0]
>>> game.apply(action); game.undo() == action
True
>>> Game.from_text(game.to_text()).to_dict() == game.to_dict()
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, Self, TypeVar, runtime_checkable


@runtime_checkable
class Notated(Protocol):
    """An action: immutable, equal to any other with the same fields, written in one line of the
    engine's notation and read back from it."""

    def to_text(self) -> str: ...

    @classmethod
    def from_text(cls, text: str) -> Self: ...


class Scored(Protocol):
    """One seat's points: its ``total`` and the points of each source (the engine's words)."""

    @property
    def seat(self) -> int: ...

    @property
    def total(self) -> int: ...

    @property
    def breakdown(self) -> Mapping[Any, int]: ...


ActionT = TypeVar("ActionT", bound=Notated)


@runtime_checkable
class Engine(Protocol[ActionT]):
    """A game in play: the state every rules engine's ``Game`` is (see the module's words)."""

    @property
    def is_over(self) -> bool: ...

    def legal_actions(self) -> Sequence[ActionT]: ...

    def apply(self, action: ActionT) -> None: ...

    def undo(self) -> ActionT: ...

    def copy(self) -> Self: ...

    def scores(self) -> Sequence[Scored]: ...

    def final_ranks(self) -> dict[int, int]: ...

    def view(self) -> dict[str, Any]: ...

    def to_dict(self) -> dict[str, Any]: ...

    def to_text(self) -> str: ...

    @classmethod
    def from_text(cls, text: str) -> Self: ...


@runtime_checkable
class EndsEarly(Protocol):
    """A game a table may end before its rules do (a tile game whose box lacks a tile): the
    final scoring now. Not an action, so not taken back by ``undo``."""

    def end_now(self) -> None: ...
