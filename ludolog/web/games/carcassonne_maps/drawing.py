"""Draw a Carcassonne Maps position as SVG: the printed map under the tiles, then the tiles,
figures and final features as :mod:`ludolog.web.games.carcassonne.drawing` draws them.

The map (the engine's ``MapDefinition.to_view()``) is the sea, its land squares, the wave
squares, the islands with their two stacks (the face-up tile drawn on each, with how many tiles
the stack holds), the large cities with their names and coats of arms, the start squares
(outlined in red, as printed) and the towns; the chips still face down are grey discs on their
squares. An approximate map says so in its corner and in the text alternative.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from html import escape
from typing import Any

from django.utils.translation import gettext_noop

from ...tile_frame import TILE, BoardFrame, Translate, identity
from ...tile_geometry import fmt as _fmt
from ..carcassonne.drawing import carcassonne_svg, shape_of

SEA = "#bcd7ea"
LAND = "#e9e4cf"
LAND_EDGE = "#c9c1a2"
WAVE = "#7fa9c9"
LARGE_CITY = "#c9a46a"
START = "#c0392b"
CHIP = "#6d6d6d"
ISLAND_COLOURS = {"violet": "#8e44ad", "light_blue": "#5dade2", "orange": "#e67e22"}
ISLAND_WORDS = {"violet": "violet", "light_blue": "light blue", "orange": "orange"}


def map_frame(drawing: Mapping[str, Any]) -> BoardFrame:
    """The whole printed map, whatever lies on it."""
    cells = [{"x": 0, "y": 0}, {"x": int(drawing["width"]) - 1, "y": int(drawing["height"]) - 1}]
    return BoardFrame.around(cells, False)


def _label(x: float, y: float, text: str, size: int = 9, colour: str = "#3b3529") -> str:
    return (f'<text x="{_fmt(x)}" y="{_fmt(y)}" text-anchor="middle" font-size="{size}" fill="{colour}" '
            f'paint-order="stroke" stroke="#fffbe9" stroke-width="2.5">{escape(text)}</text>')


def _ground(drawing: Mapping[str, Any], position: Mapping[str, Any], records: Mapping[str, Mapping[str, Any]],
            tr: Translate) -> Callable[[BoardFrame], list[str]]:
    def draw(frame: BoardFrame) -> list[str]:
        left, top = -frame.margin, -frame.margin
        out = [f'<rect class="sea" x="{_fmt(left)}" y="{_fmt(top)}" width="{_fmt(frame.width)}" '
               f'height="{_fmt(frame.height)}" fill="{SEA}"/>', '<g class="map">']
        labels = []
        for square in drawing["squares"]:
            x0, y0 = frame.corner(int(square["x"]), int(square["y"]))
            kind = square["kind"]
            where = f'data-x="{square["x"]}" data-y="{square["y"]}" data-kind="{escape(kind)}"'
            if kind == "wave":
                out.append(f'<g class="square wave" {where}><rect x="{_fmt(x0)}" y="{_fmt(y0)}" width="{TILE}" '
                           f'height="{TILE}" fill="{WAVE}"/><path d="M{_fmt(x0 + 8)} {_fmt(y0 + 30)} q8 -8 16 0 t16 0 '
                           f't16 0" fill="none" stroke="#f4fbff" stroke-width="2.5"/></g>')
                continue
            if kind == "island":
                continue  # drawn with its stacks below
            fill = LARGE_CITY if kind == "large_city" else LAND
            out.append(f'<rect class="square {escape(kind)}" {where} x="{_fmt(x0)}" y="{_fmt(y0)}" width="{TILE}" '
                       f'height="{TILE}" fill="{fill}" stroke="{LAND_EDGE}" stroke-width="0.8"/>')
            if kind == "start":
                out.append(f'<rect class="start-edging" x="{_fmt(x0 + 2)}" y="{_fmt(y0 + 2)}" width="{TILE - 4}" '
                           f'height="{TILE - 4}" fill="none" stroke="{START}" stroke-width="3"/>')
            if square.get("name") and kind in ("start", "town"):
                labels.append(_label(x0 + TILE / 2, y0 + TILE - 5, str(square["name"])))
        for city in drawing.get("large_cities", []):
            xs = [frame.corner(int(x), int(y)) for x, y in city["squares"]]
            cx = sum(x for x, _ in xs) / len(xs) + TILE / 2
            cy = sum(y for _, y in xs) / len(xs) + TILE / 2
            labels.append(_label(cx, cy + 4, str(city["name"]), 10, "#4a3216"))
            shields = int(city.get("coats_of_arms", 0))
            for index in range(shields):
                sx = cx - (shields - 1) * 6 + index * 12
                out.append(f'<path class="coat-of-arms" transform="translate({_fmt(sx)} {_fmt(cy - 14)})" '
                           f'd="M-4.5 -5 L4.5 -5 L4.5 0.5 Q4.5 4.5 0 6.5 Q-4.5 4.5 -4.5 0.5 Z" fill="#1f4fbf" '
                           f'stroke="#f8f8f8" stroke-width="1"/>')
        islands = {(s["colour"], s["stack"]): s for s in position.get("islands", [])}
        for island in drawing.get("islands", []):
            colour = str(island["colour"])
            for number, (x, y) in enumerate(island["stacks"], start=1):
                x0, y0 = frame.corner(int(x), int(y))
                stack = islands.get((colour, number), {})
                out.append(f'<g class="island-stack" data-colour="{escape(colour)}" data-stack="{number}" '
                           f'data-x="{x}" data-y="{y}"><rect x="{_fmt(x0 + 1)}" y="{_fmt(y0 + 1)}" width="{TILE - 2}" '
                           f'height="{TILE - 2}" rx="8" fill="{LAND}" stroke="{ISLAND_COLOURS.get(colour, "#555")}" '
                           f'stroke-width="4"/>')
                face_up = stack.get("face_up")
                if face_up and face_up in records:
                    art, _anchors = shape_of(dict(records[face_up], rotation=0))
                    out.append(f'<g class="face-up" data-tile="{escape(str(face_up))}" transform="translate('
                               f'{_fmt(x0 + 9)} {_fmt(y0 + 6)}) scale(0.7)">{art}</g>')
                left_in_stack = stack.get("left")
                if left_in_stack is not None:
                    out.append(_label(x0 + TILE - 9, y0 + TILE - 4, str(left_in_stack), 10, "#1d1d1d"))
                out.append("</g>")
            x0, y0 = frame.corner(int(island["stacks"][0][0]), int(island["stacks"][0][1]))
            labels.append(_label(x0 + TILE / 2, y0 - 3, str(island.get("name", "")), 9, "#17324a"))
        for chip in position.get("chips", []):
            if not chip.get("face_down"):
                continue
            x0, y0 = frame.corner(int(chip["x"]), int(chip["y"]))
            out.append(f'<circle class="chip face-down" data-x="{chip["x"]}" data-y="{chip["y"]}" '
                       f'cx="{_fmt(x0 + TILE / 2)}" cy="{_fmt(y0 + TILE / 2)}" r="9" fill="{CHIP}" '
                       f'stroke="#f2f2f2" stroke-width="2"><title>{escape(tr("a chip, face down"))}</title></circle>')
        out.append("</g>")
        if drawing.get("approximate"):
            labels.append(f'<text class="approximate" x="{_fmt(left + 8)}" y="{_fmt(top + 14)}" font-size="11" '
                          f'fill="#7a1f12">{escape(tr("Approximate map: the printed map is not public"))}</text>')
        return out + labels

    return draw


def describe_map(drawing: Mapping[str, Any], position: Mapping[str, Any], tr: Translate) -> str:
    lines = [tr("Map: %(title)s (%(version)s).") % {"title": drawing.get("title", ""),
                                                    "version": drawing.get("version", "")}]
    if drawing.get("approximate"):
        lines.append(tr("The map is approximate: the printed map is not public."))
    face_down = sum(1 for chip in position.get("chips", []) if chip.get("face_down"))
    lines.append(tr("Chips face down: %(count)s.") % {"count": face_down})
    for stack in position.get("islands", []):
        lines.append(tr("%(colour)s island, stack %(stack)s: %(tile)s face up, %(left)s tiles.") % {
            "colour": tr(ISLAND_WORDS.get(stack["colour"], stack["colour"])), "stack": stack["stack"],
            "tile": stack.get("face_up") or "—", "left": stack.get("left", 0)})
    return " ".join(lines)


def carcassonne_maps_svg(position: Mapping[str, Any], seats: Sequence[Mapping[str, Any]] = (), *,
                         drawing: Mapping[str, Any], records: Mapping[str, Mapping[str, Any]],
                         title: str | None = None, free_cells: bool = False, show: str | None = None,
                         translate: Translate = identity) -> str:
    """The map and everything on it as one ``<svg>``; ``drawing`` is the map's ``to_view()``,
    ``records`` every tile's printed definition (for the islands' face-up tiles)."""
    return carcassonne_svg(
        position, seats, title=title, free_cells=free_cells, show=show, translate=translate,
        frame=map_frame(drawing), ground=_ground(drawing, position, records, translate),
        description=describe_map(drawing, position, translate), css_class="board carcassonne carcassonne-maps")


def table_map_svg(drawing: Mapping[str, Any], records: Mapping[str, Mapping[str, Any]], *,
                  translate: Translate = identity) -> str:
    """The printed map alone, for the start page's table set-up: every square a ``rect.square``
    with ``data-x``, ``data-y`` and ``data-kind`` (where the page lays the chips the players laid),
    each island stack a ``g.island-stack`` (where it shows the face-up tile picked)."""
    frame = map_frame(drawing)
    heading = translate("Map: %(title)s (%(version)s).") % {"title": drawing.get("title", ""),
                                                           "version": drawing.get("version", "")}
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="maps-table-map" role="img" '
            f'viewBox="{_fmt(-frame.margin)} {_fmt(-frame.margin)} {_fmt(frame.width)} {_fmt(frame.height)}" '
            f'data-cell="{TILE}" data-margin="{_fmt(frame.margin)}"><title>{escape(heading)}</title>'
            + "".join(_ground(drawing, {}, records, translate)(frame)) + '<g class="chips-laid"></g></svg>')


TEXT_WORDS = (
    gettext_noop("a chip, face down"), gettext_noop("Approximate map: the printed map is not public"),
    gettext_noop("Map: %(title)s (%(version)s)."), gettext_noop("The map is approximate: the printed map is not public."),
    gettext_noop("Chips face down: %(count)s."),
    gettext_noop("%(colour)s island, stack %(stack)s: %(tile)s face up, %(left)s tiles."),
    gettext_noop("violet"), gettext_noop("light blue"), gettext_noop("orange"),
)
"""The English words above, for the translators (the module speaks through ``translate``), each
written out: makemessages reads neither a call inside an f-string nor one over a variable."""
