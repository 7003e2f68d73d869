"""Small builders shared by the tests: seeded records and the actions of simulated games."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from games.registry import get_engine
from records.models import GameRecord
from records.services import SeatSpec, start_game

HG = "hunters-gatherers"
NAMES = ["Ada", "Bo", "Cy", "Di", "Ed"]


@lru_cache(maxsize=32)
def simulated_events(players: int = 2, seed: int = 1) -> tuple[tuple[str, dict[str, Any]], ...]:
    """The events of a complete random game, the same for the same arguments."""
    engine = get_engine(HG)
    assert engine is not None
    return tuple(engine.random_game(players, seed))


def seeded_record(players: int = 2, seed: int = 1, **fields: Any) -> GameRecord:
    return start_game(
        game_slug=HG, seats=[SeatSpec(name) for name in NAMES[:players]], seed=seed, **fields
    )


def event(index: int, players: int = 2, seed: int = 1) -> tuple[str, dict[str, Any]]:
    kind, payload = simulated_events(players, seed)[index]
    return kind, dict(payload)
