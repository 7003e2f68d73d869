"""What every drawing of a board of square tiles shares: the frame the tiles go in, the seats'
colours, the meeple, the outline of the tile laid last and the outlines of the final scoring's
features. Pure (no Django): a drawing takes the page's ``gettext`` as ``translate``.

A game's drawing (``ludolog.web.games.<game>``) draws its own tiles and figures in this frame.

>>> frame = BoardFrame.around([{"x": 0, "y": 0}, {"x": 1, "y": 0}], free_cells=True)
>>> frame.origin, sorted(frame.free)[:2], frame.corner(1, 0)
((-1, -1), [(-1, 0), (0, -1)], (120, 60))
>>> seat_colour(1), seat_colour(0, "green"), seat_colour(0, "#abc")
('#1d4ed8', '#2f9e44', '#abc')
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from .tile_geometry import fmt

TILE = 60
"""Side of one tile in SVG user units."""
PIXELS_PER_UNIT = 1.5
"""Natural size: a tile is 90 px wide; a page may shrink a large board to fit (``max-width``)."""
HIGHLIGHT = "#ff7a00"
"""The outline of the tile laid last."""

PALETTE = ("#d62828", "#1d4ed8", "#f2c200", "#7b2cbf", "#222222")
"""Default seat colours: red, blue, yellow, purple, black (green would vanish in the meadows)."""
NAMED_COLOURS = {
    "red": "#d62828", "blue": "#1d4ed8", "yellow": "#f2c200", "purple": "#7b2cbf", "black": "#222222",
    "green": "#2f9e44", "white": "#f8f8f8", "orange": "#f08c00", "grey": "#868e96", "gray": "#868e96",
    "pink": "#e64980",
}
_HEX = re.compile(r"^#[0-9a-fA-F]{3}(?:[0-9a-fA-F]{3})?$")

MEEPLE = ("M-3 -3 L3 -3 L8 0 L7 2.5 L3 1.5 L5 9 L1 9 L0 5 L-1 9 L-5 9 L-3 1.5 L-7 2.5 L-8 0 Z"
          " M0 -9.2 A3.2 3.2 0 1 1 0 -2.8 A3.2 3.2 0 1 1 0 -9.2 Z")
"""A standing meeple's path, about 16 units wide around (0, 0)."""

Point = tuple[float, float]
Translate = Callable[[str], str]
TranslatePlural = Callable[[str, str, int], str]
"""``ngettext``'s signature: (singular, plural, count) → the form for that count."""


def identity(text: str) -> str:
    """The English words as they are (a drawing asked without a page's ``gettext``)."""
    return text


def english_plural(singular: str, plural: str, count: int) -> str:
    return singular if count == 1 else plural


def gettext_noop(text: str) -> str:
    """Marks a word for translation without translating it (the name ``makemessages`` looks for).

    The drawings stay free of Django; the page passes Django's ``gettext`` as ``translate``.
    """
    return text


def ngettext_noop(singular: str, plural: str) -> tuple[str, str]:
    """The same for a count (the page passes Django's ``ngettext``). makemessages does not know
    this name: the French entries of such words are kept by hand, and a test checks them."""
    return singular, plural


def seat_colour(seat: int, colour: str = "") -> str:
    """A seat's colour: its recorded colour when it is one we can draw, else the palette's."""
    colour = (colour or "").strip().lower()
    if colour in NAMED_COLOURS:
        return NAMED_COLOURS[colour]
    if _HEX.match(colour):
        return colour
    return PALETTE[seat % len(PALETTE)]


def remembering(translate: Translate) -> Translate:
    """``translate`` asked once per word: a board repeats its words many times."""
    words: dict[str, str] = {}

    def tr(text: str) -> str:
        if text not in words:
            words[text] = translate(text)
        return words[text]

    return tr


def points(corners: Iterable[Point]) -> str:
    """An SVG ``points`` attribute."""
    return " ".join(f"{fmt(x)},{fmt(y)}" for x, y in corners)


