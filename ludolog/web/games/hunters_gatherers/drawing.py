"""Draw a Hunters and Gatherers position as SVG, from the engine's JSON view of it.

Like python-chess's ``chess/svg.py``, this module knows how a position looks and nothing else:
it takes the ``position`` dictionary the state API returns (tiles with their printed edges and
features, figures, the last placed tile) and returns one SVG string. No Django, no database.

Every tile is drawn from its definition: meadow is the ground, forests are bands or wedges on
their sides, rivers run from the middle of their sides to a lake, a spring or another side,
and the marks printed on the tile (deer, mammoths, aurochs, sabre-tooth tigers, fish, gold,
fire, mushrooms, shrines) are small pictures placed on their feature. Figures are drawn in
their player's colour: gatherers standing, fishers standing with a rod, hunters lying down,
huts as houses.

At the end of a game the board shows the figures as they stood when the last tile was laid:
the gatherers and fishers the end sent home without points faded, and for each feature of the
final scoring an outline of its tiles (hidden until a reader asks for it: ``show``).

>>> svg = hunters_gatherers_svg({"tiles": [], "figures": []})
>>> svg.startswith("<svg") and "<title" in svg
True
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from functools import lru_cache
from html import escape
from typing import Any

from ...tile_frame import (
    MEEPLE, TILE, BoardFrame, Point, Translate, TranslatePlural, english_plural, figure_key, final_features,
    gettext_noop, identity, last_placed_outline, ngettext_noop, remembering, seat_colour,
)
from ...tile_frame import points as _points
from ...tile_geometry import corners as _corners
from ...tile_geometry import fmt as _fmt
from ...tile_geometry import inward as _inward
from ...tile_geometry import mean as _mean
from ...tile_geometry import mid as _mid
from ...tile_geometry import sub_edge as _sub_edge
from ...plurals import plural_noop

SIDES = ("N", "E", "S", "W")
MEADOW = "#b5d98a"
FOREST = "#2f6b34"
RIVER = "#3a86c8"
LAKE = "#2f74b5"
EDGE = "#6b7d4f"

MARKS = {
    "deer": plural_noop("%(count)s deer", "%(count)s deer"),
    "mammoths": plural_noop("%(count)s mammoth", "%(count)s mammoths"),
    "aurochs": plural_noop("%(count)s aurochs", "%(count)s aurochs"),
    "tigers": plural_noop("%(count)s sabre-tooth tiger", "%(count)s sabre-tooth tigers"),
    "gold_nuggets": plural_noop("%(count)s gold nugget", "%(count)s gold nuggets"),
    "mushroom_clearings": plural_noop("%(count)s mushroom clearing", "%(count)s mushroom clearings"),
    "fish": plural_noop("%(count)s fish", "%(count)s fish"),
}
"""Feature field → (singular, plural) of its count in the text alternative (gettext's ``ngettext``
picks the form: French says "1 poisson", "3 poissons")."""
SYMBOL_OF = {
    "deer": "deer", "mammoths": "mammoth", "aurochs": "aurochs", "tigers": "tiger",
    "gold_nuggets": "gold", "mushroom_clearings": "mushroom", "fish": "fish",
}

# The words the text alternative is made of, so that makemessages finds them.
TEXT_ALTERNATIVE_WORDS = (
    gettext_noop("meadow"), gettext_noop("forest"), gettext_noop("river"), gettext_noop("lake"),
    gettext_noop("spring"), gettext_noop("fire"), gettext_noop("shrine"),
    gettext_noop("hunter"), gettext_noop("gatherer"), gettext_noop("fisher"), gettext_noop("hut"),
    *(ngettext_noop(singular, plural) for singular, plural in MARKS.values()),
    gettext_noop("Last tile placed: %(tile)s at (%(x)s, %(y)s)."),
    gettext_noop("Tile %(tile)s at (%(x)s, %(y)s), turned %(rotation)s°: %(features)s."),
    gettext_noop("%(player)s's %(figure)s on tile %(tile)s at (%(x)s, %(y)s)."),
    gettext_noop("Seat %(seat)s"), gettext_noop("%(player)s's %(figure)s"),
    gettext_noop("Board with %(count)s tiles"),
    gettext_noop("%(player)s's %(figure)s on tile %(tile)s at (%(x)s, %(y)s) went home without points at the end."),
    gettext_noop("%(player)s's %(figure)s, sent home without points at the end"),
)


# Geometry on the unit tile: (0, 0) is the north-west corner, y grows south.


def _toward_centre(point: Point, amount: float) -> Point:
    return point[0] + (0.5 - point[0]) * amount, point[1] + (0.5 - point[1]) * amount


class _Placer:
    """Turns unit-tile points of one placed tile into board coordinates (rotation is clockwise)."""

    def __init__(self, x: int, y: int, rotation: int, origin: Point) -> None:
        self.left = (x - origin[0]) * TILE
        self.top = (y - origin[1]) * TILE
        self.turns = (rotation // 90) % 4

    def __call__(self, point: Point) -> Point:
        u, v = point[0] - 0.5, point[1] - 0.5
        for _ in range(self.turns):
            u, v = -v, u
        return self.left + (u + 0.5) * TILE, self.top + (v + 0.5) * TILE


class _Tile:
    """One tile's features with where they lie on the unit tile."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.data = data
        self.features = {feature["id"]: feature for feature in data.get("features", [])}
        self.sub_edges: dict[int, list[tuple[str, int]]] = {}
        for side in SIDES:
            edge = data.get("edges", {}).get(side)
            if not edge:
                continue
            for index, fid in enumerate(edge.get("sub_edges", [])):
                self.sub_edges.setdefault(fid, []).append((side, index))
        self.lakes = [f for f in self.features.values() if f.get("type") == "lake"]
        self._lake_anchor: dict[int, Point] = {}
        for number, lake in enumerate(self.lakes):
            feeders = [
                _mid(side) for f in self.features.values()
                if f.get("type") == "river" and f.get("lake") == lake["id"]
                for side in self.sides(f["id"])
            ]
            if len(self.lakes) == 1 or not feeders:
                anchor = (0.5, 0.5) if len(self.lakes) == 1 else (0.32 + 0.36 * number, 0.5)
            else:
                anchor = _toward_centre(_mean(feeders), 0.55)
            self._lake_anchor[lake["id"]] = anchor

    def sides(self, fid: int) -> list[str]:
        seen: list[str] = []
        for side, _index in self.sub_edges.get(fid, []):
            if side not in seen:
                seen.append(side)
        return seen

    def river_end(self, river: Mapping[str, Any]) -> Point:
        side = self.sides(river["id"])[0]
        if river.get("lake") is not None and river["lake"] in self._lake_anchor:
            return self._lake_anchor[river["lake"]]
        return _toward_centre(_mid(side), 0.62)

    def centre_busy(self) -> bool:
        for feature in self.features.values():
            kind = feature.get("type")
            if kind == "lake" or (kind in {"river", "forest"} and len(self.sides(feature["id"])) >= 2):
                return True
        return False

    def anchor(self, fid: int) -> Point:
        """Where a feature's marks and figure go."""
        feature = self.features.get(fid, {})
        kind = feature.get("type")
        if kind == "lake":
            return self._lake_anchor.get(fid, (0.5, 0.5))
        sides = self.sides(fid)
        if not sides:
            return (0.5, 0.5)
        if kind == "river":
            start = _mid(sides[0])
            if len(sides) >= 2:
                end = _mid(sides[1])
                return 0.25 * start[0] + 0.25 * end[0] + 0.25, 0.25 * start[1] + 0.25 * end[1] + 0.25
            end = self.river_end(feature)
            return (start[0] + end[0]) / 2, (start[1] + end[1]) / 2
        if kind == "forest":
            if len(sides) == 1:
                return _inward(sides[0], _mid(sides[0]), 0.13)
            return _mean([_toward_centre(_mid(side), 0.45) for side in sides])
        # A meadow: the middle of the sub-edges it owns, pulled in; away from a busy centre.
        subs = self.sub_edges[fid]
        inner = [_inward(side, _mean(_sub_edge(side, index)), 0.24) for side, index in subs]
        point = _mean(inner)
        if math.dist(point, (0.5, 0.5)) < 0.22 and self.centre_busy():
            point = inner[len(inner) // 2]
        return point


def _marks_of(feature: Mapping[str, Any]) -> list[str]:
    """The symbol names printed on a feature, one per animal, nugget, clearing or fish."""
    names: list[str] = []
    for field, symbol in SYMBOL_OF.items():
        names.extend([symbol] * int(feature.get(field) or 0))
    if feature.get("fire"):
        names.append("fire")
    if feature.get("shrine"):
        names.append("shrine")
    return names


def _describe_feature(feature: Mapping[str, Any], tr: Translate, trn: TranslatePlural) -> str:
    kind = feature.get("type", "")
    parts = []
    for field, (one, many) in MARKS.items():
        count = int(feature.get(field) or 0)
        if count:
            parts.append(trn(one, many, count) % {"count": count})
    if feature.get("fire"):
        parts.append(tr("fire"))
    if feature.get("shrine"):
        parts.append(tr("shrine"))
    if kind == "river" and feature.get("spring"):
        parts.append(tr("spring"))
    text = tr(kind)
    return f"{text} ({', '.join(parts)})" if parts else text


def describe(
    position: Mapping[str, Any],
    seats: Sequence[Mapping[str, Any]] = (),
    translate: Translate = identity,
    translate_plural: TranslatePlural = english_plural,
) -> str:
    """The board in words, for the SVG's ``<desc>``: every tile and figure, the last tile laid."""
    tr = translate
    names = {seat.get("seat"): seat.get("player") for seat in seats}
    lines = []
    last = position.get("last_placed") or {}
    if last:
        lines.append(tr("Last tile placed: %(tile)s at (%(x)s, %(y)s).") % {
            "tile": last.get("tile"), "x": last.get("x"), "y": last.get("y")})
    for tile in position.get("tiles", []):
        features = ", ".join(_describe_feature(f, tr, translate_plural) for f in tile.get("features", []))
        lines.append(tr("Tile %(tile)s at (%(x)s, %(y)s), turned %(rotation)s°: %(features)s.") % {
            "tile": tile.get("tile"), "x": tile.get("x"), "y": tile.get("y"),
            "rotation": tile.get("rotation", 0), "features": features})
    for figure in position.get("figures", []):
        owner = figure.get("owner")
        lines.append(tr("%(player)s's %(figure)s on tile %(tile)s at (%(x)s, %(y)s).") % {
            "player": names.get(owner) or tr("Seat %(seat)s") % {"seat": (owner or 0) + 1},
            "figure": tr(str(figure.get("kind", ""))), "tile": figure.get("tile"),
            "x": figure.get("x"), "y": figure.get("y")})
    for figure in position.get("sent_home", []):
        seat = figure.get("seat")
        lines.append(tr("%(player)s's %(figure)s on tile %(tile)s at (%(x)s, %(y)s) went home without points "
                        "at the end.") % {
            "player": names.get(seat) or tr("Seat %(seat)s") % {"seat": (seat or 0) + 1},
            "figure": tr(str(figure.get("kind", ""))), "tile": figure.get("tile"),
            "x": figure.get("x"), "y": figure.get("y")})
    return " ".join(lines)


SYMBOLS = """<defs>
<symbol id="hg-deer" viewBox="-10 -10 20 20"><path d="M-6 6 L-5 0 Q-4 -2 2 -2 L5 -5 L7 -4 L6 -1 L5 0 L5 6 M-3 0 L-3 6 M3 0 L3 6" stroke="#5a3a1a" stroke-width="1.6" fill="#a0672c"/><path d="M5 -5 L3 -9 M5 -5 L7 -9 M4 -7 L2 -8 M6 -7 L8 -7" stroke="#5a3a1a" stroke-width="1.2" fill="none"/></symbol>
<symbol id="hg-mammoth" viewBox="-10 -10 20 20"><path d="M-8 7 L-8 -1 Q-7 -7 0 -7 Q6 -7 7 -2 Q9 2 8 7 L6 7 L6 2 Q5 4 4 2 L3 7 L-1 7 L-1 3 L-5 3 L-5 7 Z" fill="#7a5c44" stroke="#3b2a1d" stroke-width="0.8"/><path d="M6 0 Q9 4 5 5" stroke="#fffaf0" stroke-width="1.4" fill="none"/><circle cx="4" cy="-3" r="0.9" fill="#111"/></symbol>
<symbol id="hg-aurochs" viewBox="-10 -10 20 20"><path d="M-8 6 L-8 -1 Q-7 -4 0 -4 L5 -4 Q8 -4 8 -1 L8 2 L6 2 L6 6 L4 6 L4 2 L-4 2 L-4 6 L-6 6 Z" fill="#2b1d14" stroke="#000" stroke-width="0.6"/><path d="M4 -4 Q2 -9 6 -9 M7 -4 Q9 -9 10 -7" stroke="#f1e3c6" stroke-width="1.3" fill="none"/></symbol>
<symbol id="hg-tiger" viewBox="-10 -10 20 20"><path d="M-9 5 L-8 -2 Q-6 -5 2 -4 L5 -6 L8 -4 L8 0 L6 1 L6 5 L4 5 L4 1 L-4 1 L-5 5 Z" fill="#f08c00" stroke="#5a2d00" stroke-width="0.7"/><path d="M-5 -3 L-4 0 M-2 -4 L-1 0 M1 -4 L2 0" stroke="#111" stroke-width="1.1"/><path d="M6.5 0 L6.8 3 M7.6 -0.2 L7.9 2.6" stroke="#fff" stroke-width="0.9"/></symbol>
<symbol id="hg-fish" viewBox="-10 -10 20 20"><path d="M-6 0 Q0 -6 6 0 Q0 6 -6 0 Z M-6 0 L-10 -4 L-10 4 Z" fill="#d7ecff" stroke="#0b3d66" stroke-width="1"/><circle cx="3" cy="-1" r="1" fill="#0b3d66"/></symbol>
<symbol id="hg-gold" viewBox="-10 -10 20 20"><path d="M-7 3 L-5 -4 L1 -6 L7 -2 L6 5 L-1 7 Z" fill="#ffd43b" stroke="#8a6d00" stroke-width="1.3"/><path d="M-3 -2 L1 -3" stroke="#fff8d0" stroke-width="1.4"/></symbol>
<symbol id="hg-mushroom" viewBox="-10 -10 20 20"><path d="M-8 0 Q0 -12 8 0 Z" fill="#d9381e" stroke="#6b1a0e" stroke-width="0.8"/><rect x="-2.2" y="0" width="4.4" height="8" fill="#fff4e0" stroke="#6b1a0e" stroke-width="0.8"/><circle cx="-3" cy="-3" r="1.2" fill="#fff"/><circle cx="2" cy="-4.5" r="1.2" fill="#fff"/></symbol>
<symbol id="hg-fire" viewBox="-10 -10 20 20"><path d="M0 9 Q-8 7 -6 0 Q-4 -4 -2 -9 Q0 -3 3 -5 Q8 2 6 6 Q4 9 0 9 Z" fill="#ff6b00" stroke="#9c2a00" stroke-width="0.8"/><path d="M0 8 Q-3 6 -1 1 Q1 3 2 2 Q4 6 0 8 Z" fill="#ffd43b"/></symbol>
<symbol id="hg-shrine" viewBox="-10 -10 20 20"><rect x="-7" y="-4" width="4" height="12" fill="#9aa0a6" stroke="#3c4043" stroke-width="0.9"/><rect x="3" y="-4" width="4" height="12" fill="#9aa0a6" stroke="#3c4043" stroke-width="0.9"/><rect x="-9" y="-8" width="18" height="4" rx="1" fill="#b0b6bb" stroke="#3c4043" stroke-width="0.9"/></symbol>
</defs>"""

HUT = "M-8 8 L-8 -1 L0 -8 L8 -1 L8 8 Z M-2.5 8 L-2.5 2 L2.5 2 L2.5 8"


def draw_figure(kind: str, at: Point, colour: str, label: str, extra: str = "") -> str:
    """One figure; ``extra`` is more attributes for its group (``' data-award="3"'``)."""
    x, y = at
    title = f"<title>{escape(label)}</title>"
    common = f'fill="{colour}" stroke="#111" stroke-width="1.2" stroke-linejoin="round"'
    if kind == "hut":
        return (f'<g class="figure hut"{extra} transform="translate({_fmt(x)} {_fmt(y)}) scale(0.75)">{title}'
                f'<path d="{HUT}" {common}/></g>')
    if kind == "hunter":
        # Hunters lie down in the meadow: the same figure, turned on its side, with a spear.
        return (f'<g class="figure hunter"{extra} transform="translate({_fmt(x)} {_fmt(y)}) rotate(-90) scale(0.72)">'
                f'{title}<path d="{MEEPLE}" {common}/><path d="M9 -11 L9 11" stroke="#3b2a1d" stroke-width="1.5"/></g>')
    if kind == "fisher":
        # Fishers stand on the river holding a rod over the water.
        return (f'<g class="figure fisher"{extra} transform="translate({_fmt(x)} {_fmt(y)}) scale(0.75)">{title}'
                f'<path d="M6 -2 L13 -10 L13 -3" stroke="#3b2a1d" stroke-width="1.3" fill="none"/>'
                f'<path d="{MEEPLE}" {common}/></g>')
    return (f'<g class="figure {escape(kind)}"{extra} transform="translate({_fmt(x)} {_fmt(y)}) scale(0.75)">{title}'
            f'<path d="{MEEPLE}" {common}/></g>')


def _draw_tile(tile: Mapping[str, Any], origin: Point, highlight: bool) -> tuple[str, dict[int, Point]]:
    """The tile's group on the board, and where its features' figures go in board coordinates."""
    rotation = int(tile.get("rotation", 0))
    key = json.dumps([tile.get("kind"), tile.get("edges"), tile.get("features")], sort_keys=True)
    art, local_anchors = tile_art(key, rotation)
    left, top = (int(tile["x"]) - origin[0]) * TILE, (int(tile["y"]) - origin[1]) * TILE
    classes = ["tile", f"tile-{escape(str(tile.get('kind', '')))}"] + (["last-placed"] if highlight else [])
    group = (f'<g class="{" ".join(classes)}" data-tile="{escape(str(tile.get("tile", "")))}" '
             f'data-x="{int(tile["x"])}" data-y="{int(tile["y"])}" transform="translate({_fmt(left)} {_fmt(top)})">'
             f'{art}</g>')
    return group, {fid: (left + x, top + y) for fid, (x, y) in local_anchors.items()}


@lru_cache(maxsize=2048)
def tile_art(key: str, rotation: int) -> tuple[str, dict[int, Point]]:
    """A tile's drawing in its own square (0..TILE), turned; the same tile is drawn once.

    A tile set has fewer than a hundred tiles and four turns, so every step of a replay after
    the first few reuses these strings instead of recomputing the geometry.
    """
    kind, edges, features = json.loads(key)
    tile = {"kind": kind, "edges": edges, "features": features}
    shape = _Tile(tile)
    place = _Placer(0, 0, rotation, (0, 0))
    corners = [place(p) for p in ((0, 0), (1, 0), (1, 1), (0, 1))]
    out = [f'<polygon points="{_points(corners)}" fill="{MEADOW}"/>']
    forests = [f for f in shape.features.values() if f.get("type") == "forest"]
    for forest in forests:
        sides = shape.sides(forest["id"])
        if len(sides) == 1:
            a, b = _corners(sides[0])
            band = [a, b, _toward_centre(b, 0.5), _toward_centre(a, 0.5)]
            out.append(f'<polygon class="forest" points="{_points(place(p) for p in band)}" fill="{FOREST}"/>')
            continue
        for side in sides:
            a, b = _corners(side)
            out.append(f'<polygon class="forest" points="{_points(place(p) for p in (a, b, (0.5, 0.5)))}" fill="{FOREST}"/>')
        cx, cy = place((0.5, 0.5))
        out.append(f'<circle class="forest" cx="{_fmt(cx)}" cy="{_fmt(cy)}" r="{_fmt(TILE * 0.2)}" fill="{FOREST}"/>')
    for river in (f for f in shape.features.values() if f.get("type") == "river"):
        sides = shape.sides(river["id"])
        if not sides:
            continue
        start = place(_mid(sides[0]))
        width = _fmt(TILE * 0.12)
        if len(sides) >= 2:
            end, via = place(_mid(sides[1])), place((0.5, 0.5))
            path = f"M{_fmt(start[0])} {_fmt(start[1])} Q{_fmt(via[0])} {_fmt(via[1])} {_fmt(end[0])} {_fmt(end[1])}"
        else:
            end = place(shape.river_end(river))
            path = f"M{_fmt(start[0])} {_fmt(start[1])} L{_fmt(end[0])} {_fmt(end[1])}"
        out.append(f'<path class="river" d="{path}" stroke="{RIVER}" stroke-width="{width}" '
                   f'stroke-linecap="round" fill="none"/>')
        if river.get("spring") and len(sides) == 1:
            out.append(f'<circle class="spring" cx="{_fmt(end[0])}" cy="{_fmt(end[1])}" r="{_fmt(TILE * 0.09)}" '
                       f'fill="#cfe9ff" stroke="{RIVER}" stroke-width="2.5"/>')
    for lake in shape.lakes:
        cx, cy = place(shape.anchor(lake["id"]))
        radius = TILE * (0.2 if len(shape.lakes) == 1 else 0.14)
        out.append(f'<circle class="lake" cx="{_fmt(cx)}" cy="{_fmt(cy)}" r="{_fmt(radius)}" '
                   f'fill="{LAKE}" stroke="#1c4f80" stroke-width="1"/>')
    for feature in shape.features.values():
        marks = _marks_of(feature)
        if not marks:
            continue
        size = TILE * (0.26 if len(marks) <= 2 else 0.2 if len(marks) <= 3 else 0.16)
        cx, cy = place(shape.anchor(feature["id"]))
        per_row = 3
        for number, mark in enumerate(marks):
            row, col = divmod(number, per_row)
            in_row = min(per_row, len(marks) - row * per_row)
            x = cx + (col - (in_row - 1) / 2) * size * 0.95 - size / 2
            y = cy + (row - (len(marks) - 1) // per_row / 2) * size * 0.95 - size / 2
            out.append(f'<use class="mark {mark}" href="#hg-{mark}" x="{_fmt(x)}" y="{_fmt(y)}" '
                       f'width="{_fmt(size)}" height="{_fmt(size)}"/>')
    out.append(f'<polygon points="{_points(corners)}" fill="none" stroke="{EDGE}" stroke-width="0.8"/>')
    if tile.get("kind") == "bonus":
        bx, by = place((0.88, 0.12))
        out.append(f'<circle class="bonus-mark" cx="{_fmt(bx)}" cy="{_fmt(by)}" r="{_fmt(TILE * 0.06)}" '
                   f'fill="#ffe066" stroke="#7a5b00" stroke-width="1"/>')
    anchors = {fid: place(shape.anchor(fid)) for fid in shape.features}
    return "".join(out), anchors


def hunters_gatherers_svg(
    position: Mapping[str, Any],
    seats: Sequence[Mapping[str, Any]] = (),
    *,
    title: str | None = None,
    free_cells: bool = False,
    show: str | None = None,
    translate: Translate = identity,
    translate_plural: TranslatePlural = english_plural,
) -> str:
    """The whole board as one ``<svg>`` element with a ``<title>`` and a ``<desc>``.

    ``seats`` are the state document's seats (``seat``, ``player``, ``colour``); ``free_cells``
    outlines the empty squares next to the tiles with their coordinates, for a scorekeeper;
    ``show`` (``award-3``) outlines the feature of a final award; ``translate`` (``gettext``) and
    ``translate_plural`` (``ngettext``) turn the English words of the text alternative into the
    reader's language.
    """
    tr = remembering(translate)
    tiles = list(position.get("tiles", []))
    last = position.get("last_placed") or {}
    frame = BoardFrame.around(tiles, free_cells)
    origin = frame.origin
    colours = {seat.get("seat"): seat_colour(int(seat.get("seat", 0)), seat.get("colour", "")) for seat in seats}
    names = {seat.get("seat"): seat.get("player") for seat in seats}
    heading = title or tr("Board with %(count)s tiles") % {"count": len(tiles)}
    parts = [frame.opening("board", position, heading, describe(position, seats, tr, translate_plural)), SYMBOLS]
    anchors: dict[str, dict[int, Point]] = {}
    highlighted = ""
    for tile in tiles:
        is_last = bool(last) and tile.get("tile") == last.get("tile")
        drawn, anchors[str(tile.get("tile"))] = _draw_tile(tile, origin, is_last)
        parts.append(drawn)
        if is_last:
            highlighted = last_placed_outline(*frame.corner(tile["x"], tile["y"]))
    parts += frame.free_cells()
    parts.append(highlighted)
    drawn: dict[tuple[Any, ...], str] = {}
    scored = {figure_key(f): index for index, award in enumerate(position.get("awards", []))
              for f in award.get("figures", [])}

    def draw(figure: Mapping[str, Any], sent_home: bool) -> str:
        owner = int(figure.get("owner", figure.get("seat", 0)) or 0)
        tile_anchors = anchors.get(str(figure.get("tile")), {})
        at = tile_anchors.get(figure.get("feature"))
        if at is None:
            at = ((figure["x"] - origin[0] + 0.5) * TILE, (figure["y"] - origin[1] + 0.5) * TILE)
        at = (at[0], at[1] + TILE * 0.1)
        words = {"player": names.get(owner) or tr("Seat %(seat)s") % {"seat": owner + 1},
                 "figure": tr(str(figure.get("kind", "")))}
        if sent_home:
            label = tr("%(player)s's %(figure)s, sent home without points at the end") % words
            extra = ' data-sent-home="true" opacity="0.5"'
        else:
            label = tr("%(player)s's %(figure)s") % words
            award = scored.get(figure_key(figure))
            extra = f' data-award="{award}"' if award is not None else ""
        return draw_figure(str(figure.get("kind", "")), at, colours.get(owner) or seat_colour(owner), label, extra)

    for figure in position.get("figures", []):
        drawn[figure_key(figure)] = draw(figure, False)
    for figure in position.get("sent_home", []):
        drawn[figure_key(figure)] = draw(figure, True)
    parts += drawn.values()
    parts += final_features(frame, position.get("awards", []), show, drawn)
    parts.append("</svg>")
    return "".join(parts)
