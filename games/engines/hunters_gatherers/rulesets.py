"""Hunters and Gatherers' rulesets and variants: the rules a game is played under, chosen at its start.

A *ruleset* is a version of the engine's rules: a game pins one and keeps it. A *variant* is a
named table option (BoardGameArena's word) that a club may choose where the documents genuinely
differ; each says where it comes from, quoting the sentences that differ.

>>> sorted(RULESETS), sorted(VARIANTS)
([1], ['figures_home_at_end_of_turn'])
>>> choose_variants(1, {"figures_home_at_end_of_turn": True})
frozenset({'figures_home_at_end_of_turn'})
>>> choose_variants(1, {"shrine_for_all"})
Traceback (most recent call last):
...
ValueError: unknown Hunters and Gatherers variant 'shrine_for_all' (known: figures_home_at_end_of_turn)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Final

VariantChoice = Iterable[str] | Mapping[str, bool]
"""The variants asked for: names to play, or name → whether to play it (the others keep their
defaults)."""


@dataclass(frozen=True)
class Ruleset:
    version: int
    description: str
    source: str


@dataclass(frozen=True)
class Variant:
    name: str
    description: str
    source: str
    """Which document says so, and where; the sentences quoted where the documents differ."""
    default: bool
    rulesets: frozenset[int]
    """The rulesets a game may choose this variant under."""


RULESETS: Final[Mapping[int, Ruleset]] = {
    1: Ruleset(
        1,
        "The first edition (2002) as the French and Czech rulebooks give it, with the engine's "
        "readings where they are silent. Every game recorded before rulesets existed.",
        "Seed 000 (the French catalogue record with the full rules) and seed 001 (the Czech "
        "rulebook); the readings are listed in the package docstring.",
    ),
}
DEFAULT_RULESET: Final = 1
"""What a game not told otherwise plays: ``Game.new(players, seed)`` and every stored game."""
LATEST_RULESET: Final = max(RULESETS)

VARIANTS: Final[Mapping[str, Variant]] = {
    "figures_home_at_end_of_turn": Variant(
        "figures_home_at_end_of_turn",
        "Gatherers and fishers freed by a scoring reach their supply at the end of the turn only, "
        "so they cannot go on that turn's bonus tile.",
        "Seed 000, the French rulebook, 'Retour des hommes dans la réserve des joueurs': \"Cela ne se "
        "produit cependant qu'à la fin du tour du joueur, et donc après qu'il a pu éventuellement placer "
        "un homme ou une hutte. Un joueur ne peut donc pas replacer au même tour un homme qu'il vient de "
        "récupérer.\" (The same section's \"Il est même parfois de réitérer immédiatement la même "
        "combinaison avec une tuile bonus!\" then needs another figure from the supply.) Seed 001, the "
        "Czech rulebook, 'Návrat figurek k majiteli', the default: \"Pokud hráč získal nárok na tažení "
        "bonusové karty, může tutéž figurku dokonce ještě v tomto tahu znova umístit, pokud chce.\" (a "
        "player who has earned a bonus tile may place the same figure again in this turn).",
        False,
        frozenset({1}),
    ),
}


def check_ruleset(ruleset: object) -> int:
    """``ruleset`` if this engine knows it; else ``ValueError`` naming it."""
    if isinstance(ruleset, bool) or not isinstance(ruleset, int) or ruleset not in RULESETS:
        known = ", ".join(map(str, sorted(RULESETS)))
        raise ValueError(f"unknown Hunters and Gatherers ruleset {ruleset!r} (known: {known})")
    return ruleset


def choose_variants(ruleset: int, chosen: VariantChoice = frozenset()) -> frozenset[str]:
    """The variants a game of ``ruleset`` plays: every variant's default, changed by ``chosen``.

    ``ValueError`` names an unknown ruleset or variant, or a variant the ruleset does not have.
    """
    check_ruleset(ruleset)
    _not_a_lone_name(chosen)
    wanted = dict(chosen) if isinstance(chosen, Mapping) else dict.fromkeys(chosen, True)
    for name, on in wanted.items():
        if name not in VARIANTS:
            raise ValueError(f"unknown Hunters and Gatherers variant {name!r} "
                             f"(known: {', '.join(sorted(VARIANTS))})")
        if not isinstance(on, bool):
            raise ValueError(f"variant {name!r} is on (true) or off (false), not {on!r}")
        if on and ruleset not in VARIANTS[name].rulesets:
            raise ValueError(f"Hunters and Gatherers variant {name!r} is not played under ruleset {ruleset}")
    return frozenset(name for name, variant in VARIANTS.items()
                     if ruleset in variant.rulesets and wanted.get(name, variant.default))


def exactly(names: Iterable[str]) -> dict[str, bool]:
    """The choice that plays ``names`` and no other variant, whatever the defaults: how a stored
    game, which lists every variant it played, is set up again."""
    _not_a_lone_name(names)
    chosen = frozenset(names)
    return {name: name in chosen for name in sorted({*VARIANTS, *chosen})}


def check_variants(ruleset: int, names: Iterable[str]) -> frozenset[str]:
    """The variants a stored game names (every one it played, defaults included), checked."""
    return choose_variants(ruleset, exactly(names))


def _not_a_lone_name(chosen: object) -> None:
    if isinstance(chosen, str):  # it would read as its letters
        raise ValueError(f"variants are a set of names or a mapping, not the string {chosen!r}")
