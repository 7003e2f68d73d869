"""Positions for the Carcassonne Maps tests: tables set up by hand on the Benelux map, and the
few helpers that play on them.

A *table* game has no seed: its set-up (:class:`TableSetUp`) is what the test says the table
shows, and each action names its tile, the chip it turns over and the tile a stack turns up, so
a test lays exactly the tiles it wants where it wants. The route used most: from Meppel's start
square (12,5) south onto Zwolle (12,6), then west along row 6 to the square north of Amsterdam
(8,6), whose large city has open edges north (8,6), east (9,7) and south (8,8).

    x:  7 8 9 10 11 12
    y5: # # ~  #  #  S      Meppel (12,5), a wave at (9,5)
    y6: # # #  #  #  T      Zwolle (12,6)
    y7: # C #  #  #  #      Amsterdam (8,7)
    y8: T # T  #  #  #      Den Haag (6,8), Utrecht (9,8)
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

import pytest

from games.engines.carcassonne.options import Options
from games.engines.carcassonne_maps import (
    Chip, ChipValues, FaceUpTile, Game, IllegalAction, IslandStack, PlacedChip, SetUp, StartTile, TableSetUp,
    chip_squares, load_benelux, parse_action,
)
from games.engines.tiles import Position

BENELUX = load_benelux()
STARTS = ("Meppel", "Charleroi")
MEPPEL = (12, 5)
ZWOLLE = (12, 6)
ROUTE = [(12, 6), (11, 6), (10, 6), (9, 6), (8, 6)]
"""Meppel to Amsterdam along row 6; (8,6) lies beyond Amsterdam's north edge."""
AMSTERDAM_EDGES = [(8, 6), (9, 7), (8, 8)]
AROUND_ZWOLLE = [(12, 7), (13, 6), (11, 7)]
FACE_UP = {("violet", 1): "E", ("violet", 2): "U", ("light_blue", 1): "V", ("light_blue", 2): "K",
           ("orange", 1): "A", ("orange", 2): "W"}
"""The six tiles face up on the islands' stacks, unless a test says otherwise."""


def table(*chips_at: Position, keep_clear: Iterable[Position] = (), starts: Sequence[str] = STARTS,
          start_tiles: Sequence[str] = ("B", "B"), start_turns: Sequence[int] = (0, 0), face_up: dict[tuple[str, int], str] | None = None,
          values: ChipValues | None = None) -> TableSetUp:
    """A table with chips on ``chips_at`` and on fillers (in reading order) that keep every set-up
    rule and stay off ``keep_clear``, the route to Amsterdam, its edges, the squares around Zwolle and the
    squares beside the chips named. Start tiles: a cloister each by default, unturned."""
    clear = set(keep_clear) | set(ROUTE) | set(AMSTERDAM_EDGES) | set(AROUND_ZWOLLE) | set(chips_at)
    clear |= {q for p in chips_at for q in BENELUX.orthogonal_neighbours(p)}
    chosen = list(chips_at)
    for square in chip_squares(BENELUX, starts):
        if len(chosen) == 20:
            break
        if square not in clear and not any(q in chosen for q in BENELUX.orthogonal_neighbours(square)):
            chosen.append(square)
    ordered = [name for name in BENELUX.start_squares if name in starts]
    return TableSetUp(BENELUX.name, BENELUX.version, tuple(starts),
                      tuple(StartTile(name, tile, turns) for name, tile, turns in zip(ordered, start_tiles, start_turns)),
                      tuple(chosen), values or ChipValues.default(),
                      tuple(FaceUpTile(colour, stack, tile) for (colour, stack), tile in (face_up or FACE_UP).items()))


def table_game(*chips_at: Position, players: int = 2, options: Options | None = None, **setup: Any) -> Game:
    return Game.new(players, options=options, setup=table(*chips_at, **setup))


def play(game: Game, *texts: str) -> None:
    for text in texts:
        game.apply(parse_action(text))


