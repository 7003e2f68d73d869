"""A record file keeps what the table said about a game beside its events: a friendly game (never
counted in a league) and when play started and ended; an export imported elsewhere says the same."""

from __future__ import annotations

import datetime as dt

import pytest

from records.files import RecordFileError, export_document, import_document
from records.services import SeatSpec, start_game

pytestmark = pytest.mark.django_db

STARTED = dt.datetime(2026, 11, 28, 19, 5, tzinfo=dt.timezone.utc)
ENDED = dt.datetime(2026, 11, 28, 20, 40, tzinfo=dt.timezone.utc)


def test_a_friendly_game_and_its_play_times_go_out_and_come_back_in():
    record = start_game(game_slug="carcassonne", seats=[SeatSpec("Ada"), SeatSpec("Bastien")], seed=3,
                        is_friendly=True, play_started_at=STARTED, play_ended_at=ENDED)
    document = export_document(record)
    assert (document["friendly"], document["play_started_at"], document["play_ended_at"]) == (
        True, STARTED.isoformat(), ENDED.isoformat())
    again = import_document(document)
    assert (again.is_friendly, again.play_started_at, again.play_ended_at) == (True, STARTED, ENDED)


def test_a_file_without_them_is_a_league_game_with_no_play_times():
    record = start_game(game_slug="carcassonne", seats=[SeatSpec("Ada"), SeatSpec("Bastien")], seed=3)
    document = export_document(record)
    for key in ("friendly", "play_started_at", "play_ended_at"):
        del document[key]
    again = import_document(document)
    assert (again.is_friendly, again.play_started_at, again.play_ended_at) == (False, None, None)


@pytest.mark.parametrize("text", ["2026-02-30T10:00:00", "tomorrow", "1850-01-01T00:00:00+00:00"])
def test_a_play_time_that_is_no_time_is_refused_naming_it(text):
    record = start_game(game_slug="carcassonne", seats=[SeatSpec("Ada"), SeatSpec("Bastien")], seed=3)
    document = export_document(record) | {"play_started_at": text}
    with pytest.raises(RecordFileError) as refused:
        import_document(document)
    assert "play_started_at" in str(refused.value)
