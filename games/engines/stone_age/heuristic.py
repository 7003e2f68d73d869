"""A simple player for Stone Age, for demo games that look played.

Placing people, it takes in turn what pays best: a building or a card it can buy, the hut while
the tribe is small, the field while agriculture is low, the tool maker early; it keeps back the
hunters the next feeding needs and sends the rest to the resource the buildings on show lack.
Carrying out its actions it hunts and gathers first (adding tools once the dice are seen, only
when they raise the yield), then the village, then buys, keeping back the resources that the
feeding may need; it pays for a building with the most valuable resources, for a card and for
food with the cheapest, and it never starves when it can pay. The seed only breaks ties.

>>> game, actions = heuristic_game(2, seed=3)
>>> game.is_over, min(s.breakdown["starvation"] for s in game.scores())
(True, 0)
"""

from __future__ import annotations

import itertools
import math
import random

from .actions import Action
from .components import RESOURCES, Card
from .game import (
    BUILDING_STACKS, CARD_SLOTS, FEEDING, GATHERING, HUNT, PLACEMENT, RESOURCE_SITES, SITE_CAPACITY, Game, Tribe,
)
from .rulesets import DEFAULT_RULESET, VariantChoice

_FOOD_PER_HUNTER = 1.75
"""Food a hunter brings on average (3.5 pips, 2 a food)."""
_FOOD_SPREAD = 1.7
"""Food short of the average that k hunters are ready for, times the square root of k: twice the
spread of one die's food (0.85)."""
_RESOLVE_ORDER = (HUNT, *RESOURCE_SITES, "field", "hut", "tool_maker", *CARD_SLOTS, *BUILDING_STACKS)
_PICK_ORDER = ("agriculture", "tool", "gold", "stone", "clay", "wood")
"""What a player takes from the dice-for-all, best first."""


def heuristic_game(players: int, seed: int, *, ruleset: int = DEFAULT_RULESET,
                   variants: VariantChoice = frozenset()) -> tuple[Game, list[Action]]:
    """A complete game of the simple player under ``ruleset`` and ``variants``: the same seed, the
    same game. Returns the finished game and the actions as applied (dice and draws filled in)."""
    game = Game.new(players, seed=seed, ruleset=ruleset, variants=variants)
    chooser = random.Random(f"{seed}:heuristic")  # str seeds hash the same on every run
    actions: list[Action] = []
    while not game.is_over:
        action = choose(game, chooser)
        game.apply(action)
        actions.append(action)
    return game, actions


def choose(game: Game, chooser: random.Random) -> Action:
    """The action the simple player takes now, its chance (dice, a card drawn) filled in."""
    if game.phase == PLACEMENT:
        return _place(game, chooser)
    if game.phase == FEEDING:
        return _feed(game)
    return _resolve(game)


# -- placing people ---------------------------------------------------------------------------

def _place(game: Game, chooser: random.Random) -> Action:
    seat = game.current
    tribe = game.tribes[seat]
    legal = game.legal_placements()
    hunters = _hunters_needed(game, tribe)
    free = tribe.unplaced - hunters
    options: list[tuple[float, str, int]] = []
    for location, people in legal:
        if people > free:
            continue
        value = _spot_value(game, tribe, location, people, free)
        if value > 0:
            options.append((value, location, people))
    if not options and hunters and (HUNT, tribe.unplaced) in legal:
        return Action("place", location=HUNT, people=tribe.unplaced)
    if not options:
        # Nothing worth a person: hunt with everyone left, else the first place that takes them.
        rest = [(loc, n) for loc, n in legal if n == tribe.unplaced and loc in GATHERING] or legal
        location, people = max(rest, key=lambda option: (option[0] == HUNT, option[1]))
        return Action("place", location=location, people=people)
    best = max(value for value, _, _ in options)
    _, location, people = chooser.choice([o for o in options if o[0] >= best - 1e-9])
    return Action("place", location=location, people=people)


