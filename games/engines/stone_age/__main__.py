"""Command line: play a seeded random game, or replay a list of actions.

    python -m games.engines.stone_age play --players 4 --seed 7
    python -m games.engines.stone_age replay game.json

Both print one JSON object: ``engine``, ``data`` (name, version), ``players``, ``seed``,
``ruleset``, ``variants``, ``actions`` (notations in order), ``final_scores``, ``breakdown`` (per
seat) and ``ranks``. ``replay`` reads such an object (without ``ruleset`` and ``variants``: ruleset
1, the default variants); an illegal action stops it with exit status 2 and a message naming the
action's index and the reason. ``play`` plays ruleset 1 with the default variants.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from . import DATA_NAME, DATA_VERSION
from games.engines.errors import IllegalAction

from .actions import parse_action
from .game import Game
from .rulesets import DEFAULT_RULESET, exactly
from .simulate import random_game
from ..cli import run


def summary(game: Game, texts: list[str]) -> dict[str, Any]:
    scores = game.scores()
    return {
        "engine": "stone-age",
        "data": {"name": DATA_NAME, "version": DATA_VERSION},
        "players": game.players,
        "seed": game.seed,
        "ruleset": game.ruleset,
        "variants": sorted(game.variants),
        "actions": texts,
        "final_scores": [s.total for s in scores],
        "breakdown": [dict(s.breakdown) for s in scores],
        "ranks": game.final_ranks() if game.is_over else None,
    }


def replay(record: dict[str, Any]) -> tuple[Game, list[str]]:
    """Raises ``ValueError`` naming the first action that does not parse or is refused."""
    game = Game.new(int(record.get("players", 4)), seed=record.get("seed"),
                    ruleset=record.get("ruleset", DEFAULT_RULESET), variants=exactly(record.get("variants", ())))
    texts = [str(text) for text in record.get("actions", [])]
    for index, text in enumerate(texts):
        try:
            game.apply(game.complete(parse_action(text)))
        except IllegalAction as error:
            raise ValueError(f"action {index} ({text}): {error.reason}: {error.message}") from None
        except ValueError as error:
            raise ValueError(f"action {index} ({text}): bad_notation: {error}") from None
    return game, texts


def play(players: int, seed: int) -> tuple[Game, list[str]]:
    game, actions = random_game(players, seed)
    return game, [action.to_text() for action in actions]


def main(argv: Sequence[str] | None = None) -> int:
    return run(argv, prog="python -m games.engines.stone_age", description="Stone Age rules engine",
               players=(2, 4), play=play, replay=replay, summary=summary)


if __name__ == "__main__":
    sys.exit(main())
