"""Stone Age in words: people placed, each place carried out (a roll and what it gathered, a card
or a building bought and what was paid, the field, the hut, the tool maker), tribes fed or
starving, cards and buildings turned up, and on the step that ends the game the final scoring.

What a step gained is read from the tribes before and after it, never worked out from the dice.
The one gain those differences cannot show is a hunt's food when the hunt was the round's last
action and the hunter's tribe ate in the same step (see :func:`_hunt_is_clean`): that sentence
gives the dice without the amount. Scorings are the starvations the step caused and the final scoring, source
by source (this engine has no awards).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy, ngettext, pgettext, pgettext_lazy

from ...narration import Narration, Position, Table, acting_seat, and_list, points_made, seat_gains, signed, source_points
from ...narration.final import FinalGroup, FinalLine

RESOURCES = ("wood", "clay", "stone", "gold")
GATHERED = {"hunting_grounds": "food", "forest": "wood", "clay_pit": "clay", "quarry": "stone", "river": "gold"}
FINAL_SOURCES = ("leftover_resources", "green_cards", "farmers", "tool_makers", "hut_builders", "shamans")

PLACES: Mapping[str, Promise] = {
    "hunting_grounds": pgettext_lazy("Stone Age place", "on the hunting grounds"),
    "forest": pgettext_lazy("Stone Age place", "in the forest"),
    "clay_pit": pgettext_lazy("Stone Age place", "in the clay pit"),
    "quarry": pgettext_lazy("Stone Age place", "in the quarry"),
    "river": pgettext_lazy("Stone Age place", "at the river"),
    "field": pgettext_lazy("Stone Age place", "on the field"),
    "hut": pgettext_lazy("Stone Age place", "in the hut"),
    "tool_maker": pgettext_lazy("Stone Age place", "at the tool maker"),
}
"""The board's places with the preposition a sentence needs (``places 3 people in the forest``)."""

SYMBOLS: Mapping[str, Promise] = {
    "medicine": pgettext_lazy("civilisation card symbol", "medicine"),
    "art": pgettext_lazy("civilisation card symbol", "art"),
    "writing": pgettext_lazy("civilisation card symbol", "writing"),
    "pottery": pgettext_lazy("civilisation card symbol", "pottery"),
    "weaving": pgettext_lazy("civilisation card symbol", "weaving"),
    "time": pgettext_lazy("civilisation card symbol", "time"),
    "transport": pgettext_lazy("civilisation card symbol", "transport"),
    "music": pgettext_lazy("civilisation card symbol", "music"),
}

FINAL_LABELS: Mapping[str, Promise] = {
    "leftover_resources": pgettext_lazy("Stone Age final scoring", "resources left"),
    "green_cards": pgettext_lazy("Stone Age final scoring", "green cards"),
    "farmers": pgettext_lazy("Stone Age final scoring", "farmers"),
    "tool_makers": pgettext_lazy("Stone Age final scoring", "tool makers"),
    "hut_builders": pgettext_lazy("Stone Age final scoring", "hut builders"),
    "shamans": pgettext_lazy("Stone Age final scoring", "shamans"),
}


def narrate_action(event_type: str, payload: Mapping[str, Any], before: Position, after: Position,
                   table: Table) -> Narration:
    if event_type == "reveal":
        seat = None
        text = _revealed(payload, after)
    else:
        seat = acting_seat(payload, before)
        if seat is None:
            raise ValueError(f"nobody is to play a Stone Age {event_type!r} in the position before it")
        step = _Step(seat, payload, before, after, table)
        if event_type == "place":
            text = step.placed()
        elif event_type == "resolve":
            text = step.resolved()
        elif event_type == "feed":
            text = step.fed()
        else:
            raise ValueError(f"Stone Age has no event {event_type!r} to narrate")
    chose_to_starve = event_type == "feed" and bool(payload.get("starve"))
    return Narration(seat, text, _scorings(before, after, table, seat if chose_to_starve else None),
                     points_made(before, after))


