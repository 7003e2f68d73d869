"""GET /api/schema/ answers the same schema to requests that arrive together on a threaded server:
drf-spectacular's generator keeps state of its own while it runs and is not safe to run in two
threads of one process at once (it answered 500 now and then under load)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest

CLIENTS = 8
ROUNDS = 3


def fetch(url: str, language: str = "en") -> tuple[int, bytes]:
    request = urllib.request.Request(url, headers={"Accept-Language": language})
    try:
        with urllib.request.urlopen(request, timeout=120) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


@pytest.mark.slow(seconds=20)
@pytest.mark.django_db(transaction=True)
def test_concurrent_schema_requests_all_get_the_schema(live_server):
    url = f"{live_server.url}/api/schema/?format=json"
    answers = []
    with ThreadPoolExecutor(CLIENTS) as pool:
        for _round in range(ROUNDS):
            answers += pool.map(fetch, [url] * CLIENTS)
    statuses = [status for status, _body in answers]
    assert statuses.count(200) == len(answers), f"{sum(s >= 500 for s in statuses)} × 5xx: {sorted(statuses)}"
    bodies = {body for _status, body in answers}
    assert len(bodies) == 1, "every answer the same schema"
    schema = json.loads(bodies.pop())
    assert schema["info"]["title"] == "Ludolog API" and "/api/records/{id}/events/" in schema["paths"]


@pytest.mark.django_db(transaction=True)
def test_the_schema_is_still_said_in_the_readers_language(live_server):
    url = f"{live_server.url}/api/schema/?format=json"
    with ThreadPoolExecutor(4) as pool:
        english, french, english_again, french_again = pool.map(fetch, [url] * 4, ["en", "fr", "en", "fr"])
    assert english == english_again and french == french_again and english[0] == french[0] == 200
    assert english[1] != french[1]
