"""The stem of a folded word in a reader's language: what "jeux" and "jeu", "spellen" and "spel",
"hry" and "hra" share, so that a search in one form finds the catalogue's other forms.

Words arrive folded (lower case, no accents: ``games.search.fold``), since that is how readers
type and how the catalogue's words are kept; both sides of a comparison go through the same
function, so a stem only has to be shared, not to be a real word.

French, Dutch and English: the Snowball stemmers of ``snowballstemmer`` (the Snowball project's
own Python build), the algorithms PostgreSQL's full-text configurations use. Snowball's French
leaves the plural ``x`` of the words in -eu (``jeux``, ``feux``, ``cheveux``), the first word of a
ludothèque's categories: it is taken off here.

Czech: Snowball has a Czech stemmer, but it reads the diacritics ("strategických" is stemmed,
"strategickych" is not, and "hry" is too short for it), and Czech readers often type without
them. ``czech_stem`` is a light stemmer for folded words after J. Dolamic and J. Savoy,
"Indexing and stemming approaches for the Czech language", Information Processing & Management
45 (2009), 714–720: one case ending taken off, then a possessive suffix, then the consonant
changes before those endings and the mobile ``e`` (karet/karta, her/hra) undone.

Other languages: no stem (the search then matches the words as typed, as before).

>>> [stem(word, "fr") for word in ("jeux", "jeu", "strategie", "strategique")]
['jeu', 'jeu', 'strateg', 'strateg']
>>> [stem(word, "nl") for word in ("strategiespellen", "strategiespel", "spellen", "spel")]
['strategiespel', 'strategiespel', 'spel', 'spel']
>>> [stem(word, "en") for word in ("games", "game", "strategies", "strategy")]
['game', 'game', 'strategi', 'strategi']
>>> [stem(word, "cs") for word in ("hra", "hry", "her", "hrami", "strategicka", "strategickych")]
['hr', 'hr', 'hr', 'hr', 'strategick', 'strategick']
>>> stem("games", "de")
'games'
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import snowballstemmer

SNOWBALL = {"fr": "french", "nl": "dutch", "en": "english"}


def _french_stem(word: str, snowball=snowballstemmer.stemmer("french")) -> str:
    stemmed = snowball.stemWord(word)
    return stemmed[:-1] if stemmed.endswith("eux") else stemmed


def _snowball(language: str) -> Callable[[str], str]:
    return snowballstemmer.stemmer(SNOWBALL[language]).stemWord


# --- Czech -----------------------------------------------------------------------------------------
#
# Dolamic and Savoy's light stemmer keeps stems of three letters or more; here two, so that the
# one-syllable "hra" (a game) and its forms (hry, hrou, hrami, her) are stemmed too. The endings
# are theirs, folded (ých and ych are one ending here), each tried only where it leaves two letters.

_CASE_ENDINGS = (
    ("atech",),
    ("etem", "atum"),
    ("ech", "ich", "eho", "emi", "emu", "ete", "eti", "iho", "imi", "imu", "ach", "ata", "aty", "ych", "ama",
     "ami", "ove", "ovi", "ymi"),
    ("em", "es", "im", "um", "at", "am", "os", "us", "ym", "mi", "ou"),
    ("a", "e", "i", "o", "u", "y"),
)
_CASE_ENDINGS_LONGEST_FIRST = sorted(((ending, len(ending)) for group in _CASE_ENDINGS for ending in group),
                                     key=lambda pair: -pair[1])
_POSSESSIVE_SUFFIXES = ("ov", "in", "uv")
_SHORTEST_STEM = 2


def _without_case(word: str) -> str:
    for ending, length in _CASE_ENDINGS_LONGEST_FIRST:
        if word.endswith(ending) and len(word) - length >= _SHORTEST_STEM:
            return word[:-length]
    return word


def _without_possessive(word: str) -> str:
    if len(word) > 5 and word.endswith(_POSSESSIVE_SUFFIXES):
        return word[:-2]
    return word


def _undo_softening(word: str) -> str:
    # An ending in e or i softened the consonant before it (kluk, kluci; strategický, strategičtí);
    # a mobile e appears where a case has no ending (karta, karet; hra, her).
    if word.endswith("ct"):
        return word[:-2] + "ck"
    if word.endswith("st"):
        return word[:-2] + "sk"
    if word.endswith("c"):
        return word[:-1] + "k"
    if word.endswith("z"):
        return word[:-1] + "h"
    if len(word) > 2 and word[-2] == "e":
        return word[:-2] + word[-1]
    return word


def czech_stem(word: str) -> str:
    """The light stem of a folded Czech word.

    >>> [czech_stem(w) for w in ("kostka", "kostky", "kostek", "karta", "karet", "kluk", "kluci")]
    ['kostk', 'kostk', 'kostk', 'kart', 'kart', 'kluk', 'kluk']
    >>> [czech_stem(w) for w in ("ceska", "ceske", "cesky", "deskova", "deskove", "stolnich", "stolni")]
    ['cesk', 'cesk', 'cesk', 'desk', 'desk', 'stoln', 'stoln']
    >>> [czech_stem(w) for w in ("strategicti", "strategicky", "doba", "dobou", "kamenne", "kamenna")]
    ['strategick', 'strategick', 'dob', 'dob', 'kamenn', 'kamenn']
    """
    return _undo_softening(_without_possessive(_without_case(word)))


STEMMERS: dict[str, Callable[[str], str]] = {"fr": _french_stem, "nl": _snowball("nl"), "en": _snowball("en"),
                                             "cs": czech_stem}
"""The stemmer of each language the site is read in, by its primary language subtag."""


def stems_in(language: str | None) -> bool:
    """Whether words are stemmed for readers of ``language`` (``"fr"``, ``"nl-be"``...).

    >>> stems_in("nl-be"), stems_in("de"), stems_in(None)
    (True, False, False)
    """
    return (language or "").split("-")[0].lower() in STEMMERS


@lru_cache(maxsize=200_000)
def stem(word: str, language: str | None) -> str:
    """The stem of the folded ``word`` for readers of ``language``; the word itself where that
    language has no stemmer. Kept per word: a search stems the catalogue's words near its own."""
    stemmer = STEMMERS.get((language or "").split("-")[0].lower())
    return stemmer(word) if stemmer else word
