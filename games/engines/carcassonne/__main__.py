"""Command line: play a seeded random game, or replay a list of actions.

    python -m games.engines.carcassonne play --players 4 --seed 7
    python -m games.engines.carcassonne play --players 6 --seed 7 --expansions inns_cathedrals,traders_builders
    python -m games.engines.carcassonne play --players 4 --seed 7 --expansions inns_cathedrals --tiles-only --meeples 9
    python -m games.engines.carcassonne replay game.json

Both print one JSON object: ``engine``, ``tileset`` (name, version), ``options`` (expansions,
rules, meeples), ``players``, ``seed``, ``actions`` (notations in order), ``final_scores``,
``breakdown`` (per seat) and ``ranks``. ``replay`` reads such an object (without ``options``, the
base game); an illegal action stops it with exit status 2 and a message naming the action's
index and the reason. ``--expansions`` (comma-separated), ``--tiles-only`` and ``--meeples`` set
up ``play``; a replay takes its options from its file.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from games.engines.errors import IllegalAction

from ..cli import run
from .actions import parse_action
from .game import ENGINE_SLUG, MIN_PLAYERS, Game
from .options import MEEPLES, Options
from .simulate import random_game


def summary(game: Game, texts: list[str]) -> dict[str, Any]:
    scores = game.scores()
    return {
        "engine": ENGINE_SLUG, "tileset": {"name": game.tileset.name, "version": game.tileset.version},
        "options": game.options.to_dict(), "players": game.players, "seed": game.seed, "actions": texts,
        "final_scores": [s.total for s in scores], "breakdown": [dict(s.breakdown) for s in scores],
        "ranks": game.final_ranks() if game.is_over else None,
    }


def replay(record: dict[str, Any]) -> tuple[Game, list[str]]:
    """Raises ``ValueError`` naming the first action that does not parse or is refused."""
    options = Options.from_dict(record.get("options"))
    game = Game.new(int(record.get("players", 2)), seed=record.get("seed"), options=options)
    texts = [str(text) for text in record.get("actions", [])]
    for index, text in enumerate(texts):
        try:
            game.apply(parse_action(text))
        except IllegalAction as error:
            raise ValueError(f"action {index} ({text}): {error.reason}: {error.message}") from None
        except ValueError as error:
            raise ValueError(f"action {index} ({text}): bad_notation: {error}") from None
    return game, texts


def _set_up(argv: Sequence[str]) -> tuple[Options, list[str], bool]:
    """The options ``play`` is given (read here: the shared command line knows players and seed
    only), the other arguments, and whether any option was given."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--expansions", default="")
    parser.add_argument("--tiles-only", action="store_true")
    parser.add_argument("--meeples", type=int, default=MEEPLES)
    known, rest = parser.parse_known_args(argv)
    expansions = tuple(name.strip() for name in known.expansions.split(",") if name.strip())
    given = bool(expansions) or known.tiles_only or known.meeples != MEEPLES
    options = Options(expansions, () if known.tiles_only else expansions, known.meeples)
    return options, rest, given


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    try:
        options, rest, given = _set_up(arguments)
    except ValueError as error:
        print(f"bad options: {error}", file=sys.stderr)
        return 2
    if given and rest[:1] == ["replay"]:
        print("replay takes its options from its file", file=sys.stderr)
        return 2

    def play(players: int, seed: int) -> tuple[Game, list[str]]:
        game, actions = random_game(players, seed, options)
        return game, [action.to_text() for action in actions]

    return run(rest, prog="python -m games.engines.carcassonne",
               description="Carcassonne rules engine (play also takes --expansions inns_cathedrals,traders_builders, "
                           "--tiles-only and --meeples N)",
               players=(MIN_PLAYERS, options.max_players), play=play, replay=replay, summary=summary)


if __name__ == "__main__":
    sys.exit(main())
