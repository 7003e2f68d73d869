"""The command line every engine package offers: ``play`` a seeded random game, ``replay`` a file.

Each engine gives its own ``play`` (players, seed → game and notations), ``replay`` (the JSON
object → game and notations, ``ValueError`` naming the first bad action) and ``summary``; this
module reads the arguments and files, prints one JSON object, and exits 2 on a bad file.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

Played = tuple[Any, list[str]]


def run(
    argv: Sequence[str] | None,
    *,
    prog: str,
    description: str,
    players: tuple[int, int],
    play: Callable[[int, int], Played],
    replay: Callable[[dict[str, Any]], Played],
    summary: Callable[[Any, list[str]], dict[str, Any]],
) -> int:
    parser = argparse.ArgumentParser(prog=prog, description=description)
    commands = parser.add_subparsers(dest="command", required=True)
    playing = commands.add_parser("play", help="play a complete random game from a seed")
    playing.add_argument("--players", type=int, default=4)
    playing.add_argument("--seed", type=int, default=0)
    replaying = commands.add_parser("replay", help="replay a record and print its result")
    replaying.add_argument("file", help="JSON object with 'players', 'seed' and 'actions'; - for stdin")
    args = parser.parse_args(argv)
    if args.command == "play":
        if not players[0] <= args.players <= players[1]:
            parser.error(f"--players must be {players[0]} to {players[1]}")
        game, texts = play(args.players, args.seed)
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
