"""Stone Age's cards and buildings in the reader's words, for the recorder's buttons and lists
(the same words as the narration's)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from games.engines.stone_age.components import load

from ..narration.stone_age import bottom_words, cost_words, top_words


def catalogue() -> dict[str, Any]:
    """Every card and building of the set with its words: the recorder names them on buttons
    and lists (a reveal or a drawn card is picked from what is left)."""
    data = load()
    cards = {}
    for card in data.cards.values():
        bottom = ({"background": "green", "symbol": card.symbol} if card.background == "green"
                  else {"background": "sand", "figure": card.figure, "count": card.count})
        cards[card.id] = {"top": top_words(card.top), "bottom": bottom_words(bottom), "kind": card.top["type"]}
    buildings = {}
    for building in data.buildings.values():
        if building.kind == "fixed":
            cost: dict[str, Any] = {"kind": "fixed", "resources": dict(building.cost)}
        elif building.kind == "variable":
            cost = {"kind": "variable", "count": building.resources, "kinds": building.distinct_types}
        else:
            cost = {"kind": "any", "min": building.min_resources, "max": building.max_resources}
        buildings[building.id] = {"cost": cost_words(cost)}
    kinds = {"food": gettext("food"), "resource": gettext("resources"), "points": gettext("points"),
             "agriculture": gettext("agriculture"), "tool_permanent": gettext("tools"),
             "one_time_tool": gettext("one-time tools"), "any_two_resources": gettext("any resources"),
             "resource_dice": gettext("dice for resources"), "draw_card": gettext("draw a card"),
             "dice_roll_all_players": gettext("dice for everyone")}
    return {"cards": cards, "buildings": buildings, "card_kinds": kinds}
