"""Command line: play a seeded random game on the Benelux map, or replay a list of actions.

    python -m games.engines.carcassonne_maps play --players 4 --seed 7
    python -m games.engines.carcassonne_maps play --players 6 --seed 7 --rules inns_cathedrals,traders_builders
    python -m games.engines.carcassonne_maps play --players 3 --seed 7 --start-squares Meppel,Charleroi --meeples 9
    python -m games.engines.carcassonne_maps replay game.json

Both print one JSON object: ``engine``, ``tileset`` (name, version), ``options`` (expansions,
rules, meeples), ``map`` (name, version, approximate), ``setup`` (the set-up: start squares and
tiles, the chips and their values, the island stacks; at a table, what it showed), ``players``,
``seed``, ``actions`` (notations in order), ``final_scores``, ``breakdown`` (per seat, with
``chips``) and ``ranks``. ``replay`` reads such an object: without ``setup`` the seed deals it;
without ``options``, :data:`DEFAULT_OPTIONS <.game.DEFAULT_OPTIONS>`; without a seed, ``setup``
is what the table showed (a set-up with ``chip_squares`` and ``island_face_up``). An illegal
action stops it with exit status 2 and a message naming the action's index and the reason.
``--expansions`` (comma-separated, default both), ``--rules`` (whose rules apply, default none:
tiles only), ``--meeples`` and ``--start-squares`` set up ``play``; a replay takes them from its file.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from games.engines.carcassonne.options import EXPANSIONS, MEEPLES, Options
from games.engines.errors import IllegalAction

from ..cli import run
from .actions import parse_action
from .game import DEFAULT_OPTIONS, ENGINE_SLUG, Game
from .setup import setup_from_dict
from .simulate import random_game

MIN_PLAYERS = 2


def summary(game: Game, texts: list[str]) -> dict[str, Any]:
    scores = game.scores()
    return {
        "engine": ENGINE_SLUG, "tileset": {"name": game.tileset.name, "version": game.tileset.version},
        "options": game.options.to_dict(), "map": {**game.map.ref, "approximate": game.map.approximate},
        "setup": game.setup.to_dict(), "players": game.players, "seed": game.seed, "actions": texts,
        "final_scores": [s.total for s in scores], "breakdown": [dict(s.breakdown) for s in scores],
        "ranks": game.final_ranks() if game.is_over else None,
    }


def replay(record: dict[str, Any]) -> tuple[Game, list[str]]:
    """Raises ``ValueError`` naming the first action that does not parse or is refused (or a
    set-up the rules refuse)."""
    options = Options.from_dict(record["options"]) if "options" in record else DEFAULT_OPTIONS
    seed = record.get("seed")
    try:
        setup = None if record.get("setup") is None else setup_from_dict(record["setup"])
        game = Game.new(int(record.get("players", 2)), seed=seed, options=options, setup=setup)
    except IllegalAction as error:
        raise ValueError(f"setup: {error.reason}: {error.message}") from None
    except (KeyError, TypeError) as error:
        raise ValueError(f"setup: not a set-up ({error})") from None
    texts = [str(text) for text in record.get("actions", [])]
    for index, text in enumerate(texts):
        try:
            game.apply(parse_action(text))
        except IllegalAction as error:
            raise ValueError(f"action {index} ({text}): {error.reason}: {error.message}") from None
        except ValueError as error:
            raise ValueError(f"action {index} ({text}): bad_notation: {error}") from None
    return game, texts


def _set_up(argv: Sequence[str]) -> tuple[Options, tuple[str, ...] | None, list[str], bool]:
    """The options and start squares ``play`` is given (the shared command line knows players
    and seed only), the other arguments, and whether any was given."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--expansions", default=",".join(EXPANSIONS))
    parser.add_argument("--rules", default="")
    parser.add_argument("--meeples", type=int, default=MEEPLES)
    parser.add_argument("--start-squares", default="")
    known, rest = parser.parse_known_args(argv)

    def names(text: str) -> tuple[str, ...]:
        return tuple(name.strip() for name in text.split(",") if name.strip())

    options = Options(names(known.expansions), names(known.rules), known.meeples)
    starts = names(known.start_squares) or None
    given = options != DEFAULT_OPTIONS or starts is not None
    return options, starts, rest, given


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    try:
        options, starts, rest, given = _set_up(arguments)
    except ValueError as error:
        print(f"bad options: {error}", file=sys.stderr)
        return 2
    if given and rest[:1] == ["replay"]:
        print("replay takes its options and set-up from its file", file=sys.stderr)
        return 2

    def play(players: int, seed: int) -> tuple[Game, list[str]]:
        game, actions = random_game(players, seed, options, start_squares=starts)
        return game, [action.to_text() for action in actions]

    try:
        return run(rest, prog="python -m games.engines.carcassonne_maps",
                   description="Carcassonne Maps - Benelux with Map-Chips rules engine (play also takes --expansions, "
                               "--rules, --meeples N and --start-squares A,B)",
                   players=(MIN_PLAYERS, options.max_players), play=play, replay=replay, summary=summary)
    except IllegalAction as error:
        print(f"bad set-up: {error.reason}: {error.message}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
