"""Carcassonne in words: the tiles laid, the meeple put on the feature the tile prints (a knight in
a city, a thief on a road, a monk in a cloister, a farmer in a field), the expansions' large
meeple, builder and pig, the tiles that fit nowhere, the cities, roads and cloisters completed
(with the goods their completer takes) and, on the step that ends the game, the final scoring of
the unfinished features, the farmers and the goods.

The engine's view lists every scoring as an award (source, points, seats, action, final): a step's
scorings are the awards it added.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy, ngettext, pgettext_lazy

from ...narration import (
    Narration, Position, Table, acting_seat, and_list, feature_type, gains, new_awards, points_made, tile_at,
    tile_discarded, tile_laid,
)
from ...narration.final import FeatureSource, FinalGroup, count, feature_groups, tiles_of
from ...plurals import plural_noop

MEEPLES: Mapping[str, Promise] = {
    "city": gettext_lazy("puts a knight in the city"),
    "road": gettext_lazy("puts a thief on the road"),
    "cloister": gettext_lazy("puts a monk in the cloister"),
    "field": gettext_lazy("puts a farmer in the field"),
}
"""The printed type of the feature a meeple goes on → what the player does."""
LARGE_MEEPLES: Mapping[str, Promise] = {
    "city": gettext_lazy("puts the large meeple in the city"),
    "road": gettext_lazy("puts the large meeple on the road"),
    "cloister": gettext_lazy("puts the large meeple in the cloister"),
    "field": gettext_lazy("puts the large meeple in the field"),
}
BUILDERS: Mapping[str, Promise] = {
    "city": gettext_lazy("puts the builder in the city"),
    "road": gettext_lazy("puts the builder on the road"),
}
PIG = gettext_lazy("puts the pig in the field")
FIGURES: Mapping[str, Mapping[str, Promise]] = {
    "meeple": MEEPLES, "big": LARGE_MEEPLES, "builder": BUILDERS, "pig": {"field": PIG},
}
"""Each figure kind of the action (Inns & Cathedrals' large meeple, Traders & Builders' builder
and pig) → its sentences by the feature it goes on."""
GOOD_WORDS: Mapping[str, tuple[str, str]] = {
    "wine": plural_noop("%(count)s wine", "%(count)s wine"), "grain": plural_noop("%(count)s grain", "%(count)s grain"),
    "cloth": plural_noop("%(count)s cloth", "%(count)s cloth"),
}

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
    "goods": gettext_lazy("Final scoring, most goods: %(gains)s"),
}


def narrate_action(event_type: str, payload: Mapping[str, Any], before: Position, after: Position,
                   table: Table, *, completed: Mapping[str, Promise] = COMPLETED) -> Narration:
    """``completed``: the sentence of each source scored during the game (a game built on
    Carcassonne adds its own, the Maps' chips)."""
    seat = acting_seat(payload, before)
    player = table.name(seat) if seat is not None else ""
    if event_type == "place_tile":
        x, y = int(payload["x"]), int(payload["y"])
        tile = tile_at(after, x, y)
        tile_id = str(payload.get("tile") or (tile or {}).get("tile", "?"))
        figure = None
        for kind, sentences in FIGURES.items():
            if payload.get(kind) is not None:
                figure = str(sentences[str(feature_type(tile, int(payload[kind])))])
        text = tile_laid(player, tile_id, x, y, figure)
        if before.get("double_turn") is False and after.get("double_turn") and after.get("current_player") == seat:
            text += " " + gettext("The builder gives a second tile.")
    elif event_type == "discard_tile":
        text = tile_discarded(player, str(payload.get("tile") or after["discarded"][-1]))
    else:
        raise ValueError(f"Carcassonne has no event {event_type!r} to narrate")
    # A final scoring worth nothing (farmers beside no completed city) is not news.
    said = [scoring(award, table, completed) for award in new_awards(before, after)
            if int(award["points"]) or not award.get("final")]
    taken = goods_taken(before, after, seat)
    if taken:
        said.append(gettext("%(player)s takes %(goods)s") % {"player": player, "goods": taken})
    return Narration(seat, text, tuple(said), points_made(before, after))


def goods_taken(before: Position, after: Position, seat: int | None) -> str:
    """The goods tokens the player who completed a city took (Traders & Builders), in words."""
    if seat is None or not after.get("goods"):
        return ""
    held_before = (before.get("goods") or [{}] * (seat + 1))[seat]
    gained = [(good, int(count) - int(held_before.get(good, 0))) for good, count in after["goods"][seat].items()]
    return and_list([ngettext(*GOOD_WORDS[good], n) % {"count": n} for good, n in gained if n > 0 and good in GOOD_WORDS])


def scoring(award: Mapping[str, Any], table: Table, completed: Mapping[str, Promise] = COMPLETED) -> str:
    """One award in words; the engine awards only features someone holds, so ``seats`` is never
    empty."""
    sentences = FINAL if award.get("final") else completed
    return str(sentences[str(award["source"])]) % {"gains": gains(award["seats"], int(award["points"]), table)}


# -- the final scoring --------------------------------------------------------------------------

def _city(award: Mapping[str, Any]) -> str:
    contents = award.get("contents", {})
    if int(contents.get("cathedrals", 0)):
        # Inns & Cathedrals: an unfinished city with a cathedral is worth nothing.
        return gettext("City: %(tiles)s with a cathedral, unfinished: nothing") % {"tiles": tiles_of(award)}
    pennants = int(contents.get("pennants", 0))
    if not pennants:
        return gettext("City: %(tiles)s") % {"tiles": tiles_of(award)}
    return gettext("City: %(tiles)s and %(pennants)s") % {
        "tiles": tiles_of(award), "pennants": count("%(count)s pennant", "%(count)s pennants", pennants)}


def _road(award: Mapping[str, Any]) -> str:
    if int(award.get("contents", {}).get("inns", 0)):
        return gettext("Road: %(tiles)s with an inn, unfinished: nothing") % {"tiles": tiles_of(award)}
    return gettext("Road: %(tiles)s") % {"tiles": tiles_of(award)}


GOOD_NAMES: Mapping[str, Promise] = {
    "wine": gettext_lazy("Wine"), "grain": gettext_lazy("Grain"), "cloth": gettext_lazy("Cloth"),
}


def _goods(award: Mapping[str, Any]) -> str:
    (good, most), = dict(award.get("contents", {})).items()
    return gettext("%(good)s: the most tokens, %(tokens)s") % {
        "good": GOOD_NAMES.get(good, good), "tokens": count("%(count)s token", "%(count)s tokens", int(most))}


def _cloister(award: Mapping[str, Any]) -> str:
    neighbours = int(award.get("contents", {}).get("neighbours", 0))
    return gettext("Cloister: itself and %(neighbours)s") % {
        "neighbours": count("%(count)s neighbouring tile", "%(count)s neighbouring tiles", neighbours)}


def _field(award: Mapping[str, Any]) -> str:
    cities = int(award.get("contents", {}).get("cities", 0))
    if not cities:
        return gettext("Field: no completed city beside it")
    text = gettext("Field: %(cities)s beside it") % {
        "cities": count("%(count)s completed city", "%(count)s completed cities", cities)}
    if award.get("contents", {}).get("pig"):
        text += gettext(", the pig's owner 4 a city")
    return text


FINAL_SOURCES = (
    # The meeples by their role ("Farmers" alone is Stone Age's sand-card figure).
    FeatureSource("city", gettext_lazy("Unfinished cities"), pgettext_lazy("meeples", "Knights"), _city),
    FeatureSource("road", gettext_lazy("Unfinished roads"), pgettext_lazy("meeples", "Thieves"), _road),
    FeatureSource("cloister", gettext_lazy("Unfinished cloisters"), pgettext_lazy("meeples", "Monks"), _cloister),
    FeatureSource("field", gettext_lazy("Farmers in the fields"), pgettext_lazy("meeples", "Farmers"), _field),
    FeatureSource("goods", gettext_lazy("Goods (Traders & Builders)"), "", _goods),
)
"""The final scoring's groups in the order the page shows them."""


def final_scoring(position: Position) -> list[FinalGroup]:
    return feature_groups(position, FINAL_SOURCES)
