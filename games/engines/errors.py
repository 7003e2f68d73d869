"""What every rules engine raises for an action its rules refuse."""

from __future__ import annotations


class IllegalAction(Exception):
    """An action the rules forbid now; ``reason`` is a stable snake_case code, ``message`` a
    sentence a scorekeeper understands. The engine's state is left as it was.

    >>> error = IllegalAction("occupied", "a tile already lies at (0,0)")
    >>> error.reason, str(error)
    ('occupied', 'a tile already lies at (0,0)')
    """

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message
