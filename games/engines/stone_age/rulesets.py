"""Stone Age's rulesets and variants: the rules a game is played under, chosen at its start.

A *ruleset* is a version of the engine's rules: a game pins one and keeps it, so that a game
recorded under ruleset 1 replays under ruleset 1 whatever the engine learns later. A *variant*
is a named table option (BoardGameArena's word) that a club may choose for a game, where the
documents genuinely differ; each says where it comes from.

>>> sorted(RULESETS), sorted(VARIANTS)
([1, 2], ['hunting_grounds_again', 'newborn_eats_next_round'])
>>> sorted(choose_variants(2, {"newborn_eats_next_round"}))
['newborn_eats_next_round']
>>> choose_variants(3)
Traceback (most recent call last):
...
ValueError: unknown Stone Age ruleset 3 (known: 1, 2)
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
        "Feeding deducts the agriculture level from the people to feed; agriculture beyond the "
        "tribe's size gives nothing. Every game recorded before rulesets existed.",
        "Seed 002 (Stone Age / Stenen Tijdperk rules summary), 'Nourrir la tribu': \"Déduisez d'abord "
        "votre niveau d'agriculture du nombre de membres ; payez le reste avec vos jetons Nourriture.\" "
        "Read then as the whole rule; it describes the usual case and is silent on a surplus.",
    ),
    2: Ruleset(
        2,
        "Feeding as published: each tribe takes food equal to its agriculture level, then eats one "
        "food a person; the food not eaten is kept.",
        "shared/reference/stone_age/FACTS.md §6, Feeding, from the English rulebook (RB): \"Each player "
        "gains food equal to his agriculture level, then pays 1 food per person. Leftover food is kept.\" "
        "Where seed 002 is silent (a surplus), the published rule holds.",
    ),
}
DEFAULT_RULESET: Final = 1
"""What a game not told otherwise plays: ``Game.new(players, seed)`` and every stored game."""
LATEST_RULESET: Final = max(RULESETS)

VARIANTS: Final[Mapping[str, Variant]] = {
    "newborn_eats_next_round": Variant(
        "newborn_eats_next_round",
        "The person a hut adds eats from the next round on, not at the feeding of the round it arrives.",
        "Seed 002, 'Résolution des actions': \"dans la hutte, vous gagnez 1 nouveau membre pour la manche "
        "suivante\" gives the new member for the next round, and its feeding (\"Chaque membre consomme "
        "1 nourriture\") is silent on whether it already eats this round. FACTS.md is silent on a "
        "newborn as such (§6: \"Hut: +1 person\", then feeding \"pays 1 food per person\"). The English "
        "rulebook it draws on has the hut's player \"take an extra figure from the supply and add it to "
        "his player board\", then each player \"pay 1 food to the supply for each figure she has on her "
        "player board\": the default, the newborn eats at once.",
        False,
        frozenset({1, 2}),
    ),
    "hunting_grounds_again": Variant(
        "hunting_grounds_again",
        "A tribe may send more people to the hunting grounds where it already has people this round.",
        "FACTS.md §6, Placement: \"A player may never add figures to a location where he already has "
        "figures this round. This includes the hunting grounds; Yucata relaxes that for hunting only.\" "
        "(Yucata's rules page, YUC). The English rulebook, the default: \"A player may never place "
        "figures on a location where he already has figures.\" Seed 002 is silent: \"chacun place un "
        "ou plusieurs membres de sa tribu sur un seul lieu du plateau\" is one place a placing turn.",
        False,
        frozenset({1, 2}),
    ),
}


def check_ruleset(ruleset: object) -> int:
    """``ruleset`` if this engine knows it; else ``ValueError`` naming it."""
    if isinstance(ruleset, bool) or not isinstance(ruleset, int) or ruleset not in RULESETS:
        known = ", ".join(map(str, sorted(RULESETS)))
        raise ValueError(f"unknown Stone Age ruleset {ruleset!r} (known: {known})")
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
            raise ValueError(f"unknown Stone Age variant {name!r} (known: {', '.join(sorted(VARIANTS))})")
        if not isinstance(on, bool):
            raise ValueError(f"variant {name!r} is on (true) or off (false), not {on!r}")
        if on and ruleset not in VARIANTS[name].rulesets:
            raise ValueError(f"Stone Age variant {name!r} is not played under ruleset {ruleset}")
    return frozenset(name for name, variant in VARIANTS.items()
                     if ruleset in variant.rulesets and wanted.get(name, variant.default))


def exactly(names: Iterable[str]) -> dict[str, bool]:
    """The choice that plays ``names`` and no other variant, whatever the defaults: how a stored
    game, which lists every variant it played, is set up again.

    >>> exactly(["hunting_grounds_again"])["newborn_eats_next_round"]
    False
    """
    _not_a_lone_name(names)
    chosen = frozenset(names)
    return {name: name in chosen for name in sorted({*VARIANTS, *chosen})}


def check_variants(ruleset: int, names: Iterable[str]) -> frozenset[str]:
    """The variants a stored game names (every one it played, defaults included), checked."""
    return choose_variants(ruleset, exactly(names))


def _not_a_lone_name(chosen: object) -> None:
    if isinstance(chosen, str):  # it would read as its letters
        raise ValueError(f"variants are a set of names or a mapping, not the string {chosen!r}")