class _Step:
    """One player's action, with the tribes before and after it."""

    def __init__(self, seat: int, payload: Mapping[str, Any], before: Position, after: Position, table: Table) -> None:
        self.seat = seat
        self.payload = payload
        self.before = before
        self.after = after
        self.player = table.name(seat)
        self.table = table
        self.location = str(payload.get("location", ""))

    def tribe(self, position: Position, seat: int | None = None) -> Mapping[str, Any]:
        wanted = self.seat if seat is None else seat
        return next(tribe for tribe in position["tribes"] if tribe["seat"] == wanted)

    # -- place -----------------------------------------------------------------------------

    def placed(self) -> str:
        people = int(self.payload.get("people", 1))
        values = {"player": self.player, "count": people, "place": self._place_words()}
        return ngettext("%(player)s places %(count)s person %(place)s",
                        "%(player)s places %(count)s people %(place)s", people) % values

    def _place_words(self) -> str:
        if self.location in PLACES:
            return str(PLACES[self.location])
        if self.location.startswith("card"):
            slot = _card_slot(self.before, self.location)
            return gettext("on the %(cost)s-resource card (%(card)s)") % {"cost": slot["cost"], "card": slot["card"]}
        return gettext("on building %(building)s") % {"building": _stack(self.before, self.location)["top"]}

    # -- resolve ---------------------------------------------------------------------------

    def resolved(self) -> str:
        if self.location in GATHERED:
            return self._gathered()
        if self.location == "field":
            return gettext("%(player)s works the field: agriculture %(level)s") % {
                "player": self.player, "level": self.tribe(self.after)["agriculture"]}
        if self.location == "hut":
            return gettext("%(player)s gains a person in the hut: %(people)s in the tribe") % {
                "player": self.player, "people": self.tribe(self.after)["people"]}
        if self.location == "tool_maker":
            return gettext("%(player)s gets a tool from the tool maker: tools %(tools)s") % {
                "player": self.player, "tools": "/".join(str(tool) for tool in self.tribe(self.after)["tools"])}
        if self.location.startswith("card"):
            return self._card()
        return self._building()

    def _dice_words(self) -> str:
        """``3, 5, 6 + 2 (tool)``: the dice rolled and what the tools used added."""
        dice = ", ".join(str(die) for die in self.payload.get("dice", []))
        tools = self.tribe(self.before)["tools"]
        added = [int(tools[slot]) for slot in self.payload.get("tools", [])] + \
            [int(value) for value in self.payload.get("one_time", [])]
        if not added:
            return dice
        return ngettext("%(dice)s + %(bonus)s (tool)", "%(dice)s + %(bonus)s (tools)", len(added)) % {
            "dice": dice, "bonus": sum(added)}

    def _gain(self, resource: str, paid: int = 0) -> int:
        """What the tribe got of ``resource`` in this step (``paid``: what it gave of it)."""
        def have(position: Position) -> int:
            tribe = self.tribe(position)
            return int(tribe["food"] if resource == "food" else tribe["resources"][resource])

        return have(self.after) - have(self.before) + paid

    def _gathered(self) -> str:
        resource = GATHERED[self.location]
        values = {"player": self.player, "place": str(PLACES[self.location]), "dice": self._dice_words()}
        if resource == "food" and not _hunt_is_clean(self.seat, self.after):
            return gettext("%(player)s rolls %(dice)s %(place)s, and the tribes eat") % values
        values["gained"] = amount(self._gain(resource), resource)
        if "dice" not in self.payload:
            return gettext("%(player)s gathers %(place)s: %(gained)s") % values
        return gettext("%(player)s rolls %(dice)s %(place)s: %(gained)s") % values

    def _card(self) -> str:
        slot = _card_slot(self.before, self.location)
        if self.payload.get("decline"):
            return gettext("%(player)s does not buy the %(cost)s-resource card (%(card)s)") % {
                "player": self.player, "cost": slot["cost"], "card": slot["card"]}
        pay = self.payload.get("pay", {})
        buying = gettext("%(player)s buys the card on the %(cost)s-resource space (%(card)s: %(content)s) for "
                         "%(payment)s") % {"player": self.player, "cost": slot["cost"], "card": slot["card"],
                                           "content": card_content(slot), "payment": payment(pay)}
        top = slot.get("top", {})
        kind = top.get("type")
        if kind == "any_two_resources":
            chosen = self.payload.get("choose", {})
            return gettext("%(buying)s, and takes %(chosen)s") % {"buying": buying, "chosen": payment(chosen)}
        if kind == "resource_dice":
            resource = str(top["resource"])
            return gettext("%(buying)s, and rolls %(dice)s: %(gained)s") % {
                "buying": buying, "dice": self._dice_words(),
                "gained": amount(self._gain(resource, int(pay.get(resource, 0))), resource)}
        if kind == "draw_card" and self.payload.get("drawn"):
            return gettext("%(buying)s, and draws %(card)s") % {"buying": buying, "card": self.payload["drawn"]}
        if kind == "dice_roll_all_players":
            return gettext("%(buying)s; the dice show %(dice)s: %(picks)s") % {
                "buying": buying, "dice": ", ".join(str(die) for die in self.payload.get("dice", [])),
                "picks": self._picks()}
        return buying

    def _picks(self) -> str:
        """``Ada takes the 4 (gold), Bo the 6 (agriculture)``: each player's die from the buyer
        on, and what it brought as the tribes show it (a tool or agriculture already at its
        highest brings nothing, and then nothing is said)."""
        players = len(self.before["tribes"])
        paid = self.payload.get("pay", {})
        words = []
        for step, face in enumerate(self.payload.get("picks", [])):
            seat = (self.seat + step) % players
            then, now = self.tribe(self.before, seat), self.tribe(self.after, seat)
            returned = paid if step == 0 else {}  # the buyer's payment left the same tribe
            got = [gettext(resource) for resource in RESOURCES
                   if now["resources"][resource] - then["resources"][resource] + returned.get(resource, 0) > 0]
            if sum(now["tools"]) > sum(then["tools"]):
                got.append(pgettext("die face", "tool"))
            if now["agriculture"] > then["agriculture"]:
                got.append(pgettext("die face", "agriculture"))
            values = {"player": self.table.name(seat), "face": face, "gain": and_list(got)}
            if step == 0:
                words.append((gettext("%(player)s takes the %(face)s (%(gain)s)") if got
                               else gettext("%(player)s takes the %(face)s")) % values)
            else:
                words.append((gettext("%(player)s the %(face)s (%(gain)s)") if got
                              else gettext("%(player)s the %(face)s")) % values)
        return ", ".join(words)

    def _building(self) -> str:
        building = _stack(self.before, self.location)["top"]
        if self.payload.get("decline"):
            return gettext("%(player)s does not build %(building)s") % {"player": self.player, "building": building}
        points = source_points(self.before, self.after, "buildings").get(self.seat, 0)
        return gettext("%(player)s builds %(building)s for %(payment)s: %(points)s") % {
            "player": self.player, "building": building, "payment": payment(self.payload.get("pay", {})),
            "points": signed(points)}

    # -- feed ------------------------------------------------------------------------------

    def fed(self) -> str:
        if self.payload.get("starve"):
            return starved(self.player, source_points(self.before, self.after, "starvation").get(self.seat, 0))
        return gettext("%(player)s feeds the tribe with %(payment)s") % {
            "player": self.player, "payment": payment(self.payload.get("pay", {}))}


