"""Base Carcassonne in words: the tiles laid, the meeple put on the feature the tile prints (a
knight in a city, a thief on a road, a monk in a cloister, a farmer in a field), the tiles that fit
nowhere, the cities, roads and cloisters completed and, on the step that ends the game, the final
scoring of the unfinished features and the farmers.

The engine's view lists every scoring as an award (source, points, seats, action, final): a step's
scorings are the awards it added.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from . import (
    Narration, Position, Table, acting_seat, feature_type, gains, new_awards, points_made, tile_at, tile_discarded,
    tile_laid,
)

MEEPLES: Mapping[str, Promise] = {
    "city": gettext_lazy("puts a knight in the city"),
    "road": gettext_lazy("puts a thief on the road"),
    "cloister": gettext_lazy("puts a monk in the cloister"),
    "field": gettext_lazy("puts a farmer in the field"),
}
"""The printed type of the feature a meeple goes on → what the player does."""

COMPLETED: Mapping[str, Promise] = {
    "city": gettext_lazy("City completed: %(gains)s"),
    "road": gettext_lazy("Road completed: %(gains)s"),
    "cloister": gettext_lazy("Cloister completed: %(gains)s"),
}
FINAL: Mapping[str, Promise] = {
    "city": gettext_lazy("Final scoring, unfinished city: %(gains)s"),
    "road": gettext_lazy("Final scoring, unfinished road: %(gains)s"),
    "cloister": gettext_lazy("Final scoring, unfinished cloister: %(gains)s"),
    "field": gettext_lazy("Final scoring, farmers in a field: %(gains)s"),
}


def narrate_action(event_type: str, payload: Mapping[str, Any], before: Position, after: Position,
                   table: Table) -> Narration:
    seat = acting_seat(payload, before)
    player = table.name(seat) if seat is not None else ""
    if event_type == "place_tile":
        x, y = int(payload["x"]), int(payload["y"])
        tile = tile_at(after, x, y)
        tile_id = str(payload.get("tile") or (tile or {}).get("tile", "?"))
        meeple = None
        if payload.get("meeple") is not None:
            meeple = str(MEEPLES[str(feature_type(tile, int(payload["meeple"])))])
        text = tile_laid(player, tile_id, x, y, meeple)
    elif event_type == "discard_tile":
        text = tile_discarded(player, str(payload.get("tile") or after["discarded"][-1]))
    else:
        raise ValueError(f"Carcassonne has no event {event_type!r} to narrate")
    # A final scoring worth nothing (farmers beside no completed city) is not news.
    return Narration(seat, text, tuple(scoring(award, table) for award in new_awards(before, after)
                                       if int(award["points"]) or not award.get("final")),
                     points_made(before, after))


def scoring(award: Mapping[str, Any], table: Table) -> str:
    """One award in words; the engine awards only features someone holds, so ``seats`` is never
    empty."""
    sentences = FINAL if award.get("final") else COMPLETED
    return str(sentences[str(award["source"])]) % {"gains": gains(award["seats"], int(award["points"]), table)}
