"""A Stone Age turn as the table recorder shows it: the places open with the counts of people
that may go there, the places to resolve with what each needs (dice, tools, a payment, a
choice), the feeding, and what may be named when cards or buildings are turned up.

Everything comes from the engine's own checks (``legal_placements``, ``payments``,
``building_refusal``, ``shortfall``): the recorder offers nothing the engine would refuse.
Chance stays an input: the recorder asks for the dice rolled (a seeded record may let the
platform roll) and, without a seed, for the cards and tiles turned up.

>>> from games.engines.stone_age import Game
>>> opened = options(Game.new(2, seed=1))
>>> opened["phase"], opened["places"][0]
('placement', {'place': 'hunting_grounds', 'counts': [1, 2, 3, 4, 5]})
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from games.engines.stone_age.components import RESOURCES
from games.engines.stone_age.game import (
    ACTIONS, BUILDING_STACKS, CARD_SLOTS, FEEDING, GATHERING, LOCATIONS, PLACEMENT, REVEAL, VILLAGE, Game,
)

MAX_LISTED_PAYMENTS = 12
"""Up to this many ways to pay are offered as buttons; beyond, the recorder shows a counter per
resource and the rule the payment must meet (the engine checks it)."""


def options(game: Game) -> dict[str, Any]:
    seat = None if game.is_over or game.phase == REVEAL else game.current
    out: dict[str, Any] = {
        "kind": "stone-age", "over": game.is_over, "phase": game.phase, "seat": seat, "round": game.round,
        "seeded": game.seed is not None,
    }
    if game.phase == PLACEMENT:
        counts: dict[str, list[int]] = {}
        for location, people in game.legal_placements():
            counts.setdefault(location, []).append(people)
        out["places"] = [{"place": place, "counts": people} for place, people in counts.items()]
    elif game.phase == ACTIONS:
        tribe = game.tribes[game.current]
        out["resolve"] = [_resolving(game, place) for place in LOCATIONS if place in tribe.placed]
    elif game.phase == FEEDING:
        assert seat is not None
        shortfall = game.shortfall(seat)
        out["feed"] = {"shortfall": shortfall, "food": game.tribes[seat].food, "hunger": game.hunger(seat),
                       "payment": _payment(game.payments(seat, shortfall), {"count": shortfall},
                                           game.tribes[seat].resources)}
    elif game.phase == REVEAL:
        out["reveal"] = {
            "cards": game.pending_reveal.get("cards", 0),
            "stacks": [BUILDING_STACKS[i] for i in game.pending_reveal.get("stacks", [])],
            "cards_left": _cards_left(game),
            "buildings_left": [{"building": b, "cost": game.building_cost(b)}
                               for b in sorted(game.data.buildings) if b not in game.shown_buildings()],
        }
    return out


def _resolving(game: Game, place: str) -> dict[str, Any]:
    """One place the current player has people on, and what resolving it asks for."""
    seat = game.current
    tribe = game.tribes[seat]
    data = game.data
    entry: dict[str, Any] = {"place": place, "people": tribe.placed[place]}
    tools = {"tools": [{"slot": i, "value": v} for i, v in enumerate(tribe.tools) if v and not tribe.tools_used[i]],
             "one_time": list(tribe.one_time_tools)}
    if place in GATHERING:
        resource = GATHERING[place]
        return entry | {"kind": "gather", "resource": resource, "value": data.value(resource),
                        "dice": tribe.placed[place]} | tools
    if place in VILLAGE:
        return entry | {"kind": place}
    if place in CARD_SLOTS:
        index = CARD_SLOTS.index(place)
        card = game.display[index]
        assert card is not None
        top = data.cards[card].top
        entry |= {"kind": "card", "card": card, "cost": index + 1, "top": top, "bottom": game.card_bottom(card),
                  "payment": _payment(game.payments(seat, index + 1), {"count": index + 1}, tribe.resources)}
        if top["type"] == "resource_dice":
            entry |= {"dice": top["dice"], "resource": top["resource"], "value": data.value(top["resource"])} | tools
        elif top["type"] == "dice_roll_all_players":
            entry |= {"dice": game.players, "picks": [(seat + step) % game.players for step in range(game.players)],
                      "faces": {str(face): reward for face, reward in data.dice_faces.items()}}
        elif top["type"] == "any_two_resources":
            entry["choose"] = top["amount"]
        elif top["type"] == "draw_card" and game.deck_size and not game.deck:
            entry["draw"] = _cards_left(game)  # unseeded: say which card was drawn
        return entry
    index = BUILDING_STACKS.index(place)
    building = game.stacks[index][0]
    cost = game.building_cost(building)
    spec = _building_rule(cost)
    counts = range(spec.get("min", spec.get("count", 0)), spec.get("max", spec.get("count", 0)) + 1)
    fitting = [p for count in counts for p in game.payments(seat, count)
               if game.building_refusal(building, p) is None]
    return entry | {"kind": "building", "building": building, "cost": cost,
                    "payment": _payment(fitting, spec, tribe.resources)}


def _building_rule(cost: Mapping[str, Any]) -> dict[str, Any]:
    if cost["kind"] == "fixed":
        return {"count": sum(cost["resources"].values()), "fixed": dict(cost["resources"])}
    if cost["kind"] == "variable":
        return {"count": cost["count"], "kinds": cost["kinds"]}
    return {"min": cost["min"], "max": cost["max"]}


def _payment(payments: Iterable[Mapping[str, int]], rule: Mapping[str, Any], have: Mapping[str, int]) -> dict[str, Any]:
    """Ways to pay: listed as choices when there are few, else the rule and what the player has
    (``choices`` is empty when the player cannot pay at all)."""
    found = [dict(p) for p in payments]
    payment: dict[str, Any] = {"rule": dict(rule), "have": {r: have[r] for r in RESOURCES}, "possible": bool(found)}
    if len(found) <= MAX_LISTED_PAYMENTS:
        payment["choices"] = [{"choice": pay_choice(p), "pay": p} for p in found]
    return payment


def pay_choice(pay: Mapping[str, int]) -> str:
    """A payment as the notation writes it: ``pay=wood:1,clay:1``."""
    return "pay=" + ",".join(f"{r}:{pay[r]}" for r in RESOURCES if pay.get(r))


def _cards_left(game: Game) -> list[dict[str, Any]]:
    seen = game.seen_cards()
    return [{"card": card, "top": game.data.cards[card].top, "bottom": game.card_bottom(card)}
            for card in sorted(game.data.cards) if card not in seen]
