"""A complete game of random legal choices, for demos, tests and benchmarks."""

from __future__ import annotations

import random

from .actions import Action
from .game import Game
from .rulesets import DEFAULT_RULESET, VariantChoice


def random_game(players: int, seed: int, *, ruleset: int = DEFAULT_RULESET,
                variants: VariantChoice = frozenset()) -> tuple[Game, list[Action]]:
    """Deal and roll from ``seed``, choose from the same seed: the same seed, the same game (under
    ``ruleset`` and ``variants``).

    The choices are random among the legal ones, except that a tribe buys rather than declines
    and feeds rather than starves when it can: the games then look like games people play.
    Returns the finished game and the actions as applied (dice and draws filled in)."""
    game = Game.new(players, seed=seed, ruleset=ruleset, variants=variants)
    chooser = random.Random(f"{seed}:choices")  # str seeds hash the same on every run and machine
    actions: list[Action] = []
    while not game.is_over:
        action = random_action(game, chooser)
        game.apply(action)
        actions.append(action)
    return game, actions


def random_action(game: Game, chooser: random.Random) -> Action:
    """One of the legal actions chosen by ``chooser`` (buying and feeding when the tribe can),
    with the chance a seeded game decides filled in and, for a dice-for-all card, each player's
    pick: an action :meth:`Game.apply` takes as it is."""
    legal = game.legal_actions()
    keen = [a for a in legal if not a.decline and not a.starve]
    action = game.complete(chooser.choice(keen or legal))
    if action.dice is not None and game.needs_picks(action):
        dice = list(action.dice)
        # Each player, from the buyer on, takes one of the dice.
        action = action.replace(picks=tuple(dice.pop(chooser.randrange(len(dice))) for _ in range(game.players)))
    return action
