"""Long records cost what short ones do: the replay page lists a window
of events around the step shown, its chart is thinned, the events API is paginated, and a record
file longer than the cap is refused."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from rest_framework.test import APIClient

from records.files import RecordFileError, import_document
from tests.factories import simulated_document
from ludolog.web.replay import CHART_POINTS, EVENT_WINDOW

pytestmark = pytest.mark.django_db


def long_document(events: int) -> dict:
    """A legal record of ``events`` events: the first tile laid, taken back, laid again…"""
    document = simulated_document("carcassonne", 2, 3)
    first = document["events"][0]
    document["events"] = [
        {"seq": seq, "type": "undo" if seq % 2 == 0 else first["type"], "payload": {} if seq % 2 == 0 else first["payload"]}
        for seq in range(1, events + 1)
    ]
    document["final_scores"] = None
    return document


def test_the_replay_page_of_a_long_record_lists_a_window_of_events(client: Client, django_assert_max_num_queries):
    record = import_document(long_document(2001))
    page = client.get(f"/games/{record.pk}/replay/?at=1000")
    assert page.status_code == 200
    html = page.content.decode()
    listed = [int(seq) for seq in re.findall(r'<li value="\d+" data-seq="(\d+)"', html)]
    assert listed == list(range(1000 - EVENT_WINDOW, 1000 + EVENT_WINDOW + 1))
    earlier, later = 1000 - 2 * EVENT_WINDOW - 1, 1000 + 2 * EVENT_WINDOW + 1
    assert f'href="?at={earlier}"' in html and f'href="?at={later}"' in html, "links to earlier and later events"
    chart = re.search(r'<script id="score-chart-data" type="application/json">(.*?)</script>', html, re.S)[1]
    assert chart.count("],[") < 2 * (CHART_POINTS + 2), "the chart is thinned"
    # Taken-back actions are marked although their undos are read from outside the window.
    assert html.count("<del") == EVENT_WINDOW
    with django_assert_max_num_queries(20):
        assert client.get(f"/games/{record.pk}/replay/?at=2000").status_code == 200


def test_the_events_api_of_a_long_record_is_a_page(client: Client):
    record = import_document(long_document(701))
    body = APIClient().get(f"/api/records/{record.pk}/events/").json()
    assert body["count"] == 701 and len(body["results"]) == 100
    assert body["results"][0]["retracted_by"] == 2


def test_a_record_file_longer_than_the_cap_is_refused(settings):
    settings.LUDOLOG_MAX_EVENTS_PER_RECORD = 100
    with pytest.raises(RecordFileError) as refused:
        import_document(long_document(101))
    assert refused.value.reason == "record_full" and refused.value.status_code == 413
    import_document(long_document(99))


def test_the_game_page_of_a_long_record_lists_its_events_a_page_at_a_time(client: Client):
    record = import_document(long_document(701))
    html = client.get(f"/games/{record.pk}/").content.decode()
    assert len(re.findall(r'<li value="\d+" data-seq=', html)) == 200
    assert "Page 1 of 4" in html
    last = client.get(f"/games/{record.pk}/?page=4").content.decode()
    assert re.findall(r'<li value="\d+" data-seq="(\d+)"', last)[-1] == "701"
    assert last.count("<del") == 50, "the odd events of the page were taken back by the next undo"
