"""The rules a record is played by, in the reader's words: its ruleset, its variants and what its
set-up chose (expansions, meeples, a map), for the game and replay pages and the catalogue.

The engines describe their rulesets and variants in English with their sources
(``games.adapters.rulesets``); each game's web module gives them short names in the reader's
language (``WebGame.ruleset_names``, ``variant_names``, ``setup_words``), and the pages fall back
on the engine's own description for one it does not name yet.
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

from .games import web_game

SETUP_WORDS: Mapping[str, Promise] = {
    "Variants": _("Variants"), "none": _("none"),
}
"""The words of a set-up every game may use; a game's own are its web module's ``setup_words``."""


@dataclass(frozen=True)
class RulesLine:
    label: str
    value: str


def ruleset_name(game: str, info: Any) -> str:
    web = web_game(game)
    name = web.ruleset_names.get(info.key) if web is not None else None
    return str(name) if name is not None else info.description or info.version


def variant_name(game: str, name: str, info: Any) -> str:
    web = web_game(game)
    known = web.variant_names.get(name) if web is not None else None
    return str(known) if known is not None else info.description


def _said(game: str, text: str) -> str:
    """An adapter's English set-up words (``Inns & Cathedrals (tiles only)``) in the reader's."""
    web = web_game(game)
    for english, words in {**(web.setup_words if web is not None else {}), **SETUP_WORDS}.items():
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
        chosen = [variant_name(record.game_slug, name, engine.variants[name]) for name in setup.get("variants", [])
                  if name in engine.variants]
        lines.append(RulesLine(gettext("Variants"), "; ".join(chosen) or gettext("none (the default rules)")))
    for label, value in engine.describe_setup(setup):
        if label != "Variants":
            lines.append(RulesLine(_said(record.game_slug, label), _said(record.game_slug, value)))
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
        "variants": [{"name": variant_name(game, name, info), "key": name, "description": info.description,
                      "source": info.source} for name, info in engine.variants.items()],
    }
