"""What every rules engine raises: text that does not parse, and an action its rules refuse.

The two are told apart as python-chess tells ``InvalidMoveError`` (not a move in the notation) from
``IllegalMoveError`` (a move, not allowed now): a scorekeeper who typed ``L17@2`` made a typing
mistake, one who typed ``L17@9,9r0`` asked for a move the rules refuse.
"""

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


class InvalidNotation(ValueError):
    """Text that is not an action in the engine's notation (or not a position in its text form):
    nothing was asked of the rules. A ``ValueError``, so that a caller that caught the bare
    ``ValueError`` the parsers raised before this type existed catches it still.

    >>> error = InvalidNotation("'L17@2' is not an action")
    >>> isinstance(error, ValueError), isinstance(error, IllegalAction)
    (True, False)
    """
