"""The start page's table set-up of Carcassonne Maps – Benelux, for a game whose tiles and chips
are the table's own ("Ludolog draws and rolls" off): what the table shows before the first turn,
which the rules engine checks (:class:`games.engines.carcassonne_maps.TableSetUp`).

The players have used two start squares (ticked with the set-up's start squares), laid the box's
start tile on the first of them in the map's order and a tile from the pile on the other, laid
20 chips face down (tapped on the map: the page draws it with the existing map drawing and keeps
the squares it lays a chip on in one field, ``x,y x,y …``, which also works typed, without the
page's script) and turned up the top tile of each island's two stacks (picked from the tiles'
pictures). Nothing here knows what the chips show: their backs are all alike.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from itertools import combinations
from typing import Any

from django import forms
from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, gettext_lazy as _

from games.registry import get_engine

from ...quick_select import QuickSelect
from ...setup_choices import SetupError
from ..carcassonne.setup import expansions_setup
from .drawing import table_map_svg

MAPS = "carcassonne-maps"
ISLANDS = ("violet", "light_blue", "orange")
STACK_LABELS = {
    # Whole phrases: French agrees the colour with "île" (l'île violette).
    "violet": _("Face-up tile, violet island, stack %(stack)s"),
    "light_blue": _("Face-up tile, light blue island, stack %(stack)s"),
    "orange": _("Face-up tile, orange island, stack %(stack)s"),
}
STACK_FIELDS = tuple(f"island_{colour}_{stack}" for colour in ISLANDS for stack in (1, 2))
TABLE_FIELDS = ("second_start_tile", "chip_squares", *STACK_FIELDS)
"""The questions asked only of a table that sets its own game up."""

REFUSALS: Mapping[str, tuple[str, Any]] = {
    "not_a_start_square": ("start_squares", _("Tick two of the map's start squares.")),
    "start_square_twice": ("start_squares", _("Tick two of the map's start squares.")),
    "start_squares_count": ("start_squares", _("Tick the two start squares used at the table.")),
    "start_tiles": ("second_start_tile", _("Pick the tile laid on the other start square.")),
    "wrong_chip_count": ("chip_squares", _("20 chips lie on the map: %(count)s are marked.")),
    "two_chips_on_square": ("chip_squares", _("Only one chip a square: %(squares)s.")),
    "chips_adjacent": ("chip_squares", _("Two chips lie side by side (only diagonally is allowed): %(squares)s.")),
    "chip_off_map": ("chip_squares", _("A chip lies off the map: %(squares)s.")),
    "chip_on_wave": ("chip_squares", _("A chip lies on a wave square, where no tile can ever take it: %(squares)s.")),
    "chip_on_island": ("chip_squares", _("A chip lies on an island's stack square: %(squares)s.")),
    "chip_on_large_city": ("chip_squares", _("A chip lies on a large city: %(squares)s.")),
    "chip_on_town": ("chip_squares", _("A chip lies on a town: %(squares)s.")),
    "chip_on_start_square": ("chip_squares", _("A chip lies on a start square: %(squares)s.")),
    "chip_next_to_start": ("chip_squares", _("A chip lies beside a start square used: %(squares)s.")),
    "chip_next_to_large_city": ("chip_squares", _("A chip lies beside a large city's open edge: %(squares)s.")),
    "tile_not_in_play": (None, _("The set-up shows more copies of a tile than the expansions ticked hold: "
                                 "%(tile)s.")),
}
"""The engine's reason for refusing a table's set-up → the field it is about and what the page says."""

_SQUARE = re.compile(r"^\s*(\d{1,3})\s*,\s*(\d{1,3})\s*$")


def _engine() -> Any:
    return get_engine(MAPS)


def tile_choices() -> list[tuple[str, str]]:
    """Every tile of Carcassonne and its two expansions (the engine checks the expansions ticked)."""
    return [(tile, tile) for tile in sorted(_engine().tile_records())]


class ChipMap(forms.TextInput):
    """The chip squares as text (``x,y x,y …``), and the map to tap them on: the page's script
    keeps the two in step and shows the island tiles picked on their stacks."""

    def render(self, name: str, value: Any, attrs: Mapping[str, Any] | None = None, renderer: Any = None) -> str:
        engine = _engine()
        maps = engine.engine
        benelux = maps.load_benelux()
        allowed = {",".join(pair): [[x, y] for x, y in maps.chip_squares(benelux, pair)]
                   for pair in combinations(benelux.start_squares, 2)}
        starts = [[name, *benelux.start_position(name)] for name in benelux.start_squares]
        from . import WEB_GAME

        text = super().render(name, value, {**(attrs or {}), "data-chip-squares": "", "inputmode": "numeric",
                                            "autocomplete": "off", "spellcheck": "false"}, renderer)
        picture = table_map_svg(engine.map_drawing(benelux.ref), engine.tile_records(), translate=gettext)
        counter = format_html('<p class="chip-count" aria-live="polite" data-of="{}" data-words="{}"></p>', 20,
                              gettext("Chips marked: %(count)s of 20"))
        return mark_safe(
            text + counter
            + format_html('<div class="maps-table-scroll" data-allowed="{}" data-starts="{}" tabindex="0" '
                          'aria-label="{}">', json.dumps(allowed), json.dumps(starts),
                          gettext("The map: tap each square where a chip lies"))
            + picture + "</div>" + WEB_GAME.recorder.sprite(engine, engine.ruleset_version))


class TilePick(QuickSelect):
    """A tile by its id; the page's script shows the tiles' pictures to pick from (seven of them on
    the start page, 66 tiles each: written in one pass)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(attrs={"data-table-setup": "", "data-tile-pick": "", **kwargs})


