"""A record's checklist beside what its rules engine says is in the box: pure, the standard library only.

A librarian types the checklist from the box's "Contenu" ("79 tuiles paysage, 12 tuiles bonus…");
an engine that plays the game declares the pieces it knows (``games.engines.*.box``). Each engine
piece is paired with the checklist line that names it (the same words once case, accents,
plurals, parentheses, the material ("en bois") and small words are set aside, or words the
:data:`ALIASES` hold for the same thing), and the comparison lists the lines that agree, those
whose count differs, the engine's pieces the checklist lacks, and the lines the engine does not
know (a rules booklet, a bag: normal).

>>> from loans.contents import parse_contents
>>> from games.engines.box import BoxPiece
>>> lines = parse_contents("78 tuiles paysage, 12 tuiles bonus, Livret de règles")
>>> pieces = [BoxPiece("landscape_tiles", 79, "landscape tiles", "tuiles paysage"),
...           BoxPiece("bonus_tiles", 12, "bonus tiles", "tuiles bonus"), BoxPiece("huts", 10, "huts", "huttes")]
>>> found = compare(lines, pieces)
>>> [(pair.line.kind, pair.line.count, pair.piece.count) for pair in found.differing]
[('tuiles paysage', 78, 79)]
>>> [piece.key for piece in found.missing], [line.kind for _, line in found.unknown]
(['huts'], ['Livret de règles'])

Also the checks a checklist passes before it is saved (:func:`problems`) and the edits the
engine's answer offers (:func:`take_engine_count`, :func:`add_missing`), each a new list of lines.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, NamedTuple, Protocol

from .contents import ContentLine


class EnginePiece(Protocol):
    """What the comparison reads of an engine's piece (``games.engines.box.BoxPiece``)."""

    @property
    def key(self) -> str: ...
    @property
    def count(self) -> int: ...
    @property
    def name_en(self) -> str: ...
    @property
    def name_fr(self) -> str: ...
    @property
    def colours(self) -> int | None: ...


SMALL_WORDS: Final = frozenset({"de", "du", "des", "d", "la", "le", "les", "l", "à", "au", "aux", "et", "un", "une",
                                "of", "the", "a", "an", "and", "for", "pour"})
"""Words that say nothing of what a piece is ("hommes de Cro-Magnon", "Livret de règles").
Compared before accents are set aside, so that "dés" (dice) is not taken for "des"."""
MATERIALS: Final = frozenset({"bois", "carton", "plastique", "cuir", "métal", "tissu", "wood", "cardboard",
                              "plastic", "leather", "cloth"})
"""What a piece is made of, which one box says and another does not ("10 huttes en bois"); set
aside after "en" or "in" only, so that "20 bois" (wood, Stone Age's resource) stays."""
MATERIAL_PREPOSITIONS: Final = frozenset({"en", "in"})
MATERIAL_ADJECTIVES: Final = frozenset({"wooden", "plastic", "cardboard"})
ALIASES: Final = (
    ("tuile paysage", "tuile terrain", "landscape tile", "land tile"),
    ("meeple", "partisan", "follower"),
    ("homme cro magnon", "membre tribu", "tribe member"),
    ("map chip", "jeton carte"),
    ("jeton nourriture", "nourriture", "food token", "food"),
    ("figurine premier joueur", "premier joueur", "start player figure", "first player figure",
     "first player token"),
)
"""Names that are one piece where a box's word differs from the engine's, normalised; each group's
first is the name all of them are compared under."""
_ALIAS_OF: Final = {name: group[0] for group in ALIASES for name in group}
_PARENTHESES: Final = re.compile(r"\([^)]*\)")
_WORD: Final = re.compile(r"[^\W_]+")


def _without_accents(word: str) -> str:
    return "".join(char for char in unicodedata.normalize("NFKD", word) if not unicodedata.combining(char))


def _singular(word: str) -> str:
    return word[:-1] if len(word) > 3 and word[-1] in "sx" else word


def normalise(name: str) -> str:
    """The words of ``name`` that say which piece it is, in one spelling.

    >>> normalise("Hommes de Cro-Magnon"), normalise("Map–Chips (10 chacun en violet)")
    ('homme cro magnon', 'map chip')
    >>> normalise("huttes en bois"), normalise("dés"), normalise("plateaux individuels de joueur")
    ('hutte', 'des', 'plateau individuel joueur')
    """
    kept: list[str] = []
    for word in _WORD.findall(_PARENTHESES.sub(" ", name.casefold())):
        if word in MATERIALS and kept and kept[-1] in MATERIAL_PREPOSITIONS:
            kept.pop()  # "en bois": what it is made of
        elif word not in SMALL_WORDS and word not in MATERIAL_ADJECTIVES:
            kept.append(word)
    return " ".join(_singular(_without_accents(word)) for word in kept)


def piece_name(name: str) -> str:
    """``name`` normalised and read through the aliases: two names of one piece give one answer.

    >>> piece_name("partisans") == piece_name("Meeples"), piece_name("tuiles Terrain") == piece_name("tuiles paysage")
    (True, True)
    """
    normal = normalise(name)
    return _ALIAS_OF.get(normal, normal)


@dataclass(frozen=True)
class Pairing:
    """A checklist line and the engine's piece it names."""

    index: int
    """The line's place in the checklist."""
    line: ContentLine
    piece: EnginePiece

    @property
    def agrees(self) -> bool:
        return self.line.count == self.piece.count