def _hunters_needed(game: Game, tribe: Tribe, born: int = 0) -> int:
    """Hunters to keep back so that the next feeding is paid, in food or with the resources the
    tribe has, even when the dice roll a good deal under the average (``born``: one more mouth
    if the tribe takes the hut now)."""
    if HUNT in tribe.placed:
        return 0
    people = _mouths(game, tribe, born)
    agriculture = tribe.agriculture + (1 if "field" in tribe.placed else 0)
    # Ruleset 2 keeps a surplus of agriculture as food, which counts only when nothing is short:
    # both rulesets need the same hunters.
    short = max(0, people - agriculture) - tribe.food - sum(tribe.resources.values())
    hunters = 0
    while hunters < tribe.unplaced and _FOOD_PER_HUNTER * hunters - _FOOD_SPREAD * math.sqrt(hunters) < short:
        hunters += 1
    return hunters


def _mouths(game: Game, tribe: Tribe, born: int = 0) -> int:
    """The people the coming feeding feeds: the person the hut adds (``born`` now, or the people
    the tribe has on the hut) eats at once, unless the game plays ``newborn_eats_next_round``."""
    if game.newborns_eat:
        return tribe.people + born + (1 if "hut" in tribe.placed else 0)
    return tribe.people - tribe.newborn


def _spot_value(game: Game, tribe: Tribe, location: str, people: int, free: int) -> float:
    """How much ``people`` on ``location`` is worth now (0 or less: not worth a person)."""
    rounds_left = _rounds_left(game)
    if location in BUILDING_STACKS:
        index = BUILDING_STACKS.index(location)
        payment = _building_payment(game, game.stacks[index][0], _uncommitted(game, tribe))
        return 0.0 if payment is None else 20.0 + _worth(game, payment)
    if location in CARD_SLOTS:
        index = CARD_SLOTS.index(location)
        card = game.display[index]
        if card is None or sum(_uncommitted(game, tribe).values()) < index + 1:
            return 0.0
        return 10.0 + _card_value(game, tribe, game.data.cards[card]) - 2.5 * (index + 1)
    hunger = tribe.people - tribe.agriculture
    if location == "hut":
        if tribe.people >= 10 or rounds_left <= 3 or hunger >= 6 or (tribe.people >= 8 and game.round >= 8):
            return 0.0
        if _hunters_needed(game, tribe, born=1) > tribe.unplaced - people:
            return 0.0  # the new mouth could not be fed
        return 18.0
    if location == "field":
        if tribe.agriculture >= min(tribe.people, 10) or rounds_left <= 2:
            return 0.0
        return 14.0 + 2.0 * max(0, hunger - 3) if tribe.agriculture < 3 or hunger > 3 else 0.0
    if location == "tool_maker":
        return 10.0 if sum(tribe.tools) < 6 and rounds_left > 4 else 0.0
    if location in RESOURCE_SITES:
        room = SITE_CAPACITY - sum(t.placed.get(location, 0) for t in game.tribes)
        if people != min(free, room):
            return 0.0  # one group a site, as large as it takes
        return 4.0 + _need(game, tribe, GATHERING[location]) + 0.1 * people
    return 0.0


def _uncommitted(game: Game, tribe: Tribe) -> dict[str, int]:
    """The resources not yet promised to the cards and buildings the tribe has people on (a
    building taking any resources takes what is left, so it is promised nothing)."""
    have = dict(tribe.resources)
    for location in tribe.placed:
        if location in CARD_SLOTS:
            cost = CARD_SLOTS.index(location) + 1
            for resource in RESOURCES:
                paid = min(cost, have[resource])
                have[resource] -= paid
                cost -= paid
        elif location in BUILDING_STACKS:
            building = game.stacks[BUILDING_STACKS.index(location)][0]
            payment = _building_payment(game, building, have)
            if payment is not None and game.data.buildings[building].kind != "any":
                for resource, count in payment.items():
                    have[resource] -= count
    return have