def table_fields() -> dict[str, forms.Field]:
    tiles = tile_choices()
    fields: dict[str, forms.Field] = {
        "second_start_tile": forms.ChoiceField(
            label=_("Tile on the other start square"), required=False,
            choices=[("", _("Pick the tile")), *tiles], widget=TilePick(),
            help_text=_("The start tile lies on the first start square in the map's order (north first); the "
                        "tile drawn for the other one is picked here.")),
        "chip_squares": forms.CharField(
            label=_("Where the chips lie"), required=False, max_length=400,
            widget=ChipMap(attrs={"data-table-setup": ""}),
            help_text=_("Tap the 20 squares where a chip lies face down (never side by side, nor beside a start "
                        "square used). Without the map: x,y pairs separated by spaces.")),
    }
    for colour in ISLANDS:
        for stack in (1, 2):
            fields[f"island_{colour}_{stack}"] = forms.ChoiceField(
                label=str(STACK_LABELS[colour]) % {"stack": stack},
                required=False, choices=[("", _("Pick the tile")), *tiles],
                widget=TilePick(**{"data-colour": colour, "data-stack": str(stack)}))
    return fields


def read_squares(text: str) -> list[tuple[int, int]]:
    """``x,y x,y …`` → squares (``SetupError`` for what does not read so).

    >>> read_squares(" 3,4  10,6 ")
    [(3, 4), (10, 6)]
    """
    squares = []
    for word in text.replace(";", " ").split():
        match = _SQUARE.match(word)
        if match is None:
            raise SetupError("chip_squares", forms.ValidationError(
                _("“%(word)s” is not a square: write x,y pairs separated by spaces."), code="bad_square",
                params={"word": word}))
        squares.append((int(match[1]), int(match[2])))
    return squares


def to_table_setup(answers: Mapping[str, Any]) -> dict[str, Any]:
    """The record's ``setup`` of what the table shows, checked by the rules engine; a
    :class:`~ludolog.web.setup_choices.SetupError` names the question to answer again."""
    engine = _engine()
    maps = engine.engine
    benelux = maps.load_benelux()
    setup = expansions_setup(answers)
    options = engine.carcassonne.Options.from_dict(setup)
    starts = [name for name in benelux.start_squares if name in (answers.get("start_squares") or [])]
    if len(starts) != 2:
        raise _refused("start_squares_count", "")
    second = answers.get("second_start_tile") or ""
    if not second:
        raise _refused("start_tiles", "")
    for name in STACK_FIELDS:
        if not answers.get(name):
            raise SetupError(name, forms.ValidationError(_("Pick the tile face up on this stack."), code="island_tile"))
    squares = read_squares(answers.get("chip_squares") or "")
    start_tile = engine.carcassonne.tileset_for(options.expansions).start
    table = {
        "version": 1, "map": dict(benelux.ref), "start_squares": starts,
        "start_tiles": [{"start": starts[0], "tile": start_tile}, {"start": starts[1], "tile": second}],
        "chip_values": maps.ChipValues.default().to_dict(),
        "chip_squares": [[x, y] for x, y in squares],
        "island_face_up": [{"colour": colour, "stack": stack, "tile": answers[f"island_{colour}_{stack}"]}
                           for colour in ISLANDS for stack in (1, 2)],
    }
    try:
        maps.Game.new(2, None, options, setup=maps.setup_from_dict(table), map_definition=benelux)
    except maps.IllegalAction as refusal:
        raise _refused(refusal.reason, refusal.message, count=len(squares)) from None
    return {**setup, "table": table}


def _refused(reason: str, message: str, *, count: int = 0) -> SetupError:
    field, words = REFUSALS.get(reason, (None, None))
    squares = ", ".join(f"{x},{y}" for x, y in re.findall(r"\((-?\d+),(-?\d+)\)", message))
    tile = next(iter(re.findall(r"tiles ([A-Z]{1,2}\d{0,2}) than", message)), "")
    if words is None:  # a refusal this page does not word: the engine's own sentence
        return SetupError(None, forms.ValidationError(escape(message), code=reason))
    return SetupError(field, forms.ValidationError(words, code=reason,
                                                   params={"count": count, "squares": squares, "tile": tile}))
