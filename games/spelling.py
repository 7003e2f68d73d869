"""What two spellings of one name share, for names typed at a table and titles typed or imported.

"alice", "ALICE " and "Alíce" are Alice; "Carcassonne à la préhistoire" typed without its accents
is the same box. The key is kept beside the players (``records.Player.name_key``) and worked out
for titles when a game is looked for by its title (``games.selectors``). ``names.js`` is this
module's key for the browser, held equal by ``tests/browser/test_name_key_browser.py``.
"""

from __future__ import annotations

import unicodedata

UNSEEN_AT_THE_ENDS = frozenset({"Cc", "Cf", "Zs", "Zl", "Zp"})
"""Unicode categories trimmed from a name's ends: controls, format characters (zero-width
spaces and joiners, the byte order mark, direction marks, the soft hyphen) and spaces. Inside a
name a joiner stays: it is part of an emoji or of a Persian or Indic word."""

UNSEEN = UNSEEN_AT_THE_ENDS | {"Cn", "Co", "Cs", "Mn", "Me"}
"""Categories that show nothing by themselves: besides those above, unassigned and private-use
code points, surrogates, and accents with no letter to sit on."""

BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
"""Letters drawn as nothing: the Hangul fillers and the blank Braille cell."""


def _unseen_at_an_end(char: str) -> bool:
    return unicodedata.category(char) in UNSEEN_AT_THE_ENDS or char in BLANK_LETTERS


def tidy_name(name: str) -> str:
    """The name as a new player gets it: spaces collapsed, ends trimmed of whatever does not show.

    >>> tidy_name("  Jean   Paul ")
    'Jean Paul'
    >>> tidy_name("\u200bAlice\ufeff")
    'Alice'
    """
    start, end = 0, len(name)
    while start < end and _unseen_at_an_end(name[start]):
        start += 1
    while end > start and _unseen_at_an_end(name[end - 1]):
        end -= 1
    return " ".join(name[start:end].split())


def shows(name: str) -> bool:
    """Whether the name has a character that shows.

    >>> shows("Zoé"), shows("\u200b\u2060"), shows("\u0301"), shows("\u3164")
    (True, False, False, False)
    """
    return any(unicodedata.category(char) not in UNSEEN and char not in BLANK_LETTERS for char in name)


def name_key(name: str) -> str:
    """What two spellings of one name share: case folded, accents dropped, spaces collapsed.

    >>> name_key(" Chloé  ") == name_key("CHLOE") == "chloe"
    True
    >>> name_key("Jean-Paul Şen")
    'jean-paul sen'
    """
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    return tidy_name("".join(char for char in decomposed if not unicodedata.combining(char)))
