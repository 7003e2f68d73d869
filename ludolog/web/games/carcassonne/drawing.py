"""Draw a base Carcassonne position as SVG, from the engine's JSON view of it.

Like :mod:`ludolog.web.board_svg`, this module knows how a position looks and nothing else: it
takes the ``position`` dictionary the engine's ``view()`` returns (tiles with their printed edges
and features, meeples, the last placed tile) and returns one SVG string. No Django, no database.

Every tile is drawn from its definition, as printed, then turned by the tile group's
``transform``: fields are the green ground, a city is a tan area hugging the sides it covers
(a cap on one side, a shape joining its sides through the centre on two or three, the whole
tile on four), a pennant is a small blue shield on its city, roads run from the middle of
their sides to another side or to the centre (where a village or a cloister stops them), a
cloister is a red-roofed building in the middle. Meeples stand on their feature in their
player's colour; farmers lie down in their field.

At the end of a game, when every meeple has scored and gone home, the board shows them where
they stood (the final awards remember it), and for each feature of the final scoring an outline
of its tiles, hidden until a reader asks for it (``show``).

>>> svg = carcassonne_svg({"tiles": [], "meeples": []})
>>> svg.startswith("<svg") and "<title" in svg
True
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from html import escape
from typing import Any

from ...tile_frame import (
    MEEPLE, TILE, BoardFrame, Point, Translate, figure_key, final_features, gettext_noop, identity, last_placed_outline,
    remembering, seat_colour,
)
from ...tile_geometry import corners as _corners
from ...tile_geometry import fmt as _fmt
from ...tile_geometry import inward as _inward
from ...tile_geometry import mean as _mean
from ...tile_geometry import mid as _mid
from ...tile_geometry import sub_edge as _sub_edge

SIDES = ("N", "E", "S", "W")

FIELD = "#9cc86a"
TILE_EDGE = "#5f7a3e"
CITY = "#d6b27a"
CITY_WALL = "#5b3a1e"
ROAD = "#f4eedc"
ROAD_CASING = "#6f604c"
PENNANT = "#1f4fbf"
CLOISTER_WALL = "#f1e6cf"
CLOISTER_ROOF = "#c0392b"
VILLAGE = "#7a5230"

# Sizes on the unit tile (a tile is 1 wide here; TILE user units on the board).
CAP_DEPTH = 0.3
"""How far a one-sided city reaches toward the centre (the curve's deepest point); a city that
leaves one side free leaves it a field just as deep."""
ROAD_WIDTH = 0.09
ROAD_CASING_WIDTH = 0.14
VILLAGE_SIZE = 0.16
"""Side of the small square where three or more road ends meet."""
CLOISTER_RADIUS = 0.2
"""Half the cloister building's width, roof included: fields keep their farmers out of it."""
DEAD_END_ANCHOR = 0.35
SEPARATE = 0.2
"""How near two features' spots may be before one moves beside its own edges."""
INN_OFFSET = 0.15
"""How far from the middle of its road an inn stands."""
"""A meeple on a road that stops on the tile stands this far from the side toward the end."""
ROOMY = 0.15
"""A farmer's spot this far from everything is roomy enough; among those, the one nearest the
middle of its field wins, so that a big field does not send its farmer to a corner."""
ROOMY_CITY = 0.12
"""The same for a knight: a meeple is about a fifth of a tile tall."""
CURVE_STEPS = 12
GRID = tuple(i / 20 for i in range(1, 20))
"""Sample coordinates across the tile (0.05 apart, 0.5 included) for finding room for a meeple."""

CENTRE: Point = (0.5, 0.5)
SAMPLES: tuple[Point, ...] = tuple((x, y) for y in GRID for x in GRID)


SIDE_WORDS = {
    "N": gettext_noop("north"), "E": gettext_noop("east"), "S": gettext_noop("south"), "W": gettext_noop("west"),
}
DIRECTION_WORDS = (
    gettext_noop("north"), gettext_noop("north-east"), gettext_noop("east"), gettext_noop("south-east"),
    gettext_noop("south"), gettext_noop("south-west"), gettext_noop("west"), gettext_noop("north-west"),
)
"""Where a field lies on its tile, clockwise from the north in eighths of a turn."""
ROLE_WORDS = {
    "city": gettext_noop("knight"), "road": gettext_noop("thief"),
    "cloister": gettext_noop("monk"), "field": gettext_noop("farmer"),
}
"""What the rules call a meeple on each kind of feature."""
FIGURE_WORDS = {"builder": gettext_noop("builder"), "pig": gettext_noop("pig")}
CITY_MARK_WORDS = {
    "cathedral": gettext_noop("city with a cathedral (%(sides)s)"), "wine": gettext_noop("city with wine (%(sides)s)"),
    "grain": gettext_noop("city with grain (%(sides)s)"), "cloth": gettext_noop("city with cloth (%(sides)s)"),
}
TEXT_ALTERNATIVE_WORDS = (
    *SIDE_WORDS.values(), *DIRECTION_WORDS, *ROLE_WORDS.values(), *FIGURE_WORDS.values(), gettext_noop("centre"),
    gettext_noop("meeple"), gettext_noop("large %(role)s"), *CITY_MARK_WORDS.values(),
    gettext_noop("road with an inn (%(sides)s)"),
    gettext_noop("city (%(sides)s)"), gettext_noop("city with a pennant (%(sides)s)"),
    gettext_noop("road (%(sides)s)"), gettext_noop("cloister"), gettext_noop("field (%(where)s)"),
    gettext_noop("fields only"),
    gettext_noop("Last tile placed: %(tile)s at (%(x)s, %(y)s)."),
    gettext_noop("Tile %(tile)s at (%(x)s, %(y)s), turned %(rotation)s°: %(features)s."),
    gettext_noop("%(player)s's %(figure)s on the %(feature)s of tile %(tile)s at (%(x)s, %(y)s)."),
    gettext_noop("Seat %(seat)s"), gettext_noop("%(player)s's %(figure)s"),
    gettext_noop("Next tile: %(tile)s."), gettext_noop("Tiles left: %(count)s."),
    gettext_noop("Board with %(count)s tiles"),
)


# Geometry on the unit tile, as printed: (0, 0) is the north-west corner, y grows south.









def _lerp(a: Point, b: Point, t: float) -> Point:
    return a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t




def _quadratic(start: Point, control: Point, end: Point, steps: int = CURVE_STEPS) -> list[Point]:
    """A quadratic Bézier curve as a polyline, both ends included.

    Cities and roads are kept as plain points so that the same geometry is drawn and measured
    (a farmer must stand clear of them); twelve steps look smooth at a tile's size.
    """
    points = []
    for step in range(steps + 1):
        t = step / steps
        points.append((
            (1 - t) ** 2 * start[0] + 2 * t * (1 - t) * control[0] + t ** 2 * end[0],
            (1 - t) ** 2 * start[1] + 2 * t * (1 - t) * control[1] + t ** 2 * end[1],
        ))
    return points


def _segment_distance(p: Point, a: Point, b: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = dx * dx + dy * dy
    t = 0.0 if length == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length))
    return math.dist(p, (a[0] + t * dx, a[1] + t * dy))