@dataclass(frozen=True)
class BoardFrame:
    """Where a board of square tiles goes in SVG units: its north-west cell, its size, and the
    empty cells next to the tiles a scorekeeper may be shown."""

    origin: tuple[int, int]
    free: frozenset[tuple[int, int]]
    margin: float
    width: float
    height: float

    @classmethod
    def around(cls, tiles: Iterable[Mapping[str, Any]], free_cells: bool) -> BoardFrame:
        occupied = {(int(t["x"]), int(t["y"])) for t in tiles}
        free: set[tuple[int, int]] = set()
        if free_cells:
            for x, y in occupied:
                free.update({(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)} - occupied)
        cells = occupied | free or {(0, 0)}
        min_x, max_x = min(x for x, _ in cells), max(x for x, _ in cells)
        min_y, max_y = min(y for _, y in cells), max(y for _, y in cells)
        margin = TILE * 0.25
        return cls((min_x, min_y), frozenset(free), margin,
                   (max_x - min_x + 1) * TILE + 2 * margin, (max_y - min_y + 1) * TILE + 2 * margin)

    def corner(self, x: int, y: int) -> Point:
        """The north-west corner of cell ``(x, y)``."""
        return (x - self.origin[0]) * TILE, (y - self.origin[1]) * TILE

    def opening(self, css_class: str, position: Mapping[str, Any], heading: str, description: str) -> str:
        """The ``<svg>`` tag with its ``<title>`` and ``<desc>``."""
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" class="{css_class}" role="img" '
            f'viewBox="{fmt(-self.margin)} {fmt(-self.margin)} {fmt(self.width)} {fmt(self.height)}" '
            f'width="{fmt(self.width * PIXELS_PER_UNIT)}" height="{fmt(self.height * PIXELS_PER_UNIT)}" '
            f'aria-labelledby="board-title board-desc" data-at="{escape(str(position.get("at", "")))}" '
            f'data-origin-x="{self.origin[0]}" data-origin-y="{self.origin[1]}" data-cell="{TILE}">'
            f'<title id="board-title">{escape(heading)}</title><desc id="board-desc">{escape(description)}</desc>'
        )

    def free_cells(self) -> list[str]:
        """The empty cells, dashed and labelled with the coordinates a scorekeeper types."""
        parts = []
        for x, y in sorted(self.free):
            x0, y0 = self.corner(x, y)
            parts.append(f'<g class="free-cell" data-x="{x}" data-y="{y}"><rect x="{fmt(x0 + 3)}" '
                         f'y="{fmt(y0 + 3)}" width="{TILE - 6}" height="{TILE - 6}" fill="none" stroke="#8a8a80" '
                         f'stroke-dasharray="4 3"/><text x="{fmt(x0 + TILE / 2)}" y="{fmt(y0 + TILE / 2 + 4)}" '
                         f'text-anchor="middle" font-size="11" fill="#5b5b57">{x},{y}</text></g>')
        return parts


LAST_MARK = 16
"""The side of the triangle in the north-west corner of the tile laid last."""


def last_placed_outline(left: float, top: float) -> str:
    """The outline of the tile laid last, whose north-west corner is at ``(left, top)``, and a
    triangle in that corner: the last tile is told from the recorder's chosen square (a solid
    double edge) and its legal squares (dashed, with a plus) by shape, not by colour alone."""
    x, y = left + 1.5, top + 1.5
    return (f'<rect class="last-placed-outline" x="{fmt(x)}" y="{fmt(y)}" '
            f'width="{TILE - 3}" height="{TILE - 3}" fill="none" stroke="{HIGHLIGHT}" stroke-width="3.5" rx="2"/>'
            f'<path class="last-placed-mark" d="M{fmt(x)} {fmt(y)}h{LAST_MARK}L{fmt(x)} {fmt(y + LAST_MARK)}z" '
            f'fill="{HIGHLIGHT}" stroke="#fff" stroke-width="1"/>')


def figure_key(figure: Mapping[str, Any]) -> tuple[Any, ...]:
    """A figure's identity whether the view lists it on the board (``owner``) or in an award (``seat``)."""
    return (figure.get("seat", figure.get("owner")), figure.get("kind"), figure.get("x"), figure.get("y"),
            figure.get("feature"))


def final_features(frame: BoardFrame, awards: Sequence[Mapping[str, Any]], show: str | None,
                   drawn: Mapping[tuple[Any, ...], str]) -> list[str]:
    """For each award of the final scoring (those that name their tiles), a group that outlines its
    feature's tiles and dims the rest of the board, with its figures (``drawn``, by
    :func:`figure_key`) on top; hidden unless ``show`` names it (``award-<index in awards>``).
    The page shows one when a reader picks its line of the final scoring."""
    parts = []
    left, top = -frame.margin, -frame.margin
    outside = f"M{fmt(left)} {fmt(top)}h{fmt(frame.width)}v{fmt(frame.height)}h{fmt(-frame.width)}Z"
    for index, award in enumerate(awards):
        if "tiles" not in award:
            continue
        target = f"award-{index}"
        cells = {(int(x), int(y)) for x, y in award["tiles"]}
        holes, edges = [], []
        for x, y in sorted(cells):
            x0, y0 = frame.corner(x, y)
            holes.append(f"M{fmt(x0)} {fmt(y0)}h{TILE}v{TILE}h-{TILE}Z")
            for (dx, dy), (ax, ay, bx, by) in (((0, -1), (0, 0, 1, 0)), ((1, 0), (1, 0, 1, 1)),
                                               ((0, 1), (0, 1, 1, 1)), ((-1, 0), (0, 0, 0, 1))):
                if (x + dx, y + dy) not in cells:
                    edges.append(f"M{fmt(x0 + ax * TILE)} {fmt(y0 + ay * TILE)}"
                                 f"L{fmt(x0 + bx * TILE)} {fmt(y0 + by * TILE)}")
        outline = "".join(edges)
        figures = "".join(drawn.get(figure_key(figure), "") for figure in award.get("figures", []))
        parts.append(
            f'<g class="final-feature" data-target="{target}" display="{"inline" if show == target else "none"}">'
            f'<path d="{outside}{"".join(holes)}" fill="#1b1b1b" fill-opacity="0.55" fill-rule="evenodd"/>'
            # White on a dark casing: unlike the last tile's orange, and clear on the shade and the tiles.
            f'<path d="{outline}" stroke="#111" stroke-width="7" stroke-linecap="square" fill="none"/>'
            f'<path d="{outline}" stroke="#fff" stroke-width="3.5" stroke-linecap="square" fill="none"/>'
            f'{figures}</g>')
    return parts
