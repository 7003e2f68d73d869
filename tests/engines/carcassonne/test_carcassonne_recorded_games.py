"""Carcassonne games recorded before the Maps engine hooked into the Carcassonne engine replay
position by position as they did: the base game, both expansions with their rules and with their
tiles only, random and simple players (``data/carcassonne_recorded_games.json``).

A position's digest reads its snapshot (``to_dict``), its ``view`` and the notation of its legal
actions, so a hook that changed the pile order, the notation, the legal actions, a snapshot or the
view of an existing game would fail here.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from games.engines.carcassonne import Game, Options, parse_action
from games.engines.carcassonne.heuristic import heuristic_game
from games.engines.carcassonne.simulate import random_game

RECORDED = json.loads((Path(__file__).parents[1] / "data" / "carcassonne_recorded_games.json").read_text("utf-8"))
GAMES: dict[str, dict[str, Any]] = RECORDED["games"]


def position(game: Game) -> str:
    return json.dumps([game.to_dict(), game.view(), [a.to_text() for a in game.legal_actions()]], sort_keys=True)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_recorded_game_replays_position_by_position(name: str) -> None:
    record = GAMES[name]
    game = Game.new(record["players"], seed=record["seed"], options=Options.from_dict(record["options"]))
    chain = hashlib.sha256(position(game).encode() + b"\n")
    for text in record["actions"]:
        game.apply(parse_action(text))
        chain.update(position(game).encode() + b"\n")
    assert game.is_over
    assert chain.hexdigest() == record["positions_sha256"]
    assert [s.total for s in game.scores()] == record["final_scores"]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_players_still_play_the_recorded_games(name: str) -> None:
    record = GAMES[name]
    play = random_game if record["player"] == "random" else heuristic_game
    _game, actions = play(record["players"], record["seed"], Options.from_dict(record["options"]))
    assert [a.to_text() for a in actions] == record["actions"]
