"""What the start page asks of each game's set-up besides the seed, and how the answers become
the record's ``setup`` (which the game's rules engine then checks and completes).

One entry a game; a game with nothing to choose has none. The fields are named
``setup-<game>-<name>`` so that each game's questions live side by side in one form, and only the
chosen game's are read (the page shows only those).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class SetupChoices:
    legend: Any
    fields: Callable[[], dict[str, forms.Field]]
    """Fresh form fields by name (a form instance must not share field objects)."""
    to_setup: Callable[[Mapping[str, Any]], dict[str, Any]]
    """The cleaned answers by name → the record's ``setup``."""
    to_ruleset: Callable[[Mapping[str, Any]], str | None] = lambda answers: None
    """The cleaned answers → the ruleset version the record pins (``None``: the game's newest)."""
    deals: bool = False
    """Ludolog sets the table up (the Maps' chips and island stacks): a record without a seed
    gets one, since nobody at the table could tell what lies face down."""


def _carcassonne_fields() -> dict[str, forms.Field]:
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


def _carcassonne_setup(answers: Mapping[str, Any]) -> dict[str, Any]:
    expansions = list(answers.get("expansions") or [])
    setup: dict[str, Any] = {"expansions": expansions, "rules": [] if answers.get("tiles_only") else expansions}
    if answers.get("meeples"):
        setup["meeples"] = answers["meeples"]
    return setup


def _rules_fields(game: str) -> Callable[[], dict[str, forms.Field]]:
    """A ruleset to pin (when the game has several) and its variants, by the names the pages give them."""

    def fields() -> dict[str, forms.Field]:
        from games.registry import get_engine

        from .rules import ruleset_name, variant_name

        engine = get_engine(game)
        found: dict[str, forms.Field] = {}
        if engine is None:
            return found
        if len(engine.rulesets) > 1:
            found["ruleset"] = forms.ChoiceField(
                label=_("Rules"), widget=forms.RadioSelect, initial=engine.ruleset_version,
                choices=[(version, ruleset_name(game, info)) for version, info in reversed(engine.rulesets.items())])
        found["variants"] = forms.MultipleChoiceField(
            label=_("Variants"), required=False, widget=forms.CheckboxSelectMultiple,
            choices=[(name, variant_name(name, info)) for name, info in engine.variants.items()])
        return found

    return fields


def _variants_setup(answers: Mapping[str, Any]) -> dict[str, Any]:
    variants = list(answers.get("variants") or [])
    return {"variants": variants} if variants else {}


def _maps_fields() -> dict[str, forms.Field]:
    fields = _carcassonne_fields()
    fields["expansions"].initial = ["inns_cathedrals", "traders_builders"]
    fields["tiles_only"].initial = True
    return {
        "start_squares": forms.MultipleChoiceField(
            label=_("Start squares (two)"), required=False, widget=forms.CheckboxSelectMultiple,
            choices=[("Meppel", "Meppel"), ("Eindhoven", "Eindhoven"), ("Charleroi", "Charleroi")],
            help_text=_("Leave them unticked and Ludolog draws two. Ludolog lays out the chips and the island "
                        "stacks; the map is approximate.")),
        **fields,
    }


def _maps_setup(answers: Mapping[str, Any]) -> dict[str, Any]:
    setup = _carcassonne_setup(answers)
    if answers.get("start_squares"):
        setup["start_squares"] = list(answers["start_squares"])
    return setup


SETUP_CHOICES: Mapping[str, SetupChoices] = {
    "carcassonne-maps": SetupChoices(_("Map, start squares and tiles"), _maps_fields, _maps_setup, deals=True),
    "carcassonne": SetupChoices(_("Expansions and meeples"), _carcassonne_fields, _carcassonne_setup),
    "stone-age": SetupChoices(_("Rules and variants"), _rules_fields("stone-age"), _variants_setup,
                              lambda answers: answers.get("ruleset") or None),
    "hunters-gatherers": SetupChoices(_("Variants"), _rules_fields("hunters-gatherers"), _variants_setup),
}


def field_name(game: str, name: str) -> str:
    return f"setup-{game}-{name}"
