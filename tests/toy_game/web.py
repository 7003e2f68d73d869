"""Pebbles on the pages: everything Ludolog's pages need of the toy game, in one web module,
built only from the shared parts (the narration's words, the final scoring's groups, the
recorder of games whose turn is a choice)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from ludolog.web.games import RecorderParts, ReplayHints, WebGame
from ludolog.web.narration import Narration, Position, Table, acting_seat, points_made
from ludolog.web.narration.final import FinalGroup, FinalLine
from ludolog.web.tile_frame import seat_colour

SOURCE_WORDS = {"pebbles": "Pebbles taken", "last_pebble": "The last pebble"}


def board(position: Mapping[str, Any], seats: Sequence[Mapping[str, Any]], *, title: str,
          show: str | None = None, free_cells: bool = False) -> str:
    """The pile as a row of grey pebbles, and each player's pebbles in their colour."""
    pile = int(position["pile"])
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="board pebbles" role="img" viewBox="0 0 200 120" '
             f'width="300" height="180" aria-labelledby="board-title board-desc" data-at="{position.get("at", "")}">'
             f'<title id="board-title">{escape(title)}</title>'
             f'<desc id="board-desc">{pile} pebbles left in the pile.</desc>']
    parts += [f'<circle class="pebble" cx="{12 + 20 * index}" cy="20" r="8" fill="#999"/>' for index in range(pile)]
    for seat, taken in enumerate(position["taken"]):
        colour = seat_colour(seat, next((s.get("colour", "") for s in seats if s["seat"] == seat), ""))
        parts += [f'<circle class="taken" data-seat="{seat}" cx="{12 + 20 * index}" cy="{50 + 20 * seat}" r="8" '
                  f'fill="{colour}"/>' for index in range(taken)]
    parts.append("</svg>")
    return "".join(parts)


def narrate_action(event_type: str, payload: Mapping[str, Any], before: Position, after: Position,
                   table: Table) -> Narration:
    if event_type != "take":
        raise ValueError(f"Pebbles has no event {event_type!r} to narrate")
    seat = acting_seat(payload, before)
    player = table.name(seat) if seat is not None else ""
    count = int(payload["count"])
    text = f"{player} takes {count} pebble{'s' if count > 1 else ''}"
    scoring = (f"The last pebble: {player} +3",) if after["last_taker"] == seat else ()
    return Narration(seat, text, scoring, points_made(before, after))


def final_scoring(position: Position) -> list[FinalGroup]:
    """The end adds the last pebble's three points to whoever took it (the pebbles taken were
    counted as they were taken)."""
    return [FinalGroup("", "", (FinalLine(target=f"seat-{seat}", feature=SOURCE_WORDS["last_pebble"], figures=(),
                                          gains=((seat, int(score["breakdown"]["last_pebble"])),)),), seat)
            for seat, score in enumerate(position["scores"]) if score["breakdown"]["last_pebble"]]


def recorder_words() -> dict[str, str]:
    """The words of the recorder's buttons, by the notation of the action each records."""
    return {"choice:take 1": "Take 1", "choice:take 2": "Take 2"}


WEB_GAME = WebGame(
    slug="pebbles",
    name="Pebbles",
    board=board,
    hints=ReplayHints(start="A pile of seven pebbles.", board="", end="The last pebble scores three more.",
                      final="Each player's pebbles and the last one."),
    narrate_action=narrate_action,
    final_scoring=final_scoring,
    final_by_player=True,
    recorder=RecorderParts(script="ludolog/recorder-choices.js", css_class="choices-game", words=recorder_words),
    source_labels=SOURCE_WORDS,
)
