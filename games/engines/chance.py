"""Shuffling a seeded game's draw pile, the same way on every Python.

A seeded game stores only its seed: its piles are shuffled again at every replay, for as long as
its record is kept, so the shuffle must not change. ``random.Random.shuffle`` is CPython's to
change (how it draws a number below ``n`` has changed before). :func:`shuffle` is the
Fisher–Yates shuffle that Python 3.11's ``Random.shuffle`` performs, drawn from
``Random.getrandbits`` (the Mersenne Twister's stream, which CPython keeps stable), written here
so that every pile shuffled so far comes out the same on any later Python. It also draws each
number without a call of its own, which a replay, shuffling both piles first, notices.

>>> import random
>>> pile = list("ABCDEFGH")
>>> shuffle(pile, random.Random(7))
>>> "".join(pile)
'GHCEADBF'
"""

from __future__ import annotations

import random
from typing import TypeVar

T = TypeVar("T")


def shuffle(items: list[T], rng: random.Random) -> None:
    """Shuffle ``items`` in place with ``rng``: from the last place down, swap each item with one
    at a place drawn below or at it (``getrandbits`` of the place count's bit length, drawn again
    while it is too large)."""
    getrandbits = rng.getrandbits
    for i in reversed(range(1, len(items))):
        places = i + 1
        bits = places.bit_length()
        j = getrandbits(bits)
        while j >= places:
            j = getrandbits(bits)
        items[i], items[j] = items[j], items[i]
