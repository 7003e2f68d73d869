"""Undo by replaying: the actions applied to a game, with a snapshot of the position now and then.

A game that can take its last action back used to copy its whole position (its snapshot) before
every action, which cost more than most actions. An engine is deterministic (its chance is seeded
or named in the actions), so the position before the last action can as well be rebuilt: restore
the last snapshot kept and apply again the actions taken since. A snapshot is kept before every
:data:`KEEP_EVERY`-th action, so applying pays for one now and then, and taking an action back
replays fewer than :data:`KEEP_EVERY` actions. The position rebuilt is exactly the one left, as a
snapshot restores exactly the position it was taken in.

>>> history = History[str]()
>>> [history.keeps_snapshot()] + [history.append(Step(action)) for action in "ab"]
[True, None, None]
>>> len(history), history.actions()
(2, ['a', 'b'])
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Final, Generic, TypeVar

KEEP_EVERY: Final = 16
"""A snapshot is kept before the first action and every this many actions after it."""

ActionT = TypeVar("ActionT")


@dataclass(frozen=True, slots=True)
class Step(Generic[ActionT]):
    """An action as applied, with the snapshot of the position before it when one was kept."""

    action: ActionT
    before: Mapping[str, Any] | None = None


class History(Generic[ActionT]):
    """The steps since a game was set up or restored: what :meth:`rebuild` replays from.

    Steps are immutable and a snapshot is never changed once kept, so two games in the same
    position may share steps (a game's copy takes its history along)."""

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

    def keeps_snapshot(self) -> bool:
        """Whether the next action keeps a snapshot of the position before it."""
        return len(self.steps) % KEEP_EVERY == 0

    def append(self, step: Step[ActionT]) -> None:
        self.steps.append(step)

    def pop(self) -> Step[ActionT]:
        return self.steps.pop()

    def actions(self) -> list[ActionT]:
        return [step.action for step in self.steps]

    def rebuild(self, restore: Callable[[Mapping[str, Any]], None], replay: Callable[[ActionT], object],
                before: Mapping[str, Any] | None = None) -> None:
        """Bring a game back to the position after its steps: ``restore`` the snapshot ``before``
        if it was kept there, else the last one kept and ``replay`` each action since (on the
        game; the steps are kept as they were)."""
        if before is not None:
            restore(before)
            return
        start = max(i for i, step in enumerate(self.steps) if step.before is not None)
        kept = self.steps[start].before
        assert kept is not None
        restore(kept)
        for step in self.steps[start:]:
            replay(step.action)
