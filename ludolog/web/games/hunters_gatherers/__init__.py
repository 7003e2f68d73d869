"""Carcassonne: Hunters and Gatherers on the pages: its board, its actions and final scoring in
words, its set-up questions and its table recorder."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext, gettext_lazy as _, ngettext

from ...setup_choices import SetupChoices, rules_and_variants, variants_setup
from .. import ReplayHints, WebGame
from .drawing import hunters_gatherers_svg
from .narration import final_scoring, narrate_action
from .recorder import RECORDER


def board(position: Mapping[str, Any], seats: Sequence[Mapping[str, Any]], *, title: str,
          show: str | None = None, free_cells: bool = False) -> str:
    return hunters_gatherers_svg(position, seats, title=title, show=show, free_cells=free_cells,
                                 translate=gettext, translate_plural=ngettext)


WEB_GAME = WebGame(
    slug="hunters-gatherers",
    name=_("Carcassonne: Hunters and Gatherers"),
    board=board,
    hints=ReplayHints(
        start=_("Start of the game: the start tile alone."),
        board=_("The tile laid last is outlined in orange. Hunters lie down, gatherers stand, huts are houses."),
        end=_("Huts and hunters score at the end of the game."),
        final=_("Pick a line to outline its feature on the board; faded figures went home without points."),
    ),
    narrate_action=narrate_action,
    final_scoring=final_scoring,
    recorder=RECORDER,
    seat_colours=("red", "yellow", "green", "blue", "black"),
    setup_choices=SetupChoices(_("Variants"), rules_and_variants("hunters-gatherers"), variants_setup),
    source_labels={"river": _("Rivers"), "forest": _("Forests"), "hut": _("Huts"), "hunter": _("Hunters")},
    ruleset_names={
        "1": _("The first edition (2002), read from the French and Czech rulebooks"),
    },
    variant_names={
        "figures_home_at_end_of_turn": _("Freed figures come home at the end of the turn (not on that turn's "
                                         "bonus tile)"),
    },
)
