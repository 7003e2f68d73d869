"""Command line: play a seeded random game, or replay a list of actions.

    python -m games.engines.stone_age play --players 4 --seed 7
    python -m games.engines.stone_age replay game.json

Both print one JSON object: ``engine``, ``data`` (name, version), ``players``, ``seed``,
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

from . import DATA_NAME, DATA_VERSION
from .actions import IllegalAction, parse_action
from .game import Game
from .simulate import random_game


def summary(game: Game, texts: list[str]) -> dict[str, Any]:
    scores = game.scores()
    return {
        "engine": "stone-age",
        "data": {"name": DATA_NAME, "version": DATA_VERSION},
        "players": game.players,
        "seed": game.seed,
        "actions": texts,
        "final_scores": [s.total for s in scores],
        "breakdown": [dict(s.breakdown) for s in scores],
        "ranks": game.final_ranks() if game.is_over else None,
    }


def replay(record: dict[str, Any]) -> tuple[Game, list[str]]:
    game = Game.new(int(record.get("players", 4)), seed=record.get("seed"))
    texts = [str(text) for text in record.get("actions", [])]
    for index, text in enumerate(texts):
        try:
            game.apply(game.complete(parse_action(text)))
        except ValueError as error:
            raise SystemExit(f"replay stopped: action {index} ({text}): bad_notation: {error}") from None
        except IllegalAction as error:
            raise SystemExit(f"replay stopped: action {index} ({text}): {error.reason}: {error.message}") from None
    return game, texts


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.engines.stone_age", description="Stone Age rules engine")
    commands = parser.add_subparsers(dest="command", required=True)
    play = commands.add_parser("play", help="play a complete random game from a seed")
    play.add_argument("--players", type=int, default=4)
    play.add_argument("--seed", type=int, default=0)
    rep = commands.add_parser("replay", help="replay a record and print its result")
    rep.add_argument("file", help="JSON object with 'players', 'seed' and 'actions'; - for stdin")
    args = parser.parse_args(argv)
    if args.command == "play":
        if not 2 <= args.players <= 4:
            parser.error("--players must be 2 to 4")
        game, actions = random_game(args.players, args.seed)
        texts = [action.to_text() for action in actions]
    else:
        try:
            text = sys.stdin.read() if args.file == "-" else open(args.file, encoding="utf-8").read()
            record = json.loads(text)
        except (OSError, json.JSONDecodeError) as error:
            print(f"cannot read {args.file}: {error}", file=sys.stderr)
            return 2
        try:
            game, texts = replay(record)
        except SystemExit as stop:
            print(stop, file=sys.stderr)
            return 2
    print(json.dumps(summary(game, texts)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
