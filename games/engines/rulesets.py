"""Rulesets and variants, the same for every engine that has them: the rules a game is played
under, chosen at its start.

A *ruleset* is a version of an engine's rules: a game pins one and keeps it, so that a game
recorded under ruleset 1 replays under ruleset 1 whatever the engine learns later. A *variant* is
a named table option (BoardGameArena's word) that a club may choose for a game, where the
documents genuinely differ; each says where it comes from. Each engine lists its own in its
``rulesets`` module and checks choices with a :class:`RuleBook` of them.

>>> book = RuleBook("Chess", {1: Ruleset(1, "FIDE", "the handbook")},
...                 {"no_castling": Variant("no_castling", "No castling", "a club", False, frozenset({1}))})
>>> sorted(book.choose_variants(1, {"no_castling"}))
['no_castling']
>>> book.choose_variants(2)
Traceback (most recent call last):
...
ValueError: unknown Chess ruleset 2 (known: 1)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

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


@dataclass(frozen=True)
class RuleBook:
    """One game's rulesets and variants, and the checks of a choice of them."""

    game: str
    """The game's name, for the messages."""
    rulesets: Mapping[int, Ruleset]
    variants: Mapping[str, Variant]

    def check_ruleset(self, ruleset: object) -> int:
        """``ruleset`` if this game has it; else ``ValueError`` naming it."""
        if isinstance(ruleset, bool) or not isinstance(ruleset, int) or ruleset not in self.rulesets:
            known = ", ".join(map(str, sorted(self.rulesets)))
            raise ValueError(f"unknown {self.game} ruleset {ruleset!r} (known: {known})")
        return ruleset

    def choose_variants(self, ruleset: int, chosen: VariantChoice = frozenset()) -> frozenset[str]:
        """The variants a game of ``ruleset`` plays: every variant's default, changed by ``chosen``.

        ``ValueError`` names an unknown ruleset or variant, or a variant the ruleset does not have.
        """
        self.check_ruleset(ruleset)
        _not_a_lone_name(chosen)
        wanted = dict(chosen) if isinstance(chosen, Mapping) else dict.fromkeys(chosen, True)
        for name, on in wanted.items():
            if name not in self.variants:
                raise ValueError(f"unknown {self.game} variant {name!r} (known: {', '.join(sorted(self.variants))})")
            if not isinstance(on, bool):
                raise ValueError(f"variant {name!r} is on (true) or off (false), not {on!r}")
            if on and ruleset not in self.variants[name].rulesets:
                raise ValueError(f"{self.game} variant {name!r} is not played under ruleset {ruleset}")
        return frozenset(name for name, variant in self.variants.items()
                         if ruleset in variant.rulesets and wanted.get(name, variant.default))

    def exactly(self, names: Iterable[str]) -> dict[str, bool]:
        """The choice that plays ``names`` and no other variant, whatever the defaults: how a
        stored game, which lists every variant it played, is set up again."""
        _not_a_lone_name(names)
        chosen = frozenset(names)
        return {name: name in chosen for name in sorted({*self.variants, *chosen})}

    def check_variants(self, ruleset: int, names: Iterable[str]) -> frozenset[str]:
        """The variants a stored game names (every one it played, defaults included), checked."""
        return self.choose_variants(ruleset, self.exactly(names))


def _not_a_lone_name(chosen: object) -> None:
    if isinstance(chosen, str):  # it would read as its letters
        raise ValueError(f"variants are a set of names or a mapping, not the string {chosen!r}")
