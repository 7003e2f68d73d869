"""A complete game of random legal choices, for demos, tests and benchmarks."""

from __future__ import annotations

import random

from .actions import Action
from .game import Game
from .options import Options


def random_game(players: int, seed: int, options: Options | None = None) -> tuple[Game, list[Action]]:
    """Draw from ``seed``, choose from the same seed: the same seed, the same game (with the same
    ``options``; the base game by default)."""
    game = Game.new(players, seed=seed, options=options)
    chooser = random.Random(f"{seed}:choices")  # str seeds hash the same on every run and machine
    actions: list[Action] = []
    while not game.is_over:
        action = chooser.choice(game.legal_actions())
        game.apply(action)
        actions.append(action)
    return game, actions
