"""What the tests of the readers' languages share: the catalogues, the English a translation
never uses, and what counts as a word left untranslated or as notation."""

from __future__ import annotations

import re
from pathlib import Path

import polib
from django.conf import settings

LOCALE = Path(settings.BASE_DIR) / "locale"

NOTATION = [
    re.compile(r"\b[A-Z]{1,3}\d{0,3}@-?\d+,-?\d+"),          # a tile laid: IC01@13,1
    re.compile(r"\b\w+=[\w,:.-]+"),                           # a payload's key=value: dice=6
    re.compile(r"\b[a-z]+(?:_[a-z]+)+\b"),                    # a snake_case key: clay_pit
    re.compile(r"\b(?:chip|meeple|figure):\w+"),              # chip:violet:1
]
BRANDS = {"ludolog", "boardgamegeek", "bgg", "stats", "unimarc", "marcxml", "pmb", "koha", "oai", "pmh", "csv",
          "pdf", "json", "api", "qr", "ean", "isbn", "esar", "ical", "url", "e-mail", "email"}
"""Words every language writes as they are (products, formats, standards)."""
FOLDED = ("expert", "technical")
"""The classes of the disclosures that fold notation away for those who ask for it."""


def catalogue(language: str) -> polib.POFile:
    return polib.pofile(str(LOCALE / language / "LC_MESSAGES" / "django.po"))


def words_of(text: str) -> set[str]:
    text = re.sub(r"%\(\w+\)[sdif]|\{\w*\}|<[^>]+>|&\w+;", " ", text)
    return {word.casefold() for word in re.findall(r"[^\W\d_]+", text)}


def english_only_words(language: str) -> set[str]:
    """Words of the English messages that the language's catalogue never writes (so not "Type",
    "Score" or "Stone" where a translation keeps it)."""
    po = catalogue(language)
    english: set[str] = set()
    translated: set[str] = set()
    for entry in po:
        if entry.obsolete:
            continue
        english |= words_of(entry.msgid) | words_of(entry.msgid_plural or "")
        for text in [entry.msgstr, *entry.msgstr_plural.values()]:
            translated |= words_of(text)
    return {word for word in english - translated if len(word) >= 3}


def offending(text: str, english: set[str], names: set[str]) -> list[str]:
    found = [match.group(0) for pattern in NOTATION for match in pattern.finditer(text)]
    for word in re.findall(r"[^\W\d_]+", text):
        folded = word.casefold()
        if folded in english and folded not in names and folded not in BRANDS:
            found.append(word)
    return found