def _hunt_is_clean(seat: int, after: Position) -> bool:
    """Whether the hunter's food after the step is untouched by a meal: the step left the game in
    the action phase, or (ruleset 1) in the feeding phase before this tribe's turn to eat (tribes
    eat in turn from the start player, and the one the game waits for has not eaten yet)."""
    if after.get("phase") == "actions":
        return True
    if after.get("phase") != "feeding" or after.get("current_player") is None:
        return False
    if int(after.get("ruleset", 1)) >= 2:
        return False  # ruleset 2: every tribe takes its harvest as the feeding starts

    players = len(after["tribes"])
    start = int(after["start_player"])
    return (seat - start) % players >= (int(after["current_player"]) - start) % players


def _revealed(payload: Mapping[str, Any], after: Position) -> str:
    cards = [str(card) for card in payload.get("cards", [])]
    buildings = [str(tile) for _stack_name, tile in sorted(payload.get("buildings", {}).items())]
    sentences = []
    if cards:
        slots = {slot["card"]: slot for slot in after.get("civilisation_cards", []) if slot.get("card")}
        described = ", ".join(f"{card} ({card_content(slots[card])})" if card in slots else card for card in cards)
        sentences.append(ngettext("Card turned up: %(cards)s", "Cards turned up: %(cards)s", len(cards)) % {
            "cards": described})
    if buildings:
        stacks = {stack.get("top"): stack for stack in after.get("building_stacks", [])}
        described = ", ".join(building_words(stacks[tile]) if tile in stacks else tile for tile in buildings)
        sentences.append(ngettext("Building turned up: %(buildings)s", "Buildings turned up: %(buildings)s",
                                  len(buildings)) % {"buildings": described})
    if len(sentences) == 2:
        return gettext("%(cards)s; %(buildings)s") % {"cards": sentences[0], "buildings": sentences[1]}
    return sentences[0]  # the engine takes a reveal only when it names a card or a building


