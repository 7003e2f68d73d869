"""Every recorded action said in words, with the points it made: the move list of the recording
page and of the replay viewer.

A narration reads only what the engines show: the event (its type and stored payload) and the
engine's views of the position before and after it (the ``position`` dicts of the state API).
Points are the difference of the score totals, scorings the awards the step added (or, for a game
without awards, the score sources that moved); nothing is worked out again from the rules. The
sentences follow the active language (Django's gettext) and name the players, never their seats.

Each game's web module says its actions (``WebGame.narrate_action(event_type, payload, before,
after, table)``, with the shared wording below); :func:`narrate` finds it by the game's slug and
says the undos and the record's ending (``end_game``, ``abandon``) itself, the same way for
every game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext, pgettext

from games.registry import ENDED_MISSING_TILE

from ..games import web_game

UNDO = "undo"
END_GAME = "end_game"
ABANDON = "abandon"
MINUS = "\u2212"
"""Negative numbers are written with a real minus sign (−5), not a hyphen."""

Position = Mapping[str, Any]
"""An engine's view of a position (``adapter.view(state)``)."""


@dataclass(frozen=True)
class Narration:
    seat: int | None
    """Who acted (``None`` when nobody did: cards and buildings turned up at the table)."""
    text: str
    """The action as one sentence, in the reader's language."""
    scoring: tuple[str, ...]
    """One sentence per scoring the step caused: ``Forest completed: Bastien +8, Chloé +8``."""
    points: dict[int, int]
    """Seat → points this step made (the total after minus the total before), only non-zero."""


class Table:
    """The players at the table, by seat, as the sentences name them."""

    def __init__(self, seats: Sequence[Mapping[str, Any]]) -> None:
        self._names = {int(seat["seat"]): str(seat.get("player") or "") for seat in seats}

    def name(self, seat: int) -> str:
        return self._names.get(seat) or gettext("Player %(number)s") % {"number": seat + 1}


def narrate(game_slug: str, event_type: str, payload: Mapping[str, Any], before: Position, after: Position,
            seats: Sequence[Mapping[str, Any]]) -> Narration:
    """The event ``event_type``/``payload`` of a ``game_slug`` game, which led from the position
    ``before`` to ``after``, in words; ``seats`` are ``[{"seat": 0, "player": "Ada", …}, …]``.

    Raises ``ValueError`` for a game without narration or an event type its game does not know.
    """
    table = Table(seats)
    if event_type == UNDO:
        return taken_back(before, after, table)
    if event_type in (END_GAME, ABANDON):
        return ended(event_type, payload, before, after)
    game = web_game(game_slug)
    if game is None:
        raise ValueError(f"no narration for the game {game_slug!r}")
    return game.narrate_action(event_type, payload, before, after, table)


def taken_back(before: Position, after: Position, table: Table) -> Narration:
    """An undo: the position after it is the one the undone move was played from, so the player
    to act there is the one whose move was taken back."""
    seat = after.get("current_player")
    if seat is None:
        text = gettext("The last move is taken back")
    else:
        text = gettext("%(player)s takes back the last move") % {"player": table.name(seat)}
    return Narration(seat, text, (), points_made(before, after))


def ended(event_type: str, payload: Mapping[str, Any], before: Position, after: Position) -> Narration:
    """The scorekeeper ended the game (confirmed, or early for a missing tile) or abandoned it."""
    if event_type == ABANDON:
        text = gettext("The game is abandoned: %(reason)s") % {"reason": payload.get("reason", "")}
    elif payload.get("reason") == ENDED_MISSING_TILE:
        text = gettext("The game is ended early, a tile being missing, and scored")
    else:
        text = gettext("The game is ended and scored")
    return Narration(None, text, (), points_made(before, after))


# -- shared wording -----------------------------------------------------------------------------

def number(value: int) -> str:
    """``−5`` for −5: a real minus sign."""
    return f"{MINUS}{-value}" if value < 0 else str(value)


def signed(value: int) -> str:
    """Points made: ``+8``, ``−10``, ``+0``."""
    return f"{MINUS}{-value}" if value < 0 else f"+{value}"