def _rounds_left(game: Game) -> int:
    """A guess at the rounds still to play: the emptiest building stack or the deck runs out."""
    stacks = min(game.stack_sizes) * game.players / 1.5
    cards = game.deck_size / 2.5
    return 0 if game.last_round else max(1, int(min(stacks, cards)))


def _need(game: Game, tribe: Tribe, resource: str) -> float:
    """How much the tribe lacks ``resource`` for the fixed-cost buildings on show; a little
    preference for the cheap resources, which a roll wastes least of."""
    need = {"wood": 0.6, "clay": 0.45, "stone": 0.3, "gold": 0.15}[resource]
    for index in range(game.players):
        if game.stacks[index]:
            building = game.data.buildings[game.stacks[index][0]]
            for kind, count in building.cost:
                if kind == resource:
                    need += max(0, count - tribe.resources[kind])
    return need


def _card_value(game: Game, tribe: Tribe, card: Card) -> float:
    """What a civilisation card is likely to give: its top at once, its bottom at the end."""
    top = card.top
    kind = top["type"]
    value: float = {
        "food": 0.5 * top.get("amount", 0),
        "resource": 0.8 * top.get("amount", 0) * game.data.value(top.get("resource", "wood")),
        "points": float(top.get("amount", 0)),
        "agriculture": 3.0 * top.get("steps", 0),
        "tool_permanent": 3.0,
        "one_time_tool": float(top.get("value", 0)),
        "any_two_resources": 8.0,
        "resource_dice": 5.0,
        "draw_card": 5.0,
        "dice_roll_all_players": 3.0,
    }.get(kind, 0.0)
    owned = [game.data.cards[c] for c in tribe.cards]
    if card.background == "green":
        symbols = {c.symbol for c in owned if c.background == "green"}
        value += 1.0 if card.symbol in symbols else 2.0 * len(symbols) + 1.0
    else:
        multiplier = {"farmer": tribe.agriculture + 1, "tool_maker": sum(tribe.tools) + 1,
                      "hut_builder": len(tribe.buildings) + 2, "shaman": tribe.people}.get(card.figure, 0)
        value += card.count * multiplier
    return value


# -- carrying out actions ---------------------------------------------------------------------

def _resolve(game: Game) -> Action:
    seat = game.current
    tribe = game.tribes[seat]
    location = min(tribe.placed, key=_RESOLVE_ORDER.index)
    if location in GATHERING:
        return _with_tools(game, tribe, game.complete(Action("resolve", location=location)), GATHERING[location])
    if location in CARD_SLOTS:
        return _buy_card(game, tribe, location)
    if location in BUILDING_STACKS:
        index = BUILDING_STACKS.index(location)
        building = game.stacks[index][0]
        payment = _building_payment(game, building, _spare(game, tribe))
        if payment is None or game.building_refusal(building, payment) is not None:
            return Action("resolve", location=location, decline=True)
        return Action("resolve", location=location, pay=payment)
    return Action("resolve", location=location)


def _spare(game: Game, tribe: Tribe) -> dict[str, int]:
    """The resources the tribe may spend and still pay the coming feeding (the cheapest kept)."""
    people = _mouths(game, tribe)
    agriculture = tribe.agriculture + (1 if "field" in tribe.placed else 0)
    keep = max(0, people - agriculture - tribe.food)
    spare = dict(tribe.resources)
    for resource in RESOURCES:
        kept = min(keep, spare[resource])
        spare[resource] -= kept
        keep -= kept
    return spare


