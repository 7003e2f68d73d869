"""Command line: play a seeded random game, or replay a list of actions.

    python -m games.engines.carcassonne play --players 4 --seed 7
    python -m games.engines.carcassonne replay game.json

Both print one JSON object: ``engine``, ``tileset`` (name, version), ``players``, ``seed``,
``actions`` (notations in order), ``final_scores``, ``breakdown`` (per seat) and ``ranks``.
``replay`` reads such an object; an illegal action stops it with exit status 2 and a message
naming the action's index and the reason.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from . import TILESET_NAME, TILESET_VERSION
from .actions import IllegalAction, parse_action
from .game import ENGINE_SLUG, MAX_PLAYERS, MIN_PLAYERS, Game
from .simulate import random_game


def summary(game: Game, texts: list[str]) -> dict[str, Any]:
    scores = game.scores()
    return {
        "engine": ENGINE_SLUG, "tileset": {"name": TILESET_NAME, "version": TILESET_VERSION},
        "players": game.players, "seed": game.seed, "actions": texts,
        "final_scores": [s.total for s in scores], "breakdown": [dict(s.breakdown) for s in scores],
        "ranks": game.final_ranks() if game.is_over else None,
    }


def replay(record: dict[str, Any]) -> tuple[Game, list[str]]:
    """Raises ``ValueError`` naming the first action that does not parse or is refused."""
    game = Game.new(int(record.get("players", 2)), seed=record.get("seed"))
    texts = [str(text) for text in record.get("actions", [])]
    for index, text in enumerate(texts):
        try:
            game.apply(parse_action(text))
        except IllegalAction as error:
            raise ValueError(f"action {index} ({text}): {error.reason}: {error.message}") from None
        except ValueError as error:
            raise ValueError(f"action {index} ({text}): bad_notation: {error}") from None
    return game, texts


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.engines.carcassonne", description="Carcassonne rules engine")
    commands = parser.add_subparsers(dest="command", required=True)
    play = commands.add_parser("play", help="play a complete random game from a seed")
    play.add_argument("--players", type=int, default=4)
    play.add_argument("--seed", type=int, default=0)
    rep = commands.add_parser("replay", help="replay a record and print its result")
    rep.add_argument("file", help="JSON object with 'players', 'seed' and 'actions'; - for stdin")
    args = parser.parse_args(argv)
    if args.command == "play":
        if not MIN_PLAYERS <= args.players <= MAX_PLAYERS:
            parser.error(f"--players must be {MIN_PLAYERS} to {MAX_PLAYERS}")
        game, actions = random_game(args.players, args.seed)
        texts = [action.to_text() for action in actions]
    else:
        try:
            text = sys.stdin.read() if args.file == "-" else open(args.file, encoding="utf-8").read()
            game, texts = replay(json.loads(text))
        except (OSError, json.JSONDecodeError) as error:
            print(f"cannot read {args.file}: {error}", file=sys.stderr)
            return 2
        except ValueError as error:
            print(f"replay stopped: {error}", file=sys.stderr)
            return 2
    print(json.dumps(summary(game, texts)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
