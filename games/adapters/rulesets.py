"""Rulesets and variants on the platform: which versions of a game's rules a record may be judged
by, and which table options it may choose.

A record pins a ruleset version (``GameRecord.ruleset_version``, a string such as
``stone-age-first-edition@1-reconstructed``) and its variants (``setup["variants"]``); the
engines know them by a short key (Stone Age's rulesets ``1`` and ``2``). An adapter built on an
engine package that has ``RULESETS`` and ``VARIANTS`` (:mod:`games.engines.stone_age.rulesets`,
:mod:`games.engines.hunters_gatherers.rulesets`) lists them here for the records app, the pages
and the API.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Generic

from .base import PayloadError, StateT


@dataclass(frozen=True)
class RulesetInfo:
    version: str
    """What a record pins, e.g. ``stone-age-first-edition@1-reconstructed/rules-2``."""
    key: str
    """The engine's name for it (``2``), which ``migrate_ruleset --to`` also takes."""
    description: str
    source: str

    def to_dict(self) -> dict[str, str]:
        return {"version": self.version, "key": self.key, "description": self.description, "source": self.source}


@dataclass(frozen=True)
class VariantInfo:
    name: str
    description: str
    source: str
    default: bool
    rulesets: tuple[str, ...]
    """The ruleset versions a record may choose it under."""

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "description": self.description, "source": self.source,
                "default": self.default, "rulesets": list(self.rulesets)}


def single_ruleset(version: str, description: str = "", source: str = "") -> dict[str, RulesetInfo]:
    """The rulesets of a game that has one version of its rules."""
    return {version: RulesetInfo(version, "1", description, source)}


class EngineRulesets(Generic[StateT]):
    """What an adapter reads from its engine's ``RULESETS`` and ``VARIANTS``.

    The adapter sets :attr:`data_version` (its data's name and version: the cards or tiles)
    and :attr:`latest`; ruleset 1 keeps that bare name, the version every record stored before
    rulesets existed pins, and ruleset ``k`` is ``<data_version>/rules-<k>``.
    """

    data_version: str
    engine: Any

    def _ruleset_module(self) -> Any:
        from importlib import import_module

        return import_module(f"{self.engine.__name__}.rulesets")

    @property
    def rulesets(self) -> Mapping[str, RulesetInfo]:
        found = {}
        for key, ruleset in sorted(self._ruleset_module().RULESETS.items()):
            version = self.data_version if key == 1 else f"{self.data_version}/rules-{key}"
            found[version] = RulesetInfo(version, str(key), ruleset.description, ruleset.source)
        return found

    @property
    def variants(self) -> Mapping[str, VariantInfo]:
        keys = {info.key: version for version, info in self.rulesets.items()}
        return {name: VariantInfo(name, variant.description, variant.source, variant.default,
                                  tuple(keys[str(k)] for k in sorted(variant.rulesets)))
                for name, variant in sorted(self._ruleset_module().VARIANTS.items())}

    @property
    def latest_ruleset_version(self) -> str:
        return list(self.rulesets)[-1]

    def ruleset_number(self, version: str | None) -> int:
        """The engine's ruleset for a pinned ``version`` (``None``: the newest, what a new record gets)."""
        info = self.rulesets.get(version or self.latest_ruleset_version)
        if info is None:
            raise PayloadError("ruleset_version", f"ruleset_version: this engine has no ruleset {version!r}")
        return int(info.key)

    def variants_schema(self) -> dict[str, Any]:
        return {"type": "array", "items": {"enum": sorted(self._ruleset_module().VARIANTS)}, "uniqueItems": True,
                "description": "the table options played (the others keep their defaults)"}

    def check_variants(self, setup: dict[str, Any], ruleset_version: str | None) -> dict[str, Any]:
        """``setup`` with its variants checked for the ruleset and written as the engine plays
        them (sorted; left out when none is on, as every record before variants has it)."""
        number = self.ruleset_number(ruleset_version)
        try:
            chosen = self._ruleset_module().choose_variants(number, setup.get("variants", ()))
        except ValueError as error:
            raise PayloadError("setup.variants", f"setup.variants: {error}") from None
        setup.pop("variants", None)
        if chosen:
            setup["variants"] = sorted(chosen)
        return setup

    def describe_variants(self, setup: Mapping[str, Any]) -> list[tuple[str, str]]:
        chosen = setup.get("variants") or []
        return [("Variants", ", ".join(chosen))] if chosen else []

    def rules_of(self, setup: Mapping[str, Any] | None, ruleset_version: str | None) -> dict[str, Any]:
        """What the engine's ``Game.new`` (and its players) take of a record's rules."""
        return {"ruleset": self.ruleset_number(ruleset_version), "variants": (setup or {}).get("variants", ())}

    # A game whose set-up is its variants alone (Stone Age, Hunters and Gatherers).

    def complete_setup(self, players: int, seed: int | None, setup: dict[str, Any],
                       ruleset_version: str) -> dict[str, Any]:
        return self.check_variants(setup, ruleset_version)

    def describe_setup(self, setup: Mapping[str, Any]) -> list[tuple[str, str]]:
        return self.describe_variants(setup)

    def new_state(self, players: int, seed: int | None, setup: Mapping[str, Any] | None = None,
                  ruleset_version: str | None = None) -> StateT:
        return self.engine.Game.new(players, seed, **self.rules_of(setup, ruleset_version))