def coordinates(x: int, y: int) -> str:
    return f"({number(x)}, {number(y)})"


def and_list(items: Iterable[str]) -> str:
    """``a``, ``a and b``, ``a, b and c`` in the reader's language."""
    words = list(items)
    if len(words) < 2:
        return "".join(words)
    return pgettext("list", "%(items)s and %(last)s") % {"items": ", ".join(words[:-1]), "last": words[-1]}


def gains(seats: Iterable[int], points: int, table: Table) -> str:
    """``Bastien +8, Chloé +8``: each seat in ``seats`` made ``points``."""
    return ", ".join(f"{table.name(seat)} {signed(points)}" for seat in seats)


def seat_gains(points_by_seat: Mapping[int, int], table: Table) -> str:
    """``Ada +3, Bo +5``: seat by seat, each with its own points."""
    return ", ".join(f"{table.name(seat)} {signed(points)}" for seat, points in sorted(points_by_seat.items()))


# -- shared reading of the positions ------------------------------------------------------------

def totals(position: Position) -> dict[int, int]:
    return {int(score["seat"]): int(score["total"]) for score in position.get("scores", [])}


def points_made(before: Position, after: Position) -> dict[int, int]:
    """Seat → total after minus total before, for the seats whose total moved."""
    then, now = totals(before), totals(after)
    made = {seat: now[seat] - then.get(seat, 0) for seat in now}
    return {seat: points for seat, points in made.items() if points}


def source_points(before: Position, after: Position, source: str) -> dict[int, int]:
    """Seat → points of one score source made between the two positions, where they moved."""
    def by_seat(position: Position) -> dict[int, int]:
        return {int(score["seat"]): int(score["breakdown"].get(source, 0)) for score in position.get("scores", [])}

    then, now = by_seat(before), by_seat(after)
    made = {seat: now[seat] - then.get(seat, 0) for seat in now}
    return {seat: points for seat, points in made.items() if points}


def new_awards(before: Position, after: Position) -> list[Mapping[str, Any]]:
    """The awards a step added: awards only grow, so those after the ones there were before."""
    awards = list(after.get("awards", []))
    return awards[len(before.get("awards", [])):]


def acting_seat(payload: Mapping[str, Any], before: Position) -> int | None:
    """The seat the payload names, else the one whose turn it was."""
    seat = payload.get("seat", before.get("current_player"))
    return None if seat is None else int(seat)


def tile_at(position: Position, x: int, y: int) -> Mapping[str, Any] | None:
    return next((tile for tile in position.get("tiles", []) if (tile["x"], tile["y"]) == (x, y)), None)


def feature_type(tile: Mapping[str, Any] | None, feature: int) -> str | None:
    """The printed type of one feature of a tile of the view (``forest``, ``city``…)."""
    if tile is None:
        return None
    return next((str(f["type"]) for f in tile.get("features", []) if f.get("id") == feature), None)


# -- shared by the tile games -------------------------------------------------------------------

def tile_laid(player: str, tile: str, x: int, y: int, figure: str | None = None, *, bonus: bool = False) -> str:
    """``Bastien lays tile L17 at (−5, −2)``, and what the figure does (``puts a hunter in the
    meadow``) when one is put on the tile."""
    values = {"player": player, "tile": tile, "position": coordinates(x, y)}
    if bonus:
        laying = gettext("%(player)s lays the bonus tile %(tile)s at %(position)s") % values
    else:
        laying = gettext("%(player)s lays tile %(tile)s at %(position)s") % values
    if figure is None:
        return laying
    return gettext("%(laying)s and %(figure)s") % {"laying": laying, "figure": figure}


def tile_discarded(player: str, tile: str, *, bonus: bool = False) -> str:
    if bonus:
        return gettext("%(player)s's bonus tile %(tile)s fits nowhere: discarded") % {"player": player, "tile": tile}
    return gettext("%(player)s's tile %(tile)s fits nowhere: discarded") % {"player": player, "tile": tile}
