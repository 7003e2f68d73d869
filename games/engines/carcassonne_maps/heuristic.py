"""A simple player for Carcassonne Maps with Map-Chips, for demo games that look played.

It is the Carcassonne simple player (:mod:`games.engines.carcassonne.heuristic`: each placement
weighed by what it would score and how the features each player holds grow or close, the map's
border and large cities counted by :meth:`Game.preview <.game.Game.preview>`), and it also knows
the chips: a square with a chip is worth about what a chip gives (its points, and a face-up
island tile later). At the start of a turn, if it holds a chip that may pay, it weighs the
face-up tiles of the islands of that colour before drawing, without peeking at the face-down
draw: it pays for one only when that tile's best placement, less what the chip is worth, is
worth :data:`ISLAND_THRESHOLD` or more (about what a good move with a tile drawn at random gives);
else it draws (``draw``) and then lays the tile drawn.

>>> game, actions = heuristic_game(2, seed=3)
>>> game.is_over, sum(1 for a in actions if a.island) > 0
(True, True)
"""

from __future__ import annotations

import random
from typing import Final

from games.engines.carcassonne.actions import Action as CarcassonneAction
from games.engines.carcassonne.heuristic import best_of, weigh_actions
from games.engines.carcassonne.options import Options
from games.engines.tiles.heuristic import play_out

from .actions import Action
from .game import Game
from .setup import SetUp

CHIP_WORTH: Final = 2.5
"""A chip taken: 1.5 points on average at once, and the right to an island tile later."""
ISLAND_THRESHOLD: Final = 6.0
"""How much better than an average drawn tile an island tile's best placement must be, chip
paid, for the simple player to take it."""


def heuristic_game(players: int, seed: int, options: Options | None = None, *,
                   setup: SetUp | None = None) -> tuple[Game, list[Action]]:
    """A complete game of the simple player: the same seed (and options, and ``setup`` when
    given: by default the seed's own), the same game."""
    game = Game.new(players, seed=seed, options=options, setup=setup)
    return game, [Action.of(action) for action in play_out(game, choose, seed)]


def choose(game: Game, chooser: random.Random) -> CarcassonneAction:
    """The action the simple player takes now, among ``game.legal_actions()``."""
    legal = game.legal_actions()
    if len(legal) == 1:
        return legal[0]
    draw = [a for a in legal if Action.of(a).draw]
    drawn = [a for a in legal if not Action.of(a).from_island and not Action.of(a).draw]
    islands = [a for a in legal if Action.of(a).from_island]
    if islands:
        valued = _with_chips(game, weigh_actions(game, islands))
        best = max(value for value, _ in valued)
        if best - CHIP_WORTH >= ISLAND_THRESHOLD:
            return best_of(valued, chooser)
    if draw:  # a seeded game shows the drawn tile once the player chose to draw (a table lists both)
        return draw[0] if game.ordered or not drawn else best_of(_with_chips(game, weigh_actions(game, drawn)), chooser)
    return best_of(_with_chips(game, weigh_actions(game, drawn)), chooser)


def _with_chips(game: Game, valued: list[tuple[float, CarcassonneAction]]) -> list[tuple[float, CarcassonneAction]]:
    return [(value + (CHIP_WORTH if not a.discard and (a.x, a.y) in game.chips else 0.0), a) for value, a in valued]
