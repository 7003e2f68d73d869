"""Map files: JSON checked against ``data/map.schema.json``, then against what a schema cannot say.

A map file is a grid of characters (one row a string, north first) that shows the map at a
glance, and lists that name what the grid marks: start squares, towns, large cities (their
squares, open edges and coats of arms), islands (colour, two stack squares) and road or city
crossings at the border. :func:`map_from_dict` refuses a file with a :class:`MapFileError` that
names the first problem; :func:`load_map_file` reads any file (so an exact map can be uploaded
later); :func:`load_benelux` is the packaged, approximate Benelux map.

>>> benelux = load_benelux()
>>> benelux.name, benelux.version, len(benelux.playable), list(benelux.start_squares)
('benelux', 'benelux-approximate@1', 178, ['Meppel', 'Eindhoven', 'Charleroi'])
>>> map_from_dict({"name": "x"})
Traceback (most recent call last):
...
games.engines.carcassonne_maps.map_file.MapFileError: map file breaks the schema at top level: 'version' is a required property
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from functools import cache
from importlib import resources
from typing import Any, Final

from games.engines.tiles import Position, Side, neighbour

from .map import BorderEdge, Island, LargeCity, MapDefinition, OpenEdge, Square, SquareKind

SCHEMA_FILE: Final = "map.schema.json"
BENELUX_FILE: Final = "benelux_approximate_v1.json"
PACKAGED_MAPS: Final = (BENELUX_FILE,)

_MARKS: Final = {".": SquareKind.OUTSIDE, "#": SquareKind.NORMAL, "S": SquareKind.START, "T": SquareKind.TOWN,
                 "C": SquareKind.LARGE_CITY, "~": SquareKind.WAVE, "I": SquareKind.ISLAND}


class MapFileError(ValueError):
    """A map file breaks the schema or its own consistency; the message names the problem."""


def map_from_dict(data: Mapping[str, Any], *, validate_schema: bool = True) -> MapDefinition:
    """The map a file's JSON object describes, checked: schema first, then consistency."""
    if validate_schema:
        _validate_schema(data)
    label = f"map {data.get('name')!r}"
    grid = [str(row) for row in data["grid"]]
    width = len(grid[0])
    for y, row in enumerate(grid):
        if len(row) != width:
            raise MapFileError(f"{label}: grid row {y} has {len(row)} squares, row 0 has {width}")
    marks = {(x, y): _MARKS[ch] for y, row in enumerate(grid) for x, ch in enumerate(row)}
    named: dict[Position, Square] = {}
    names: set[str] = set()

    def claim(position: Position, square: Square, what: str) -> None:
        if square.name is not None:
            if square.name in names:
                raise MapFileError(f"{label}: the name {square.name!r} is used twice")
            names.add(square.name)
        mark = marks.get(position)
        if mark is None:
            raise MapFileError(f"{label}: {what} at {_at(position)} lies off the grid ({width}x{len(grid)})")
        if mark is not square.kind:
            raise MapFileError(f"{label}: {what} at {_at(position)} is marked {mark.value} on the grid, "
                               f"not {square.kind.value}")
        if position in named:
            raise MapFileError(f"{label}: {what} at {_at(position)} overlaps {_describe(named[position])}")
        named[position] = square

    for entry in data["start_squares"]:
        position = _position(entry["at"])
        claim(position, Square(position, SquareKind.START, str(entry["name"])), f"start square {entry['name']!r}")
    for entry in data["towns"]:
        position = _position(entry["at"])
        claim(position, Square(position, SquareKind.TOWN, str(entry["name"])), f"town {entry['name']!r}")

    cities = []
    for entry in data["large_cities"]:
        name = str(entry["name"])
        city_squares = tuple(_position(p) for p in entry["squares"])
        for i, position in enumerate(city_squares):
            # the name is claimed once, by the city's first square
            claim(position, Square(position, SquareKind.LARGE_CITY, name if i == 0 else None),
                  f"large city {name!r}")
            named[position] = Square(position, SquareKind.LARGE_CITY, name)
        _check_contiguous(label, name, city_squares)
        edges = tuple(OpenEdge(_position(e["at"]), Side[e["side"]]) for e in entry["open_edges"])
        cities.append(LargeCity(name, city_squares, edges, int(entry.get("coats_of_arms", 0))))

    islands = []
    colours: set[str] = set()
    for entry in data["islands"]:
        colour, name = str(entry["colour"]), str(entry["name"])
        if colour in colours:
            raise MapFileError(f"{label}: two islands are {colour}")
        colours.add(colour)
        stacks = tuple(_position(p) for p in entry["stacks"])
        if len(set(stacks)) != 2:
            raise MapFileError(f"{label}: island {name!r} needs two different stack squares, has {len(set(stacks))}")
        for number, position in enumerate(stacks, start=1):
            claim(position, Square(position, SquareKind.ISLAND, name if number == 1 else None, colour, number),
                  f"island {name!r}")
            named[position] = Square(position, SquareKind.ISLAND, name, colour, number)
        islands.append(Island(colour, name, stacks))

    for position, mark in marks.items():
        if mark in (SquareKind.START, SquareKind.TOWN, SquareKind.LARGE_CITY, SquareKind.ISLAND) \
                and position not in named:
            raise MapFileError(f"{label}: the grid marks a {mark.value} at {_at(position)} that no list names")

    squares = {p: named.get(p, Square(p, mark)) for p, mark in marks.items() if mark is not SquareKind.OUTSIDE}
    for city in cities:
        _check_open_edges(label, city, squares)
    borders = tuple(BorderEdge(_position(e["at"]), Side[e["side"]], str(e["terrain"]))
                    for e in data.get("border_edges", ()))
    _check_border_edges(label, borders, squares)
    if not any(square.takes_tile for square in squares.values()):
        raise MapFileError(f"{label}: no square takes a tile")

    recommended = data.get("recommended_tiles")
    if recommended is not None and recommended["min"] > recommended["max"]:
        raise MapFileError(f"{label}: recommended tiles from {recommended['min']} to {recommended['max']}?")
    return MapDefinition(
        name=str(data["name"]), version=str(data["version"]), approximate=bool(data["approximate"]),
        provenance=str(data["provenance"]), width=width, height=len(grid), squares=squares,
        large_cities=tuple(cities), islands=tuple(islands), border_edges=borders, title=str(data.get("title", "")),
        recommended_tiles=None if recommended is None else (int(recommended["min"]), int(recommended["max"])),
    )


