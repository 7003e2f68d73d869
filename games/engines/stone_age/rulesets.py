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

from collections.abc import Mapping
from typing import Final

from games.engines.rulesets import RuleBook, Ruleset, Variant, VariantChoice

__all__ = ["DEFAULT_RULESET", "LATEST_RULESET", "RULESETS", "VARIANTS", "Ruleset", "Variant", "VariantChoice",
           "check_ruleset", "check_variants", "choose_variants", "exactly"]

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


_BOOK: Final = RuleBook('Stone Age', RULESETS, VARIANTS)
check_ruleset = _BOOK.check_ruleset
choose_variants = _BOOK.choose_variants
exactly = _BOOK.exactly
"""The choice that plays the names given and no other variant, whatever the defaults: how a stored
game, which lists every variant it played, is set up again."""
check_variants = _BOOK.check_variants
