"""Carcassonne Maps – Benelux with the Map-Chips mini-expansion on the pages: the printed map
under Carcassonne's board, the chips and islands in words, its set-up questions (start squares
and tiles) and the table recorder's islands and chips."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext, gettext_lazy as _

from games.registry import get_engine

from ...setup_choices import SetupChoices
from .. import ReplayHints, WebGame
from ..carcassonne import FINAL_HINT, SETUP_WORDS, SOURCE_LABELS
from ..carcassonne.narration import final_scoring
from ..carcassonne.recorder import carcassonne_recorder
from ..carcassonne.setup import expansion_fields, expansions_setup
from .drawing import carcassonne_maps_svg
from .narration import CHIPS, narrate_action
from .table_setup import TABLE_FIELDS, table_fields, to_table_setup


def board(position: Mapping[str, Any], seats: Sequence[Mapping[str, Any]], *, title: str,
          show: str | None = None, free_cells: bool = False) -> str:
    """The map itself shows where a tile may go: ``free_cells`` draws nothing more."""
    engine: Any = get_engine("carcassonne-maps")
    return carcassonne_maps_svg(position, seats, title=title, show=show, translate=gettext,
                                drawing=engine.map_drawing(position["map"]), records=engine.tile_records())


def setup_fields() -> dict[str, forms.Field]:
    fields = expansion_fields()
    fields["expansions"].initial = ["inns_cathedrals", "traders_builders"]
    fields["tiles_only"].initial = True
    return {
        "start_squares": forms.MultipleChoiceField(
            label=_("Start squares (two)"), required=False, widget=forms.CheckboxSelectMultiple,
            choices=[("Meppel", "Meppel"), ("Eindhoven", "Eindhoven"), ("Charleroi", "Charleroi")],
            help_text=_("When Ludolog draws, leave them unticked and it draws two, and lays out the chips and the "
                        "island stacks. Otherwise tick the two used at the table. The map is approximate.")),
        **fields,
        **table_fields(),
    }


def to_setup(answers: Mapping[str, Any]) -> dict[str, Any]:
    setup = expansions_setup(answers)
    if answers.get("start_squares"):
        setup["start_squares"] = list(answers["start_squares"])
    return setup


def recorder_words() -> dict[str, str]:
    """The islands' face-up tiles a chip pays for, and the chips a tile covers."""
    return {
        "islands": gettext("Or pay a chip for an island's face-up tile:"),
        "island_choice": gettext("%(colour)s island, stack %(stack)s: %(tile)s"),
        "island_tile": gettext("Island tile, paid with %(chip)s"),
        "draw_instead": gettext("Draw face down instead"),
        "draw_face_down": gettext("Draw a tile face down"),
        "draws_face_down": gettext("Draws a tile face down"),
        "island_paid": gettext("%(action)s, paid with %(chip)s"),
        "colour:violet": gettext("violet"), "colour:light_blue": gettext("light blue"),
        "colour:orange": gettext("orange"),
        # Whole phrases, not "a %(colour)s chip": English says "an orange chip".
        "chip:violet": str(CHIPS["violet"]), "chip:light_blue": str(CHIPS["light_blue"]),
        "chip:orange": str(CHIPS["orange"]),
        "which_chip": gettext("The tile covers a chip: what does it show, turned over?"),
        "chip_face": gettext("%(colour)s, %(points)s"),
        "which_reveal": gettext("Which tile does the island's stack turn up?"),
    }


WEB_GAME = WebGame(
    slug="carcassonne-maps",
    name=_("Carcassonne Maps – Benelux (Map-Chips)"),
    board=board,
    hints=ReplayHints(
        start=_("Start of the game: the two start squares' tiles, the chips face down, the islands' stacks."),
        board=_("The tile laid last is outlined in orange. Grey discs are chips face down; each island shows its "
                "stacks' face-up tiles. The map is approximate."),
        end=_("Unfinished cities, roads and cloisters, and the farmers, score at the end; chips and island tiles "
              "left count for nothing."),
        final=FINAL_HINT,
    ),
    narrate_action=narrate_action,
    final_scoring=final_scoring,
    recorder=carcassonne_recorder("carcassonne-maps", more_words=recorder_words),
    seat_colours=("yellow", "red", "green", "blue", "black", "grey"),
    setup_choices=SetupChoices(_("Map, start squares and tiles"), setup_fields, to_setup, deals=True,
                               table_fields=TABLE_FIELDS, to_table_setup=to_table_setup),
    source_labels={**SOURCE_LABELS, "chips": _("Map-Chips")},
    # The map as the set-up names it (its name and version, as record files keep them), in words;
    # the longer name first, as the words are replaced in order.
    setup_words={"benelux-approximate@1": _("approximate map, version 1"), "benelux": _("Benelux"),
                 **SETUP_WORDS, "Start squares": _("Start squares"), "Map": _("Map")},
)
