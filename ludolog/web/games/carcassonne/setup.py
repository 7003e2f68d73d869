"""What the start page asks of a Carcassonne game's set-up: the expansions, whether their rules
apply or only their tiles, and each player's meeples (Carcassonne Maps asks the same, and more)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

def expansion_fields() -> dict[str, forms.Field]:
    return {
        "expansions": forms.MultipleChoiceField(
            label=_("Expansions"), required=False, widget=forms.CheckboxSelectMultiple,
            choices=[("inns_cathedrals", _("Inns & Cathedrals")), ("traders_builders", _("Traders & Builders"))]),
        "tiles_only": forms.BooleanField(
            label=_("Their tiles only, without their rules"), required=False,
            help_text=_("As Carcassonne Maps recommends: inns, cathedrals and goods are only pictures.")),
        "meeples": forms.IntegerField(label=_("Meeples per player"), min_value=1, max_value=20, initial=7,
                                      help_text=_("7 in the box; the Maps recommend 9.")),
    }


def expansions_setup(answers: Mapping[str, Any]) -> dict[str, Any]:
    expansions = list(answers.get("expansions") or [])
    setup: dict[str, Any] = {"expansions": expansions, "rules": [] if answers.get("tiles_only") else expansions}
    if answers.get("meeples"):
        setup["meeples"] = answers["meeples"]
    return setup


