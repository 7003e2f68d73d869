"""Stone Age (Stenen Tijdperk): the state of a game, its legal actions, applying them, scoring.

Chance is recorded, never re-rolled: every die rolled and every card or building turned face up
is part of an action. A game created with a seed deals its deck and building stacks from
``random.Random(seed)`` and fills in dice it is not given (:meth:`Game.complete`), both through
:mod:`games.engines.chance` (the same deal on every Python); a game without
a seed is told each card and building as it is turned up (``reveal`` actions) and every roll.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from games.engines import position_text
from games.engines.chance import roll, shuffle
from games.engines.errors import IllegalAction
from games.engines.ranks import seat_ranks

from .actions import Action, Payment
from .components import RESOURCES, GameData, load
from .rulesets import DEFAULT_RULESET, VariantChoice, check_ruleset, check_variants, choose_variants

HUNT = "hunting_grounds"
GATHERING = {HUNT: "food", "forest": "wood", "clay_pit": "clay", "quarry": "stone", "river": "gold"}
RESOURCE_SITES = ("forest", "clay_pit", "quarry", "river")
VILLAGE = ("field", "hut", "tool_maker")
SITE_CAPACITY = 7
CARD_SLOTS = ("card1", "card2", "card3", "card4")
"""The four civilisation card spaces, named by what a card there costs (card1: 1 resource)."""
BUILDING_STACKS = ("building1", "building2", "building3", "building4")
LOCATIONS = (HUNT, *RESOURCE_SITES, *VILLAGE, *CARD_SLOTS, *BUILDING_STACKS)

PLACEMENT, ACTIONS, FEEDING, REVEAL, OVER = "placement", "actions", "feeding", "reveal", "over"
SAND_FIGURES = ("farmer", "tool_maker", "hut_builder", "shaman")
CHECKPOINT_EVERY = 16
"""How often :meth:`Game.apply` keeps the whole state for undo (an undo replays at most 15 actions)."""
FINAL_SOURCES = ("leftover_resources", "green_cards", "farmers", "tool_makers", "hut_builders", "shamans")


@dataclass
class Tribe:
    """One player's board: people, food, resources, tools, cards and buildings, score."""

    people: int
    food: int
    resources: dict[str, int] = field(default_factory=lambda: dict.fromkeys(RESOURCES, 0))
    agriculture: int = 0
    tools: list[int] = field(default_factory=lambda: [0, 0, 0])
    tools_used: list[bool] = field(default_factory=lambda: [False, False, False])
    one_time_tools: list[int] = field(default_factory=list)
    cards: list[str] = field(default_factory=list)
    buildings: list[str] = field(default_factory=list)
    placed: dict[str, int] = field(default_factory=dict)
    points: dict[str, int] = field(default_factory=lambda: {"buildings": 0, "card_points": 0, "starvation": 0})
    newborn: int = 0
    """People the hut added this round (variant ``newborn_eats_next_round``: they eat from the next round)."""

    @property
    def unplaced(self) -> int:
        return self.people - sum(self.placed.values())

    @property
    def score(self) -> int:
        return sum(self.points.values())

    def to_dict(self) -> dict[str, Any]:
        return {
            "people": self.people, "food": self.food, "resources": dict(self.resources),
            "agriculture": self.agriculture, "tools": list(self.tools), "tools_used": list(self.tools_used),
            "one_time_tools": list(self.one_time_tools), "cards": list(self.cards),
            "buildings": list(self.buildings), "placed": dict(self.placed), "points": dict(self.points),
            "newborn": self.newborn,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Tribe:
        return cls(**copy.deepcopy(dict(data)))


@dataclass(frozen=True)
class Score:
    seat: int
    total: int
    breakdown: dict[str, int]
    tiebreak: int
    """Agriculture + tool values + people: who wins a tie on points."""


@dataclass
class Game:
    text_tag: ClassVar[str] = "stone-age"
    """The engine's name in a position's text form (:meth:`to_text`)."""

    players: int
    seed: int | None
    tribes: list[Tribe]
    display: list[str | None]
    """The card spaces by cost: ``display[0]`` costs 1 resource, ``display[3]`` costs 4."""
    deck: list[str]
    """The face-down cards, top first, when the game was dealt from a seed; else empty."""
    deck_size: int
    stacks: list[list[str]]
    """Each building stack, top first: all its tiles when dealt from a seed, else the revealed top."""
    stack_sizes: list[int]
    start_player: int = 0
    current: int = 0
    phase: str = PLACEMENT
    round: int = 1
    last_round: bool = False
    """A building stack ran out: this round is played to its end (feeding included), then scoring."""
    pending_reveal: dict[str, Any] = field(default_factory=dict)
    """Unseeded games: the cards (``cards``: how many) and stack tops (``stacks``) to be named."""
    resume_phase: str = PLACEMENT
    actions_taken: int = 0
    ruleset: int = DEFAULT_RULESET
    """The version of the rules the game is played under (see :data:`.rulesets.RULESETS`)."""
    variants: frozenset[str] = frozenset()
    """The variants the game plays, defaults included (see :data:`.rulesets.VARIANTS`)."""
    history: list[Action] = field(default_factory=list, repr=False)
    """The actions applied since the game was dealt or restored, the ones :meth:`undo` can take back."""
    checkpoints: list[dict[str, Any]] = field(default_factory=list, repr=False, compare=False)
    """The state (:meth:`to_dict`) before every :data:`CHECKPOINT_EVERY`-th action of ``history``,
    from its first: undo replays from the nearest one."""

    # -- setting up ------------------------------------------------------------------------

    @classmethod
    def new(cls, players: int, seed: int | None = None, *, ruleset: int = DEFAULT_RULESET,
            variants: VariantChoice = frozenset()) -> Game:
        """A game dealt from ``seed`` (or told its cards as they turn up), played under ``ruleset``
        with ``variants`` (names to play, or name → on/off; the others keep their defaults).
        Without them, ruleset 1 and the default variants: the rules every stored game was played by.

        >>> game = Game.new(2, seed=1, ruleset=2, variants={"newborn_eats_next_round"})
        >>> game.ruleset, sorted(game.variants)
        (2, ['newborn_eats_next_round'])
        """
        chosen = choose_variants(check_ruleset(ruleset), variants)
        data = load()
        constants = data.constants
        if not constants["players_min"] <= players <= constants["players_max"]:
            raise ValueError(f"Stone Age is for {constants['players_min']} to {constants['players_max']} players")
        tribes = [Tribe(people=constants["people_start"], food=constants["food_start"]) for _ in range(players)]
        per_stack = constants["building_stack_size"]
        game = cls(
            players=players, seed=seed, tribes=tribes, display=[None] * 4, deck=[], deck_size=len(data.cards),
            stacks=[[] for _ in range(players)], stack_sizes=[per_stack] * players, ruleset=ruleset, variants=chosen,
        )
        if seed is None:
            game._await_reveal(cards=4, stacks=list(range(players)))
            return game
        rng = random.Random(seed)
        deck = sorted(data.cards)
        shuffle(deck, rng)
        tiles = sorted(data.buildings)
        shuffle(tiles, rng)
        game.stacks = [tiles[i * per_stack:(i + 1) * per_stack] for i in range(players)]
        game.display = list(deck[:4])  # laid from the cost-1 space on, as every refill
        game.deck = deck[4:]
        game.deck_size = len(game.deck)
        return game

    @property
    def data(self) -> GameData:
        return load()

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    # -- chance ------------------------------------------------------------------------------

    def _rng(self) -> random.Random:
        """The dice of a seeded game: a generator per action, so a snapshot needs no RNG state."""
        return random.Random(f"{self.seed}:{self.actions_taken}")

    def complete(self, action: Action) -> Action:
        """Fill in the chance a seeded game decides itself (dice, the drawn card); else unchanged."""
        if self.seed is None or action.kind != "resolve":
            return action
        location = action.location
        tribe = self.tribes[self.current]
        rng = self._rng()
        if location in GATHERING and action.dice is None:
            return action.replace(dice=tuple(roll(rng) for _ in range(tribe.placed.get(location, 0))))
        card = self._card_at(location) if location in CARD_SLOTS else None
        if card is None or action.decline:
            return action
        kind = self.data.cards[card].top["type"]
        if kind == "resource_dice" and action.dice is None:
            return action.replace(dice=tuple(roll(rng) for _ in range(self.data.cards[card].top["dice"])))
        if kind == "dice_roll_all_players" and action.dice is None:
            return action.replace(dice=tuple(roll(rng) for _ in range(self.players)))
        if kind == "draw_card" and action.drawn is None and self.deck:
            return action.replace(drawn=self.deck[0])
        return action

    # -- applying ----------------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Apply one action or raise :class:`IllegalAction` leaving the game unchanged (the
        position changes by ``apply`` and :meth:`undo` only; see :meth:`clear_history`)."""
        # The whole state is written out only before every CHECKPOINT_EVERY-th action: a
        # snapshot per action was a third of a replay's time, and undo is rare.
        done = len(self.history)
        before = self.to_dict() if done % CHECKPOINT_EVERY == 0 else None
        try:
            self._apply(action)
        except IllegalAction:
            self._become(Game.from_dict(before) if before is not None else self._replayed(done))
            raise
        if before is not None:
            self.checkpoints.append(before)
        self.history.append(action)
        self.actions_taken += 1

    def undo(self) -> Action:
        """Take back the last action and return it (the position before it is replayed from the
        nearest checkpoint)."""
        if not self.history:
            raise IllegalAction("nothing_to_undo", "there is no action left to take back")
        done = len(self.history) - 1
        history, checkpoints = self.history, self.checkpoints
        last = history[done]
        self._become(self._replayed(done))
        del history[done:]
        del checkpoints[-(-done // CHECKPOINT_EVERY):]  # those before an action still in history
        self.history, self.checkpoints = history, checkpoints
        return last

    def clear_history(self) -> None:
        """Forget the actions applied so far (as python-chess's ``Board.clear_stack``): undo
        cannot go back past here. Call it after changing the position by hand (tests set up
        positions so): undo and a refused action come back to a position replayed from the
        last checkpoint, which knows nothing of a change made outside :meth:`apply`."""
        self.history.clear()
        self.checkpoints.clear()

    def _replayed(self, done: int) -> Game:
        """A new game in the position after the first ``done`` actions of ``history``: the
        nearest checkpoint at or before it, and the actions since applied again (the rules
        are deterministic, the dice of a seeded game too: :meth:`_rng`)."""
        start = done - done % CHECKPOINT_EVERY
        game = Game.from_dict(self.checkpoints[start // CHECKPOINT_EVERY])
        for action in self.history[start:done]:
            game._apply(action)
            game.actions_taken += 1
        return game

    def _become(self, other: Game) -> None:
        """Become the position of ``other``, in place: the same Game and Tribe objects, so that
        a reference to a tribe taken before a refused action or an undo stays good."""
        history, checkpoints, tribes = self.history, self.checkpoints, self.tribes
        self.__dict__.update(other.__dict__)
        for tribe, restored in zip(tribes, other.tribes):
            tribe.__dict__.update(restored.__dict__)
        self.tribes, self.history, self.checkpoints = tribes, history, checkpoints

    def _apply(self, action: Action) -> None:
        if self.phase == OVER:
            raise IllegalAction("game_over", "the game is over")
        if action.seat is not None and action.seat != self.current and action.kind != "reveal":
            raise IllegalAction("not_your_turn", f"it is seat {self.current}'s turn, not seat {action.seat}'s")
        expected = {PLACEMENT: "place", ACTIONS: "resolve", FEEDING: "feed", REVEAL: "reveal"}[self.phase]
        if action.kind != expected:
            raise IllegalAction("wrong_phase", f"the game waits for a {expected!r} action, not {action.kind!r}")
        getattr(self, f"_{action.kind}")(action)

    # -- placement ---------------------------------------------------------------------------

    def _occupants(self, location: str) -> dict[int, int]:
        return {seat: t.placed[location] for seat, t in enumerate(self.tribes) if t.placed.get(location)}

    def placement_refusal(self, seat: int, location: str, people: int) -> IllegalAction | None:
        """Why ``seat`` may not place ``people`` on ``location`` now (None: it may)."""
        tribe = self.tribes[seat]
        occupants = self._occupants(location)
        if location not in LOCATIONS:
            return IllegalAction("unknown_location", f"there is no location {location!r}")
        if people < 1 or people > tribe.unplaced:
            return IllegalAction("not_enough_people", f"seat {seat} has {tribe.unplaced} people left to place, not {people}")
        if seat in occupants and not (location == HUNT and "hunting_grounds_again" in self.variants):
            return IllegalAction("already_there", f"seat {seat} already has people on {location} this round")
        if location in RESOURCE_SITES:
            if sum(occupants.values()) + people > SITE_CAPACITY:
                free = SITE_CAPACITY - sum(occupants.values())
                return IllegalAction("location_full", f"{location} has room for {free} more, not {people}")
            allowed = {2: 1, 3: 2}.get(self.players)
            if allowed is not None and len(occupants) >= allowed:
                return IllegalAction("site_limit", f"with {self.players} players only {allowed} tribe(s) may use {location}")
        elif location in VILLAGE or location in CARD_SLOTS or location in BUILDING_STACKS:
            needed = 2 if location == "hut" else 1
            if people != needed:
                return IllegalAction("wrong_number", f"{location} takes exactly {needed} person(s), not {people}")
            if occupants:
                return IllegalAction("location_full", f"{location} is taken this round")
        if location in VILLAGE and self.players < 4:
            used = sum(1 for place in VILLAGE if self._occupants(place))
            if used >= 2:
                return IllegalAction("village_limit", f"with {self.players} players only 2 of the 3 village places are used each round")
        if location == "hut" and tribe.people >= self.data.constants["people_max"]:
            return IllegalAction("tribe_full", f"seat {seat} already has {tribe.people} people, the most a tribe can have")
        if location in CARD_SLOTS and self._card_at(location) is None:
            return IllegalAction("no_card", f"there is no card on {location}")
        if location in BUILDING_STACKS:
            index = BUILDING_STACKS.index(location)
            if index >= self.players or self.stack_sizes[index] == 0:
                return IllegalAction("no_building", f"there is no building left on {location}")
        return None

    def legal_placements(self, seat: int | None = None) -> list[tuple[str, int]]:
        return list(self._legal_placements(self.current if seat is None else seat))

    def _legal_placements(self, seat: int) -> Iterator[tuple[str, int]]:
        """The legal placements of ``seat`` in order, found one at a time (whether there is any
        needs only the first)."""
        tribe = self.tribes[seat]
        for location in LOCATIONS:
            top = tribe.unplaced if location == HUNT or location in RESOURCE_SITES else 2 if location == "hut" else 1
            for people in range(1, min(top, tribe.unplaced) + 1):
                if self.placement_refusal(seat, location, people) is None:
                    yield location, people

    def _place(self, action: Action) -> None:
        assert action.location is not None
        refusal = self.placement_refusal(self.current, action.location, action.people or 0)
        if refusal is not None:
            raise refusal
        tribe = self.tribes[self.current]
        tribe.placed[action.location] = tribe.placed.get(action.location, 0) + (action.people or 0)
        self._next_placer()

    def _next_placer(self) -> None:
        for step in range(1, self.players + 1):
            seat = (self.current + step) % self.players
            if self.tribes[seat].unplaced and next(self._legal_placements(seat), None) is not None:
                self.current = seat
                return
        self.phase = ACTIONS
        self.current = self.start_player
        self._next_resolver()

    # -- actions -----------------------------------------------------------------------------

    def _card_at(self, location: str) -> str | None:
        return self.display[CARD_SLOTS.index(location)]

    def _next_resolver(self) -> None:
        """The current seat, or the next one clockwise, that still has people out; else feeding."""
        for step in range(self.players):
            seat = (self.current + step) % self.players
            if self.tribes[seat].placed:
                self.current = seat
                return
        self._feed_all()

    def _use_tools(self, tribe: Tribe, action: Action) -> int:
        bonus = 0
        for slot in action.tools:
            if not 0 <= slot < 3 or tribe.tools[slot] == 0:
                raise IllegalAction("no_such_tool", f"there is no tool in slot {slot}")
            if tribe.tools_used[slot]:
                raise IllegalAction("tool_used", f"the tool in slot {slot} was already used this round")
            tribe.tools_used[slot] = True
            bonus += tribe.tools[slot]
        for value in action.one_time:
            if value not in tribe.one_time_tools:
                raise IllegalAction("no_such_tool", f"seat {self.current} has no one-time tool worth {value}")
            tribe.one_time_tools.remove(value)
            bonus += value
        return bonus

    def _check_dice(self, dice: tuple[int, ...] | None, count: int) -> tuple[int, ...]:
        if dice is None:
            raise IllegalAction("dice_missing", f"say the {count} dice rolled")
        if len(dice) != count or any(not 1 <= d <= 6 for d in dice):
            raise IllegalAction("wrong_dice", f"roll {count} dice with 1 to 6 pips, not {list(dice)}")
        return dice

    def _gather(self, tribe: Tribe, resource: str, dice: tuple[int, ...], action: Action) -> int:
        total = sum(dice) + self._use_tools(tribe, action)
        gained = total // self.data.value(resource)
        if resource == "food":
            tribe.food += gained
        else:
            tribe.resources[resource] += gained
        return gained

    def _resolve(self, action: Action) -> None:
        tribe = self.tribes[self.current]
        location = action.location
        if location is None or location not in tribe.placed:
            mine = ", ".join(sorted(tribe.placed)) or "none"
            raise IllegalAction("not_placed", f"seat {self.current} has no people on {location} (placed: {mine})")
        if not self._rolls(location) and (action.tools or action.one_time or action.dice is not None):
            raise IllegalAction("no_roll", f"nothing is rolled on {location}: no dice, no tools")
        people = tribe.placed.pop(location)
        if location in GATHERING:
            self._gather(tribe, GATHERING[location], self._check_dice(action.dice, people), action)
        elif location == "field":
            tribe.agriculture = min(self.data.constants["agriculture_max"], tribe.agriculture + 1)
        elif location == "hut":
            born = min(self.data.constants["people_max"], tribe.people + 1) - tribe.people
            tribe.people += born
            tribe.newborn += born
        elif location == "tool_maker":
            self._tool_step(tribe)
        elif location in CARD_SLOTS:
            self._buy_card(tribe, CARD_SLOTS.index(location), action)
        else:
            self._buy_building(tribe, BUILDING_STACKS.index(location), action)
        if not tribe.placed and not self.pending_reveal:
            self.current = (self.current + 1) % self.players
            self._next_resolver()

    def _rolls(self, location: str) -> bool:
        if location in GATHERING:
            return True
        card = self._card_at(location) if location in CARD_SLOTS else None
        return card is not None and self.data.cards[card].top["type"] in ("resource_dice", "dice_roll_all_players")

    def needs_picks(self, action: Action) -> bool:
        """Whether ``action`` buys a dice-for-all card and still lacks each player's pick."""
        card = self._card_at(action.location) if action.location in CARD_SLOTS else None
        return (card is not None and not action.decline and not action.picks
                and self.data.cards[card].top["type"] == "dice_roll_all_players")

    def _tool_step(self, tribe: Tribe) -> None:
        lowest = min(tribe.tools)
        if lowest < self.data.constants["tool_value_max"]:
            tribe.tools[tribe.tools.index(lowest)] += 1

    def _pay(self, tribe: Tribe, payment: Payment) -> int:
        for resource, count in payment.items():
            if resource not in RESOURCES or count < 0:
                raise IllegalAction("bad_payment", f"pay with wood, clay, stone or gold, not {resource}")
            if tribe.resources[resource] < count:
                raise IllegalAction("cannot_pay", f"seat {self.current} has {tribe.resources[resource]} {resource}, not {count}")
        for resource, count in payment.items():
            tribe.resources[resource] -= count
        return sum(self.data.value(r) * n for r, n in payment.items())

    def _buy_card(self, tribe: Tribe, index: int, action: Action) -> None:
        card_id = self.display[index]
        assert card_id is not None
        if action.decline:
            return
        cost = index + 1
        if sum(action.pay.values()) != cost:
            raise IllegalAction("wrong_payment", f"this card costs {cost} resource(s), not {sum(action.pay.values())}")
        self._pay(tribe, action.pay)
        self.display[index] = None
        tribe.cards.append(card_id)
        top = self.data.cards[card_id].top
        kind = top["type"]
        if (action.tools or action.one_time) and kind != "resource_dice":
            raise IllegalAction("no_tools", f"tools only add to a roll for resources, not to card {card_id}")
        if kind == "food":
            tribe.food += top["amount"]
        elif kind == "resource":
            tribe.resources[top["resource"]] += top["amount"]
        elif kind == "points":
            tribe.points["card_points"] += top["amount"]
        elif kind == "agriculture":
            tribe.agriculture = min(self.data.constants["agriculture_max"], tribe.agriculture + top["steps"])
        elif kind == "tool_permanent":
            for _ in range(top["steps"]):
                self._tool_step(tribe)
        elif kind == "one_time_tool":
            tribe.one_time_tools.append(top["value"])
        elif kind == "any_two_resources":
            chosen = dict(action.choose)
            if sum(chosen.values()) != top["amount"] or any(r not in RESOURCES or n < 0 for r, n in chosen.items()):
                raise IllegalAction("wrong_choice", f"choose {top['amount']} resources among {', '.join(RESOURCES)}")
            for resource, count in chosen.items():
                tribe.resources[resource] += count
        elif kind == "resource_dice":
            self._gather(tribe, top["resource"], self._check_dice(action.dice, top["dice"]), action)
        elif kind == "draw_card":
            self._draw(tribe, action.drawn)
        elif kind == "dice_roll_all_players":
            self._dice_for_everyone(self._check_dice(action.dice, self.players), action.picks)

    def _draw(self, tribe: Tribe, drawn: str | None) -> None:
        if self.deck_size == 0:
            return  # nothing left to draw: the card's top gives nothing
        if drawn is None:
            raise IllegalAction("card_missing", "say which card was drawn from the pile")
        if self.deck:
            if drawn != self.deck[0]:
                raise IllegalAction("wrong_card", f"the top card of the pile is {self.deck[0]}, not {drawn}")
            self.deck.pop(0)
        elif drawn not in self.data.cards or drawn in self.seen_cards():
            raise IllegalAction("wrong_card", f"{drawn} cannot be in the pile")
        self.deck_size -= 1
        tribe.cards.append(drawn)

    def seen_cards(self) -> set[str]:
        """Cards face up or taken: what a card turned up or drawn cannot be."""
        seen = {card for card in self.display if card}
        for tribe in self.tribes:
            seen.update(tribe.cards)
        return seen

    def _dice_for_everyone(self, dice: tuple[int, ...], picks: tuple[int, ...]) -> None:
        if len(picks) != self.players or Counter(picks) != Counter(dice):
            raise IllegalAction("wrong_picks", f"each player, from the buyer on, takes one of the dice {list(dice)}")
        for step, face in enumerate(picks):
            tribe = self.tribes[(self.current + step) % self.players]
            reward = self.data.dice_faces[face]
            if reward == "tool":
                self._tool_step(tribe)
            elif reward == "agriculture":
                tribe.agriculture = min(self.data.constants["agriculture_max"], tribe.agriculture + 1)
            else:
                tribe.resources[reward] += 1

    def shown_buildings(self) -> set[str]:
        """Building tiles on a stack's top or built: what a tile turned up cannot be."""
        return {b for stack in self.stacks for b in stack} | {b for t in self.tribes for b in t.buildings}

    def building_refusal(self, building_id: str, payment: Payment) -> IllegalAction | None:
        building = self.data.buildings[building_id]
        count = sum(payment.values())
        kinds = sum(1 for n in payment.values() if n > 0)
        if building.kind == "fixed" and {r: n for r, n in payment.items() if n} != dict(building.cost):
            need = ", ".join(f"{n} {r}" for r, n in building.cost)
            return IllegalAction("wrong_payment", f"building {building_id} costs exactly {need}")
        if building.kind == "variable" and (count != building.resources or kinds != building.distinct_types):
            return IllegalAction("wrong_payment", f"building {building_id} takes {building.resources} resources of "
                                                  f"exactly {building.distinct_types} kind(s)")
        if building.kind == "any" and not building.min_resources <= count <= building.max_resources:
            return IllegalAction("wrong_payment", f"building {building_id} takes {building.min_resources} to "
                                                  f"{building.max_resources} resources")
        return None

    def _buy_building(self, tribe: Tribe, index: int, action: Action) -> None:
        if action.decline:
            return
        building_id = self.stacks[index][0]
        refusal = self.building_refusal(building_id, action.pay)
        if refusal is not None:
            raise refusal
        tribe.points["buildings"] += self._pay(tribe, action.pay)
        tribe.buildings.append(building_id)
        self.stacks[index].pop(0)
        self.stack_sizes[index] -= 1
        if self.stack_sizes[index] == 0:
            self.last_round = True
        elif not self.stacks[index]:
            self._await_reveal(stacks=[index])

    # -- reveals (games without a seed) ------------------------------------------------------

    def _await_reveal(self, cards: int = 0, stacks: Iterable[int] = ()) -> None:
        self.pending_reveal = {"cards": cards, "stacks": sorted(stacks)}
        self.resume_phase = self.phase
        self.phase = REVEAL

    def _reveal(self, action: Action) -> None:
        wanted_cards = self.pending_reveal.get("cards", 0)
        wanted_stacks = self.pending_reveal.get("stacks", [])
        if len(action.cards) != wanted_cards:
            raise IllegalAction("wrong_reveal", f"name the {wanted_cards} card(s) turned up, not {len(action.cards)}")
        if sorted(action.buildings) != wanted_stacks:
            raise IllegalAction("wrong_reveal", f"name the top tile of stack(s) {[s + 1 for s in wanted_stacks]}")
        seen = self.seen_cards()
        for card in action.cards:
            if card not in self.data.cards or card in seen or action.cards.count(card) > 1:
                raise IllegalAction("wrong_card", f"{card} cannot be turned up now")
        shown = self.shown_buildings()
        for stack, tile in action.buildings.items():
            if tile not in self.data.buildings or tile in shown or list(action.buildings.values()).count(tile) > 1:
                raise IllegalAction("wrong_building", f"{tile} cannot be turned up now")
            self.stacks[stack] = [tile]
        empty = [i for i, card in enumerate(self.display) if card is None]
        for index, card in zip(empty, action.cards):  # named in the order laid, cheapest space first
            self.display[index] = card
        self.deck_size -= len(action.cards)
        self.pending_reveal = {}
        self.phase = self.resume_phase
        if self.phase == ACTIONS and not self.tribes[self.current].placed:
            self.current = (self.current + 1) % self.players
            self._next_resolver()

    # -- feeding and the end of a round ------------------------------------------------------

    @property
    def newborns_eat(self) -> bool:
        """Whether the person a hut adds eats at the feeding of the round it arrives (it does,
        unless the game plays ``newborn_eats_next_round``)."""
        return "newborn_eats_next_round" not in self.variants

    def eaters(self, seat: int) -> int:
        """The people this round's feeding feeds: the whole tribe, or (``newborn_eats_next_round``)
        the tribe less the person the hut added this round."""
        tribe = self.tribes[seat]
        return tribe.people if self.newborns_eat else tribe.people - tribe.newborn

    def hunger(self, seat: int) -> int:
        """The food tokens a tribe must pay at the feeding: one for each person who eats.

        Ruleset 1 first deducts the agriculture level, seed 002's words ("Déduisez d'abord votre
        niveau d'agriculture du nombre de membres ; payez le reste avec vos jetons Nourriture"), so
        agriculture beyond the tribe's size gives nothing. Ruleset 2 has already given each tribe
        its agriculture in food at the start of the feeding (:meth:`_feed_all`), as published: the
        tokens pay for every person, and a surplus stays as food.
        """
        if self.ruleset == 1:
            return max(0, self.eaters(seat) - self.tribes[seat].agriculture)
        return self.eaters(seat)

    def shortfall(self, seat: int) -> int:
        return max(0, self.hunger(seat) - self.tribes[seat].food)

    def _feed_all(self) -> None:
        """The tribes eat in turn from the start player; under ruleset 2 each first takes food equal
        to its agriculture level (FACTS.md, feeding: "Each player gains food equal to his
        agriculture level, then pays 1 food per person. Leftover food is kept.")."""
        self.phase = FEEDING
        if self.ruleset >= 2:
            for tribe in self.tribes:
                tribe.food += tribe.agriculture
        self._feed_from(0)

    def _feed_from(self, step: int) -> None:
        """Feed the tribes from ``step`` on in feeding order, stopping at one that must decide."""
        order = [(self.start_player + s) % self.players for s in range(self.players)]
        for seat in order[step:]:
            tribe = self.tribes[seat]
            missing = self.shortfall(seat)
            if missing == 0:
                tribe.food -= self.hunger(seat)
            elif sum(tribe.resources.values()) < missing:  # cannot pay: the penalty is the only way
                self._starve(tribe)
            else:
                self.current = seat
                return
        self._end_round()

    def _starve(self, tribe: Tribe) -> None:
        tribe.food = 0
        tribe.points["starvation"] += self.data.constants["starvation_penalty"]

    def _feed(self, action: Action) -> None:
        tribe = self.tribes[self.current]
        missing = self.shortfall(self.current)
        if action.starve:
            self._starve(tribe)
        else:
            if sum(action.pay.values()) != missing:
                raise IllegalAction("wrong_payment", f"seat {self.current} lacks {missing} food: pay exactly "
                                                     f"{missing} resource(s), or starve")
            self._pay(tribe, action.pay)
            tribe.food = 0
        self._feed_from((self.current - self.start_player) % self.players + 1)

    def _end_round(self) -> None:
        if self.last_round:
            self.phase = OVER
            return
        kept = [card for card in self.display if card is not None]
        empty = 4 - len(kept)
        if self.deck_size < empty:
            self.phase = OVER
            return
        self.display = kept + [None] * empty
        self.start_player = (self.start_player + 1) % self.players
        self.current = self.start_player
        self.round += 1
        for tribe in self.tribes:
            tribe.tools_used = [False, False, False]
            tribe.newborn = 0
        self.phase = PLACEMENT
        if empty:
            if self.deck:
                for index in range(len(kept), 4):
                    self.display[index] = self.deck.pop(0)
                self.deck_size = len(self.deck)
            else:
                self._await_reveal(cards=empty)
        if self.phase == PLACEMENT and next(self._legal_placements(self.current), None) is None:
            self._next_placer()

    # -- what may be done --------------------------------------------------------------------

    def payments(self, seat: int, count: int) -> list[dict[str, int]]:
        """Every way ``seat`` can pay exactly ``count`` resources, cheapest kinds first."""
        have = self.tribes[seat].resources
        found: list[dict[str, int]] = []

        def walk(index: int, left: int, chosen: dict[str, int]) -> None:
            if index == len(RESOURCES):
                if left == 0:
                    found.append({r: n for r, n in chosen.items() if n})
                return
            resource = RESOURCES[index]
            for n in range(min(left, have[resource]), -1, -1):
                walk(index + 1, left - n, chosen | {resource: n})

        walk(0, count, {})
        return found

    def legal_actions(self) -> list[Action]:
        """The decisions open now. Chance is left out: :meth:`complete` rolls for a seeded game,
        and the picks of a dice-for-all card depend on the roll (see ``registry.random_game``)."""
        seat = self.current
        tribe = self.tribes[seat]
        if self.phase == PLACEMENT:
            return [Action("place", location=loc, people=n) for loc, n in self.legal_placements()]
        if self.phase == FEEDING:
            return [Action("feed", starve=True)] + [
                Action("feed", pay=p) for p in self.payments(seat, self.shortfall(seat))]
        if self.phase != ACTIONS:
            return []
        actions: list[Action] = []
        unused = tuple(i for i in range(3) if tribe.tools[i] and not tribe.tools_used[i])
        for location in sorted(tribe.placed):
            if location in GATHERING:
                actions.append(Action("resolve", location=location))
                if unused or tribe.one_time_tools:
                    actions.append(Action("resolve", location=location, tools=unused,
                                          one_time=tuple(tribe.one_time_tools)))
            elif location in CARD_SLOTS:
                actions.append(Action("resolve", location=location, decline=True))
                card = self.data.cards[self._card_at(location) or ""]
                for payment in self.payments(seat, CARD_SLOTS.index(location) + 1):
                    if card.top["type"] == "any_two_resources":
                        actions += [Action("resolve", location=location, pay=payment, choose={r: 2})
                                    for r in RESOURCES]
                    else:
                        actions.append(Action("resolve", location=location, pay=payment))
                    if card.top["type"] == "resource_dice" and (unused or tribe.one_time_tools):
                        actions.append(Action("resolve", location=location, pay=payment, tools=unused,
                                              one_time=tuple(tribe.one_time_tools)))
            elif location in BUILDING_STACKS:
                actions.append(Action("resolve", location=location, decline=True))
                building = self.data.buildings[self.stacks[BUILDING_STACKS.index(location)][0]]
                sizes = ([sum(n for _r, n in building.cost)] if building.kind == "fixed" else
                         [building.resources] if building.kind == "variable" else
                         range(building.min_resources, building.max_resources + 1))
                for size in sizes:
                    for payment in self.payments(seat, size):
                        if self.building_refusal(building.id, payment) is None:
                            actions.append(Action("resolve", location=location, pay=payment))
            else:
                actions.append(Action("resolve", location=location))
        return actions

    # -- what a reader sees ------------------------------------------------------------------

    def view(self) -> dict[str, Any]:
        """The position as JSON for the state endpoint and ``replay --json``."""
        data = self.data
        return {
            "ruleset": self.ruleset,
            "variants": sorted(self.variants),
            "round": self.round,
            "phase": self.phase,
            "current_player": None if self.is_over or self.phase == REVEAL else self.current,
            "start_player": self.start_player,
            "last_round": self.last_round,
            "pending_reveal": dict(self.pending_reveal),
            "civilisation_cards": [
                {"location": CARD_SLOTS[i], "cost": i + 1, "card": card,
                 **({"top": data.cards[card].top, "bottom": self.card_bottom(card)} if card else {})}
                for i, card in enumerate(self.display)
            ],
            "deck_size": self.deck_size,
            "building_stacks": [
                {"location": BUILDING_STACKS[i], "left": self.stack_sizes[i],
                 "top": self.stacks[i][0] if self.stacks[i] else None,
                 **({"cost": self.building_cost(self.stacks[i][0])} if self.stacks[i] else {})}
                for i in range(self.players)
            ],
            "occupied": {loc: {str(seat): n for seat, n in self._occupants(loc).items()}
                         for loc in LOCATIONS if self._occupants(loc)},
            "tribes": [
                {"seat": seat, "people": t.people, "unplaced": t.unplaced, "food": t.food,
                 "resources": dict(t.resources), "agriculture": t.agriculture, "tools": list(t.tools),
                 "tools_used": list(t.tools_used), "one_time_tools": list(t.one_time_tools),
                 "cards": list(t.cards), "buildings": list(t.buildings), "placed": dict(t.placed),
                 "newborn": t.newborn}
                for seat, t in enumerate(self.tribes)
            ],
            "scores": [{"seat": s.seat, "total": s.total, "breakdown": s.breakdown, "tiebreak": s.tiebreak}
                       for s in self.scores()],
            "final_scoring": [{"seat": seat, **self._final_factors(t)} for seat, t in enumerate(self.tribes)]
            if self.is_over else [],
            "prompt": self.prompt(),
            "legal_action_kinds": [] if self.is_over else [
                {PLACEMENT: "place", ACTIONS: "resolve", FEEDING: "feed", REVEAL: "reveal"}[self.phase]],
        }

    def prompt(self) -> dict[str, Any]:
        """What the game waits for, for a scorekeeper: who, and the choices open."""
        seat = None if self.is_over or self.phase == REVEAL else self.current
        prompt: dict[str, Any] = {"phase": self.phase, "seat": seat}
        if self.phase == PLACEMENT:
            counts: dict[str, list[int]] = {}
            for location, people in self.legal_placements():
                counts.setdefault(location, []).append(people)
            prompt["places"] = [{"location": loc, "min": min(n), "max": max(n)} for loc, n in counts.items()]
        elif self.phase == ACTIONS:
            prompt["locations"] = [{"location": loc, "people": n} for loc, n in sorted(self.tribes[self.current].placed.items())]
        elif self.phase == FEEDING:
            prompt["shortfall"] = self.shortfall(self.current)
        elif self.phase == REVEAL:
            prompt["cards"] = self.pending_reveal.get("cards", 0)
            prompt["stacks"] = [BUILDING_STACKS[i] for i in self.pending_reveal.get("stacks", [])]
        return prompt

    def card_bottom(self, card_id: str) -> dict[str, Any]:
        card = self.data.cards[card_id]
        if card.background == "green":
            return {"background": "green", "symbol": card.symbol}
        return {"background": "sand", "figure": card.figure, "count": card.count}

    def building_cost(self, building_id: str) -> dict[str, Any]:
        b = self.data.buildings[building_id]
        if b.kind == "fixed":
            return {"kind": "fixed", "resources": dict(b.cost)}
        if b.kind == "variable":
            return {"kind": "variable", "count": b.resources, "kinds": b.distinct_types}
        return {"kind": "any", "min": b.min_resources, "max": b.max_resources}

    # -- scoring -----------------------------------------------------------------------------

    def scores(self) -> list[Score]:
        """Points so far by source; the final scoring's sources read 0 until the game is over (the
        same sources at every step, so that a score table keeps its columns)."""
        result = []
        for seat, tribe in enumerate(self.tribes):
            breakdown = dict(tribe.points) | dict.fromkeys(FINAL_SOURCES, 0)
            if self.is_over:
                breakdown |= self._final_points(tribe)
            tiebreak = tribe.agriculture + sum(tribe.tools) + tribe.people
            result.append(Score(seat, sum(breakdown.values()), breakdown, tiebreak))
        return result

    def _final_points(self, tribe: Tribe) -> dict[str, int]:
        return {source: factors["points"] for source, factors in self._final_factors(tribe).items()}

    def _final_factors(self, tribe: Tribe) -> dict[str, dict[str, Any]]:
        """Each final source of a tribe with what it multiplies: the resources left; the sets of
        different green symbols (each scores its size squared); the figures on sand cards times
        agriculture, tools, buildings or people."""
        cards = [self.data.cards[c] for c in tribe.cards]
        symbols = Counter(card.symbol for card in cards if card.background == "green")
        sets: list[int] = []
        while symbols:
            sets.append(len(symbols))
            symbols = Counter({s: n - 1 for s, n in symbols.items() if n > 1})
        figures: Counter[str] = Counter()
        for card in cards:
            if card.background == "sand":
                figures[card.figure] += card.count
        left = sum(tribe.resources.values())

        def times(figure: str, multiplier: int) -> dict[str, int]:
            return {"figures": figures[figure], "times": multiplier, "points": figures[figure] * multiplier}

        return {
            "leftover_resources": {"resources": dict(tribe.resources), "points": left},
            "green_cards": {"sets": sets, "points": sum(size ** 2 for size in sets)},
            "farmers": times("farmer", tribe.agriculture),
            "tool_makers": times("tool_maker", sum(tribe.tools)),
            "hut_builders": times("hut_builder", len(tribe.buildings)),
            "shamans": times("shaman", tribe.people),
        }

    def final_ranks(self) -> dict[int, int]:
        """Seat → place by score, then by the tie-break; equal on both share a place
        (:func:`games.engines.ranks.seat_ranks`). Before the end, the standing as the scores
        stand (the final scoring's sources not counted yet)."""
        return seat_ranks([(score.total, score.tiebreak) for score in self.scores()])

    # -- serialising -------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON (no history): snapshots and undo. A snapshot taken before
        rulesets existed has no ``ruleset`` or ``variants``: it reads as ruleset 1, no variant."""
        return {
            "snapshot_version": 1, "players": self.players, "seed": self.seed,
            "ruleset": self.ruleset, "variants": sorted(self.variants),
            "tribes": [t.to_dict() for t in self.tribes], "display": list(self.display), "deck": list(self.deck),
            "deck_size": self.deck_size, "stacks": [list(s) for s in self.stacks],
            "stack_sizes": list(self.stack_sizes), "start_player": self.start_player, "current": self.current,
            "phase": self.phase, "round": self.round, "last_round": self.last_round,
            # {"cards": int, "stacks": [int, …]} or {}: copied without deepcopy's general machinery.
            "pending_reveal": {key: list(value) if isinstance(value, list) else value
                               for key, value in self.pending_reveal.items()},
            "resume_phase": self.resume_phase,
            "actions_taken": self.actions_taken,
        }

    def to_text(self) -> str:
        """The position on one line (:mod:`games.engines.position_text`: this snapshot, tagged);
        the actions to take back do not come with it, as a FEN has no move stack.

        >>> game = Game.new(2, seed=1)
        >>> game.apply(game.legal_actions()[0])
        >>> Game.from_text(game.to_text()).to_dict() == game.to_dict()
        True
        """
        return position_text.write(self.text_tag, self.to_dict())

    @classmethod
    def from_text(cls, text: str) -> Game:
        """The game in the position :meth:`to_text` wrote (nothing to take back);
        :class:`~games.engines.errors.InvalidNotation` for text that is not one."""
        return position_text.read(cls.text_tag, text, cls.from_dict)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Game:
        if data.get("snapshot_version") != 1:
            raise ValueError("not a Stone Age snapshot of version 1")
        ruleset = check_ruleset(data.get("ruleset", DEFAULT_RULESET))
        variants = check_variants(ruleset, data.get("variants", ()))
        fields_ = {k: copy.deepcopy(v) for k, v in data.items()
                   if k not in ("snapshot_version", "tribes", "ruleset", "variants")}
        return cls(tribes=[Tribe.from_dict(t) for t in data["tribes"]], ruleset=ruleset, variants=variants, **fields_)

    def copy(self) -> Game:
        clone = Game.from_dict(self.to_dict())
        clone.history, clone.checkpoints = list(self.history), list(self.checkpoints)  # never changed in place
        return clone
