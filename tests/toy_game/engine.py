"""Pebbles, the rules engine: pure Python, deterministic, typed, keeping the contract of the real
engines (:class:`games.engines.contract.Engine`: ``legal_actions``, ``apply``, ``undo``, ``copy``,
a view, scores, final ranks and a position's one-line text form).

>>> game = Game.new(2, pile=3)
>>> [action.to_text() for action in game.legal_actions()]
['take 1', 'take 2']
>>> game.apply(Action(2)); game.apply(Action(1))
>>> game.is_over, [score.total for score in game.scores()], game.final_ranks()
(True, [2, 4], {0: 2, 1: 1})
>>> game.undo(), game.pile, game.current_player
(Action(count=1, seat=None), 1, 1)
>>> Game.from_text(game.to_text()) == game
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from games.engines import position_text
from games.engines.errors import IllegalAction, InvalidNotation
from games.engines.ranks import seat_ranks

LAST_PEBBLE_BONUS = 3
MOST_TAKEN = 2


@dataclass(frozen=True)
class Action:
    """Take ``count`` pebbles; ``seat`` says who, when the scorekeeper names them."""

    count: int
    seat: int | None = None

    @classmethod
    def from_text(cls, text: str) -> Action:
        return parse_action(text)

    def to_text(self) -> str:
        return f"take {self.count}"

    def to_dict(self) -> dict[str, Any]:
        return {"count": self.count} if self.seat is None else {"count": self.count, "seat": self.seat}


def parse_action(text: str) -> Action:
    """``take 2`` → the action; :class:`InvalidNotation` naming what is wrong otherwise."""
    words = text.split()
    if len(words) != 2 or words[0] != "take" or not words[1].isdigit():
        raise InvalidNotation(f"expected 'take 1' or 'take 2', not {text!r}")
    return Action(int(words[1]))


@dataclass(frozen=True)
class Score:
    seat: int
    total: int
    breakdown: dict[str, int]


@dataclass
class Game:
    text_tag: ClassVar[str] = "pebbles"

    players: int
    pile: int
    taken: list[int]
    last_taker: int | None = None
    history: list[Action] = field(default_factory=list)

    @classmethod
    def new(cls, players: int, pile: int = 7) -> Game:
        if not 2 <= players <= 4:
            raise ValueError("Pebbles is for 2 to 4 players")
        return cls(players, pile, [0] * players)

    @property
    def current_player(self) -> int:
        return len(self.history) % self.players

    @property
    def is_over(self) -> bool:
        return self.pile == 0

    def legal_actions(self) -> list[Action]:
        return [] if self.is_over else [Action(count) for count in range(1, min(MOST_TAKEN, self.pile) + 1)]

    def apply(self, action: Action) -> None:
        """Take the pebbles, or raise :class:`IllegalAction` and change nothing."""
        if self.is_over:
            raise IllegalAction("game_over", "the pile is empty: the game is over")
        if action.seat is not None and action.seat != self.current_player:
            raise IllegalAction("not_your_turn", f"it is seat {self.current_player}'s turn, not seat {action.seat}'s")
        if not 1 <= action.count <= min(MOST_TAKEN, self.pile):
            raise IllegalAction("too_many", f"take 1 or {min(MOST_TAKEN, self.pile)} of the {self.pile} left, "
                                            f"not {action.count}")
        self.taken[self.current_player] += action.count
        self.pile -= action.count
        if self.pile == 0:
            self.last_taker = self.current_player
        self.history.append(action)

    def undo(self) -> Action:
        if not self.history:
            raise IllegalAction("nothing_to_undo", "no move to take back")
        action = self.history.pop()
        self.pile += action.count
        self.taken[self.current_player] -= action.count
        self.last_taker = None
        return action

    def copy(self) -> Game:
        return Game(self.players, self.pile, list(self.taken), self.last_taker, list(self.history))

    def scores(self) -> list[Score]:
        scores = []
        for seat in range(self.players):
            breakdown = {"pebbles": self.taken[seat], "last_pebble": LAST_PEBBLE_BONUS if seat == self.last_taker else 0}
            scores.append(Score(seat, sum(breakdown.values()), breakdown))
        return scores

    def final_ranks(self) -> dict[int, int]:
        return seat_ranks([score.total for score in self.scores()])

    def view(self) -> dict[str, Any]:
        return {
            "pile": self.pile,
            "taken": list(self.taken),
            "last_taker": self.last_taker,
            "current_player": None if self.is_over else self.current_player,
            "scores": [{"seat": s.seat, "total": s.total, "breakdown": dict(s.breakdown)} for s in self.scores()],
            "legal_action_kinds": [] if self.is_over else ["take"],
        }

    def to_dict(self) -> dict[str, Any]:
        return {"players": self.players, "pile": self.pile, "taken": list(self.taken), "last_taker": self.last_taker,
                "history": [action.to_dict() for action in self.history]}

    def to_text(self) -> str:
        return position_text.write(self.text_tag, self.to_dict())

    @classmethod
    def from_text(cls, text: str) -> Game:
        return position_text.read(cls.text_tag, text, cls.from_dict)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        return cls(int(data["players"]), int(data["pile"]), [int(n) for n in data["taken"]], data["last_taker"],
                   [Action(int(a["count"]), a.get("seat")) for a in data["history"]])
