"""A JSON-able picture of a position, for the replay API and the SVG viewer.

Tiles carry their printed definition (edges and features with what they hold)
so a viewer can draw them without the tile-set file; ``rotation`` is in degrees
clockwise and ``y`` grows south.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .game import Game


def position_view(game: Game) -> dict[str, Any]:
    land = game.land
    tiles = []
    for placed, tile in zip(land.board.placed, land.tiles):
        tiles.append({
            "tile": tile.id,
            "kind": tile.kind,
            "x": placed.position[0],
            "y": placed.position[1],
            "rotation": placed.quarter_turns * 90,
            "order": placed.order,
            "edges": tile.record["edges"],
            "features": tile.record["features"],
        })
    figures = []
    for figure in land.figures:
        placed = land.placed(figure.node)
        figures.append({
            "owner": figure.owner,
            "kind": figure.kind,
            "x": placed.position[0],
            "y": placed.position[1],
            "tile": placed.tile.id,
            "feature": land.graph.node_feature[figure.node],
        })
    if game.is_over:
        kinds: list[str] = []
    elif game.next_tile is None:
        kinds = ["place", "discard"]
    else:
        fits = land.board.fits_anywhere(game.tileset.by_id[game.next_tile].geometry)
        kinds = ["place"] if fits else ["discard"]
    last = land.board.placed[-1]
    return {
        "ruleset": game.ruleset,
        "variants": sorted(game.variants),
        "tiles": tiles,
        "figures": figures,
        "supply": [game.supply(seat) for seat in range(game.players)],
        "returning": [game.returning(seat) for seat in range(game.players)],
        "scores": [s.to_dict() for s in game.scores()],
        "awards": [dict(award.to_dict(), action=index) for index, award in game.awards()],
        "sent_home": [figure.to_dict() for figure in game.sent_home()],
        "current_player": game.current_player,
        "phase": game.phase,
        "legal_action_kinds": kinds,
        "next_tile": game.next_tile,
        "last_placed": {"tile": last.tile.id, "x": last.position[0], "y": last.position[1],
                        "rotation": last.quarter_turns * 90, "order": last.order},
        "landscape_left": len(game.landscape_left),
        "bonus_left": len(game.bonus_left),
        "discarded": list(game.discarded),
    }
