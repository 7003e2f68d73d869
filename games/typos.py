"""Which word of the catalogue a mistyped word was meant to be: "carcassone" is "carcassonne".

Candidates are the catalogue's words alike enough in their trigrams (PostgreSQL's ``pg_trgm``
finds them with its index, ``trigram_similarity`` is its measure in Python for other databases),
and those that begin with the same two letters: in a short word two letters swapped leave too few
trigrams in common ("foert", "foret"), and a typo is rarer in the first letters. The nearest is
the one fewest keystrokes away (a letter missed, added, changed or two swapped), then the most
alike, and it must be near enough to be a typo, not another word.

>>> nearest("carcassone", ["carcassonne", "carcasses", "cassis"])
'carcassonne'
>>> nearest("tijdperc", ["tijdperk", "tijd"])
'tijdperk'
>>> nearest("foert", ["foret", "forest"])
'foret'
>>> nearest("zzzzzz", ["carcassonne"]) is None, nearest("1998", ["1999"]) is None
(True, True)
"""

from __future__ import annotations

from collections.abc import Iterable

SIMILARITY_THRESHOLD = 0.3
"""pg_trgm's default ``similarity_threshold``: the ``%`` operator's, kept here for other databases."""

SAME_START = 2
"""Letters a candidate shares at the start with the mistyped word, when its trigrams are not alike."""

SHORTEST_CORRECTED = 4
"""Shorter words are not corrected: one keystroke away from a three-letter word is too many words.
Nor are numbers, nor words with digits: 1998 is not a typo of 1999."""


def trigrams(word: str) -> set[str]:
    """The trigrams of one word as pg_trgm counts them: two blanks before, one after.

    >>> sorted(trigrams("jeu"))
    ['  j', ' je', 'eu ', 'jeu']
    """
    padded = f"  {word} "
    return {padded[i:i + 3] for i in range(len(padded) - 2)}


def trigram_similarity(a: str, b: str) -> float:
    """pg_trgm's ``similarity`` of two words: shared trigrams over the trigrams of either.

    >>> round(trigram_similarity("tijdperc", "tijdperk"), 3)
    0.636
    """
    first, second = trigrams(a), trigrams(b)
    return len(first & second) / len(first | second)


def edit_distance(a: str, b: str) -> int:
    """Letters added, removed or changed, and neighbours swapped, to turn ``a`` into ``b``.

    >>> edit_distance("carcassone", "carcassonne"), edit_distance("strategie", "stratgeie")
    (1, 1)
    """
    previous_row, row = None, list(range(len(b) + 1))
    for i, char_a in enumerate(a, 1):
        before_previous_row, previous_row = previous_row, row
        row = [i] + [0] * len(b)
        for j, char_b in enumerate(b, 1):
            row[j] = min(previous_row[j] + 1, row[j - 1] + 1, previous_row[j - 1] + (char_a != char_b))
            if i > 1 and j > 1 and char_a == b[j - 2] and a[i - 2] == char_b:
                row[j] = min(row[j], before_previous_row[j - 2] + 1)
    return row[-1]


def may_be_meant(word: str, candidate: str) -> bool:
    """Whether ``candidate`` is a candidate for ``word``: alike in trigrams, or the same start.

    >>> may_be_meant("foert", "foret"), may_be_meant("tijdperc", "tijdperk"), may_be_meant("jeux", "yeux")
    (True, True, False)
    """
    return candidate[:SAME_START] == word[:SAME_START] or trigram_similarity(word, candidate) >= SIMILARITY_THRESHOLD


def allowed_distance(word: str) -> int:
    """How many keystrokes a typo may be: one in a short word, two in a long one.

    >>> allowed_distance("spel"), allowed_distance("carcassone")
    (1, 2)
    """
    return 1 if len(word) < 7 else 2


def nearest(word: str, candidates: Iterable[str]) -> str | None:
    """The candidate ``word`` was most likely meant to be, ``None`` if none is near enough."""
    if len(word) < SHORTEST_CORRECTED or not word.isalpha():
        return None
    best = None
    for candidate in candidates:
        if candidate == word or abs(len(candidate) - len(word)) > allowed_distance(word) \
                or not candidate.isalpha() or not may_be_meant(word, candidate):
            continue
        distance = edit_distance(word, candidate)
        if distance <= allowed_distance(word):
            key = (distance, -trigram_similarity(word, candidate), candidate)
            if best is None or key < best:
                best = key
    return best[2] if best else None
