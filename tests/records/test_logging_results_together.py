"""Results logged together (``records.services.log_results``, the bulk path of ``import_plays``)
store what ``start_game(result_only=True)`` then ``append_event`` of the result store one record
at a time: the same records, seats, scorekeepers and players, the same events with the same hashes
(each chained to its record's header digest), the same records announced finished; and they are
refused as one at a time would refuse them, with nothing stored.

Each way is run in a savepoint rolled back after its rows are read, with the database's id
sequences put back and the clock stopped in between, so that the two ways' rows compare whole,
ids and hashes included."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management.color import no_style
from django.db import connection, transaction
from django.utils import timezone

from games.registry import RESULT, PayloadError
from records.errors import InvalidSetup, RecordError, TooManySeats
from records.integrity import verify_store
from records.models import Event, GameRecord, Player, Seat
from records.players import InvisibleName, SamePlayerTwice
from records.services import LoggedResult, SeatSpec, append_event, finishing_together, log_results, start_game

pytestmark = pytest.mark.django_db

STOPPED_CLOCK = dt.datetime(2026, 12, 5, 20, 30, 15, 123456, tzinfo=dt.timezone.utc)
TABLES = (GameRecord, Player, Seat, Event, GameRecord.scorekeepers.through)


def result(*names: str, scores: tuple[int, ...] | None = None, **fields: Any) -> LoggedResult:
    scores = scores or tuple(range(10 * len(names), 0, -10))
    return LoggedResult(
        game_slug="azul", seats=[SeatSpec(name, colour=f"c{order}") for order, name in enumerate(names)],
        payload={"scores": [{"seat": order, "score": score, "rank": order + 1} for order, score in enumerate(scores)]},
        fields={"played_on": dt.date(2024, 5, 1), "location": "Club", "duration_minutes": 40, **fields},
    )


def one_at_a_time(results: list[LoggedResult], *, created_by: User | None) -> list[GameRecord]:
    made = []
    for logged in results:
        record = start_game(game_slug=logged.game_slug, seats=logged.seats, created_by=created_by, result_only=True,
                            **logged.fields)
        append_event(record, 0, RESULT, logged.payload, recorded_by=created_by)
        made.append(record)
    return made


class RolledBack(Exception):
    pass


def stored_by(way: Any, results: list[LoggedResult], created_by: User | None) -> dict[str, Any]:
    """Every row ``way`` stores for ``results`` and the records it announces finished, read
    back, then rolled back with the id sequences put back where they stood."""
    picture: dict[str, Any] = {}
    with connection.cursor() as cursor:
        for statement in connection.ops.sequence_reset_sql(no_style(), TABLES):
            cursor.execute(statement)
    try:
        with transaction.atomic(), finishing_together() as announced:
            records = way(results, created_by=created_by)
            ids = [record.pk for record in records]
            picture = {
                "returned": [(record.pk, record.status) for record in records],
                "records": list(GameRecord.objects.filter(pk__in=ids).order_by("pk").values()),
                "seats": list(Seat.objects.filter(record__in=ids).order_by("pk").values()),
                "scorekeepers": list(GameRecord.scorekeepers.through.objects.filter(gamerecord__in=ids)
                                     .order_by("pk").values("gamerecord_id", "user_id")),
                "events": list(Event.objects.filter(record__in=ids).order_by("pk").values()),
                "players": list(Player.objects.order_by("pk").values()),
                "announced": list(announced),
                "intact": all(verify_store(pk).ok for pk in ids),
            }
            raise RolledBack
    except RolledBack:
        pass
    return picture


@pytest.fixture
def stopped_clock(monkeypatch):
    monkeypatch.setattr(timezone, "now", lambda: STOPPED_CLOCK)


def test_results_logged_together_store_what_one_at_a_time_stores_hashes_included(stopped_clock):
    clerk = User.objects.create_user("clerk")
    Player.objects.create(display_name="Chloé")
    # A player known only from a private game the clerk may not see: their name, spelt
    # otherwise, is a new player's for the clerk; spelt exactly, it is theirs.
    start_game(game_slug="azul", seats=[SeatSpec("Hidden Hugo"), SeatSpec("Keeper Kim")], result_only=True,
               is_private=True)
    results = [
        result("chloe", "Zoë Ørsted", "hidden hugo", source="bgg", source_id="1"),
        result("ZOE ORSTED", "Hidden Hugo", source="bgg", source_id="2#1"),
        result("Keeper Kim", "Anonymous player 1", "CHLOÉ", "Bastien", source="bgg", source_id="2#2"),
        result("Bastien", scores=(-5,), source="bgg", source_id="3"),
    ]
    hugo = Player.objects.get(display_name="Hidden Hugo").pk
    for created_by, hugo_seated in ((clerk, False), (None, True)):
        apart = stored_by(one_at_a_time, results, created_by)
        together = stored_by(log_results, results, created_by)
        assert apart["intact"] and len(apart["events"]) == len(results)
        assert together == apart
        first, second = ([row["player_id"] for row in apart["seats"] if row["record_id"] == pk]
                         for pk, _status in apart["returned"][:2])
        assert first[2] == second[1] and (first[2] == hugo) is hugo_seated


@pytest.mark.parametrize("results, refusal", [
    ([result("Ada", "Bo"), result("Ada", "\u200b")], InvisibleName),
    ([result("Ada", "Bo"), result("Ada", "ADA")], SamePlayerTwice),
    ([result("Ada", "Bo", scores=(3,))], PayloadError),
    ([result("Ada", "Bo", setup={"variant": 1})], InvalidSetup),
    ([result(*(f"P{n}" for n in range(101)))], TooManySeats),
    # The first record that fails is the one named, whichever check the next would fail.
    ([result("Ada", "Bo", scores=(3,)), result("Ada", "\u200b")], PayloadError),
    ([result("Ada", "ada"), result("Ada", "Bo", scores=(3,))], SamePlayerTwice),
], ids=["invisible name", "same player twice", "result without every seat", "set-up", "too many seats",
        "first failure: result", "first failure: seats"])
def test_results_logged_together_are_refused_as_one_at_a_time_would_be_and_store_nothing(results, refusal):
    Player.objects.create(display_name="Ada")
    refused = []
    for way in (one_at_a_time, log_results):
        with pytest.raises((RecordError, PayloadError)) as caught, transaction.atomic():
            way(results, created_by=None)
        refused.append((type(caught.value), str(caught.value), getattr(caught.value, "field", None)))
    assert refused[0][0] is refusal and refused[1] == refused[0]
    assert not GameRecord.objects.exists() and list(Player.objects.values_list("display_name", flat=True)) == ["Ada"]