@dataclass(frozen=True)
class Comparison:
    agreeing: tuple[Pairing, ...]
    differing: tuple[Pairing, ...]
    """Lines whose count is not the engine's (checklist N, engine M)."""
    missing: tuple[EnginePiece, ...]
    """The engine's pieces no line names, in the engine's order."""
    unknown: tuple[tuple[int, ContentLine], ...]
    """The lines the engine does not know, with their place in the checklist."""

    def pairing_at(self, index: int) -> Pairing | None:
        """The pairing of the checklist's line ``index``, if the engine knows that line."""
        return next((pair for pair in (*self.agreeing, *self.differing) if pair.index == index), None)

    @property
    def agrees(self) -> bool:
        return not self.differing and not self.missing


def compare(lines: Sequence[ContentLine], pieces: Sequence[EnginePiece]) -> Comparison:
    """Pair each of the engine's ``pieces`` with the first line of ``lines`` that names it (by its
    French or its English name), then sort the pairs and what is left over."""
    names = [piece_name(line.kind) for line in lines]
    taken: set[int] = set()
    pairs: list[Pairing] = []
    missing: list[EnginePiece] = []
    for piece in pieces:
        wanted = {piece_name(piece.name_fr), piece_name(piece.name_en)}
        index = next((i for i, name in enumerate(names) if i not in taken and name in wanted), None)
        if index is None:
            missing.append(piece)
            continue
        taken.add(index)
        pairs.append(Pairing(index, lines[index], piece))
    pairs.sort(key=lambda pair: pair.index)
    return Comparison(
        agreeing=tuple(pair for pair in pairs if pair.agrees),
        differing=tuple(pair for pair in pairs if not pair.agrees),
        missing=tuple(missing),
        unknown=tuple((i, line) for i, line in enumerate(lines) if i not in taken),
    )


# --- checking and editing a checklist --------------------------------------------------------------

class Problem(NamedTuple):
    """Why a checklist cannot be saved: a stable ``reason`` and the line it is about."""

    reason: str
    """``empty_kind``, ``negative_count``, ``negative_colours``, ``duplicate_kind``, ``kind_too_long``."""
    index: int


LONGEST_KIND: Final = 120
"""The catalogue's column (``loans.models.Component.kind``)."""


def same_kind(kind: str) -> str:
    """What two kinds are compared by when a checklist must not name one twice: the typed words,
    case and spacing aside (the engine's looser pairing is for reading, not for refusing)."""
    return " ".join(kind.casefold().split())


def problems(lines: Sequence[ContentLine]) -> list[Problem]:
    """What is wrong with ``lines`` as a checklist, in the lines' order; empty when it may be saved.

    >>> problems([ContentLine("dés", 7, None), ContentLine(" ", 1, None), ContentLine("Dés", -1, None)])
    [Problem(reason='empty_kind', index=1), Problem(reason='negative_count', index=2), Problem(reason='duplicate_kind', index=2)]
    """
    found: list[Problem] = []
    seen: set[str] = set()
    for index, line in enumerate(lines):
        kind = same_kind(line.kind)
        if not kind:
            found.append(Problem("empty_kind", index))
        elif len(line.kind.strip()) > LONGEST_KIND:
            found.append(Problem("kind_too_long", index))
        if line.count < 0:
            found.append(Problem("negative_count", index))
        if line.colours is not None and line.colours < 0:
            found.append(Problem("negative_colours", index))
        if kind and kind in seen:
            found.append(Problem("duplicate_kind", index))
        seen.add(kind)
    return found


def version(lines: Sequence[ContentLine]) -> str:
    """A short fingerprint of ``lines``: a page edits the checklist it was shown, and an edit made
    on a checklist another librarian has changed since is refused rather than overwriting theirs.

    >>> version([ContentLine("dés", 7, None)]) == version([ContentLine("dés", 7, None)]) != version([])
    True
    """
    text = "\n".join(f"{line.kind}\t{line.count}\t{line.colours}" for line in lines)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def take_engine_count(lines: Sequence[ContentLine], pieces: Sequence[EnginePiece], index: int) -> list[ContentLine]:
    """``lines`` with line ``index`` counted as the engine counts the piece it names (its colours
    too, when the line gives none); unchanged when the engine does not know that line.

    >>> from games.engines.box import BoxPiece
    >>> take_engine_count([ContentLine("huttes", 8, None)], [BoxPiece("huts", 10, "huts", "huttes", colours=5)], 0)
    [ContentLine(kind='huttes', count=10, colours=5)]
    """
    pair = compare(lines, pieces).pairing_at(index)
    edited = list(lines)
    if pair is not None:
        edited[index] = pair.line._replace(count=pair.piece.count, colours=pair.line.colours or pair.piece.colours)
    return edited


def add_missing(lines: Sequence[ContentLine], pieces: Sequence[EnginePiece], *, french: bool) -> list[ContentLine]:
    """``lines`` and, after them, a line for each of the engine's pieces no line names, under its
    French or its English name (the language the box's checklist is typed in)."""
    return [*lines, *(ContentLine(piece.name_fr if french else piece.name_en, piece.count, piece.colours)
                      for piece in compare(lines, pieces).missing)]
