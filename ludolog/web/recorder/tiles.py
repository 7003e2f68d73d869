"""The table recorder of a tile game: what every tile game's web module hands the recorder
(``recorder-tiles.js``), built from the few things that differ between them.

A tile game's adapter is a :class:`games.adapters.tiles.TileGameAdapter` (its tiles as printed,
which figures go on which terrain, the options of a turn); its web module says how a tile looks
in the picker (:class:`~ludolog.web.recorder.pictures.TilePicture`), which filters the picker
offers and the words of its tags, figures and terrains. :func:`tile_recorder` makes the
:class:`~ludolog.web.games.RecorderParts` of it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext

from ..games import RecorderParts, Words
from . import pictures
from .pictures import TilePicture
from .words import tile_words

TileDrawer = Callable[[str, Mapping[str, Any]], TilePicture]
"""A tile's id and its printed record → its picture in the picker."""
FigureGlyphs = Callable[[Callable[[str], str]], Mapping[str, str]]
"""``gettext`` → each figure kind a player may put on a tile, drawn at (0, 0) in ``currentColor``
(``recorder-tiles.js`` asks ``kind:terrain`` first, then ``kind``)."""


def tile_recorder(*, slug: str, draw: TileDrawer, tags: Mapping[str, Words], figures: Mapping[str, Words],
                  terrains: Mapping[str, Words], glyphs: FigureGlyphs, roles: Mapping[str, Words] | None = None,
                  defs: str = "", more_words: Callable[[], Mapping[str, str]] | None = None,
                  edge_colours: Mapping[str, str] | None = None) -> RecorderParts:
    """The recorder of a tile game.

    ``tags``: what may be printed on a tile, in the order the picker's filters show them, with
    their words; ``figures``: the figure kinds' words; ``terrains``: the terrains' words;
    ``roles``: a meeple's name by the terrain it stands on (a knight in a city), where the game
    has them; ``defs``: SVG drawings the tiles' pictures refer to; ``more_words``: the words of
    what only this game's turn has (the Maps' islands and chips); ``edge_colours``: the colour of
    each kind of side as the board draws it, in the order the picker's sketch of a tile cycles
    through them.
    """
    tag_order = tuple(tags)

    def drawn(engine: Any, version: str) -> dict[str, TilePicture]:
        return pictures.pictures(slug, version, engine.tile_records(), draw)

    def words() -> dict[str, str]:
        said = tile_words()
        said.update({f"tag:{tag}": str(label) for tag, label in tags.items()})
        said.update({f"figure:{kind}": str(label) for kind, label in figures.items()})
        said.update({f"terrain:{terrain}": str(label) for terrain, label in terrains.items()})
        said.update({f"role:{terrain}": str(label) for terrain, label in (roles or {}).items()})
        if more_words is not None:
            said.update(more_words())
        return said

    def page_data(engine: Any, version: str) -> dict[str, Any]:
        return {
            "tiles": {
                tile: {"edges": engine.edges(tile), "anchors": picture.anchors, "terrains": picture.terrains,
                       "tags": [tag for tag in tag_order if tag in picture.tags], "kind": picture.kind}
                for tile, picture in drawn(engine, version).items()
            },
            "tags": tag_order,
            "edge_kinds": edge_kinds(engine, edge_colours or {}),
            "figures_by_terrain": engine.figures_by_terrain,
            "figure_pools": engine.figure_pools,
            "figure_fields": engine.figure_fields,
            "glyphs": dict(glyphs(gettext)),
        }

    def sprite(engine: Any, version: str) -> str:
        return pictures.sprite(drawn(engine, version), defs)

    return RecorderParts(
        script="ludolog/recorder-tiles.js", helpers=("ludolog/recorder-picker.js",), css_class="tile-game", controls_template="scorekeeping/_tile_controls.html",
        words=words, page_data=page_data, sprite=sprite, table=laid_tiles, board_options={"free_cells": True},
    )


def edge_kinds(engine: Any, colours: Mapping[str, str]) -> list[dict[str, str]]:
    """The kinds of side the set's tiles have (read from their edges), each with its colour, in
    the order of ``colours``, then any it does not name (grey) by name: what a side of the
    picker's sketch cycles through."""
    present = {edge for tile in engine.tile_records() for edge in engine.edges(tile)}
    ordered = [kind for kind in colours if kind in present] + sorted(present - set(colours))
    return [{"kind": kind, "colour": colours.get(kind, "#b0b0b0")} for kind in ordered]


def laid_tiles(position: Mapping[str, Any]) -> dict[str, Any]:
    """The tiles on the board, for the recorder's offline fits: every tile engine's view names
    a laid tile by ``tile``."""
    return {"placed": [{"tile": tile["tile"], "x": tile["x"], "y": tile["y"], "rotation": tile["rotation"]}
                       for tile in position["tiles"]]}
