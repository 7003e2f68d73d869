"""A reader's ratings, replayed without the games hidden from them, are kept in the cache (a popular
game's thousands of games are not replayed at each reading); whatever changes what they would be
(a new game, a private game made public) gives the next reading a fresh replay, equal to one
made with an empty cache."""

from __future__ import annotations

import json
from datetime import date

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client

from records.models import GameRecord
from scoring import tasks
from tests.factories import result_game

pytestmark = pytest.mark.django_db

URL = "/api/ratings/?game_slug=azul"


def scored(scores: dict[str, int], day: int, **fields) -> GameRecord:
    record = result_game(scores, date(2026, 3, day), game="azul", **fields)
    tasks.score_record(record.pk)
    return record


def read() -> list[dict]:
    answer = Client().get(URL)
    assert answer.status_code == 200
    body = json.loads(answer.content)
    return sorted(((row["player"], row["mu"], row["sigma"], row["games"]) for row in body.get("results", body)))


def read_uncached() -> list[dict]:
    cache.clear()
    return read()


def test_the_cached_replay_follows_every_change_that_moves_it():
    keeper = get_user_model().objects.create_user("keeper")
    scored({"Ada": 50, "Bo": 40}, 1)
    hidden = scored({"Bo": 90, "Ada": 10}, 2, is_private=True, created_by=keeper)
    scored({"Ada": 60, "Bo": 45}, 3)
    first = read()
    assert first == read_uncached()
    assert read() == first, "read again from the cache"
    assert [games for *_rest, games in first] == [2, 2], "the private game is not counted"

    scored({"Bo": 70, "Ada": 20}, 4)  # a new game rewrites the scope's rating changes
    after_new_game = read()
    assert after_new_game != first and after_new_game == read_uncached()

    GameRecord.objects.filter(pk=hidden.pk).update(is_private=False)  # the game made public
    made_public = read()
    assert made_public != after_new_game and made_public == read_uncached()
    assert [games for *_rest, games in made_public] == [4, 4]
