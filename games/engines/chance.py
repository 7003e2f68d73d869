"""Seeded chance that deals the same on every Python: shuffles, dice, draws.

A seeded game stores only its seed: its piles are shuffled, its dice rolled and its chips drawn
again at every replay, for as long as its record is kept, so none of it may change.
``random.Random``'s shuffle, randint and sample are CPython's to change (how they draw a number
below ``n`` has changed before). The functions here are those of Python 3.11, drawn from
``Random.getrandbits`` (the Mersenne Twister's stream, which CPython keeps stable), written here so
that everything dealt so far comes out the same on any later Python. They also draw each number
without a call of its own, which a replay, shuffling its piles first, notices.

>>> import random
>>> pile = list("ABCDEFGH")
>>> shuffle(pile, random.Random(7))
>>> "".join(pile)
'GHCEADBF'
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from math import ceil, log
from typing import TypeVar

T = TypeVar("T")


def below(rng: random.Random, n: int) -> int:
    """A number from 0 to ``n - 1`` (``n`` > 0): ``getrandbits`` of ``n``'s bit length, drawn
    again while it is too large."""
    bits = n.bit_length()
    drawn = rng.getrandbits(bits)
    while drawn >= n:
        drawn = rng.getrandbits(bits)
    return drawn


def shuffle(items: list[T], rng: random.Random) -> None:
    """Shuffle ``items`` in place, as ``rng.shuffle(items)``: from the last place down, swap each
    item with one at a place :func:`below` or at it."""
    getrandbits = rng.getrandbits
    for i in reversed(range(1, len(items))):
        places = i + 1
        bits = places.bit_length()  # below(rng, places), written out: a pile has many places
        j = getrandbits(bits)
        while j >= places:
            j = getrandbits(bits)
        items[i], items[j] = items[j], items[i]


def roll(rng: random.Random, sides: int = 6) -> int:
    """A die of ``sides`` faces, 1 to ``sides``, as ``rng.randint(1, sides)``."""
    return 1 + below(rng, sides)


def sample(population: Sequence[T], k: int, rng: random.Random) -> list[T]:
    """``k`` different items of ``population`` in the order drawn, as ``rng.sample(population, k)``:
    a small population is drawn from a pool that shrinks, a large one by drawing places until a
    new one comes."""
    n = len(population)
    if not 0 <= k <= n:
        raise ValueError(f"cannot draw {k} of {n} items")
    result: list[T] = []
    setsize = 21  # where Python 3.11 chooses between the two ways
    if k > 5:
        setsize += 4 ** ceil(log(k * 3, 4))
    if n <= setsize:
        pool = list(population)
        for i in range(k):
            j = below(rng, n - i)
            result.append(pool[j])
            pool[j] = pool[n - i - 1]
    else:
        selected: set[int] = set()
        for _ in range(k):
            j = below(rng, n)
            while j in selected:
                j = below(rng, n)
            selected.add(j)
            result.append(population[j])
    return result
