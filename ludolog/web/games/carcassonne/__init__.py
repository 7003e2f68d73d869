"""Carcassonne (with Inns & Cathedrals and Traders & Builders) on the pages: its board, its
actions and final scoring in words, its set-up questions and its table recorder."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext, gettext_lazy as _

from ...setup_choices import SetupChoices
from .. import ReplayHints, WebGame
from .drawing import carcassonne_svg
from .narration import final_scoring, narrate_action
from .recorder import carcassonne_recorder
from .setup import expansion_fields, expansions_setup

SOURCE_LABELS = {
    "city": _("Cities"), "road": _("Roads"), "cloister": _("Cloisters"), "field": _("Fields (farmers)"),
    "goods": _("Goods"),
}
SETUP_WORDS = {
    "Expansions": _("Expansions"), "Meeples per player": _("Meeples per player"),
    "Inns & Cathedrals": _("Inns & Cathedrals"), "Traders & Builders": _("Traders & Builders"),
    "(tiles only)": _("(tiles only)"),
}
"""The words the adapter describes a set-up with (``Inns & Cathedrals (tiles only)``)."""
FINAL_HINT = _("Pick a line to outline its feature on the board; the meeples stand where they were before the "
               "final scoring sent them home.")


def board(position: Mapping[str, Any], seats: Sequence[Mapping[str, Any]], *, title: str,
          show: str | None = None, free_cells: bool = False) -> str:
    return carcassonne_svg(position, seats, title=title, show=show, free_cells=free_cells, translate=gettext)


WEB_GAME = WebGame(
    slug="carcassonne",
    name=_("Carcassonne"),
    board=board,
    hints=ReplayHints(
        start=_("Start of the game: the start tile alone."),
        board=_("The tile laid last is outlined in orange. Farmers lie down."),
        end=_("Unfinished cities, roads and cloisters, and the farmers, score at the end of the game."),
        final=FINAL_HINT,
    ),
    narrate_action=narrate_action,
    final_scoring=final_scoring,
    recorder=carcassonne_recorder("carcassonne"),
    seat_colours=("yellow", "red", "green", "blue", "black", "grey"),
    setup_choices=SetupChoices(_("Expansions and meeples"), expansion_fields, expansions_setup),
    source_labels=SOURCE_LABELS,
    setup_words=SETUP_WORDS,
)
