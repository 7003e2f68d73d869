"""What a game's box holds, as its rules engine knows it: the shared shape of each engine's
``box`` module.

A ludothèque checks a returned box against a checklist a librarian typed from the box's
"Contenu"; an engine that plays the game already knows many of those pieces (the tiles it
shuffles, the figures each player has), so each engine declares them once, computed from its own
data, and the catalogue compares. Only the pieces the engine uses are declared: a rules booklet
or a dice cup is the checklist's business, not the engine's.

>>> piece = BoxPiece("huts", 10, "huts", "huttes", colours=5)
>>> piece.per_colour
2
>>> BoxContents((piece,)).piece("huts") is piece
True
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class BoxPiece:
    key: str
    """Stable, for programs: ``landscape_tiles``, ``huts``."""
    count: int
    """How many the box holds in all (every colour together)."""
    name_en: str
    name_fr: str
    """The French box's own wording ("tuiles paysage"), which French checklists are typed from."""
    colours: int | None = None
    """How many colours the count is split into, as a catalogue checklist line says it ("30 hommes
    de Cro-Magnon en 5 couleurs"); ``None`` for pieces that have no owner's colour."""
    parts: tuple[BoxPiece, ...] = ()
    """The kinds a piece is made of, when the box counts them apart within it (Stone Age's 68
    resources: 20 wood, 16 clay…); their counts add up to ``count``."""

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ValueError(f"{self.key}: a box holds at least one of each piece, not {self.count}")
        if self.colours is not None and (self.colours < 1 or self.count % self.colours):
            raise ValueError(f"{self.key}: {self.count} pieces do not split evenly into {self.colours} colours")
        if self.parts and sum(part.count for part in self.parts) != self.count:
            raise ValueError(f"{self.key}: its parts count {sum(part.count for part in self.parts)}, not {self.count}")

    @property
    def per_colour(self) -> int | None:
        """How many of each colour, when the piece has colours."""
        return self.count // self.colours if self.colours else None


@dataclass(frozen=True, slots=True)
class BoxContents:
    pieces: tuple[BoxPiece, ...]

    def __post_init__(self) -> None:
        keys = [piece.key for piece in self.pieces]
        if len(set(keys)) != len(keys):
            raise ValueError(f"a piece is declared twice in {keys}")

    def piece(self, key: str) -> BoxPiece:
        """The piece called ``key``; ``KeyError`` when the box has none."""
        for piece in self.pieces:
            if piece.key == key:
                return piece
        raise KeyError(key)
