"""Stone Age at the table recorder: its cards and buildings in the reader's words, for the
recorder's buttons and lists (the same words as the narration's), the recorder's own words, and
what it reads of the table after each move (the cards and buildings on offer, the tribes)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext, ngettext

from games.engines.stone_age.components import load

from ...games import RecorderParts
from ...recorder.words import counted
from . import drawing
from .narration import bottom_words, cost_words, top_words


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


def recorder_words() -> dict[str, Any]:
    """What Stone Age's recorder says (``recorder-stone-age.js``)."""
    words = {
        "place_people": gettext("%(player)s places people: tap a place."),
        "how_many": gettext("How many people?"),
        "resolve": gettext("%(player)s resolves a place: tap it."),
        "dice_needed": counted("Tap the die rolled.", "Tap the %(count)s dice rolled."),
        "roll_for_me": gettext("Let Ludolog roll"),
        "rolled_by_ludolog": gettext("Ludolog rolls the dice."),
        "clear_dice": gettext("Clear the dice"),
        "tools": gettext("Tools to add"),
        "tool": gettext("tool %(value)s"),
        "one_time_tool": gettext("one-time tool %(value)s"),
        "gain": gettext("%(total)s ÷ %(value)s → %(gained)s %(resource)s"),
        "decline": gettext("Don't buy"),
        "pay": gettext("Pay %(what)s"),
        "pay_rule_count": counted("Pay %(count)s resource.", "Pay %(count)s resources."),
        "pay_rule_range": gettext("Pay %(min)s to %(max)s resources."),
        "pay_rule_kinds": counted("Pay %(count)s resources of exactly %(kinds)s kind.",
                                  "Pay %(count)s resources of exactly %(kinds)s kinds.", "kinds"),
        "pay_rule_fixed": gettext("Pay exactly %(what)s."),
        "cannot_pay": gettext("Not enough resources to pay."),
        "you_have": gettext("In stock: %(what)s"),
        "starve": gettext("Take the penalty (−10 points)"),
        "lacks_food": counted("%(player)s lacks %(count)s food: pay a resource, or take the penalty.",
                              "%(player)s lacks %(count)s food: pay as many resources, or take the penalty."),
        "choose": counted("Choose %(count)s resource to take.", "Choose %(count)s resources to take."),
        "picks": gettext("Each player takes one die, from the buyer on: which die does %(player)s take?"),
        "drawn": gettext("Which card was drawn from the pile?"),
        "picks_again": gettext("Pick again"),
        "reveal_cards": gettext("Which cards were turned up? Cheapest space first (%(done)s of %(count)s)."),
        "reveal_stack": gettext("Which building is now on top of stack %(stack)s?"),
        "all_cards": gettext("All"),
        "cost": gettext("cost %(cost)s"),
        "people": counted("%(count)s person", "%(count)s people"),
        "card_on": counted("Card on the %(cost)s-resource space", "Card on the %(cost)s-resource space", "cost"),
        "building_on": gettext("Building stack %(stack)s"),
        "resource:food": gettext("food"),
    }
    for place, label in drawing.WORDS.items():
        words[f"place:{place}"] = gettext(label)
    for resource in ("wood", "clay", "stone", "gold"):
        words[f"resource:{resource}"] = gettext(resource)
    for index in range(1, 5):
        words[f"place:card{index}"] = gettext("Card, cost %(cost)s") % {"cost": index}
        words[f"place:building{index}"] = gettext("Building stack %(stack)s") % {"stack": index}
    words["face:tool"] = gettext("tool")
    words["face:agriculture"] = gettext("agriculture")
    return words


def table(position: Mapping[str, Any]) -> dict[str, Any]:
    """The cards and buildings on offer by place, and each tribe's people, supplies and tools."""
    return {
        "cards": {slot["location"]: slot["card"] for slot in position["civilisation_cards"] if slot["card"]},
        "buildings": {stack["location"]: stack["top"] for stack in position["building_stacks"] if stack["top"]},
        "tribes": [
            {"seat": t["seat"], "people": t["people"], "unplaced": t["unplaced"], "food": t["food"],
             **t["resources"], "agriculture": t["agriculture"], "tools": t["tools"],
             "one_time_tools": t["one_time_tools"], "cards": len(t["cards"]), "buildings": len(t["buildings"])}
            for t in position["tribes"]
        ],
    }


RECORDER = RecorderParts(
    script="ludolog/recorder-stone-age.js", css_class="stone-age-game", stylesheet="ludolog/recorder-stone-age.css",
    side_template="scorekeeping/_stone_age_tribes.html", words=recorder_words,
    page_data=lambda engine, version: {"catalogue": catalogue()}, table=table,
)