def _scorings(before: Position, after: Position, table: Table, chose_to_starve: int | None) -> tuple[str, ...]:
    """The starvations the step caused (but the one its own sentence says) and, when it ended the
    game, the final scoring source by source."""
    sentences = [starved(table.name(seat), points)
                 for seat, points in sorted(source_points(before, after, "starvation").items())
                 if seat != chose_to_starve]
    if after.get("phase") == "over" and before.get("phase") != "over":
        for source in FINAL_SOURCES:
            made = source_points(before, after, source)
            if made:
                sentences.append(gettext("Final scoring, %(source)s: %(gains)s") % {
                    "source": str(FINAL_LABELS[source]), "gains": seat_gains(made, table)})
    return tuple(sentences)


# -- words for the game's things --------------------------------------------------------------

def starved(player: str, points: int) -> str:
    return gettext("%(player)s's tribe starves: %(points)s") % {"player": player, "points": signed(points)}


def amount(count: int, resource: str) -> str:
    """``5 wood``, ``3 food``; ``nothing`` for none."""
    return f"{count} {gettext(resource)}" if count else gettext("nothing")


def payment(paid: Mapping[str, int]) -> str:
    """``1 wood and 1 clay``, cheapest resource first."""
    return and_list(amount(int(paid[resource]), resource) for resource in RESOURCES if paid.get(resource))


def card_content(slot: Mapping[str, Any]) -> str:
    """``2 food; sand: 2 farmers``: what a card of the view shows on its top and its bottom."""
    return gettext("%(top)s; %(bottom)s") % {
        "top": top_words(slot.get("top", {})), "bottom": bottom_words(slot.get("bottom", {}))}


def top_words(top: Mapping[str, Any]) -> str:
    kind = top.get("type")
    if kind == "food":
        return amount(int(top["amount"]), "food")
    if kind == "resource":
        return amount(int(top["amount"]), str(top["resource"]))
    if kind == "points":
        return ngettext("%(count)s point", "%(count)s points", int(top["amount"])) % {"count": top["amount"]}
    if kind == "agriculture":
        return gettext("agriculture +%(steps)s") % {"steps": top["steps"]}
    if kind == "tool_permanent":
        return gettext("tool +%(steps)s") % {"steps": top["steps"]}
    if kind == "one_time_tool":
        return gettext("one-time tool %(value)s") % {"value": top["value"]}
    if kind == "any_two_resources":
        return gettext("any %(count)s resources") % {"count": top["amount"]}
    if kind == "resource_dice":
        return gettext("%(dice)s dice for %(resource)s") % {"dice": top["dice"],
                                                             "resource": gettext(str(top["resource"]))}
    if kind == "draw_card":
        return gettext("draw a card")
    if kind == "dice_roll_all_players":
        return gettext("dice for everyone")
    return str(kind)


