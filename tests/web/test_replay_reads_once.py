"""A replay page replays its game once (issue 34): on a cold cache every event of the record goes
through the engine once, in order, whatever the page shows of it (the position at the step, the
events listed around it in words, the score chart, the final scoring); on a warm cache none does.
The engine's ``apply`` and ``undo`` are watched for each of the four games."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from games.registry import get_engine
from records.files import import_document
from records.models import Event, GameRecord
from ludolog.web.replay import EVENT_WINDOW
from tests.factories import simulated_document

pytestmark = pytest.mark.django_db

GAMES = ["hunters-gatherers", "stone-age", "carcassonne", "carcassonne-maps"]

Applied = list[tuple[str, Any]]


@pytest.fixture
def applied(monkeypatch: pytest.MonkeyPatch) -> Iterator[Applied]:
    """Every event the engines are handed from now on, as ``(type, payload)``, in order."""
    seen: Applied = []
    for slug in GAMES:
        engine = get_engine(slug)

        def apply(state: Any, event_type: str, payload: Any, *, validate: bool = True, _apply=engine.apply) -> Any:
            seen.append((event_type, payload))
            return _apply(state, event_type, payload, validate=validate)

        def undo(state: Any, _undo=engine.undo) -> None:
            seen.append(("undo", {}))
            _undo(state)

        monkeypatch.setattr(engine, "apply", apply)
        monkeypatch.setattr(engine, "undo", undo)
    yield seen


@pytest.fixture(params=GAMES)
def finished(request: pytest.FixtureRequest) -> tuple[GameRecord, Applied]:
    """A finished game of each engine, and its events as the store holds them."""
    record = import_document(simulated_document(request.param, 2, 5))
    record.refresh_from_db()
    assert record.status == GameRecord.Status.FINISHED
    events = list(Event.objects.filter(record=record).order_by("seq").values_list("type", "payload"))
    return record, events


def page(client: Client, record: GameRecord, query: str) -> str:
    response = client.get(f"/games/{record.pk}/replay/{query}")
    assert response.status_code == 200
    return response.content.decode()


def test_the_page_in_the_middle_of_a_game_replays_it_once_and_then_not_at_all(client: Client, finished, applied):
    record, events = finished
    middle = len(events) // 2
    cache.clear()

    html = page(client, record, f"?at={middle}")

    assert applied == events, "each event applied once, in order, from the first position"
    assert f'data-at="{middle}"' in html and 'id="final-heading"' in html and "score-chart-data" in html
    applied.clear()
    page(client, record, f"?at={middle}")
    assert applied == [], "a warm cache replays nothing"


def test_the_page_at_the_end_of_a_game_replays_it_once_and_then_not_at_all(client: Client, finished, applied):
    record, events = finished
    cache.clear()

    html = page(client, record, f"?at={len(events)}&show=award-0")

    assert applied == events
    assert f'data-at="{len(events)}"' in html and 'id="final-heading"' in html
    applied.clear()
    page(client, record, f"?at={len(events)}")
    assert applied == []


def test_another_step_replays_only_from_a_snapshot(client: Client, finished, applied, settings):
    record, events = finished
    cache.clear()
    page(client, record, "")
    applied.clear()

    page(client, record, f"?at={len(events) - 1}")

    # The scores over the game and the words of the events listed at the start are kept: the
    # pass runs from the snapshot before the first position still wanted to the last one.
    starts = [start for start in range(1, len(events)) if events[start:start + len(applied)] == applied]
    assert any(start % settings.LUDOLOG_SNAPSHOT_EVERY == 0 for start in starts), \
        "one run of consecutive events, each once, from a snapshot"


def test_the_list_the_viewer_fetches_replays_only_the_events_it_says(client: Client, finished, applied):
    record, events = finished
    at = len(events) // 2
    cache.clear()

    response = client.get(f"/games/{record.pk}/replay/?at={at}&part=events&last={len(events)}")

    assert response.status_code == 200
    final = min(len(events), max(1, min(at - EVENT_WINDOW, len(events) - 2 * EVENT_WINDOW)) + 2 * EVENT_WINDOW)
    start = final - len(applied)
    assert applied == events[start:final], "one run of consecutive events, each once, to the last listed"
    applied.clear()
    client.get(f"/games/{record.pk}/replay/?at={at}&part=events&last={len(events)}")
    assert applied == [], "the words of the list are kept"
