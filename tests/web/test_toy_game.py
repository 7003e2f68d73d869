"""A game the shared pages have never heard of gets every page: Pebbles (``tests/toy_game``),
registered by the tests alone, is started from the start page, recorded on the table recorder,
replayed step by step with its narration and its final scoring explained, and listed with its
results; no shared file names it."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.test import Client

from records.models import GameRecord
from scoring import tasks
from tests.toy_game import SLUG, registered

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def pebbles() -> Iterator[None]:
    with registered():
        yield


def page_data(html: str) -> dict:
    found = re.search(r'<script id="recorder-data" type="application/json">(.*?)</script>', html, re.S)
    assert found, "the recorder page embeds its data"
    return json.loads(found[1])


def start(client: Client) -> GameRecord:
    response = client.post("/scorekeeping/", {
        "game": SLUG, "seat_1": "Ada", "seat_2": "Bo", "new_1": "Ada", "new_2": "Bo", "played_on": "2026-12-04",
    })
    assert response.status_code == 302, response.content.decode()[:2000]
    record = GameRecord.objects.get(game_slug=SLUG)
    assert response["Location"] == f"/scorekeeping/{record.pk}/"
    return record


def take(client: Client, record: GameRecord, seq: int, count: int) -> dict:
    response = client.post(f"/scorekeeping/{record.pk}/table/", json.dumps(
        {"expected_seq": seq, "type": "take", "payload": {"count": count}, "idempotency_key": f"k{seq}"}),
        content_type="application/json")
    assert response.status_code == 201, response.content
    return response.json()["table"]


def test_the_start_page_offers_the_toy_game_and_starts_it(pebbles, keeper_client):
    html = keeper_client.get("/scorekeeping/").content.decode()
    assert f'value="{SLUG}"' in html and "Pebbles" in html
    record = start(keeper_client)
    assert [seat.player.display_name for seat in record.seats.order_by("seat_order")] == ["Ada", "Bo"]
    assert record.ruleset_version == "pebbles@1"


def test_the_recorder_offers_the_engines_choices_and_records_them(pebbles, keeper_client):
    record = start(keeper_client)
    response = keeper_client.get(f"/scorekeeping/{record.pk}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "ludolog/recorder-choices.js" in html and 'class="recorder choices-game"' in html
    data = page_data(html)
    assert data["words"]["choice:take 2"] == "Take 2" and data["words"]["confirm"] == "Confirm"
    choices = data["table"]["options"]["choices"]
    assert [(c["type"], c["payload"], c["notation"]) for c in choices] == [
        ("take", {"count": 1}, "take 1"), ("take", {"count": 2}, "take 2")]
    assert data["table"]["board"].count('class="pebble"') == 7 and "Ada to play" in html
    table = take(keeper_client, record, 0, 2)
    assert table["seq"] == 1 and table["to_play"] == 1
    assert table["lines"][-1]["text"] == "Ada takes 2 pebbles"
    assert [seat["total"] for seat in table["seats"]] == [2, 0]
    # The engine's refusal comes back with its reason, and nothing is stored.
    refused = keeper_client.post(f"/scorekeeping/{record.pk}/table/", json.dumps(
        {"expected_seq": 1, "type": "take", "payload": {"count": 2, "seat": 0}}), content_type="application/json")
    assert refused.status_code == 422 and refused.json()["reason"] == "not_your_turn"
    assert record.events.count() == 1


def test_a_finished_toy_game_is_replayed_narrated_and_explained(pebbles, keeper_client):
    record = start(keeper_client)
    for seq, count in enumerate((2, 2, 2, 1)):
        table = take(keeper_client, record, seq, count)
    assert table["over"] and table["options"] == {"over": True}
    # At the table the last move waits for the scorekeeper's confirmation (it could still be taken back).
    assert table["awaiting_end"] and table["status"] == GameRecord.Status.IN_PROGRESS
    ended = keeper_client.post(f"/scorekeeping/{record.pk}/table/", json.dumps(
        {"expected_seq": 4, "type": "end_game", "payload": {"reason": "complete"}}), content_type="application/json")
    assert ended.status_code == 201 and ended.json()["table"]["ending"]["winners"] == ["Bo"]
    record.refresh_from_db()
    assert record.status == GameRecord.Status.FINISHED
    # Every step of the replay: the board drawn by the toy game's module, the step in words.
    for at, pile in ((0, 7), (1, 5), (4, 0)):
        html = keeper_client.get(f"/games/{record.pk}/replay/?at={at}").content.decode()
        assert html.count('class="pebble"') == pile
    html = keeper_client.get(f"/games/{record.pk}/replay/?at=4").content.decode()
    assert 'data-text-start="A pile of seven pebbles."' in html and "The last pebble scores three more." in html
    words = " ".join(re.sub(r"<[^>]+>", " ", html).split())
    assert "Ada takes 2 pebbles" in words and "Bo takes 1 pebble" in words and "The last pebble: Bo +3" in words
    # The final scoring, player by player: Bo's last pebble on top of the 4 and 3 pebbles taken.
    final = html.split('id="final-scoring"')[1].split("</section>")[0]
    assert "The final scoring, player by player" in final and "The last pebble" in final
    sums = re.findall(r'<tr data-seat="(\d)"><th scope="row">.*?</th><td class="number">(\d+)</td>'
                      r'<td class="number">(.*?)</td><td class="number total">(\d+)</td>', final, re.S)
    assert sums == [("0", "4", "+0", "4"), ("1", "3", "+3", "6")]
    board = keeper_client.get(f"/games/{record.pk}/replay/board/?at=2")
    assert board.status_code == 200 and board.content.decode().count('class="pebble"') == 3
    tasks.score_record(record.pk)  # what the worker does once the finish is committed
    detail = keeper_client.get(f"/games/{record.pk}/").content.decode()
    assert "Pebbles taken" in detail and "The last pebble" in detail  # the game's points by source
    assert "take 2" in detail  # the event list in the game's notation


def test_no_shared_file_names_the_toy_game():
    named = []
    for folder in ("ludolog", "games", "records", "scoring", "templates", "locale"):
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and path.suffix in {".py", ".html", ".js", ".css", ".json", ".po", ".txt"}:
                if re.search(r"pebble", path.read_text(encoding="utf-8", errors="replace"), re.I):
                    named.append(str(path.relative_to(ROOT)))
    assert named == []
