"""A complete game of random legal choices on the map, for demos, tests and benchmarks.

Each turn first picks where the tile comes from: the face-down draw, or (when the player may pay
a chip) one of the face-up island tiles, each island stack as likely as the draw; then one of the
legal actions with that tile. So chips are paid for about as often as a player can, not as often
as the many placements of several island tiles would make it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.engines.carcassonne.actions import Action as CarcassonneAction
from games.engines.carcassonne.options import Options

from .actions import Action
from .game import Game
from .setup import SetUp


def random_game(players: int, seed: int, options: Options | None = None, *, setup: SetUp | None = None,
                start_squares: Sequence[str] | None = None) -> tuple[Game, list[Action]]:
    """Deal from ``seed`` (the set-up too, unless ``setup`` is given, on ``start_squares`` if
    named), choose from the same seed: the same seed, the same game (with the same ``options``;
    :data:`DEFAULT_OPTIONS <games.engines.carcassonne_maps.game.DEFAULT_OPTIONS>` by default)."""
    game = Game.new(players, seed=seed, options=options, setup=setup, start_squares=start_squares)
    chooser = random.Random(f"{seed}:choices")  # str seeds hash the same on every run and machine
    actions: list[Action] = []
    while not game.is_over:
        action = Action.of(choose_source_then_action(game.legal_actions(), chooser))
        game.apply(action)
        actions.append(action)
    return game, actions


def choose_source_then_action(legal: list[CarcassonneAction], chooser: random.Random) -> CarcassonneAction:
    """A random source (the draw or an island stack), then a random action from it."""
    sources: dict[tuple[str | None, int | None], list[CarcassonneAction]] = {}
    for action in legal:
        maps = Action.of(action)
        sources.setdefault((maps.island, maps.stack), []).append(action)
    return chooser.choice(sources[chooser.choice(list(sources))])