def bottom_words(bottom: Mapping[str, Any]) -> str:
    if bottom.get("background") == "green":
        symbol = str(bottom.get("symbol", ""))
        return gettext("green: %(symbol)s") % {"symbol": str(SYMBOLS[symbol]) if symbol in SYMBOLS else symbol}
    count = int(bottom.get("count", 0))
    figure = bottom.get("figure")
    if figure == "farmer":
        text = ngettext("sand: %(count)s farmer", "sand: %(count)s farmers", count)
    elif figure == "tool_maker":
        text = ngettext("sand: %(count)s tool maker", "sand: %(count)s tool makers", count)
    elif figure == "hut_builder":
        text = ngettext("sand: %(count)s hut builder", "sand: %(count)s hut builders", count)
    else:
        text = ngettext("sand: %(count)s shaman", "sand: %(count)s shamans", count)
    return text % {"count": count}


def building_words(stack: Mapping[str, Any]) -> str:
    """``B03 (2 wood and 1 gold)``: a building of the view and what it costs."""
    return f"{stack['top']} ({cost_words(stack.get('cost', {}))})"


def cost_words(cost: Mapping[str, Any]) -> str:
    """``2 wood and 1 gold``, ``4 resources of 2 kinds``: what a building costs."""
    if cost.get("kind") == "fixed":
        price = payment(cost.get("resources", {}))
    elif cost.get("kind") == "variable":
        price = ngettext("%(count)s resources of %(kinds)s kind", "%(count)s resources of %(kinds)s kinds",
                         int(cost["kinds"])) % {"count": cost["count"], "kinds": cost["kinds"]}
    else:
        price = gettext("%(min)s to %(max)s resources of any kind") % {"min": cost.get("min"), "max": cost.get("max")}
    return price


def _card_slot(position: Position, location: str) -> Mapping[str, Any]:
    return next(slot for slot in position["civilisation_cards"] if slot["location"] == location)


def _stack(position: Position, location: str) -> Mapping[str, Any]:
    return next(stack for stack in position["building_stacks"] if stack["location"] == location)


# -- the final scoring --------------------------------------------------------------------------

RESOURCE_WORDS: Mapping[str, Promise] = {
    "wood": gettext_lazy("wood"), "clay": gettext_lazy("clay"), "stone": gettext_lazy("stone"),
    "gold": gettext_lazy("gold"),
}


def _resources_left(factors: Mapping[str, Any]) -> str:
    left = [f"{count} {RESOURCE_WORDS.get(name, name)}" for name, count in factors.get("resources", {}).items()
            if count]
    return gettext("Resources left: %(resources)s") % {"resources": ", ".join(left)}


def _green_cards(factors: Mapping[str, Any]) -> str:
    sets = [int(size) for size in factors.get("sets", [])]
    return ngettext("Green cards: a set of %(sets)s different symbols",
                    "Green cards: sets of %(sets)s different symbols", len(sets)) % {
        "sets": and_list(str(size) for size in sets)}


def _times(text: Promise) -> Callable[[Mapping[str, Any]], str]:
    """The sentence of a sand card figure: how many figures, times what."""
    def said(factors: Mapping[str, Any]) -> str:
        return str(text) % {"figures": factors.get("figures", 0), "times": factors.get("times", 0)}
    return said


SOURCES: Sequence[tuple[str, Callable[[Mapping[str, Any]], str]]] = (
    ("leftover_resources", _resources_left),
    ("green_cards", _green_cards),
    ("farmers", _times(gettext_lazy("Farmers: %(figures)s × agriculture %(times)s"))),
    ("tool_makers", _times(gettext_lazy("Tool makers: %(figures)s × tools worth %(times)s"))),
    ("hut_builders", _times(gettext_lazy("Hut builders: %(figures)s × %(times)s buildings"))),
    ("shamans", _times(gettext_lazy("Shamans: %(figures)s × %(times)s people"))),
)
"""Stone Age's final sources, in the score table's order, each with its sentence."""


def final_scoring(position: Position) -> list[FinalGroup]:
    """Player by player: each tribe's final sources, each with what it multiplied."""
    groups = []
    for tribe in position.get("final_scoring", []):
        seat = int(tribe["seat"])
        lines = tuple(
            FinalLine(target=f"tribe-{seat}", feature=said(tribe[source]), figures=(),
                      gains=((seat, int(tribe[source]["points"])),))
            for source, said in SOURCES if int(tribe.get(source, {}).get("points", 0)))
        groups.append(FinalGroup("", "", lines, seat))
    return groups