def load_map_text(text: str) -> MapDefinition:
    """The map in a JSON text; a :class:`MapFileError` if it is not JSON or not a good map."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise MapFileError(f"map file is not JSON: {error}") from None
    if not isinstance(data, dict):
        raise MapFileError("map file breaks the schema at top level: not an object")
    return map_from_dict(data)


def load_map_file(path: str | os.PathLike[str]) -> MapDefinition:
    """The map in the file at ``path`` (any map file, the packaged ones or an uploaded one)."""
    with open(path, encoding="utf-8") as handle:
        return load_map_text(handle.read())


@cache
def load_packaged_map(file_name: str) -> MapDefinition:
    """A map file shipped in this package's ``data/`` folder, loaded once."""
    return load_map_text(resources.files(__package__).joinpath("data", file_name).read_text("utf-8"))


def load_benelux() -> MapDefinition:
    """The Benelux map, as reconstructed (``approximate``: the printed geometry is not public)."""
    return load_packaged_map(BENELUX_FILE)


def packaged_map(name: str, version: str) -> MapDefinition:
    """The packaged map a record pins by ``name`` and ``version``; ``KeyError`` if none is shipped."""
    for file_name in PACKAGED_MAPS:
        found = load_packaged_map(file_name)
        if (found.name, found.version) == (name, version):
            return found
    raise KeyError(f"no packaged map {name} {version}")


# -- checks ---------------------------------------------------------------------------------------

@cache
def _schema() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(resources.files(__package__).joinpath("data", SCHEMA_FILE).read_text("utf-8"))
    return loaded


def _validate_schema(data: Mapping[str, Any]) -> None:
    import jsonschema  # type: ignore[import-untyped, unused-ignore]

    error = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(_schema()).iter_errors(data))
    if error is not None:
        path = "/".join(str(p) for p in error.absolute_path)
        raise MapFileError(f"map file breaks the schema at {path or 'top level'}: {error.message}")


def _check_contiguous(label: str, name: str, squares: tuple[Position, ...]) -> None:
    reached = {squares[0]}
    todo = [squares[0]]
    wanted = set(squares)
    while todo:
        x, y = todo.pop()
        for other in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)):
            if other in wanted and other not in reached:
                reached.add(other)
                todo.append(other)
    if reached != wanted:
        raise MapFileError(f"large city {name!r} in {label}: its squares do not join side to side")


def _check_open_edges(label: str, city: LargeCity, squares: Mapping[Position, Square]) -> None:
    seen: set[tuple[Position, Side]] = set()
    for edge in city.open_edges:
        where = f"open edge {edge.side.name} of {_at(edge.position)}"
        if edge.position not in city.squares:
            raise MapFileError(f"large city {city.name!r} in {label}: {where} is not on one of its squares")
        if (edge.position, edge.side) in seen:
            raise MapFileError(f"large city {city.name!r} in {label}: {where} is listed twice")
        seen.add((edge.position, edge.side))
        if edge.beyond in city.squares:
            raise MapFileError(f"large city {city.name!r} in {label}: {where} faces its own square")
        beyond = squares.get(edge.beyond)
        if beyond is None or not beyond.takes_tile:
            kind = SquareKind.OUTSIDE if beyond is None else beyond.kind
            raise MapFileError(f"large city {city.name!r} in {label}: {where} faces {kind.value} "
                               f"{_at(edge.beyond)}, where no tile can ever complete it")


def _check_border_edges(label: str, borders: Iterable[BorderEdge], squares: Mapping[Position, Square]) -> None:
    for border in borders:
        square = squares.get(border.position)
        where = f"border crossing {border.side.name} of {_at(border.position)}"
        if square is None or not square.takes_tile:
            raise MapFileError(f"{label}: {where} is not on a square that takes a tile")
        other = squares.get(neighbour(border.position, border.side))
        if other is not None and other.kind is not SquareKind.OUTSIDE and other.kind is not SquareKind.WAVE:
            raise MapFileError(f"{label}: {where} faces {other.kind.value} {_at(other.position)}, not the border")


def _position(raw: Any) -> Position:
    return int(raw[0]), int(raw[1])


def _at(position: Position) -> str:
    return f"({position[0]},{position[1]})"


def _describe(square: Square) -> str:
    return f"{square.kind.value} {square.name!r}" if square.name else square.kind.value
