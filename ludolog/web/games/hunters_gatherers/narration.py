"""Carcassonne: Hunters and Gatherers in words: the tiles laid (bonus tiles said to be so), the
figure put on the feature the tile prints, the tiles that fit nowhere, the forests and rivers
completed and, on the step that ends the game, the final scoring of huts and hunters.

The engine's view lists every scoring as an award (source, points, seats, action), final scoring
included: a step's scorings are the awards it added.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy, ngettext

from ...narration import (
    Narration, Position, Table, acting_seat, feature_type, gains, new_awards, points_made, tile_at, tile_discarded,
    tile_laid,
)
from ...narration.final import FeatureSource, FinalGroup, count, feature_groups

FIGURES: Mapping[tuple[str, str], Promise] = {
    ("gatherer", "forest"): gettext_lazy("puts a gatherer in the forest"),
    ("fisher", "river"): gettext_lazy("puts a fisher on the river"),
    ("hunter", "meadow"): gettext_lazy("puts a hunter in the meadow"),
    ("hut", "river"): gettext_lazy("builds a hut on the river"),
    ("hut", "lake"): gettext_lazy("builds a hut on the lake"),
}
"""(figure, the printed type of the feature it goes on) → what the player does; the rules allow
no other pairs."""

COMPLETED: Mapping[str, Promise] = {
    "forest": gettext_lazy("Forest completed: %(gains)s"),
    "river": gettext_lazy("River completed: %(gains)s"),
}
FINAL: Mapping[str, Promise] = {
    "hut": gettext_lazy("Final scoring, huts on a river system: %(gains)s"),
    "hunter": gettext_lazy("Final scoring, hunters in a meadow: %(gains)s"),
}


def narrate_action(event_type: str, payload: Mapping[str, Any], before: Position, after: Position,
                   table: Table) -> Narration:
    seat = acting_seat(payload, before)
    player = table.name(seat) if seat is not None else ""
    bonus = before.get("phase") == "bonus"
    if event_type == "place_tile":
        x, y = int(payload["x"]), int(payload["y"])
        tile = tile_at(after, x, y)
        tile_id = str(payload.get("tile") or (tile or {}).get("tile", "?"))
        figure = None
        if payload.get("figure") is not None:
            figure = str(FIGURES[str(payload["figure"]), str(feature_type(tile, int(payload["feature"])))])
        text = tile_laid(player, tile_id, x, y, figure, bonus=bonus)
    elif event_type == "discard_tile":
        text = tile_discarded(player, str(payload.get("tile") or after["discarded"][-1]), bonus=bonus)
    else:
        raise ValueError(f"Hunters and Gatherers has no event {event_type!r} to narrate")
    # A final scoring worth nothing (farmers beside no completed city) is not news.
    return Narration(seat, text, tuple(scoring(award, table) for award in new_awards(before, after)
                                       if int(award["points"]) or str(award["source"]) not in FINAL),
                     points_made(before, after))


def scoring(award: Mapping[str, Any], table: Table) -> str:
    source, points, seats = str(award["source"]), int(award["points"]), list(award["seats"])
    if source in FINAL:
        return str(FINAL[source]) % {"gains": gains(seats, points, table)}
    if seats:
        return str(COMPLETED[source]) % {"gains": gains(seats, points, table)}
    # A completed forest or river nobody stood on: it scores for no one, and the page says so.
    if source == "forest":
        return ngettext("Forest completed (%(points)s point): no gatherer on it",
                        "Forest completed (%(points)s points): no gatherer on it", points) % {"points": points}
    return ngettext("River completed (%(points)s point): no fisher on it",
                    "River completed (%(points)s points): no fisher on it", points) % {"points": points}


# -- the final scoring --------------------------------------------------------------------------

def _meadow(award: Mapping[str, Any]) -> str:
    held = award.get("contents", {})
    # The board's own words for the animals (its text alternative's counted marks).
    animals = [ngettext(one, many, int(held.get(field, 0))) % {"count": int(held.get(field, 0))}
               for field, (one, many) in (("deer", ("%(count)s deer", "%(count)s deer")),
                                          ("mammoths", ("%(count)s mammoth", "%(count)s mammoths")),
                                          ("aurochs", ("%(count)s aurochs", "%(count)s aurochs")),
                                          ("tigers", ("%(count)s sabre-tooth tiger", "%(count)s sabre-tooth tigers")))
               if int(held.get(field, 0))]
    if held.get("fire") and held.get("tigers"):
        animals.append(gettext("fire: the tigers flee"))
    if held.get("shrine"):
        animals.append(gettext("a shrine"))
    contents = ", ".join(animals) or gettext("no animals")
    return gettext("Meadow: %(contents)s") % {"contents": contents}


def _river_system(award: Mapping[str, Any]) -> str:
    held = award.get("contents", {})
    fish = int(held.get("fish", 0))
    lakes = int(held.get("lakes", 0))
    if not lakes:
        return gettext("River system: no lake, no fish")
    return gettext("River system: %(fish)s in %(lakes)s") % {
        "fish": ngettext("%(count)s fish", "%(count)s fish", fish) % {"count": fish},
        "lakes": count("%(count)s lake", "%(count)s lakes", lakes)}


FINAL_SOURCES = (
    FeatureSource("hut", gettext_lazy("Huts on the river systems"), gettext_lazy("Huts"), _river_system),
    FeatureSource("hunter", gettext_lazy("Hunters in the meadows"), gettext_lazy("Hunters"), _meadow),
)
"""The final scoring's groups in the order the page shows them: huts, then hunters."""


def final_scoring(position: Position) -> list[FinalGroup]:
    return feature_groups(position, FINAL_SOURCES)
