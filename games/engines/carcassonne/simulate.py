"""A complete game of random legal choices, for demos, tests and benchmarks."""

from __future__ import annotations

import random

from .actions import Action
from .game import Game


def random_game(players: int, seed: int) -> tuple[Game, list[Action]]:
    """Draw from ``seed``, choose from the same seed: the same seed, the same game."""
    game = Game.new(players, seed=seed)
    chooser = random.Random(f"{seed}:choices")  # str seeds hash the same on every run and machine
    actions: list[Action] = []
    while not game.is_over:
        action = chooser.choice(game.legal_actions())
        game.apply(action)
        actions.append(action)
    return game, actions
