"""Stone Age on the pages: its board, its actions and final scoring (tribe by tribe) in words,
its rulesets and variants, and its table recorder."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext, gettext_lazy as _, ngettext

from ...setup_choices import SetupChoices, rules_and_variants, variants_setup
from .. import ReplayHints, WebGame
from .drawing import Words, stone_age_svg
from .narration import bottom_words, cost_words, final_scoring, narrate_action, top_words
from .recorder import RECORDER


def board(position: Mapping[str, Any], seats: Sequence[Mapping[str, Any]], *, title: str,
          show: str | None = None, free_cells: bool = False) -> str:
    words = Words(translate=gettext, plural=ngettext,
                  card=lambda slot: (top_words(slot.get("top", {})), bottom_words(slot.get("bottom", {}))),
                  building=lambda stack: cost_words(stack.get("cost", {})))
    return stone_age_svg(position, seats, title=title, words=words, show=show)


WEB_GAME = WebGame(
    slug="stone-age",
    name=_("Stone Age"),
    board=board,
    hints=ReplayHints(
        start=_("Start of the game."),
        board="",
        end=_("Resources left, civilisation cards and their multipliers score at the end of the game."),
        final=_("Pick a line to outline that player's tribe on the board."),
    ),
    narrate_action=narrate_action,
    final_scoring=final_scoring,
    final_by_player=True,
    recorder=RECORDER,
    seat_colours=("red", "yellow", "green", "blue"),
    setup_choices=SetupChoices(_("Rules and variants"), rules_and_variants("stone-age"), variants_setup,
                               lambda answers: answers.get("ruleset") or None),
    source_labels={
        "buildings": _("Buildings"), "card_points": _("Card points"), "starvation": _("Starvation"),
        "leftover_resources": _("Resources left"), "green_cards": _("Green cards"), "farmers": _("Farmers"),
        "tool_makers": _("Tool makers"), "hut_builders": _("Hut builders"), "shamans": _("Shamans"),
    },
    ruleset_names={
        "1": _("Ruleset 1: agriculture beyond the tribe's size feeds nobody"),
        "2": _("Ruleset 2: feeding as published, the food not eaten is kept"),
    },
    variant_names={
        "newborn_eats_next_round": _("A hut's newborn eats from the next round on"),
        "hunting_grounds_again": _("A tribe may send more hunters where it already hunts"),
    },
)
