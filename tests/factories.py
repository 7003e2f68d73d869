"""Small builders shared by the tests: seeded records and the actions of simulated games."""

from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path
from typing import Any

import psycopg
from django.contrib.auth.models import User
from django.db import connection
from rest_framework.test import APIClient

from games.registry import get_engine
from records.models import GameRecord
from records.services import SeatSpec, start_game

ROOT = Path(__file__).resolve().parents[1]
"""The project's folder, where ``manage.py`` is."""


def sqlite_env(database: Path) -> dict[str, str]:
    """The environment of a ``manage.py`` run on the SQLite file ``database``, without a broker."""
    env = dict(os.environ, DATABASE_URL=f"sqlite:///{database}")
    env.pop("CELERY_BROKER_URL", None)
    return env


def database_url_for_other_processes() -> str:
    """The test database as a URL another process (a Celery worker, ``manage.py``) can open
    (PostgreSQL: SQLite's in-memory test database cannot be shared)."""
    params = connection.settings_dict
    auth = params["USER"] + (f":{params['PASSWORD']}" if params.get("PASSWORD") else "")
    return f"postgres://{auth}@{params['HOST'] or '127.0.0.1'}:{params['PORT'] or 5432}/{params['NAME']}"


def plain_postgresql_client() -> psycopg.Connection:
    """A connection of its own to the suite's PostgreSQL database, in autocommit: any client."""
    params = connection.settings_dict
    return psycopg.connect(
        dbname=params["NAME"], user=params["USER"], host=params["HOST"], port=params["PORT"] or None,
        password=params["PASSWORD"] or None, autocommit=True,
    )

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


@lru_cache(maxsize=None)
def _simulated_file(game: str, players: int, seed: int) -> str:
    from records.files import simulate_document

    return json.dumps(simulate_document(game, players, seed, [f"P{i}" for i in range(players)]))


def simulated_document(game: str, players: int, seed: int) -> dict[str, Any]:
    """A fresh copy of a simulated game's record file (simulating is the slow part: done once)."""
    return json.loads(_simulated_file(game, players, seed))


def keeper_api() -> APIClient:
    """An API client logged in as a scorekeeper."""
    client = APIClient()
    client.force_authenticate(User.objects.create_user("keeper"))
    return client


def create_record(api: APIClient, game: str, players: int, seed: int | None) -> int:
    body: dict[str, Any] = {"game_slug": game, "seats": [{"player": f"P{i}"} for i in range(players)]}
    if seed is not None:
        body["seed"] = seed
    response = api.post("/api/records/", body, format="json")
    assert response.status_code == 201, response.data
    return int(response.data["id"])


def post_event(api: APIClient, record_id: int, expected_seq: int, kind: str, payload: dict[str, Any]) -> Any:
    return api.post(f"/api/records/{record_id}/events/",
                    {"expected_seq": expected_seq, "type": kind, "payload": payload}, format="json")
