"""Undo by replaying: the actions applied to a game, with a copy of the position now and then.

A game that can take its last action back used to copy its whole position (its snapshot) before
every action, which cost more than most actions. An engine is deterministic (its chance is seeded
or named in the actions), so the position before the last action can as well be rebuilt: return
to the last position kept and apply again the actions taken since. A position is kept before every
:data:`KEEP_EVERY`-th action, so applying pays for a copy now and then, and taking an action back
replays fewer than :data:`KEEP_EVERY` actions. The position rebuilt is exactly the one left: the
same actions applied to the same position.

>>> history = History[str]()
>>> history.keeps_position()
True
>>> history.append(Step("first action", before={"kept": "a copy of the position"}))
>>> history.append(Step("second action"))
>>> len(history), history.keeps_position(), history.actions()
(2, False, ['first action', 'second action'])
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Final, Generic, TypeVar

KEEP_EVERY: Final = 16
"""A position is kept before the first action and every this many actions after it."""

ActionT = TypeVar("ActionT")


@dataclass(frozen=True, slots=True)
class Step(Generic[ActionT]):
    """An action as applied, with the position before it when one was kept (the game's own copy,
    which returning to copies again: a position kept is never changed)."""

    action: ActionT
    before: Mapping[str, Any] | None = None


class History(Generic[ActionT]):
    """The steps since a game was set up or restored: what :meth:`rebuild` replays from.

    Steps are immutable and a position kept is never changed, so two games in the same position
    may share steps (a game's copy takes its history along)."""

    def __init__(self, steps: list[Step[ActionT]] | None = None) -> None:
        self.steps: list[Step[ActionT]] = steps if steps is not None else []

    def __len__(self) -> int:
        return len(self.steps)

    def __bool__(self) -> bool:
        return bool(self.steps)

    def __iter__(self) -> Iterator[Step[ActionT]]:
        return iter(self.steps)

    def copy(self) -> History[ActionT]:
        return History(list(self.steps))

    def keeps_position(self) -> bool:
        """Whether the next action keeps the position before it."""
        return len(self.steps) % KEEP_EVERY == 0

    def append(self, step: Step[ActionT]) -> None:
        self.steps.append(step)

    def pop(self) -> Step[ActionT]:
        return self.steps.pop()

    def actions(self) -> list[ActionT]:
        return [step.action for step in self.steps]

    def rebuild(self, return_to: Callable[[Mapping[str, Any]], None], replay: Callable[[ActionT], object],
                before: Mapping[str, Any] | None = None) -> None:
        """Bring a game back to the position after its steps: ``return_to`` the position
        ``before``, if it was kept there, else the last one kept and ``replay`` each action since
        (on the game; the steps are left as they are)."""
        if before is not None:
            return_to(before)
            return
        start = max(i for i, step in enumerate(self.steps) if step.before is not None)
        kept = self.steps[start].before
        assert kept is not None
        return_to(kept)
        for step in self.steps[start:]:
            replay(step.action)
