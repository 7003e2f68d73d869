"""Every engine plays the fingerprinted games exactly as it did when they were recorded
(``data/engine_fingerprints.json``, see :mod:`tests.engines.fingerprints`): the same snapshots,
views, legal actions and scores after every action, the same refusals with the same reasons
leaving the game unchanged, undo back to exactly the position before, and the same snapshots
stored by a plain replay."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .fingerprints import DATA, _games, fingerprint

RECORDED: list[dict[str, Any]] = json.loads(DATA.read_text("utf-8"))["games"]


@pytest.mark.parametrize("record", RECORDED, ids=[f"{r['engine']}-{r['name']}" for r in RECORDED])
def test_a_fingerprinted_game_plays_as_recorded(record: dict[str, Any]) -> None:
    chain, plain = fingerprint(record["engine"], record["params"], record["actions"])
    assert plain == record["plain_sha256"], "a plain replay stores other snapshots"
    assert chain == record["chain_sha256"], "positions, refusals or undo differ from the recording"


def test_the_players_still_play_the_fingerprinted_games() -> None:
    played = {(engine, name): texts for engine, name, _params, texts in _games()}
    for record in RECORDED:
        assert played[record["engine"], record["name"]] == record["actions"], record["name"]
