"""What the start page asks of each game's set-up besides the seed, and how the answers become
the record's ``setup`` (which the game's rules engine then checks and completes).

Each game's web module gives its :class:`SetupChoices` (``WebGame.setup_choices``); a game with
nothing to choose has none. The fields are named ``setup-<game>-<name>`` so that each game's
questions live side by side in one form, and only the chosen game's are read (the page shows
only those).
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
    """Ludolog sets the table up (the Maps' chips and island stacks) when the record has a seed;
    without one, :attr:`to_table_setup` says what the table shows (a game with ``deals`` and no
    ``to_table_setup`` gets a seed)."""
    table_fields: tuple[str, ...] = ()
    """The questions (names among :attr:`fields`) asked only when Ludolog does not draw: what a
    table that sets its own game up shows (the page hides them otherwise)."""
    to_table_setup: Callable[[Mapping[str, Any]], dict[str, Any]] | None = None
    """The cleaned answers → the ``setup`` of a record without a seed, as its table shows it;
    raises :class:`SetupError` naming the question to answer again."""


class SetupError(Exception):
    """A set-up the rules refuse: the question (a name among the game's fields, or ``None`` for
    the whole form) and what the page says."""

    def __init__(self, field: str | None, error: forms.ValidationError) -> None:
        super().__init__(field, error)
        self.field = field
        self.error = error


def rules_and_variants(game: str) -> Callable[[], dict[str, forms.Field]]:
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
            choices=[(name, variant_name(game, name, info)) for name, info in engine.variants.items()])
        return found

    return fields


def variants_setup(answers: Mapping[str, Any]) -> dict[str, Any]:
    variants = list(answers.get("variants") or [])
    return {"variants": variants} if variants else {}


def field_name(game: str, name: str) -> str:
    return f"setup-{game}-{name}"


COLOUR_NAMES = {
    "red": _("red"), "yellow": _("yellow"), "green": _("green"), "blue": _("blue"), "black": _("black"),
    "grey": _("grey"), "purple": _("purple"), "white": _("white"), "orange": _("orange"), "pink": _("pink"),
}
"""A piece's colour, as the start page names it."""


def colour_name(colour: str) -> str:
    return str(COLOUR_NAMES.get(colour, colour))
