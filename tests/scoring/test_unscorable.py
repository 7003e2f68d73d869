"""A record that cannot be scored does not poison scoring: it is marked unscorable with its reason,
the others are scored, the sweep gives up on it after the configured attempts, a recomputation
finishes and names it, and once its cause is gone a recomputation scores it and clears the mark."""

from __future__ import annotations

from datetime import date
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from records.models import Event, GameRecord
from records.services import SeatSpec, start_game
from scoring import services, tasks
from scoring.models import RecomputeRun, ScoredRecord, SeatResult, UnscorableRecord
from tests.factories import engine_scores, play, result_game
from tests.scoring.test_results import stored

pytestmark = pytest.mark.django_db

# Beyond SeatResult.score (PostgreSQL's integer; SQLite's 64-bit integer too).
TOO_BIG = 10**20


def overflowing_record(played_on: date = date(2026, 3, 9)) -> GameRecord:
    """A result-only record whose stored result the projections cannot hold, written straight into
    the store as an older version or another client might have: the API refuses such a score now."""
    record = start_game(game_slug="stone-age", seats=[SeatSpec("Ada"), SeatSpec("Bo")], result_only=True,
                        played_on=played_on)
    Event.objects.create(record=record, seq=1, type="result",
                         payload={"scores": [{"seat": 0, "score": TOO_BIG}, {"seat": 1, "score": 3}]})
    GameRecord.objects.filter(pk=record.pk).update(status=GameRecord.Status.FINISHED)
    record.refresh_from_db()
    return record


def engine_refuses(monkeypatch, *records: GameRecord) -> None:
    """The engine raises when it replays these records (a rules bug, an event it no longer reads)."""
    replay = services._replayed_scores
    refused = {record.pk for record in records}

    def replayed_scores(record, events):
        if record.pk in refused:
            raise RuntimeError(f"the engine cannot replay record {record.pk}")
        return replay(record, events)

    monkeypatch.setattr(services, "_replayed_scores", replayed_scores)


def mark(record) -> UnscorableRecord | None:
    return UnscorableRecord.objects.filter(pk=record.pk).first()


def overflow_reason(reason: str) -> bool:
    # SQLite: "OverflowError: Python int too large to convert to SQLite INTEGER";
    # PostgreSQL: "DataError: integer out of range" (or numeric field overflow).
    return any(words in reason for words in ("too large", "out of range", "overflow"))


def test_a_record_whose_result_overflows_is_marked_with_its_reason_and_the_others_are_scored(eager, client):
    before = result_game({"Ada": 7, "Bo": 9}, date(2026, 3, 1))
    bad = overflowing_record()
    after = play(2, 7)
    for record in (before, bad, after):
        tasks.score_record(record.pk)  # what finishing queues; a record's failure is not raised

    assert ScoredRecord.objects.filter(pk__in=[before.pk, after.pk]).count() == 2
    assert stored(after) == engine_scores(2, 7)
    assert not SeatResult.objects.filter(record=bad).exists() and not ScoredRecord.objects.filter(pk=bad.pk).exists()
    found = mark(bad)
    assert found is not None and found.attempts == 1 and found.retrying and overflow_reason(found.reason)

    answer = client.get(f"/api/records/{bad.pk}/scoring/").json()
    assert answer["status"] == "unscorable" and answer["scored_at"] is None
    assert answer["unscorable"]["reason"] == found.reason
    assert (answer["unscorable"]["attempts"], answer["unscorable"]["max_attempts"]) == (1, 5)
    assert answer["unscorable"]["retrying"] is True
    good = client.get(f"/api/records/{after.pk}/scoring/").json()
    assert good["status"] == "scored" and good["unscorable"] is None and good["scored_at"]


