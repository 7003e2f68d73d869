"""The rules a record is played by, in the reader's words: its ruleset, its variants and what its
set-up chose (expansions, meeples, a map), for the game and replay pages and the catalogue.

The engines describe their rulesets and variants in English with their sources
(``games.adapters.rulesets``); the pages give each a short name in the reader's language here,
and fall back on the engine's own description for one this module does not name yet.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy as _

from games.registry import get_engine
from records import replay
from records.models import GameRecord, RulesetMove

RULESET_NAMES: Mapping[str, Mapping[str, Promise]] = {
    "stone-age": {
        "1": _("Ruleset 1: agriculture beyond the tribe's size feeds nobody"),
        "2": _("Ruleset 2: feeding as published, the food not eaten is kept"),
    },
}
VARIANT_NAMES: Mapping[str, Promise] = {
    "newborn_eats_next_round": _("A hut's newborn eats from the next round on"),
    "hunting_grounds_again": _("A tribe may send more hunters where it already hunts"),
    "figures_home_at_end_of_turn": _("Freed figures come home at the end of the turn (not on that turn's bonus tile)"),
}
SETUP_WORDS: Mapping[str, Promise] = {
    "Expansions": _("Expansions"), "Meeples per player": _("Meeples per player"), "Variants": _("Variants"),
    "Inns & Cathedrals": _("Inns & Cathedrals"), "Traders & Builders": _("Traders & Builders"),
    "(tiles only)": _("(tiles only)"), "none": _("none"), "Start squares": _("Start squares"), "Map": _("Map"),
}


@dataclass(frozen=True)
class RulesLine:
    label: str
    value: str


def ruleset_name(game: str, info: Any) -> str:
    name = RULESET_NAMES.get(game, {}).get(info.key)
    return str(name) if name is not None else info.description or info.version


def variant_name(name: str, info: Any) -> str:
    known = VARIANT_NAMES.get(name)
    return str(known) if known is not None else info.description


def _said(text: str) -> str:
    """An adapter's English set-up words (``Inns & Cathedrals (tiles only)``) in the reader's."""
    for english, words in SETUP_WORDS.items():
        text = text.replace(english, str(words))
    return text


def rules_played(record: GameRecord) -> list[RulesLine]:
    """What the page says of the record's rules: the ruleset (when the game has several, and
    when the record was moved to it), the variants chosen, the set-up's other choices."""
    engine = None if record.result_only else get_engine(record.game_slug)
    if engine is None:
        return []
    version, setup = replay.ruleset_of(record), replay.setup_of(record)
    lines = []
    info = engine.rulesets.get(version)
    if info is not None and len(engine.rulesets) > 1:
        text = ruleset_name(record.game_slug, info)
        move = RulesetMove.objects.filter(record=record).order_by("-id").first()
        if move is not None:
            text += " " + gettext("(moved on %(date)s; recorded under %(ruleset)s)") % {
                "date": move.moved_at.date().isoformat(),
                "ruleset": ruleset_name(record.game_slug, engine.rulesets[record.ruleset_version])
                if record.ruleset_version in engine.rulesets else record.ruleset_version}
        lines.append(RulesLine(gettext("Rules"), text))
    if engine.variants:
        chosen = [variant_name(name, engine.variants[name]) for name in setup.get("variants", [])
                  if name in engine.variants]
        lines.append(RulesLine(gettext("Variants"), "; ".join(chosen) or gettext("none (the default rules)")))
    for label, value in engine.describe_setup(setup):
        if label != "Variants":
            lines.append(RulesLine(_said(label), _said(value)))
    return lines


def rules_offered(game: str) -> dict[str, Any]:
    """The rulesets and variants a game offers, for its catalogue record: each with its name in the
    reader's words, the engine's description and its source."""
    engine = get_engine(game)
    if engine is None:
        return {"rulesets": [], "variants": []}
    return {
        "rulesets": [{"name": ruleset_name(game, info), "version": version, "description": info.description,
                      "source": info.source, "current": version == engine.ruleset_version}
                     for version, info in engine.rulesets.items()],
        "variants": [{"name": variant_name(name, info), "key": name, "description": info.description,
                      "source": info.source} for name, info in engine.variants.items()],
    }
