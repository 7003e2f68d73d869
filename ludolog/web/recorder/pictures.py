"""Tile pictures for the table recorder: every tile of a set drawn once, as an SVG ``<symbol>``,
with where each feature's figure stands and what is printed on it (for the picker's filters).

Each tile game's web module draws its tiles with its board's own drawing (a tile in the picker
looks exactly like the same tile on the board); this module keeps the pictures and puts them on
the page. Pure (no Django).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from html import escape
from typing import Any

from ..tile_frame import TILE

Point = tuple[float, float]


@dataclass(frozen=True)
class TilePicture:
    """One printed tile as the recorder draws and describes it."""

    symbol: str
    """``<symbol id="tile-{id}" viewBox="0 0 60 60">…</symbol>``, drawn as printed (unturned)."""
    anchors: Mapping[int, Point]
    """Feature → where its figure stands, on the unit tile as printed."""
    terrains: Mapping[int, str]
    """Feature → its terrain (forest, river, meadow, lake; city, road, field, cloister)."""
    tags: tuple[str, ...]
    """What is on the tile, for the picker's filters."""
    kind: str
    """``landscape``, ``bonus``, ``start``; ``tile`` where a game has one kind."""


def symbol_id(tile: str) -> str:
    return f"tile-{tile}"


def symbol(tile: str, art: str) -> str:
    """A tile's drawing (in a ``TILE`` square) as the ``<symbol>`` the page refers to."""
    return (f'<symbol id="{escape(symbol_id(tile))}" viewBox="0 0 {TILE} {TILE}" overflow="hidden">'
            f"{art}</symbol>")


Drawer = Callable[[str, Mapping[str, Any]], TilePicture]


@lru_cache(maxsize=8)
def _pictures(slug: str, ruleset_version: str, records_json: str, draw: Drawer) -> dict[str, TilePicture]:
    records = json.loads(records_json)
    return {tile: draw(tile, record) for tile, record in records.items()}


def pictures(slug: str, ruleset_version: str, records: Mapping[str, Mapping[str, Any]],
             draw: Drawer) -> dict[str, TilePicture]:
    """Every tile of the set (``records``: the adapter's ``tile_records()``), drawn by ``draw``
    once per game and ruleset version."""
    return _pictures(slug, ruleset_version, json.dumps(records, sort_keys=True), draw)


def sprite(pictures_by_tile: Mapping[str, TilePicture], defs: str = "") -> str:
    """One hidden ``<svg>`` holding every tile's symbol (and the marks they use), for
    ``<use href="#tile-…">`` anywhere on the page, online or not."""
    symbols = "".join(picture.symbol for picture in pictures_by_tile.values())
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="tile-sprite" aria-hidden="true" '
            f'width="0" height="0" style="position:absolute">{defs}{symbols}</svg>')