def test_the_sweep_stops_trying_a_record_after_the_configured_attempts(eager, settings):
    settings.LUDOLOG_SCORING_MAX_ATTEMPTS = 3
    settings.LUDOLOG_SWEEP_GRACE_SECONDS = 0
    bad = overflowing_record()
    good = result_game({"Ada": 4, "Bo": 2}, date(2026, 3, 2))
    assert tasks.sweep() == [bad.pk, good.pk]  # eager: each queued task runs at once
    assert ScoredRecord.objects.filter(pk=good.pk).exists() and mark(bad).attempts == 1
    assert tasks.sweep() == [bad.pk]
    assert tasks.sweep() == [bad.pk]
    assert mark(bad).attempts == 3 and not mark(bad).retrying
    assert tasks.sweep() == []  # given up on: left for a recomputation
    assert tasks.sweep() == []
    assert mark(bad).attempts == 3


def test_a_transient_failure_is_retried_and_not_counted_against_the_record(eager, monkeypatch):
    from celery.exceptions import Retry
    from django.db import OperationalError

    record = result_game({"Ada": 1, "Bo": 2}, date(2026, 3, 3))

    def database_away(records):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(services, "write_summaries", database_away)
    with pytest.raises(Retry, match="server closed the connection"):  # retried with backoff
        tasks.score_record.apply((record.pk,), throw=True)
    assert mark(record) is None


def test_a_recompute_finishes_the_others_names_the_unscorable_and_scores_them_once_fixed(eager, monkeypatch, client):
    replayed = play(4, 31)
    refused = play(2, 32)
    results = [result_game({"Ada": n, "Bo": 10 - n}, date(2026, 4, n + 1)) for n in range(3)]
    overflow = overflowing_record(date(2026, 4, 9))
    engine_refuses(monkeypatch, refused)

    out = StringIO()
    call_command("recompute", "--chunk-size", "2", stdout=out)
    text = out.getvalue()
    run = RecomputeRun.objects.get()
    assert (run.status, run.done, run.total) == ("finished", 6, 6)
    assert "2 records could not be scored" in text
    assert f"record {refused.pk}: RuntimeError: the engine cannot replay record {refused.pk}" in text
    assert sorted(run.unscorable()) == [refused.pk, overflow.pk] and overflow_reason(run.unscorable()[overflow.pk])
    assert stored(replayed) == engine_scores(4, 31)
    assert ScoredRecord.objects.filter(pk__in=[r.pk for r in results]).count() == 3
    assert mark(refused).reason == f"RuntimeError: the engine cannot replay record {refused.pk}"
    assert mark(overflow) is not None

    staff = User.objects.create_superuser("boss", password="pw")
    client.force_login(staff)
    status = client.get(f"/api/recompute/{run.pk}/status/").json()
    assert status["status"] == "finished" and status["resumable"] is False
    assert [line["record"] for line in status["unscorable"]] == [refused.pk, overflow.pk]
    page = client.get(f"/admin/scoring/recomputerun/{run.pk}/change/").content.decode()
    assert f"record {refused.pk}</a>: RuntimeError: the engine cannot replay" in page
    listing = client.get("/admin/scoring/unscorablerecord/").content.decode()
    assert "the engine cannot replay" in listing

    monkeypatch.undo()  # the engine is fixed
    out = StringIO()
    call_command("recompute", stdout=out)
    assert "1 records could not be scored" in out.getvalue()  # the overflow is still in the events
    assert f"record {refused.pk}:" not in out.getvalue()
    assert stored(refused) == engine_scores(2, 32)
    assert mark(refused) is None and mark(overflow).attempts == 2
    assert list(RecomputeRun.objects.order_by("pk").values_list("status", flat=True)) == ["finished", "finished"]


def test_rebuilding_every_projection_sets_a_record_it_cannot_score_aside(eager, monkeypatch):
    """rebuild_projections, like a recompute, scores the others and marks the one it cannot."""
    good = play(2, 7)
    refused = play(2, 8)
    bad = overflowing_record()
    for record in (good, refused):
        tasks.score_record(record.pk)
    engine_refuses(monkeypatch, refused)
    out = StringIO()
    call_command("rebuild_projections", stdout=out)
    assert stored(good) == engine_scores(2, 7)
    assert not SeatResult.objects.filter(record__in=[refused, bad]).exists()
    assert "cannot replay" in mark(refused).reason and overflow_reason(mark(bad).reason)
    assert mark(good) is None
