"""What the page tests share: the scorekeeper (``keeper``, of ``tests/conftest.py``) logged in,
and a seeded two-player Hunters and Gatherers record they keep."""

from __future__ import annotations

import pytest
from django.test import Client

from records.models import GameRecord
from records.services import SeatSpec, start_game
from tests.factories import HG


@pytest.fixture
def keeper_client(client: Client, keeper) -> Client:
    client.force_login(keeper)
    return client


@pytest.fixture
def record(keeper) -> GameRecord:
    return start_game(game_slug=HG, seats=[SeatSpec("Ada"), SeatSpec("Bo")], seed=1, created_by=keeper)