def _polyline_distance(p: Point, line: Sequence[Point]) -> float:
    """The distance from ``p`` to the nearest of ``line``'s segments: :func:`_segment_distance`
    inlined (the geometry of a tile measures it some 50 000 times; every value stays the same)."""
    if len(line) == 1:
        return math.dist(p, line[0])
    px, py = p
    hypot = math.hypot
    best = math.inf
    ax, ay = line[0]
    for bx, by in line[1:]:
        dx, dy = bx - ax, by - ay
        length = dx * dx + dy * dy
        if length == 0:
            t = 0.0
        else:
            t = ((px - ax) * dx + (py - ay) * dy) / length
            t = 0.0 if t < 0.0 else 1.0 if t > 1.0 else t
        distance = hypot(px - (ax + t * dx), py - (ay + t * dy))
        if distance < best:
            best = distance
        ax, ay = bx, by
    return best


def _inside(p: Point, polygon: Sequence[Point]) -> bool:
    px, py = p
    inside = False
    x1, y1 = polygon[-1]
    for x2, y2 in polygon:
        # Each edge from the previous corner to this one (the closing edge first): the edges
        # from corner i to corner i + 1, so the same crossings, computed the same way.
        if (y1 > py) != (y2 > py) and px < x1 + (py - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
        x1, y1 = x2, y2
    return inside


def _depth(p: Point, polygon: Sequence[Point]) -> float:
    """How far ``p`` is inside ``polygon`` (negative outside)."""
    distance = _polyline_distance(p, [*polygon, polygon[0]])
    return distance if _inside(p, polygon) else -distance


def _centroid(polygon: Sequence[Point]) -> Point:
    """The centre of a polygon's area (its corners' mean would lean toward its curves' many points)."""
    area = cx = cy = 0.0
    for (x1, y1), (x2, y2) in zip(polygon, [*polygon[1:], polygon[0]]):
        cross = x1 * y2 - x2 * y1
        area += cross
        cx += (x1 + x2) * cross
        cy += (y1 + y2) * cross
    if abs(area) < 1e-12:
        return _mean(polygon)
    return cx / (3 * area), cy / (3 * area)


def _turn(point: Point, rotation: int) -> Point:
    """A printed point once the tile is turned ``rotation`` degrees clockwise about its centre."""
    u, v = point[0] - 0.5, point[1] - 0.5
    for _ in range((rotation // 90) % 4):
        u, v = -v, u
    return u + 0.5, v + 0.5


def _turned_side(side: str, rotation: int) -> str:
    return SIDES[(SIDES.index(side) + rotation // 90) % 4]


def city_outline(sides: Iterable[str]) -> list[Point]:
    """The city covering ``sides`` as a polygon on the unit tile.

    One side: a cap whose curve dips :data:`CAP_DEPTH` toward the centre. Two or three sides:
    the border along them, and across each gap a curve leaving a field :data:`CAP_DEPTH` deep
    (one free side, as on the F and R tiles) or a line through the centre (two free sides, as
    on the N tile).
    Four sides: the whole tile.
    """
    covered = [side for side in SIDES if side in set(sides)]
    if not covered:
        return []
    if len(covered) == 4:
        return [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
    if len(covered) == 1:
        a, b = _corners(covered[0])
        control = _inward(covered[0], _mid(covered[0]), 2 * CAP_DEPTH)
        return [a, *_quadratic(b, control, a)[:-1]]
    # Walk clockwise from a covered side that follows a free one, so the last gap closes the shape.
    start = next(i for i in range(4) if SIDES[i] in covered and SIDES[i - 1] not in covered)
    points: list[Point] = []
    k = 0
    while k < 4:
        side = SIDES[(start + k) % 4]
        if side in covered:
            points.append(_corners(side)[0])
            k += 1
            continue
        run = 1
        while SIDES[(start + k + run) % 4] not in covered:
            run += 1
        begin, end = _corners(side)[0], _corners(SIDES[(start + k + run - 1) % 4])[1]
        if run == 1:
            control = _inward(side, _mid(side), 2 * CAP_DEPTH)
            points.extend(_quadratic(begin, control, end)[:-1])
        else:
            points.extend([begin, CENTRE])
        k += run
    return points


def road_lines(sides: Sequence[str], end: Point = CENTRE) -> list[list[Point]]:
    """A road's course as polylines: through the centre between two opposite sides, curving
    round it between two adjacent ones, from its side to ``end`` when it stops on the tile,
    and from each side to the centre when it has three or more."""
    mids = [_mid(side) for side in sides]
    if len(sides) == 1:
        return [[mids[0], end]]
    if len(sides) == 2:
        a, b = sides
        if (SIDES.index(a) - SIDES.index(b)) % 2 == 0:
            return [[mids[0], CENTRE, mids[1]]]
        return [_quadratic(mids[0], CENTRE, mids[1])]
    return [[mid, CENTRE] for mid in mids]


def _midway(line: Sequence[Point]) -> Point:
    """The point halfway along a polyline."""
    lengths = [math.dist(a, b) for a, b in zip(line, line[1:])]
    left = sum(lengths) / 2
    for (a, b), length in zip(zip(line, line[1:]), lengths):
        if left <= length and length > 0:
            return _lerp(a, b, left / length)
        left -= length
    return line[-1]


class _Shape:
    """One printed tile: where its cities, roads and cloister lie, and where meeples stand."""

    def __init__(self, edges: Mapping[str, Any], features: Sequence[Mapping[str, Any]]) -> None:
        self.features = {int(f["id"]): f for f in features}
        self.sub_edges: dict[int, list[tuple[str, int]]] = {fid: [] for fid in self.features}
        for side in SIDES:
            for index, fid in enumerate((edges.get(side) or {}).get("sub_edges", [])):
                self.sub_edges.setdefault(int(fid), []).append((side, index))
        kinds = {fid: f.get("type") for fid, f in self.features.items()}
        self.cloister = next((fid for fid, kind in kinds.items() if kind == "cloister"), None)
        road_sides = {fid: self.sides(fid) for fid, kind in kinds.items() if kind == "road" and self.sides(fid)}
        ends = sum(len(sides) for sides in road_sides.values())
        dead_ends = sum(1 for sides in road_sides.values() if len(sides) == 1)
        # Road ends that stop on the tile meet at a village, unless a cloister takes them in; a
        # single dead end (a road into a city) just runs under the city wall.
        self.village = self.cloister is None and dead_ends > 0 and (ends >= 3 or dead_ends >= 2)
        self.roads = {fid: road_lines(sides) for fid, sides in road_sides.items()}
        self.cities = {fid: city_outline(self.sides(fid)) for fid, kind in kinds.items()
                       if kind == "city" and self.sides(fid)}
        self.anchors: dict[int, Point] = {}
        for fid, kind in kinds.items():
            if kind == "city" and fid in self.cities:
                self.anchors[fid] = self._roomiest(self.cities[fid])
            elif kind == "road" and fid in self.roads:
                lines = self.roads[fid]
                self.anchors[fid] = (_midway(lines[0]) if len(road_sides[fid]) == 2
                                     else _lerp(lines[0][0], lines[0][-1], DEAD_END_ANCHOR))
            elif kind == "cloister":
                self.anchors[fid] = CENTRE
        fields = [fid for fid, kind in kinds.items() if kind == "field"]
        if fields:
            # Each sample cell's clearance, measured once for all the tile's fields.
            room = {(i, j): self.clearance((x, y)) for i, x in enumerate(GRID) for j, y in enumerate(GRID)}
            for fid in fields:
                self.anchors[fid] = self._field_spot(fid, room)
        self._separate_anchors()
        self.pennants = {fid: self._pennant_spot(fid) for fid in self.cities
                         if pennants(self.features[fid])}
        # Inns & Cathedrals and Traders & Builders print a mark in a city (a cathedral, a good)
        # where a pennant would go: clear of the knight, so the two never hide each other.
        self.marks = {fid: (mark, self._pennant_spot(fid)) for fid in self.cities
                      if (mark := city_mark(self.features[fid])) is not None}
        self.inns = {fid: self._inn_spot(self.roads[fid][0]) for fid in self.roads if self.features[fid].get("inn")}

    def _separate_anchors(self) -> None:
        """Two features whose spots the drawing puts together (the expansions' fields either side
        of a road that stops short, two roads crossing) each get a spot of their own, beside
        their own edges, so that every figure target can be tapped."""
        taken: list[Point] = []
        for fid in sorted(self.anchors):
            spot = self.anchors[fid]
            if any(math.dist(spot, other) < SEPARATE for other in taken):
                candidates = [_inward(side, _mean(_sub_edge(side, index)), depth)
                              for side, index in self.sub_edges.get(fid, []) for depth in (0.1, 0.18, 0.26, 0.34)]
                candidates += [(spot[0] + SEPARATE * math.cos(k * math.pi / 4), spot[1] + SEPARATE * math.sin(k * math.pi / 4))
                               for k in range(8)]
                candidates = [p for p in candidates if 0.08 <= p[0] <= 0.92 and 0.08 <= p[1] <= 0.92]
                for line in self.roads.get(fid, []):
                    candidates += [_lerp(line[0], line[-1], t) for t in (0.2, 0.3, 0.7, 0.8)]
                if candidates:
                    spot = max(candidates, key=lambda p: (round(min(math.dist(p, o) for o in taken), 3), p))
                else:
                    spot = (spot[0], min(0.85, spot[1] + SEPARATE))
                self.anchors[fid] = spot
            taken.append(spot)

    def sides(self, fid: int) -> list[str]:
        """The printed sides a feature reaches, clockwise from the north."""
        touched = {side for side, _index in self.sub_edges.get(fid, [])}
        return [side for side in SIDES if side in touched]

    def _roomiest(self, polygon: Sequence[Point]) -> Point:
        """A knight's spot: roomy enough inside the city, and then as near its middle as can be
        (so that the knight of a band or a three-sided city stands in the middle of it)."""
        middle = _centroid(polygon)
        inside = [p for p in SAMPLES if _inside(p, polygon)]
        if not inside:
            return middle
        return max(inside, key=lambda p: (round(min(_depth(p, polygon), ROOMY_CITY), 3), -math.dist(p, middle)))

    def _inn_spot(self, line: Sequence[Point]) -> Point:
        """Beside the middle of the road, on whichever side has more room (the inn by the road)."""
        middle = _midway(line)
        i = min(range(len(line) - 1), key=lambda k: _segment_distance(middle, line[k], line[k + 1]))
        (ax, ay), (bx, by) = line[i], line[i + 1]
        length = math.hypot(bx - ax, by - ay) or 1.0
        normal = (-(by - ay) / length * INN_OFFSET, (bx - ax) / length * INN_OFFSET)
        sides = [(middle[0] + normal[0], middle[1] + normal[1]), (middle[0] - normal[0], middle[1] - normal[1])]
        return max(sides, key=lambda p: (round(min(self.clearance(p), p[0], 1 - p[0], p[1], 1 - p[1]), 3), p))

    def _pennant_spot(self, fid: int) -> Point:
        """Inside the city but clear of its meeple, so that a knight never hides the shield."""
        polygon, anchor = self.cities[fid], self.anchors[fid]
        inside = [p for p in SAMPLES if _inside(p, polygon)]
        if not inside:
            return anchor
        return max(inside, key=lambda p: round(min(_depth(p, polygon), math.dist(p, anchor) - 0.2), 3))

    def clearance(self, p: Point) -> float:
        """How far ``p`` is from every city, road, village and cloister (negative: on one)."""
        room = [1.0]
        room += [-_depth(p, polygon) for polygon in self.cities.values()]
        room += [_polyline_distance(p, line) - ROAD_CASING_WIDTH / 2
                 for lines in self.roads.values() for line in lines]
        if self.village:
            room.append(math.dist(p, CENTRE) - VILLAGE_SIZE * 0.7)
        if self.cloister is not None:
            room.append(math.dist(p, CENTRE) - CLOISTER_RADIUS)
        return min(room)

    def _field_spot(self, fid: int, room: Mapping[tuple[int, int], float]) -> Point:
        """A farmer's spot: the roomiest sample point of the field's own area.

        The area is found by flooding the sample grid from the field's thirds of the tile's
        sides without crossing a road, a city or the cloister, so that a farmer never lands in
        the neighbouring field on the other side of a road.
        """
        free = {cell for cell, clear in room.items() if clear > 0}
        seeds = [cell for side, index in self.sub_edges.get(fid, []) for cell in _beside(side, index)]
        area = sorted(_flood(seeds, free), key=lambda cell: (cell[1], cell[0]))
        if not area:
            inward = [_inward(side, _mean(_sub_edge(side, index)), 0.2) for side, index in self.sub_edges.get(fid, [])]
            return _mean(inward) if inward else CENTRE
        middle = _mean([(GRID[i], GRID[j]) for i, j in area])

        def score(cell: tuple[int, int]) -> tuple[float, float]:
            x, y = GRID[cell[0]], GRID[cell[1]]
            clear = min(room[cell], x, 1 - x, y, 1 - y, ROOMY)
            return round(clear, 3), -math.dist((x, y), middle)

        best = max(area, key=score)
        return GRID[best[0]], GRID[best[1]]


def _beside(side: str, index: int) -> list[tuple[int, int]]:
    """The sample cells along third ``index`` of ``side``: the row or column nearest that side."""
    (ax, ay), (bx, by) = _sub_edge(side, index)
    first, last = 0, len(GRID) - 1
    if side in ("N", "S"):
        row = first if side == "N" else last
        return [(i, row) for i, x in enumerate(GRID) if min(ax, bx) < x < max(ax, bx)]
    column = last if side == "E" else first
    return [(column, j) for j, y in enumerate(GRID) if min(ay, by) < y < max(ay, by)]


def _flood(seeds: Iterable[tuple[int, int]], free: set[tuple[int, int]]) -> set[tuple[int, int]]:
    area: set[tuple[int, int]] = set()
    todo = list(seeds)
    while todo:
        cell = todo.pop()
        if cell in area or cell not in free:
            continue
        area.add(cell)
        i, j = cell
        todo += [(i + 1, j), (i - 1, j), (i, j + 1), (i, j - 1)]
    return area


def city_mark(feature: Mapping[str, Any]) -> str | None:
    """What an expansion prints in a city besides a pennant: ``cathedral`` or its good."""
    if feature.get("cathedral"):
        return "cathedral"
    good = feature.get("good")
    return str(good) if good in GOODS else None


def pennants(feature: Mapping[str, Any]) -> int:
    """How many pennants a city shows (the engine may say a count or true/false)."""
    value = feature.get("pennant") or feature.get("pennants") or 0
    return 1 if value is True else int(value)


# Drawing. Everything on a tile is drawn as printed in its own square (0..TILE); the tile's
# group turns it, exactly as the physical tile is turned.



def _scaled(points: Iterable[Point]) -> list[Point]:
    return [(x * TILE, y * TILE) for x, y in points]


def _points(points: Iterable[Point]) -> str:
    return " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in _scaled(points))


def _path(lines: Iterable[Sequence[Point]]) -> str:
    parts = []
    for line in lines:
        scaled = _scaled(line)
        parts.append(f"M{_fmt(scaled[0][0])} {_fmt(scaled[0][1])}"
                     + "".join(f" L{_fmt(x)} {_fmt(y)}" for x, y in scaled[1:]))
    return " ".join(parts)


PENNANT_SHIELD = "M-4.5 -5 L4.5 -5 L4.5 0.5 Q4.5 4.5 0 6.5 Q-4.5 4.5 -4.5 0.5 Z"
CLOISTER_BUILDING = (
    '<rect x="-7" y="-2" width="14" height="10" fill="{wall}" stroke="#4a3b2a" stroke-width="0.9"/>'
    '<polygon points="-9.5,-1.5 0,-10 9.5,-1.5" fill="{roof}" stroke="#5e1a12" stroke-width="0.9"/>'
    '<rect x="-2" y="3" width="4" height="5" fill="#4a3b2a"/>'
    '<path d="M0 -10 L0 -14 M-1.8 -12.5 L1.8 -12.5" stroke="#4a3b2a" stroke-width="1"/>'
)


CATHEDRAL = (
    '<rect x="-6" y="-3" width="12" height="10" fill="#ece3cf" stroke="#3e3428" stroke-width="0.9"/>'
    '<rect x="-3" y="-11" width="6" height="9" fill="#ece3cf" stroke="#3e3428" stroke-width="0.9"/>'
    '<polygon points="-3.8,-10.5 0,-16 3.8,-10.5" fill="#6b7a8f" stroke="#3e3428" stroke-width="0.8"/>'
    '<path d="M-1.5 2 L-1.5 7 L1.5 7 L1.5 2 Q0 0 -1.5 2 Z" fill="#3e3428"/>'
)
INN = (
    '<rect x="-5" y="-2" width="10" height="7" fill="#f3e2b8" stroke="#4a3b2a" stroke-width="0.9"/>'
    '<polygon points="-6.5,-1.5 0,-7.5 6.5,-1.5" fill="#b5541c" stroke="#5e2a0e" stroke-width="0.9"/>'
    '<rect x="-1.3" y="1" width="2.6" height="4" fill="#4a3b2a"/>'
)
GOODS = {
    # Wine a bunch of grapes, grain a sheaf, cloth a folded bolt: told apart by shape and colour.
    "wine": ('<g fill="#6b2a7a" stroke="#2c1033" stroke-width="0.6"><circle cx="-2.5" cy="-2" r="2.4"/>'
             '<circle cx="2.5" cy="-2" r="2.4"/><circle cx="0" cy="2" r="2.4"/><circle cx="0" cy="-5.5" r="2"/></g>'),
    "grain": ('<g stroke="#7a5a0c" stroke-width="1.3" fill="none"><path d="M0 6 L0 -6 M0 -2 L-3.5 -6 M0 -2 L3.5 -6 '
              'M0 2 L-3.5 -2 M0 2 L3.5 -2"/></g><ellipse cx="0" cy="-7" rx="1.8" ry="2.6" fill="#e0b43c" '
              'stroke="#7a5a0c" stroke-width="0.6"/>'),
    "cloth": ('<rect x="-5.5" y="-4.5" width="11" height="9" rx="1.5" fill="#2f6fb0" stroke="#12324f" '
              'stroke-width="0.8"/><path d="M-5.5 -1 L5.5 -1 M-5.5 2 L5.5 2" stroke="#cfe3f5" stroke-width="0.9"/>'),
}
MARKS = {"cathedral": CATHEDRAL, **GOODS}


def _at(point: Point) -> str:
    return f"translate({_fmt(point[0] * TILE)} {_fmt(point[1] * TILE)})"


@lru_cache(maxsize=128)
def _shape(key: str) -> _Shape:
    edges, features = json.loads(key)
    return _Shape(edges, features)


@lru_cache(maxsize=512)
def _tile_art(key: str, rotation: int) -> tuple[str, tuple[tuple[int, Point], ...]]:
    """A printed tile's drawing in its own square, and where its features' meeples stand.

    The tile's group turns the drawing; the pennant and the cloister are turned back so that
    they stay upright and easy to recognise. The base game has 24 different tiles and four
    turns, so a replay computes each one's geometry once.
    """
    shape = _shape(key)
    out = [f'<rect class="field" x="0" y="0" width="{TILE}" height="{TILE}" fill="{FIELD}"/>']
    # All casings first, then all surfaces, so that roads meeting at a village join cleanly.
    for lines in shape.roads.values():
        out.append(f'<path class="road-casing" d="{_path(lines)}" stroke="{ROAD_CASING}" '
                   f'stroke-width="{_fmt(ROAD_CASING_WIDTH * TILE)}" stroke-linejoin="round" fill="none"/>')
    for fid, lines in shape.roads.items():
        out.append(f'<path class="road" data-feature="{fid}" d="{_path(lines)}" stroke="{ROAD}" '
                   f'stroke-width="{_fmt(ROAD_WIDTH * TILE)}" stroke-linejoin="round" fill="none"/>')
    if shape.village:
        half = VILLAGE_SIZE * TILE / 2
        out.append(f'<rect class="junction" x="{_fmt(TILE / 2 - half)}" y="{_fmt(TILE / 2 - half)}" '
                   f'width="{_fmt(2 * half)}" height="{_fmt(2 * half)}" fill="{VILLAGE}" stroke="#3b2716" stroke-width="1"/>')
    # Cities after roads: a road that runs into a city (tiles S and T) stops at its wall.
    for fid, outline in shape.cities.items():
        out.append(f'<polygon class="city" data-feature="{fid}" points="{_points(outline)}" fill="{CITY}" '
                   f'stroke="{CITY_WALL}" stroke-width="1.4" stroke-linejoin="round"/>')
    upright = f" rotate({-rotation})" if rotation else ""
    for fid, spot in shape.pennants.items():
        out.append(f'<path class="pennant" data-feature="{fid}" transform="{_at(spot)}{upright}" '
                   f'd="{PENNANT_SHIELD}" fill="{PENNANT}" stroke="#f8f8f8" stroke-width="1"/>')
    for fid, (mark, spot) in shape.marks.items():
        out.append(f'<g class="{"cathedral" if mark == "cathedral" else "good " + mark}" data-feature="{fid}" '
                   f'transform="{_at(spot)}{upright}">{MARKS[mark]}</g>')
    for fid, spot in shape.inns.items():
        out.append(f'<g class="inn" data-feature="{fid}" transform="{_at(spot)}{upright}">{INN}</g>')
    if shape.cloister is not None:
        out.append(f'<g class="cloister" data-feature="{shape.cloister}" transform="{_at(CENTRE)}{upright}">'
                   + CLOISTER_BUILDING.format(wall=CLOISTER_WALL, roof=CLOISTER_ROOF) + "</g>")
    out.append(f'<rect class="tile-edge" x="0" y="0" width="{TILE}" height="{TILE}" fill="none" '
               f'stroke="{TILE_EDGE}" stroke-width="0.8"/>')
    return "".join(out), tuple(sorted(shape.anchors.items()))


def shape_of(tile: Mapping[str, Any]) -> tuple[str, dict[int, Point]]:
    """A tile's drawing, and where its meeples stand on the tile as printed (unturned)."""
    key = json.dumps([tile.get("edges") or {}, tile.get("features") or []], sort_keys=True)
    art, anchors = _tile_art(key, int(tile.get("rotation", 0)) % 360)
    return art, dict(anchors)


# The text alternative.

def _feature_words(tile: Mapping[str, Any], feature: Mapping[str, Any], anchor: Point | None, tr: Translate) -> str:
    """One feature in words, with the sides it reaches as the tile lies (turned) on the board."""
    rotation = int(tile.get("rotation", 0))
    kind = feature.get("type", "")
    if kind == "cloister":
        return tr("cloister")
    if kind == "field":
        where = tr("centre")
        if anchor is not None:
            u, v = _turn(anchor, rotation)
            if math.dist((u, v), CENTRE) >= 0.12:
                angle = math.degrees(math.atan2(u - 0.5, 0.5 - v)) % 360
                where = tr(DIRECTION_WORDS[round(angle / 45) % 8])
        return tr("field (%(where)s)") % {"where": where}
    touched = set()
    for side in SIDES:
        if feature.get("id") in ((tile.get("edges") or {}).get(side) or {}).get("sub_edges", []):
            touched.add(_turned_side(side, rotation))
    sides = ", ".join(tr(SIDE_WORDS[side]) for side in SIDES if side in touched)
    if kind == "city":
        mark = city_mark(feature)
        if mark is not None:
            return tr(CITY_MARK_WORDS[mark]) % {"sides": sides}
        text = "city with a pennant (%(sides)s)" if pennants(feature) else "city (%(sides)s)"
        return tr(text) % {"sides": sides}
    if kind == "road":
        return tr("road with an inn (%(sides)s)" if feature.get("inn") else "road (%(sides)s)") % {"sides": sides}
    return tr(str(kind))


def standing_meeples(position: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The meeples on the board and, at the end, those the final scoring sent home, where they
    stood (each with the index of its award)."""
    meeples = [dict(meeple) for meeple in position.get("meeples", [])]
    for index, award in enumerate(position.get("awards", [])):
        for figure in award.get("figures", []):
            meeples.append({"seat": figure["seat"], "x": figure["x"], "y": figure["y"], "feature": figure["feature"],
                            "type": award["source"], "kind": figure.get("kind", "meeple"), "award": index})
    return meeples


def _figure_words(meeple: Mapping[str, Any], tr: Translate) -> str:
    """A knight, a thief, a monk or a farmer by where it stands; the expansions' own figures by name
    (the large meeple a "large knight"…)."""
    figure = meeple.get("kind") or "meeple"
    if figure in ("builder", "pig"):
        return tr(FIGURE_WORDS[figure])
    role = tr(ROLE_WORDS.get(meeple.get("type", ""), "meeple"))
    return tr("large %(role)s") % {"role": role} if figure == "big" else role


def _player(seat: int, names: Mapping[Any, Any], tr: Translate) -> str:
    return str(names.get(seat) or tr("Seat %(seat)s") % {"seat": seat + 1})


def describe(
    position: Mapping[str, Any],
    seats: Sequence[Mapping[str, Any]] = (),
    translate: Translate = identity,
) -> str:
    """The board in words, for the SVG's ``<desc>``: the last tile laid, every tile with its
    cities, roads, cloister and pennants, every meeple, and the tile to lay next."""
    tr = translate
    names = {seat.get("seat"): seat.get("player") for seat in seats}
    lines = []
    last = position.get("last_placed") or {}
    if last:
        lines.append(tr("Last tile placed: %(tile)s at (%(x)s, %(y)s).") % {
            "tile": last.get("tile"), "x": last.get("x"), "y": last.get("y")})
    tiles = {}
    for tile in position.get("tiles", []):
        tiles[(tile.get("x"), tile.get("y"))] = tile
        features = [_feature_words(tile, feature, None, tr) for feature in tile.get("features", [])
                    if feature.get("type") in ("city", "road", "cloister")]
        lines.append(tr("Tile %(tile)s at (%(x)s, %(y)s), turned %(rotation)s°: %(features)s.") % {
            "tile": tile.get("tile"), "x": tile.get("x"), "y": tile.get("y"),
            "rotation": tile.get("rotation", 0), "features": "; ".join(features) or tr("fields only")})
    for meeple in standing_meeples(position):
        seat = int(meeple.get("seat", 0))
        tile = tiles.get((meeple.get("x"), meeple.get("y"))) or {}
        feature = next((f for f in tile.get("features", []) if f.get("id") == meeple.get("feature")),
                       {"id": meeple.get("feature"), "type": meeple.get("type", "")})
        anchor = shape_of(tile)[1].get(meeple.get("feature")) if tile else None
        lines.append(tr("%(player)s's %(figure)s on the %(feature)s of tile %(tile)s at (%(x)s, %(y)s).") % {
            "player": _player(seat, names, tr), "figure": _figure_words(meeple, tr),
            "feature": _feature_words(tile, feature, anchor, tr), "tile": tile.get("tile", "?"),
            "x": meeple.get("x"), "y": meeple.get("y")})
    if position.get("next_tile"):
        lines.append(tr("Next tile: %(tile)s.") % {"tile": position["next_tile"]})
    if position.get("tiles_left") is not None:
        lines.append(tr("Tiles left: %(count)s.") % {"count": position["tiles_left"]})
    return " ".join(lines)


BUILDER = "M-2.5 -10 L2.5 -10 L3.5 -6 L6 -4 L5 -1.5 L3 -2.5 L4.5 9 L0.8 9 L0 3 L-0.8 9 L-4.5 9 L-3 -2.5 L-5 -1.5 L-6 -4 L-3.5 -6 Z"
"""The builder: taller and slimmer than a meeple, so that it reads as another figure at a glance."""
PIG = ('<ellipse cx="0" cy="0" rx="8" ry="5.5" fill="{colour}" stroke="#111" stroke-width="1.1"/>'
       '<ellipse cx="8.3" cy="-0.5" rx="2.6" ry="2.2" fill="#f3b6c4" stroke="#111" stroke-width="0.9"/>'
       '<path d="M-4 5 L-4 8 M4 5 L4 8" stroke="#111" stroke-width="1.6"/>'
       '<polygon points="3,-5 5.5,-8.5 6.5,-4" fill="{colour}" stroke="#111" stroke-width="0.8"/>')
"""The pig, in its owner's colour with a pink snout."""


def draw_meeple(meeple: Mapping[str, Any], at: Point, colour: str, label: str) -> str:
    kind = str(meeple.get("type", ""))
    figure = str(meeple.get("kind") or "meeple")
    role = {"city": "knight", "road": "thief", "cloister": "monk", "field": "farmer"}.get(kind, "")
    classes = " ".join(filter(None, ["meeple", role, figure if figure != "meeple" else ""]))
    award = f' data-award="{int(meeple["award"])}"' if meeple.get("award") is not None else ""
    opening = (f'<g class="{classes}" data-seat="{int(meeple.get("seat", 0))}" data-kind="{escape(figure)}" '
               f'data-feature="{escape(str(meeple.get("feature", "")))}"{award} ')
    place = f"translate({_fmt(at[0])} {_fmt(at[1])})"
    if figure == "pig":
        return f'{opening}transform="{place} scale(0.8)"><title>{escape(label)}</title>{PIG.format(colour=colour)}</g>'
    if figure == "builder":
        return (f'{opening}transform="{place} scale(0.75)"><title>{escape(label)}</title>'
                f'<path d="{BUILDER}" fill="{colour}" stroke="#111" stroke-width="1.2" stroke-linejoin="round"/></g>')
    # A farmer lies down in its field, as the rules have it: the same figure, turned on its side.
    # The large meeple is the same figure, larger.
    size = 0.95 if figure == "big" else 0.7
    pose = f" rotate(-90) scale({_fmt(size - 0.02)})" if kind == "field" else f" scale({_fmt(size)})"
    return (f'{opening}transform="{place}{pose}"><title>{escape(label)}</title>'
            f'<path d="{MEEPLE}" fill="{colour}" stroke="#111" stroke-width="1.2" stroke-linejoin="round"/></g>')


def carcassonne_svg(
    position: Mapping[str, Any],
    seats: Sequence[Mapping[str, Any]] = (),
    *,
    title: str | None = None,
    free_cells: bool = False,
    show: str | None = None,
    translate: Translate = identity,
    frame: BoardFrame | None = None,
    ground: Callable[[BoardFrame], list[str]] | None = None,
    description: str = "",
    css_class: str = "board carcassonne",
) -> str:
    """The whole board as one ``<svg>`` element with a ``<title>`` and a ``<desc>``.

    ``seats`` are the state document's seats (``seat``, ``player``, ``colour``); ``free_cells``
    outlines the empty squares next to the tiles with their coordinates, for a scorekeeper;
    ``show`` (``award-3``) outlines the feature of a final award; ``translate`` (``gettext``)
    turns the English words of the text alternative into the reader's language. A game played
    on printed ground (the Maps) gives its ``frame`` (the whole map), draws its ``ground`` under
    the tiles and adds to the text alternative (``description``).
    """
    tr = remembering(translate)
    tiles = list(position.get("tiles", []))
    last = position.get("last_placed") or {}
    frame = frame or BoardFrame.around(tiles, free_cells)
    min_x, min_y = frame.origin
    colours = {seat.get("seat"): seat_colour(int(seat.get("seat", 0)), seat.get("colour", "")) for seat in seats}
    names = {seat.get("seat"): seat.get("player") for seat in seats}
    heading = title or tr("Board with %(count)s tiles") % {"count": len(tiles)}
    words = " ".join(filter(None, [description, describe(position, seats, tr)]))
    parts = [frame.opening(css_class, position, heading, words)]
    if ground is not None:
        parts += ground(frame)
    anchors: dict[tuple[int, int], tuple[int, dict[int, Point]]] = {}
    highlighted = ""
    for tile in tiles:
        x, y, rotation = int(tile["x"]), int(tile["y"]), int(tile.get("rotation", 0)) % 360
        left, top = frame.corner(x, y)
        art, tile_anchors = shape_of(tile)
        anchors[(x, y)] = (rotation, tile_anchors)
        is_last = bool(last) and (last.get("x"), last.get("y")) == (x, y)
        turn = f" rotate({rotation} {_fmt(TILE / 2)} {_fmt(TILE / 2)})" if rotation else ""
        parts.append(
            f'<g class="tile{" last-placed" if is_last else ""}" data-tile="{escape(str(tile.get("tile", "")))}" '
            f'data-x="{x}" data-y="{y}" data-rotation="{rotation}" data-order="{escape(str(tile.get("order", "")))}" '
            f'transform="translate({_fmt(left)} {_fmt(top)}){turn}">{art}</g>')
        if is_last:
            highlighted = last_placed_outline(left, top)
    parts += frame.free_cells()
    parts.append(highlighted)
    drawn: dict[tuple[Any, ...], str] = {}
    for meeple in standing_meeples(position):
        seat = int(meeple.get("seat", 0))
        x, y = int(meeple["x"]), int(meeple["y"])
        rotation, tile_anchors = anchors.get((x, y), (0, {}))
        spot = _turn(tile_anchors.get(meeple.get("feature"), CENTRE), rotation)
        at = ((x - min_x + spot[0]) * TILE, (y - min_y + spot[1]) * TILE)
        label = tr("%(player)s's %(figure)s") % {"player": _player(seat, names, tr), "figure": _figure_words(meeple, tr)}
        drawn[figure_key(dict(meeple, kind=meeple.get("kind") or "meeple"))] = draw_meeple(
            meeple, at, colours.get(seat) or seat_colour(seat), label)
    parts += drawn.values()
    parts += final_features(frame, position.get("awards", []), show, drawn)
    parts.append("</svg>")
    return "".join(parts)
