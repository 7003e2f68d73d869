"""The figures a player may put on the tile just laid, one a turn, and who holds a feature.

A ``meeple`` (the base game's follower) and, with the rules of Inns & Cathedrals, the large
meeple (``big``) claim a feature: whoever has the most followers on it scores it, the large
meeple counting as two. Traders & Builders' ``builder`` (on a road or city) and ``pig`` (on a
field) claim nothing and are never counted: they only join a feature where their owner already
has a follower. Each kind's name is the word of the notation (``big:2``) and of the
:class:`~games.engines.carcassonne.actions.Action` field.

>>> sorted(holders([Figure(0, BIG, 5), Figure(1, MEEPLE, 7), Figure(1, BUILDER, 9)]))
[0]
>>> sorted(holders([Figure(0, BIG, 5), Figure(1, MEEPLE, 7), Figure(1, MEEPLE, 9)]))
[0, 1]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from games.engines.tiles import Figure, majority_owners

from .options import INNS_CATHEDRALS, TRADERS_BUILDERS

MEEPLE: Final = "meeple"
BIG: Final = "big"
BUILDER: Final = "builder"
PIG: Final = "pig"
KINDS: Final = (MEEPLE, BIG, BUILDER, PIG)
"""Every kind, in the order the notation writes them."""
SPECIAL: Final = (BIG, BUILDER, PIG)
"""The expansions' figures: one of each per player."""
EXPANSION_OF: Final = {BIG: INNS_CATHEDRALS, BUILDER: TRADERS_BUILDERS, PIG: TRADERS_BUILDERS}
STRENGTH: Final = {MEEPLE: 1, BIG: 2}
"""What a follower counts for in a majority; builders and pigs count for nothing."""
STANDS_ON: Final = {BUILDER: ("road", "city"), PIG: ("field",)}
"""Where the figures that follow a follower may go (followers go on any feature)."""


def is_follower(kind: str) -> bool:
    return kind in STRENGTH


def holders(figures: Iterable[Figure]) -> set[int]:
    """The seats with the most followers on a feature (ties all hold it)."""
    if isinstance(figures, Sequence) and len(figures) == 1:  # the usual feature: one follower holds it (a builder or pig alone, nobody)
        figure = figures[0]
        return {figure.owner} if STRENGTH.get(figure.kind, 0) > 0 else set()
    counts: dict[int, int] = {}
    for figure in figures:
        counts[figure.owner] = counts.get(figure.owner, 0) + STRENGTH.get(figure.kind, 0)
    return majority_owners(counts)
