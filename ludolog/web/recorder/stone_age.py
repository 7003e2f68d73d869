"""Stone Age's cards and buildings in the reader's words, for the recorder's buttons and lists."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext, ngettext

from games.engines.stone_age.components import RESOURCES, load


def resource_word(resource: str) -> str:
    return {"wood": gettext("wood"), "clay": gettext("clay"), "stone": gettext("stone"), "gold": gettext("gold"),
            "food": gettext("food")}.get(resource, resource)


def amounts(pay: Mapping[str, int]) -> str:
    """``{"wood": 2, "clay": 1}`` → "2 wood, 1 clay" (cheapest first)."""
    return ", ".join(f"{pay[r]} {resource_word(r)}" for r in RESOURCES if pay.get(r))


def card_top(top: Mapping[str, Any]) -> str:
    """What buying a card gives at once."""
    kind = top.get("type")
    amount = int(top.get("amount", 0) or 0)
    if kind == "food":
        return ngettext("%(count)s food", "%(count)s food", amount) % {"count": amount}
    if kind == "resource":
        return f"{amount} {resource_word(str(top.get('resource')))}"
    if kind == "points":
        return ngettext("%(count)s point", "%(count)s points", amount) % {"count": amount}
    if kind == "agriculture":
        return gettext("agriculture +1")
    if kind == "tool_permanent":
        return gettext("a tool +1")
    if kind == "one_time_tool":
        return gettext("one-time tool %(value)s") % {"value": top.get("value")}
    if kind == "any_two_resources":
        return gettext("any %(count)s resources") % {"count": amount}
    if kind == "resource_dice":
        return gettext("%(count)s dice for %(resource)s") % {"count": top.get("dice"),
                                                             "resource": resource_word(str(top.get("resource")))}
    if kind == "draw_card":
        return gettext("draw a card")
    if kind == "dice_roll_all_players":
        return gettext("dice for everyone")
    return str(kind)


def card_bottom(bottom: Mapping[str, Any]) -> str:
    """What a card counts for at the end: a culture symbol (green) or a figure and its number (sand)."""
    if bottom.get("background") == "green":
        symbol = {"art": gettext("art"), "medicine": gettext("medicine"), "music": gettext("music"),
                  "pottery": gettext("pottery"), "time": gettext("time"), "transport": gettext("transport"),
                  "weaving": gettext("weaving"), "writing": gettext("writing")}.get(str(bottom.get("symbol")),
                                                                                     str(bottom.get("symbol")))
        return gettext("culture: %(symbol)s") % {"symbol": symbol}
    figure = {"farmer": gettext("farmers"), "tool_maker": gettext("tool makers"), "hut_builder": gettext("hut builders"),
              "shaman": gettext("shamans")}.get(str(bottom.get("figure")), str(bottom.get("figure")))
    return f"{bottom.get('count')} × {figure}"


def building_cost(cost: Mapping[str, Any]) -> str:
    if cost.get("kind") == "fixed":
        return amounts(cost.get("resources", {}))
    if cost.get("kind") == "variable":
        return gettext("%(count)s resources of %(kinds)s kind(s)") % {"count": cost.get("count"),
                                                                     "kinds": cost.get("kinds")}
    return gettext("%(min)s to %(max)s resources of any kind") % {"min": cost.get("min"), "max": cost.get("max")}


def catalogue() -> dict[str, Any]:
    """Every card and building of the set with its words: the recorder names them on buttons
    and lists (a reveal or a drawn card is picked from what is left)."""
    data = load()
    cards = {}
    for card in data.cards.values():
        bottom = ({"background": "green", "symbol": card.symbol} if card.background == "green"
                  else {"background": "sand", "figure": card.figure, "count": card.count})
        cards[card.id] = {"top": card_top(card.top), "bottom": card_bottom(bottom), "kind": card.top["type"]}
    buildings = {}
    for building in data.buildings.values():
        if building.kind == "fixed":
            cost: dict[str, Any] = {"kind": "fixed", "resources": dict(building.cost)}
        elif building.kind == "variable":
            cost = {"kind": "variable", "count": building.resources, "kinds": building.distinct_types}
        else:
            cost = {"kind": "any", "min": building.min_resources, "max": building.max_resources}
        buildings[building.id] = {"cost": building_cost(cost)}
    kinds = {"food": gettext("food"), "resource": gettext("resources"), "points": gettext("points"),
             "agriculture": gettext("agriculture"), "tool_permanent": gettext("tools"),
             "one_time_tool": gettext("one-time tools"), "any_two_resources": gettext("any resources"),
             "resource_dice": gettext("dice for resources"), "draw_card": gettext("draw a card"),
             "dice_roll_all_players": gettext("dice for everyone")}
    return {"cards": cards, "buildings": buildings, "card_kinds": kinds}