def _with_tools(game: Game, tribe: Tribe, action: Action, resource: str) -> Action:
    """The rolled ``action`` with the fewest tools that give the most (none if they add nothing)."""
    assert action.dice is not None
    pips = sum(action.dice)
    value = game.data.value(resource)
    permanent = [slot for slot in range(3) if tribe.tools[slot] and not tribe.tools_used[slot]]
    one_time = list(tribe.one_time_tools)
    best: tuple[int, int, int] | None = None
    chosen: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    for used in _subsets(permanent):
        for spent in _subsets(one_time):
            bonus = sum(tribe.tools[slot] for slot in used) + sum(spent)
            # The most gained, then the fewest one-time tools spent, then the least tool value used.
            key = ((pips + bonus) // value, -sum(spent), -bonus)
            if best is None or key > best:
                best, chosen = key, (used, spent)
    return action.replace(tools=chosen[0], one_time=chosen[1])


def _subsets(items: list[int]) -> list[tuple[int, ...]]:
    return [combo for size in range(len(items) + 1) for combo in itertools.combinations(items, size)]


def _buy_card(game: Game, tribe: Tribe, location: str) -> Action:
    index = CARD_SLOTS.index(location)
    card = game.data.cards[game.display[index] or ""]
    spare = _spare(game, tribe)
    payments = [p for p in game.payments(game.current, index + 1) if all(n <= spare[r] for r, n in p.items())]
    if not payments:
        return Action("resolve", location=location, decline=True)
    payment = min(payments, key=lambda p: (_worth(game, p), tuple(-p.get(r, 0) for r in RESOURCES)))
    action = Action("resolve", location=location, pay=payment)
    kind = card.top["type"]
    if kind == "any_two_resources":
        wanted = max(RESOURCES, key=lambda r: (_need(game, tribe, r) - 0.5, game.data.value(r)))
        action = action.replace(choose={wanted: 2})
    action = game.complete(action)
    if kind == "resource_dice":
        action = _with_tools(game, tribe, action, card.top["resource"])
    elif kind == "dice_roll_all_players" and action.dice is not None:
        # Each player in turn, from the buyer on, takes the die it likes best.
        faces = game.data.dice_faces
        dice = sorted(action.dice, key=lambda d: _PICK_ORDER.index(faces[d]))
        action = action.replace(picks=tuple(dice))
    return action


def _building_payment(game: Game, building_id: str, have: dict[str, int]) -> dict[str, int] | None:
    """The payment worth the most points that ``have`` covers (None: it cannot be built)."""
    building = game.data.buildings[building_id]
    if building.kind == "fixed":
        cost = dict(building.cost)
        return cost if all(have[r] >= n for r, n in cost.items()) else None
    if building.kind == "any":
        return _most_valuable(game, have, list(RESOURCES), building.max_resources, building.min_resources)
    best: dict[str, int] | None = None
    for kinds in itertools.combinations([r for r in RESOURCES if have[r]], building.distinct_types):
        payment = _most_valuable(game, have, list(kinds), building.resources, building.resources, each=1)
        if payment is not None and (best is None or _worth(game, payment) > _worth(game, best)):
            best = payment
    return best


def _most_valuable(game: Game, have: dict[str, int], kinds: list[str], most: int, least: int,
                   each: int = 0) -> dict[str, int] | None:
    """Up to ``most`` (at least ``least``) resources of ``kinds``, ``each`` of every kind at
    least, the rest the most valuable first."""
    payment = {r: each for r in kinds}
    if any(have[r] < each for r in kinds):
        return None
    room = most - each * len(kinds)
    for resource in sorted(kinds, key=game.data.value, reverse=True):
        extra = min(room, have[resource] - each)
        payment[resource] += extra
        room -= extra
    if sum(payment.values()) < least:
        return None
    return {r: n for r, n in payment.items() if n}


def _worth(game: Game, payment: dict[str, int]) -> int:
    return sum(game.data.value(r) * n for r, n in payment.items())


# -- feeding ----------------------------------------------------------------------------------

def _feed(game: Game) -> Action:
    """Pay the shortfall with the cheapest resources; starve only when the tribe cannot pay."""
    payments = game.payments(game.current, game.shortfall(game.current))
    if not payments:
        return Action("feed", starve=True)
    return Action("feed", pay=min(payments, key=lambda p: _worth(game, p)))
