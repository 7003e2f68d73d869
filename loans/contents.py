"""A catalogue record's "Contenu" field read as a checklist: pure, the standard library only.

The field is what the box says, as a librarian typed it: items separated by commas or lines
(bullets allowed), a count in front ("79 tuiles paysage"), sometimes split into colours ("30
hommes de Cro-Magnon en 5 couleurs"), and often the publisher's prose after the list. The list
ends at the first full stop; an item with no count is one of it ("Livret de règles").

>>> parse_contents("79 tuiles paysage, 30 hommes de Cro-Magnon en 5 couleurs, 1 règle du jeu")
[ContentLine(kind='tuiles paysage', count=79, colours=None), ContentLine(kind='hommes de Cro-Magnon', count=30, colours=5), ContentLine(kind='règle du jeu', count=1, colours=None)]
>>> parse_contents("Contenu: 2 dés, Livret de règles. Des milliers d'années avant...")
[ContentLine(kind='dés', count=2, colours=None), ContentLine(kind='Livret de règles', count=1, colours=None)]
>>> parse_contents("• 68 ressources en bois (20 bois, 16 argile, 12 pierre, 20 or)\\n• deux plateaux")
[ContentLine(kind='ressources en bois (20 bois, 16 argile, 12 pierre, 20 or)', count=68, colours=None), ContentLine(kind='plateaux', count=2, colours=None)]
"""

from __future__ import annotations

import re
from typing import NamedTuple


class ContentLine(NamedTuple):
    kind: str
    count: int
    colours: int | None
    """How many colours the count is split into (``count`` is the total), when the box says so."""


NUMBER_WORDS = {"un": 1, "une": 1, "deux": 2, "trois": 3, "quatre": 4, "cinq": 5, "six": 6, "sept": 7,
                "huit": 8, "neuf": 9, "dix": 10, "douze": 12}
PREFIX = re.compile(r"^\s*(?:contenu(?:\s+de\s+la\s+bo[iî]te)?|matériel(?:\s+de\s+jeu)?)\s*:\s*", re.IGNORECASE)
BULLET = re.compile(r"^[\s•·*\-–—]+")
COUNT = re.compile(r"^(\d+)\s*(?:[x×]\s+)?(.+)$", re.IGNORECASE)
COLOURS = re.compile(r"\s+(?:en|dans|de)\s+(\d+|[a-z]+)\s+couleurs?\b", re.IGNORECASE)
SENTENCE_END = re.compile(r"\.(?=\s|$)")
LONGEST_UNCOUNTED = 80
"""Longer than this and with no count in front, a piece of text is prose, not a component."""


def _split_items(line: str) -> list[str]:
    """``line`` cut at its commas and semicolons, not those inside parentheses."""
    items, depth, current = [], 0, []
    for char in line:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char in ",;" and depth <= 0:
            items.append("".join(current))
            current = []
        else:
            current.append(char)
    items.append("".join(current))
    return items


def _count(word: str) -> int | None:
    return int(word) if word.isdigit() else NUMBER_WORDS.get(word.lower())


def parse_item(item: str) -> ContentLine | None:
    """One item of the list, or ``None`` for what is not one (empty, or prose).

    >>> parse_item("10 huttes en bois dans 5 couleurs")
    ContentLine(kind='huttes en bois', count=10, colours=5)
    >>> parse_item("une piste de score")
    ContentLine(kind='piste de score', count=1, colours=None)
    """
    text = BULLET.sub("", item).strip().rstrip(".").strip()
    if not text:
        return None
    count, kind, counted = 1, text, True
    match = COUNT.match(text)
    if match:
        count, kind = int(match.group(1)), match.group(2).strip()
    else:
        first, _space, rest = text.partition(" ")
        if rest and _count(first) is not None:
            count, kind = _count(first) or 1, rest.strip()
        else:
            counted = False
    colours = None
    found = COLOURS.search(kind)
    if found and _count(found.group(1)):
        colours = _count(found.group(1))
        kind = (kind[:found.start()] + kind[found.end():]).strip()
    if not kind or (not counted and len(kind) > LONGEST_UNCOUNTED):
        return None
    return ContentLine(kind, count, colours)


def parse_contents(text: str) -> list[ContentLine]:
    """The checklist in ``text``: one line per kind of component, in the box's order."""
    lines: list[ContentLine] = []
    for raw_line in PREFIX.sub("", text.strip()).splitlines():
        line = PREFIX.sub("", raw_line)
        end = SENTENCE_END.search(line)
        prose_follows = end is not None and line[end.end():].strip() != ""
        for item in _split_items(line[:end.start()] if end else line):
            parsed = parse_item(item)
            if parsed is not None:
                lines.append(parsed)
        if prose_follows:
            break
    return lines