def refusal(game: Game, text: str) -> IllegalAction:
    """The refusal of the action written ``text``, checking it left the game as it was."""
    before = json.dumps(game.to_dict(), sort_keys=True)
    with pytest.raises(IllegalAction) as caught:
        game.apply(parse_action(text))
    assert json.dumps(game.to_dict(), sort_keys=True) == before, f"{text} changed the game it was refused in"
    return caught.value


def reason(game: Game, text: str) -> str:
    return refusal(game, text).reason


def holding(game: Game, seat: int, *chips: str) -> Game:
    """The same position with ``chips`` (``"violet:1"``...) in front of ``seat``, taken in an
    earlier turn (a position written as a snapshot, as a FEN writes a chess position)."""
    data = game.to_dict()
    data["maps"]["chips_held"][seat] += list(chips)
    return Game.from_dict(data)


def to_amsterdam(game: Game) -> None:
    """Roads west from Zwolle to (9,6), seat 0 and 1 in turn, then seat 0's city cap with a road
    (D turned 180: its city faces south) at (8,6), north of Amsterdam, with a meeple on its city."""
    play(game, "U@12,6r0", "U@11,6r0", "U@10,6r0", "U@9,6r0", "D@8,6r180 meeple:0")


BELOW = "NVUEJLMOPRSHIFGQTXAWBDCK"
"""The tiles under the face-up ones in :func:`dealt`: four a stack, in the islands' order."""


def dealt(*chips: tuple[Position, str], **setup: Any) -> SetUp:
    """The table of :func:`table` as a dealer knows it: each chip's value (``chips`` name some,
    the others show violet 1s, then light blue 1s...), each stack's four tiles under its face-up
    one (:data:`BELOW`: the violet stack 1 turns up N, then V, U, E; stack 2 J...)."""
    seen = table(*(p for p, _ in chips), **setup)
    named = dict(chips)
    box = seen.chip_values.chips()
    for text in named.values():
        box.remove(Chip.from_text(text))
    placed = []
    for square in seen.chip_squares:
        chip = Chip.from_text(named[square]) if square in named else box.pop(0)
        placed.append(PlacedChip(square, chip))
    stacks = tuple(IslandStack(f.colour, f.stack, BENELUX.island(f.colour).stacks[f.stack - 1],
                               (f.tile, *BELOW[4 * i:4 * i + 4])) for i, f in enumerate(seen.island_face_up))
    return SetUp(seen.map_name, seen.map_version, seen.start_squares, seen.start_tiles, tuple(placed),
                 seen.chip_values, stacks)


def with_stack(game: Game, colour: str, stack: int, face_up: str | None, hidden: int = 0) -> Game:
    """The same position with that island stack showing ``face_up`` over ``hidden`` tiles
    (none by default: the last, or used up with ``face_up=None``)."""
    data = game.to_dict()
    for entry in data["maps"]["islands"]:
        if (entry["colour"], entry["stack"]) == (colour, stack):
            entry |= {"face_up": face_up, "hidden": hidden,
                      "below": None if entry["below"] is None else entry["below"][:hidden]}
    return Game.from_dict(data)


def last_tile(game: Game, letter: str) -> Game:
    """The same position with ``letter`` the only tile left to draw face down (and nothing
    hidden under the islands' face-up tiles): the next face-down tile ends the game."""
    data = game.to_dict()
    data["pile"] = [letter]
    for entry in data["maps"]["islands"]:
        entry |= {"hidden": 0, "below": None if entry["below"] is None else []}
    return Game.from_dict(data)


def filler(game: Game, letter: str = "V") -> None:
    """The current player draws ``letter`` face down and lays it at its first legal placement
    with no figure and off the chips' squares (a move that only passes the turn)."""
    game.apply(next(a for a in game.legal_actions(letter) if not a.figures and (a.x, a.y) not in game.chips
                    and not getattr(a, "from_island", False)))
