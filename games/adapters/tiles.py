"""What the tile-laying adapters share: a turn as the table recorder shows it.

A scorekeeper holds a tile (drawn by the platform in a seeded game, picked from the pile in
an unseeded one); :meth:`TileGameAdapter.options` says which tiles may be in hand, where the
tile fits, in which rotations, and which figures may go on which of its features, all from the
engine's own legal actions: the recorder offers nothing the engine would refuse.

>>> from games.registry import get_engine
>>> engine = get_engine("carcassonne")
>>> options = engine.options(engine.new_state(2, seed=3))
>>> options["tile"], options["discard"], options["spots"][0]["rotations"][0]["rotation"]
('N', False, 180)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .base import GameStateAdapter, PayloadError, StateT


@dataclass(frozen=True, slots=True)
class Placement:
    """One legal way to lay the tile: where, turned how far, and the figure put on it (if any)."""

    x: int
    y: int
    rotation: int
    figure: tuple[int, str] | None = None
    """(feature number as printed, figure kind)."""


class TileGameAdapter(GameStateAdapter[StateT]):
    """A tile game's adapter: the engine's turn arranged for the table recorder.

    Each game says what its tiles look like (:meth:`tile_records`), which tiles may be drawn now
    (:meth:`pile`), and how its legal actions read as :class:`Placement` (:meth:`placements`).
    """

    figures_by_terrain: Mapping[str, tuple[str, ...]]
    """Which figure kinds may stand on a feature of each terrain (the engine still checks
    whether the feature is free and the player has the figure)."""
    figure_pools: Mapping[str, str]
    """Figure kind → the supply it comes from (in :meth:`supply`)."""
    figure_fields: Mapping[str, str] = {}
    """Figure kind → the payload field that names its feature (Carcassonne: ``{"big": "big"}``
    for ``big: 2``); a kind not listed goes as ``figure`` and ``feature`` (Hunters and Gatherers)."""

    def tile_records(self) -> Mapping[str, Mapping[str, Any]]:
        """Every tile of the set by id, as printed: ``edges`` (terrain and sub-edges per side),
        ``features`` and, where the game has them, ``kind`` (start, landscape, bonus)."""
        raise NotImplementedError

    def pile(self, state: StateT) -> list[str]:
        """The tiles the current player may draw now, one entry per copy."""
        raise NotImplementedError

    def phase(self, state: StateT) -> str:
        raise NotImplementedError

    def current_seat(self, state: StateT) -> int:
        raise NotImplementedError

    def supply(self, state: StateT) -> list[dict[str, int]]:
        """Each seat's figures still in hand, by pool (see :attr:`figure_pools`)."""
        raise NotImplementedError

    def placements(self, state: StateT, tile: str) -> tuple[list[Placement], bool]:
        """Where ``tile`` may be laid now, with each figure it may carry, and whether it may be
        discarded instead (only when it fits nowhere)."""
        raise NotImplementedError

    def fits_anywhere(self, state: StateT, tile: str) -> bool:
        """Whether ``tile`` may be laid somewhere now (drawn, it would be discarded otherwise).
        This default lists its placements; a game whose engine answers faster says so."""
        placements, _discard = self.placements(state, tile)
        return bool(placements)

    def edges(self, tile: str) -> list[str]:
        """The terrain of each printed side, north, east, south, west."""
        record = self.tile_records()[tile]
        return [_terrain(record["edges"][side]) for side in ("N", "E", "S", "W")]

    def options(self, state: StateT, tile: str | None = None) -> dict[str, Any]:
        """What may be recorded now: the tile in hand (the one drawn in a seeded game, else
        ``tile`` when given), the pile an unseeded game draws from, and where the tile fits.

        Raises :class:`PayloadError` for a ``tile`` that cannot be in hand now.
        """
        over = self.is_over(state)
        drawn = getattr(state, "next_tile", None)
        pile = [] if over else self.pile(state)
        in_hand = drawn if drawn is not None else tile
        if tile is not None and drawn is not None and tile != drawn:
            raise PayloadError("tile", f"tile: the tile drawn is {drawn}, not {tile}")
        if in_hand is not None and in_hand not in pile:
            raise PayloadError("tile", f"tile: {in_hand} cannot be drawn now")
        options: dict[str, Any] = {
            "kind": "tiles",
            "over": over,
            "seat": None if over else self.current_seat(state),
            "phase": self.phase(state),
            "drawn": drawn,
            "tiles_left": len(pile),
            "pile": [] if drawn is not None else [{"tile": t, "left": n} for t, n in sorted(Counter(pile).items())],
            # The tiles of the pile that would be discarded if drawn now: the picker sets them apart.
            "fits_nowhere": [] if drawn is not None else sorted(t for t in set(pile) if not self.fits_anywhere(state, t)),
            "supply": self.supply(state),
            "tile": in_hand,
            "discard": False,
            "spots": [],
        }
        if in_hand is not None and not over:
            placements, discard = self.placements(state, in_hand)
            options["discard"] = discard
            options["spots"] = spots(placements)
        return options


def spots(placements: Iterable[Placement]) -> list[dict[str, Any]]:
    """Placements grouped by cell, then by rotation, in the engine's order."""
    by_cell: dict[tuple[int, int], dict[int, list[dict[str, Any]]]] = {}
    for placement in placements:
        rotations = by_cell.setdefault((placement.x, placement.y), {})
        figures = rotations.setdefault(placement.rotation, [])
        if placement.figure is not None:
            feature, kind = placement.figure
            figures.append({"feature": feature, "kind": kind})
    return [
        {"x": x, "y": y, "rotations": [{"rotation": r, "figures": f} for r, f in rotations.items()]}
        for (x, y), rotations in by_cell.items()
    ]


def _terrain(edge: Mapping[str, Any]) -> str:
    # Hunters and Gatherers' tile file says "type", Carcassonne's "terrain".
    return str(edge.get("terrain") or edge.get("type"))
