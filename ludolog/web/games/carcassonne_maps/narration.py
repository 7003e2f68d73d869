"""Carcassonne Maps with the Map-Chips in words: Carcassonne's sentences, and the chip a tile
takes ("Chip taken: Ada +2", with its colour), the island tile a chip paid for, and the tile an
island stack turns up."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy

from ...narration import Narration, Position, Table, acting_seat, points_made
from ..carcassonne import narration as carcassonne

COMPLETED: Mapping[str, Promise] = {
    **carcassonne.COMPLETED, "chips": gettext_lazy("Chip taken: %(gains)s"),
}
COLOURS: Mapping[str, Promise] = {
    "violet": gettext_lazy("violet"), "light_blue": gettext_lazy("light blue"), "orange": gettext_lazy("orange"),
}
CHIPS = {
    "violet": gettext_lazy("a violet chip"), "light_blue": gettext_lazy("a light blue chip"),
    "orange": gettext_lazy("an orange chip"),
}
"""A chip of each island's colour, with its article (English says "an orange chip")."""


def narrate_action(event_type: str, payload: Mapping[str, Any], before: Position, after: Position,
                   table: Table) -> Narration:
    if event_type == "draw_tile":
        return narrate_draw(payload, before, after, table)
    said = carcassonne.narrate_action(event_type, payload, before, after, table, completed=COMPLETED)
    text = said.text
    island = payload.get("island")
    if island:
        text = gettext("%(laying)s, paying %(chip)s for the island's tile") % {
            "laying": text, "chip": CHIPS.get(str(island), island)}
    taken = [chip for chip in after.get("chips", []) if not chip.get("face_down")
             and not any(c["x"] == chip["x"] and c["y"] == chip["y"] and not c.get("face_down")
                         for c in before.get("chips", []))]
    scoring = list(said.scoring)
    if taken:
        chip = taken[0]
        scoring = [line if not line.startswith(str(COMPLETED["chips"]).split(":")[0]) else
                   f"{line} ({COLOURS.get(chip['colour'], chip['colour'])})" for line in scoring]
    turned = [stack for stack in after.get("islands", []) if stack.get("face_up") and any(
        b["colour"] == stack["colour"] and b["stack"] == stack["stack"] and b.get("face_up") != stack["face_up"]
        and not stack.get("turning_up") for b in before.get("islands", []))]
    for stack in turned:
        scoring.append(gettext("The %(colour)s island turns up tile %(tile)s") % {
            "colour": COLOURS.get(stack["colour"], stack["colour"]), "tile": stack["face_up"]})
    return Narration(said.seat, text, tuple(scoring), said.points)


def narrate_draw(payload: Mapping[str, Any], before: Position, after: Position, table: Table) -> Narration:
    """The player chose to draw face down rather than pay a chip for an island tile (seed 003: no
    change of mind after): the tile it shows, when the record knows it (a seeded record)."""
    seat = acting_seat(payload, before)
    player = table.name(seat) if seat is not None else ""
    tile = after.get("next_tile")
    if tile:
        text = gettext("%(player)s draws tile %(tile)s face down rather than pay a chip for an island tile") % {
            "player": player, "tile": tile}
    else:
        text = gettext("%(player)s draws a tile face down rather than pay a chip for an island tile") % {
            "player": player}
    return Narration(seat, text, (), points_made(before, after))
