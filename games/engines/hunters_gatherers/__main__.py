"""Command line: play a seeded random game, or replay a record.

    python -m games.engines.hunters_gatherers play --players 4 --seed 7
    python -m games.engines.hunters_gatherers replay game.json

Both print one JSON object: ``engine``, ``tileset`` (name, version), ``players``,
``seed``, ``ruleset``, ``variants``, ``actions`` (notations in order),
``final_scores`` (totals in seat order), ``breakdown`` (per seat, by source) and
``ranks``. ``replay`` reads such an object (without ``ruleset`` and ``variants``:
ruleset 1, the default variants), or a bare list of notations (then
``--players``, default 4, and ``--seed`` say how the game was set up); an
illegal action stops it with exit status 2 and a message naming the action's
index and the reason. ``play`` plays ruleset 1 with the default variants.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from typing import Any

from games.engines.errors import InvalidNotation

from .actions import parse_action
from .game import ENGINE_SLUG, Game, IllegalAction
from .rulesets import DEFAULT_RULESET, VariantChoice, exactly


def random_game(players: int, seed: int, *, ruleset: int = DEFAULT_RULESET,
                variants: VariantChoice = frozenset()) -> Game:
    """A complete game: the engine draws from the seeded piles, choices come from the same seed."""
    game = Game.new(players, seed=seed, ruleset=ruleset, variants=variants)
    chooser = random.Random(f"{seed}:choices")  # str seeds hash the same on every run and machine
    while not game.is_over:
        game.apply(chooser.choice(game.legal_actions()))
    return game


def summary(game: Game) -> dict[str, Any]:
    scores = game.scores()
    return {
        "engine": ENGINE_SLUG,
        "tileset": {"name": game.tileset.name, "version": game.tileset.version},
        "players": game.players,
        "seed": game.seed,
        "ruleset": game.ruleset,
        "variants": sorted(game.variants),
        "actions": [a.to_text() for a in game.history],
        "final_scores": [s.total for s in scores],
        "breakdown": [dict(s.breakdown) for s in scores],
        # The output keeps the list in seat order it has always printed.
        "ranks": list(game.final_ranks().values()) if game.is_over else None,
    }


def replay(record: Any, players: int, seed: int | None) -> Game:
    """Replay a record (object or list of notations); raises ``ReplayError`` at the first bad action."""
    if isinstance(record, dict):
        texts = record.get("actions")
        players = int(record.get("players", players))
        seed = record.get("seed", seed)
        pinned = record.get("tileset")
        ruleset = record.get("ruleset", DEFAULT_RULESET)
        game = Game.new(players, seed=seed, ruleset=ruleset, variants=exactly(record.get("variants", ())))
        if pinned and (pinned.get("name"), pinned.get("version")) != (game.tileset.name, game.tileset.version):
            raise ReplayError(f"the record was played with tile set {pinned.get('name')} "
                              f"{pinned.get('version')}, this engine has {game.tileset.name} {game.tileset.version}")
    else:
        texts = record
        game = Game.new(players, seed=seed)
    if not isinstance(texts, list):
        raise ReplayError("the record has no list of actions")
    for index, text in enumerate(texts):
        try:
            game.apply(parse_action(str(text)))
        except InvalidNotation as error:
            raise ReplayError(f"action {index} ({text}): bad_notation: {error}") from None
        except IllegalAction as error:
            raise ReplayError(f"action {index} ({text}): {error.reason}: {error.message}") from None
    return game


class ReplayError(Exception):
    """A record that cannot be replayed."""


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.engines.hunters_gatherers",
                                     description="Carcassonne – Hunters and Gatherers rules engine")
    commands = parser.add_subparsers(dest="command", required=True)
    play = commands.add_parser("play", help="play a complete random game from a seed")
    play.add_argument("--players", type=int, default=4)
    play.add_argument("--seed", type=int, default=0)
    rep = commands.add_parser("replay", help="replay a record and print its result")
    rep.add_argument("file", help="JSON record (object with 'actions', or a list of notations); - for stdin")
    rep.add_argument("--players", type=int, default=4, help="for a bare list of actions")
    rep.add_argument("--seed", type=int, default=None, help="for a bare list of actions")
    args = parser.parse_args(argv)

    if args.command == "play":
        if not 2 <= args.players <= 5:
            parser.error("--players must be 2 to 5")
        game = random_game(args.players, args.seed)
    else:
        try:
            text = sys.stdin.read() if args.file == "-" else open(args.file, encoding="utf-8").read()
            game = replay(json.loads(text), args.players, args.seed)
        except (OSError, json.JSONDecodeError) as error:
            print(f"cannot read {args.file}: {error}", file=sys.stderr)
            return 2
        except (ReplayError, ValueError) as error:
            print(f"replay stopped: {error}", file=sys.stderr)
            return 2
    print(json.dumps(summary(game), sort_keys=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
