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

from collections.abc import Mapping
from typing import Final

from games.engines.rulesets import RuleBook, Ruleset, Variant, VariantChoice

__all__ = ["DEFAULT_RULESET", "LATEST_RULESET", "RULESETS", "VARIANTS", "Ruleset", "Variant", "VariantChoice",
           "check_ruleset", "check_variants", "choose_variants", "exactly"]

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


_BOOK: Final = RuleBook('Hunters and Gatherers', RULESETS, VARIANTS)
check_ruleset = _BOOK.check_ruleset
choose_variants = _BOOK.choose_variants
exactly = _BOOK.exactly
"""The choice that plays the names given and no other variant, whatever the defaults: how a stored
game, which lists every variant it played, is set up again."""
check_variants = _BOOK.check_variants
